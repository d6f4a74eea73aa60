#include "datapipelines/cli/datasource_commands.hpp"

#include <iostream>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/pipelines/pipeline_service.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/pipeline_store.hpp"

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
  grant_ = group->add_subcommand("grant", "Grant a datasource to a workspace (idempotent)");
  grant_->add_option("--name", name_, "Datasource name")->required();
  grant_->add_option("--workspace", workspace_, "Workspace name")->required();
  grant_->add_flag("--json", json_, "Print JSON");
  ungrant_ = group->add_subcommand("ungrant", "Remove a workspace's grant on a datasource");
  ungrant_->add_option("--name", name_, "Datasource name")->required();
  ungrant_->add_option("--workspace", workspace_, "Workspace name")->required();
  ungrant_->add_flag("--json", json_, "Print JSON");
  test_ = group->add_subcommand("test", "Test a datasource's connection (granted or not)");
  test_->add_option("--name", name_, "Datasource name")->required();
  test_->add_flag("--json", json_, "Print JSON");
  restore_ = group->add_subcommand("restore", "Restore a deleted datasource (name, grants)");
  restore_->add_option("--name", name_, "Datasource name")->required();
  restore_->add_flag("--json", json_, "Print JSON");
  purge_ = group->add_subcommand(
      "purge", "Delete a deleted datasource for good when no pipeline names it (frees the name)");
  purge_->add_option("--name", name_, "Datasource name")->required();
  purge_->add_flag("--json", json_, "Print JSON");
}

int DatasourceCommands::Run(const Config& config) {
  auto store = OpenMetadataStore(config.EffectiveMetadataUrl());
  store->Migrate();
  AuditLog audit(store->Audit());
  // delete-for-good refuses a name a pipeline still uses, as the server does.
  std::unique_ptr<PipelineStore> pipelines = OpenPipelineStore(*store);
  DatasourceServicePorts ports;
  ports.users_of = [&pipelines](const std::string& name) {
    return PipelineService::PipelinesUsingDatasource(*pipelines, name);
  };
  DatasourceService service(
      store->Datasources(), store->Workspaces(), audit,
      SecretBox::FromConfigOrKeyFile(config.encryption_key, config.data_dir + "/encryption.key",
                                     !config.IsProductionMode()),
      DatasourceServiceOptions{}, std::move(ports));
  try {
    Json out;
    if (list_->parsed()) {
      out = service.ListAllForOperator();
    } else if (grant_->parsed()) {
      out = service.GrantAsOperator(name_, workspace_);
    } else if (ungrant_->parsed()) {
      service.RevokeAsOperator(name_, workspace_);
      out = Json{{"datasource", name_}, {"workspace", workspace_}, {"ungranted", true}};
    } else if (test_->parsed()) {
      out = service.TestAsOperator(name_);
      out["datasource"] = name_;
    } else if (restore_->parsed()) {
      out = service.RestoreAsOperator(name_);
    } else if (purge_->parsed()) {
      service.PurgeAsOperator(name_);
      out = Json{{"datasource", name_}, {"purged", true}};
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
    } else if (grant_->parsed()) {
      std::cout << "datasource " << name_ << " grants=" << out["grants"].dump() << "\n";
    } else if (ungrant_->parsed()) {
      std::cout << "datasource " << name_ << " no longer granted to " << workspace_ << "\n";
    } else if (test_->parsed()) {
      std::cout << "datasource " << name_ << ": " << out.dump() << "\n";
      return out.value("connected", false) ? 0 : 1;
    } else if (restore_->parsed()) {
      std::cout << "restored datasource " << name_ << "\n";
    } else if (purge_->parsed()) {
      std::cout << "datasource " << name_ << " deleted for good; the name is free\n";
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
