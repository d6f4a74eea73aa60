#include "datapipelines/cli/datasource_commands.hpp"

#include <iostream>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/service/audit_log.hpp"
#include "datapipelines/service/datasource_service.hpp"
#include "datapipelines/store/metadata_store.hpp"

namespace dp::cli {

DatasourceCommands::DatasourceCommands(CLI::App& app) {
  auto* group = app.add_subcommand("datasources", "Manage the datasource registry (operators)");
  group->require_subcommand(1);
  list_ = group->add_subcommand("list", "List registered datasources and their grants");
  list_->add_flag("--json", json_, "Print JSON");
  add_ = group->add_subcommand("add", "Register an instance-level datasource");
  add_->add_option("--name", name_)->required();
  add_->add_option("--display-name", display_name_);
  add_->add_option("--description", description_);
  add_->add_option("--dialect", dialect_, "POSTGRES | MYSQL | SQLITE")->required();
  add_->add_option("--jdbc-url", jdbc_url_, "jdbc:postgresql://host:5432/db, jdbc:sqlite:/path")
      ->required();
  add_->add_option("--username", username_);
  add_->add_flag("--password-stdin", password_stdin_,
                 "Read the password from the first stdin line");
  add_->add_flag("--readonly", readonly_, "Mark the datasource readonly");
  add_->add_option("--grant", grants_, "Workspace to grant it to (repeatable)");
  add_->add_flag("--json", json_, "Print JSON");
}

int DatasourceCommands::Run(const Config& config) {
  auto store = OpenMetadataStore(config.EffectiveMetadataUrl());
  store->Migrate();
  AuditLog audit(*store);
  DatasourceService service(
      *store, audit,
      SecretBox::FromConfigOrKeyFile(config.encryption_key, config.data_dir + "/encryption.key",
                                     !config.IsProductionMode()));
  try {
    Json out;
    if (list_->parsed()) {
      out = service.ListAllForOperator();
    } else {
      Json body{{"name", name_},
                {"display_name", display_name_.empty() ? name_ : display_name_},
                {"dialect", dialect_},
                {"jdbc_url", jdbc_url_},
                {"readonly", readonly_}};
      if (!description_.empty()) body["description"] = description_;
      if (!username_.empty()) body["username"] = username_;
      if (password_stdin_) {
        std::string password;
        std::getline(std::cin, password);
        body["password"] = password;
      }
      out = service.CreateAsOperator(body, grants_);
    }
    if (json_) {
      std::cout << out.dump(2) << "\n";
    } else if (out.is_array()) {
      for (const auto& ds : out) {
        std::cout << ds["name"].get<std::string>() << "\t" << ds["dialect"].get<std::string>()
                  << "\t" << ds["jdbc_url"].get<std::string>() << "\tgrants=" << ds["grants"].dump()
                  << "\n";
      }
    } else {
      std::cout << "registered datasource " << out["name"].get<std::string>() << "\n";
    }
    return 0;
  } catch (const DomainError& error) {
    std::cerr << error.code().code << ": " << error.what() << "\n";
    if (error.details().is_object() && error.details().contains("errors")) {
      std::cerr << error.details()["errors"].dump(2) << "\n";
    }
    return 1;
  }
}

}  // namespace dp::cli
