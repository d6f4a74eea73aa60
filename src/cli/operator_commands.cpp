#include "datapipelines/cli/operator_commands.hpp"

#include <filesystem>
#include <iostream>
#include <map>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/identity/account_rules.hpp"
#include "datapipelines/service/identity/api_key_view.hpp"
#include "datapipelines/service/identity/auth_service.hpp"
#include "datapipelines/service/identity/workspace_admin_service.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/json.hpp"

namespace dp::cli {
namespace {

// The store and services an operator verb needs, without the HTTP server.
struct OperatorContext {
  std::unique_ptr<MetadataStore> store;
  std::unique_ptr<AuditLog> audit;
  std::unique_ptr<AuthService> auth;

  explicit OperatorContext(const Config& config) {
    std::filesystem::create_directories(config.data_dir);
    store = OpenMetadataStore(config.EffectiveMetadataUrl());
    store->Migrate();
    audit = std::make_unique<AuditLog>(store->Audit());
    auth = std::make_unique<AuthService>(store->Users(), store->Workspaces(), store->Credentials(),
                                         *audit);
  }
};

Json IssuedJson(const IssuedApiKey& issued) {
  Json out = ApiKeyView(issued.record);
  out["workspace"] = issued.workspace_name;
  out["api_key"] = issued.plaintext;
  return out;
}

// Prints a JSON value, or a readable table-ish text rendering of it.
void Print(const Json& value, bool json) {
  if (json) {
    std::cout << value.dump(2) << "\n";
    return;
  }
  auto print_object = [](const Json& object) {
    std::string line;
    for (const auto& [key, field] : object.items()) {
      if (!line.empty()) line += "  ";
      line += key + "=" + (field.is_string() ? field.get<std::string>() : field.dump());
    }
    std::cout << line << "\n";
  };
  if (value.is_array()) {
    for (const auto& item : value) print_object(item);
  } else {
    print_object(value);
  }
}

std::optional<int64_t> ParseExpiry(const std::string& text) {
  if (text.empty()) return std::nullopt;
  auto ms = ParseIso8601Utc(text);
  if (!ms) throw std::runtime_error("--expires-at must look like 2026-12-31T00:00:00Z");
  return ms;
}

template <typename T>
T Require(std::optional<T> value, const std::string& what) {
  if (!value) throw std::runtime_error("invalid " + what);
  return *value;
}

}  // namespace

int Migrate(const Config& config) {
  std::filesystem::create_directories(config.data_dir);
  return OpenMetadataStore(config.EffectiveMetadataUrl())->Migrate();
}

OperatorCommands::OperatorCommands(CLI::App& app) {
  Options& o = options_;
  auto json_flag = [&o](CLI::App* command) {
    command->add_flag("--json", o.json, "Machine-readable JSON output");
  };

  bootstrap_ = app.add_subcommand(
      "bootstrap", "Create the first admin, a workspace and an author key if absent (idempotent)");
  bootstrap_->add_option("--admin-email", o.email, "Admin e-mail")->required();
  bootstrap_->add_option("--admin-password", o.password, "Admin password (default: generated)");
  bootstrap_->add_option("--workspace", o.workspace, "Workspace name")->default_val("default");
  bootstrap_->add_option("--key-name", o.name, "Name of the admin's API key")
      ->default_val("bootstrap");
  json_flag(bootstrap_);

  auto* users = app.add_subcommand("users", "Manage users");
  users->require_subcommand(1);
  users_create_ = users->add_subcommand("create", "Create a local user");
  users_create_->add_option("--email", o.email)->required();
  users_create_->add_option("--name", o.display_name, "Display name");
  users_create_->add_option("--password", o.password,
                            "Password (prefer --password-stdin; default: a generated one-time "
                            "password, printed once)");
  users_create_->add_flag("--password-stdin", o.password_stdin, "Read the password from stdin");
  users_create_->add_flag("--super-admin", o.super_admin, "Instance super_admin");
  json_flag(users_create_);
  users_list_ = users->add_subcommand("list", "List users");
  json_flag(users_list_);
  users_deactivate_ = users->add_subcommand("deactivate", "Deactivate a user (keys stop working)");
  users_deactivate_->add_option("--email", o.email)->required();
  json_flag(users_deactivate_);
  users_activate_ = users->add_subcommand("activate", "Reactivate a user");
  users_activate_->add_option("--email", o.email)->required();
  json_flag(users_activate_);
  users_set_password_ = users->add_subcommand(
      "set-password", "Set a user's password (generated and printed once when none is given)");
  users_set_password_->add_option("--email", o.email)->required();
  users_set_password_->add_option("--password", o.password, "Password (prefer --password-stdin)");
  users_set_password_->add_flag("--password-stdin", o.password_stdin,
                                "Read the password from stdin");
  json_flag(users_set_password_);

  auto* workspaces = app.add_subcommand("workspaces", "Manage workspaces");
  workspaces->require_subcommand(1);
  workspaces_create_ = workspaces->add_subcommand("create", "Create a workspace");
  workspaces_create_->add_option("--name", o.workspace)->required();
  workspaces_create_->add_option("--display-name", o.display_name);
  workspaces_create_->add_option("--owner-email", o.email,
                                 "Creator, who becomes its admin (default: none; add members "
                                 "with `members set`)");
  json_flag(workspaces_create_);
  workspaces_list_ = workspaces->add_subcommand("list", "List workspaces");
  json_flag(workspaces_list_);

  auto* members = app.add_subcommand("members", "Manage workspace memberships");
  members->require_subcommand(1);
  members_set_ = members->add_subcommand("set", "Add a member or replace their flags");
  members_set_->add_option("--workspace", o.workspace)->required();
  members_set_->add_option("--email", o.email)->required();
  // --role is the old spelling: its roles (operator, ws_admin) name the flags they became.
  members_set_
      ->add_option("--flags,--role", o.role,
                   "viewer, or any of author,promoter,admin (comma-separated)")
      ->required();
  json_flag(members_set_);
  members_remove_ = members->add_subcommand("remove", "Remove a member");
  members_remove_->add_option("--workspace", o.workspace)->required();
  members_remove_->add_option("--email", o.email)->required();
  json_flag(members_remove_);
  members_list_ = members->add_subcommand("list", "List a workspace's members");
  members_list_->add_option("--workspace", o.workspace)->required();
  json_flag(members_list_);

  auto* keys = app.add_subcommand("keys", "Manage API keys");
  keys->require_subcommand(1);
  keys_create_ = keys->add_subcommand("create", "Issue an API key (printed once)");
  keys_create_->add_option("--email", o.email, "Issuer (the key's owner)")->required();
  keys_create_->add_option("--workspace", o.workspace, "Pinned workspace")->required();
  keys_create_->add_option("--name", o.name)->required();
  keys_create_->add_option("--scope", o.scope, "read | execute | author")->default_val("read");
  keys_create_->add_option("--kind", o.kind, "user | endpoint | server")->default_val("user");
  keys_create_->add_option("--expires-at", o.expires_at, "e.g. 2026-12-31T00:00:00Z");
  json_flag(keys_create_);
  keys_list_ = keys->add_subcommand("list", "List API keys (never their secrets)");
  json_flag(keys_list_);
  keys_revoke_ = keys->add_subcommand("revoke", "Revoke an API key");
  keys_revoke_->add_option("--id", o.key_id, "dpk_… id")->required();
  json_flag(keys_revoke_);
  keys_revoke_all_ = keys->add_subcommand(
      "revoke-all", "Revoke every live API key of a user (keys minted by keys included)");
  keys_revoke_all_->add_option("--user-email", o.email, "The keys' owner")->required();
  json_flag(keys_revoke_all_);

  audit_ = app.add_subcommand("audit", "Read the audit log, newest first");
  audit_->add_option("--since", o.since, "ISO-8601 UTC instant, or a span back: 90s, 15m, 24h, 7d")
      ->default_val("24h");
  audit_->add_option("--event", o.event, "Only events starting with this (e.g. rest.write)");
  audit_->add_option("--limit", o.limit, "At most this many rows")
      ->default_val(100)
      ->check(CLI::Range(1, 10000));
  json_flag(audit_);
}

int OperatorCommands::Run(const Config& config) {
  Options& o = options_;
  try {
    OperatorContext context(config);
    AuthService& auth = *context.auth;
    if (bootstrap_->parsed()) {
      BootstrapResult result =
          auth.accounts().Bootstrap(BootstrapRequest{o.email, o.password, o.workspace, o.name});
      Json out = {{"created_user", result.created_user},
                  {"created_workspace", result.created_workspace},
                  {"created_membership", result.created_membership},
                  {"created_key", result.created_key},
                  {"user_id", result.user_id},
                  {"workspace_id", result.workspace_id}};
      if (!result.generated_password.empty()) out["admin_password"] = result.generated_password;
      if (result.key) out["key"] = IssuedJson(*result.key);
      Print(out, o.json);
    } else if (users_create_->parsed()) {
      if (o.password_stdin) std::getline(std::cin, o.password);
      // No password given: a generated one-time password, printed once; the first sign-in
      // replaces it. An operator's own password is theirs and is kept.
      const bool generated = o.password.empty();
      const std::string password =
          generated ? AccountAdministration::NewOneTimePassword() : o.password;
      Json out = UserView(auth.accounts().CreateUser(
          o.email, o.display_name.empty() ? o.email : o.display_name, password, o.super_admin, "",
          /*one_time=*/generated));
      if (generated) out["one_time_password"] = password;
      Print(out, o.json);
    } else if (users_list_->parsed()) {
      Json out = Json::array();
      for (const auto& user : auth.accounts().ListUsers()) out.push_back(UserView(user));
      Print(out, o.json);
    } else if (users_deactivate_->parsed() || users_activate_->parsed()) {
      bool active = users_activate_->parsed();
      auth.accounts().SetUserActive(o.email, active);
      Print(Json{{"email", o.email}, {"active", active}}, o.json);
    } else if (users_set_password_->parsed()) {
      if (o.password_stdin) std::getline(std::cin, o.password);
      std::string generated = auth.accounts().SetPassword(o.email, o.password);
      Json out{{"email", o.email}, {"password_set", true}};
      if (!generated.empty()) out["password"] = generated;  // shown once, never stored
      Print(out, o.json);
    } else if (workspaces_create_->parsed()) {
      Print(WorkspaceView(auth.accounts().CreateWorkspace(
                o.workspace, o.display_name.empty() ? o.workspace : o.display_name, o.email)),
            o.json);
    } else if (workspaces_list_->parsed()) {
      Json out = Json::array();
      for (const auto& ws : auth.accounts().ListWorkspaces()) out.push_back(WorkspaceView(ws));
      Print(out, o.json);
    } else if (members_set_->parsed()) {
      MemberFlags flags =
          Require(ParseFlags(o.role), "--flags (viewer, or any of author,promoter,admin)");
      auth.accounts().SetMembership(o.workspace, o.email, flags);
      Print(Json{{"workspace", o.workspace}, {"email", o.email}, {"flags", FlagsJson(flags)}},
            o.json);
    } else if (members_remove_->parsed()) {
      bool removed = auth.accounts().RemoveMembership(o.workspace, o.email);
      Print(Json{{"workspace", o.workspace}, {"email", o.email}, {"removed", removed}}, o.json);
    } else if (members_list_->parsed()) {
      Json out = Json::array();
      for (const auto& m : auth.accounts().ListMembers(o.workspace)) {
        out.push_back({{"user_id", m.user_id},
                       {"email", m.email},
                       {"flags", FlagsJson(m.flags)},
                       {"joined_at", FormatIso8601Ms(m.joined_at_ms)}});
      }
      Print(out, o.json);
    } else if (keys_create_->parsed()) {
      Scope scope = Require(ParseScope(o.scope), "--scope (read | execute | author)");
      KeyKind kind = Require(ParseKeyKind(o.kind), "--kind (user | endpoint | server)");
      Print(IssuedJson(auth.keys().CreateApiKeyFor(o.email, o.workspace, o.name, scope, kind,
                                                   ParseExpiry(o.expires_at))),
            o.json);
    } else if (keys_list_->parsed()) {
      Json out = Json::array();
      std::map<std::string, std::string> emails, workspaces;
      for (const auto& user : auth.accounts().ListUsers()) emails[user.id] = user.email;
      for (const auto& ws : auth.accounts().ListWorkspaces()) workspaces[ws.id] = ws.name;
      for (const auto& key : auth.keys().ListAllKeys()) {
        Json view = ApiKeyView(key);
        view["user_email"] = emails.count(key.user_id) ? emails[key.user_id] : "";
        view["workspace"] = workspaces.count(key.workspace_id) ? workspaces[key.workspace_id] : "";
        out.push_back(std::move(view));
      }
      Print(out, o.json);
    } else if (keys_revoke_->parsed()) {
      auth.keys().RevokeApiKeyById(o.key_id);
      Print(Json{{"id", o.key_id}, {"revoked", true}}, o.json);
    } else if (keys_revoke_all_->parsed()) {
      std::vector<std::string> revoked = auth.keys().RevokeAllKeysOf(o.email, "");
      Print(Json{{"user_email", o.email}, {"revoked", revoked}, {"count", revoked.size()}}, o.json);
    } else if (audit_->parsed()) {
      auto since = AuditLog::ParseSince(o.since, NowMs());
      if (!since) {
        throw std::runtime_error("--since must be an ISO-8601 UTC instant or a span like 24h");
      }
      AuditLog::Page page = context.audit->Read(*since, o.event, 0, o.limit);
      Json rows = Json::array();
      for (const AuditEvent& row : page.rows) rows.push_back(AuditLog::View(row));
      if (o.json) {
        Print(Json{{"items", rows}, {"has_more", page.has_more}}, true);
      } else {
        for (const Json& row : rows) {
          std::cout << row["timestamp"].get<std::string>() << "  "
                    << row["event"].get<std::string>() << "  user="
                    << (row["user_id"].is_null() ? "-" : row["user_id"].get<std::string>())
                    << "  key="
                    << (row["key_id"].is_null() ? "-" : row["key_id"].get<std::string>()) << "  "
                    << row["details"].dump() << "\n";
        }
        if (page.has_more) std::cout << "(more rows: raise --limit or narrow --since)\n";
      }
    }
    return 0;
  } catch (const DomainError& error) {
    if (o.json) {
      std::cout << Json{{"error", error.ToJson()}}.dump(2) << "\n";
    } else {
      std::cerr << "error: " << error.code().code << ": " << error.what() << "\n";
    }
    return 1;
  }
}

}  // namespace dp::cli
