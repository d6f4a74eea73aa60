// DatasourceService registry half: create / update / delete, workspace grants and the
// bootstrap file (datasources.md §3, §9, §11; MCP spec §6.2.22 — humans and operators only).
#include <spdlog/spdlog.h>
#include <yaml-cpp/yaml.h>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/store/datasource_store.hpp"
#include "datapipelines/store/duplicate_key_error.hpp"
#include "datapipelines/store/workspace_store.hpp"
#include "datapipelines/util/clock.hpp"
#include "datasource_rules.hpp"

namespace dp {
namespace {

using datasource_rules::RuleFailure;

DomainError NotRegistered(const std::string& name) {
  return DomainError(errc::kDatasourceNotFound, "No datasource named '" + name + "'.",
                     Json{{"name", name}});
}

// Registering, editing and deleting need a human session: no API key holds the admin
// scope these verbs require (auth §7.6), so no credential ever travels through an agent.
void RequireHuman(const Principal& principal) {
  if (!principal.via_session) {
    throw DomainError(
        errc::kScopeInsufficient,
        "Managing datasources needs a signed-in person (admin); API keys cannot.",
        Json{{"required", "admin"}, {"granted", std::string(ToString(principal.scope))}});
  }
}

// An embedded SQLite datasource opens files on the server itself (the metadata store
// included), so only an instance admin may point one anywhere.
void RequireMayOwnDialect(const Principal& principal, const DatasourceRecord& record) {
  if (!principal.super_admin && record.dialect == "SQLITE") {
    throw DomainError(errc::kRoleRequired,
                      "An embedded SQLite datasource reads the server's own filesystem: only an "
                      "instance admin may register one.",
                      Json{{"required", "super_admin"}, {"dialect", "SQLITE"}});
  }
}

void RequireSuperAdminToGrant(const Principal& principal) {
  RequireHuman(principal);
  if (!principal.super_admin) {
    throw DomainError(errc::kRoleRequired, "Only an instance admin may grant datasources.",
                      Json{{"required", "super_admin"}});
  }
}

std::optional<std::string> StringField(const Json& body, const char* field,
                                       std::vector<RuleFailure>& failures,
                                       const ErrorCode& code = errc::kRequestInvalid) {
  auto it = body.find(field);
  if (it == body.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) {
    failures.push_back({code, field, std::string(field) + " must be a string"});
    return std::nullopt;
  }
  return it->get<std::string>();
}

[[noreturn]] void Refuse(const std::vector<RuleFailure>& failures) {
  Json errors = Json::array();
  for (const auto& f : failures) {
    errors.push_back({{"code", f.code.code}, {"field", f.field}, {"message", f.message}});
  }
  // Every problem, plainly: "a; b; c" (details.errors carries each with its code and field).
  std::string message;
  for (const auto& f : failures) message += (message.empty() ? "" : "; ") + f.message;
  throw DomainError(failures.front().code, message, Json{{"errors", errors}});
}

// YAML scalars and maps as JSON (the bootstrap file); scalars stay strings except the
// fields the entity types as integers or booleans.
Json YamlToJson(const YAML::Node& node) {
  if (node.IsMap()) {
    Json out = Json::object();
    for (const auto& entry : node) out[entry.first.as<std::string>()] = YamlToJson(entry.second);
    return out;
  }
  if (node.IsSequence()) {
    Json out = Json::array();
    for (const auto& item : node) out.push_back(YamlToJson(item));
    return out;
  }
  if (node.IsNull()) return nullptr;
  return node.as<std::string>();
}

// Entity fields that YAML hands over as strings.
void CoerceTypes(Json& entry) {
  if (auto it = entry.find("readonly"); it != entry.end() && it->is_string()) {
    *it = *it == "true";
  }
  if (auto it = entry.find("query_timeout_seconds"); it != entry.end() && it->is_string()) {
    try {
      *it = std::stoi(it->get<std::string>());
    } catch (const std::exception&) {
    }
  }
  if (auto it = entry.find("properties"); it != entry.end() && it->contains("hikari")) {
    for (auto& [key, value] : (*it)["hikari"].items()) {
      if (!value.is_string()) continue;
      const std::string text = value.get<std::string>();
      if (text == "true" || text == "false") {
        value = text == "true";
      } else if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) {
        value = std::stoll(text);
      }
    }
  }
}

// ${ENV_VAR} in a bootstrap password: the file itself need not hold the secret.
std::string ExpandEnv(const std::string& text) {
  if (text.size() > 3 && text.rfind("${", 0) == 0 && text.back() == '}') {
    std::string variable = text.substr(2, text.size() - 3);
    const char* value = std::getenv(variable.c_str());
    if (!value) {
      throw std::runtime_error("datasources bootstrap file: environment variable " + variable +
                               " is not set");
    }
    return value;
  }
  return text;
}

// name, display_name, description (§3.3); the name is immutable on update (§11.1).
void CheckIdentity(const Json& body, const DatasourceRecord* existing, DatasourceRecord& record,
                   std::vector<RuleFailure>& failures) {
  auto name = StringField(body, "name", failures, errc::kDatasourceNameInvalid);
  if (existing) {
    if (name && *name != existing->name) {
      failures.push_back(
          {errc::kDatasourceNameInvalid, "name", "name is immutable: a rename is delete + create"});
    }
  } else if (!name) {
    failures.push_back({errc::kDatasourceNameInvalid, "name", "name is required"});
  } else if (auto failure = datasource_rules::CheckName(*name)) {
    failures.push_back(*failure);
  } else {
    record.name = *name;
  }
  auto display_name = StringField(body, "display_name", failures);
  if (display_name && !display_name->empty()) {
    record.display_name = *display_name;
  } else if (!existing) {
    failures.push_back({errc::kRequestInvalid, "display_name", "display_name is required"});
  }
  record.description = StringField(body, "description", failures);
  if (record.description && record.description->empty()) record.description.reset();
}

// dialect, jdbc_url, username, password (§9); fills `config` for the properties check.
std::optional<Dialect> CheckConnection(const Json& body, const DatasourceRecord* existing,
                                       DatasourceRecord& record, ConnectorConfig& config,
                                       std::optional<std::string>& password,
                                       std::vector<RuleFailure>& failures) {
  auto dialect_text = StringField(body, "dialect", failures, errc::kDatasourceDialectInvalid);
  std::optional<Dialect> dialect = dialect_text ? ParseDialect(*dialect_text) : std::nullopt;
  if (!dialect) {
    failures.push_back({errc::kDatasourceDialectInvalid, "dialect",
                        "dialect must be one of POSTGRES, ORACLE, MSSQL, MYSQL, H2, DUCKDB, "
                        "SQLITE, LAKE"});
  } else {
    record.dialect = std::string(ToString(*dialect));
    if (!IsDialectServed(*dialect)) {
      failures.push_back(
          {errc::kDatasourceDriverNotLoaded, "dialect",
           "dialect " + record.dialect +
               " has no driver in this build; served: POSTGRES, MYSQL, SQLITE, DUCKDB, LAKE"});
    }
  }
  auto url = StringField(body, "jdbc_url", failures, errc::kDatasourceUrlMalformed);
  if (!url) {
    failures.push_back({errc::kDatasourceUrlMalformed, "jdbc_url", "jdbc_url is required"});
  } else if (dialect) {
    auto more = datasource_rules::CheckJdbcUrl(*dialect, *url, config);
    failures.insert(failures.end(), more.begin(), more.end());
    record.jdbc_url = *url;
  }
  // Embedded engines have no login (datasources.md §3 credential kinds: none).
  bool schemaless =
      dialect == Dialect::kSqlite || dialect == Dialect::kDuckdb || dialect == Dialect::kLake;
  auto username = StringField(body, "username", failures);
  if (username) {
    record.username = *username;
  } else if (!schemaless && !existing) {
    failures.push_back({errc::kRequestInvalid, "username", "username is required"});
  }
  password = StringField(body, "password", failures, errc::kDatasourcePasswordMissing);
  if (!password && !existing && !schemaless) {
    failures.push_back({errc::kDatasourcePasswordMissing, "password", "password is required"});
  }
  return dialect;
}

// query_timeout_seconds, introspection_include_schemas, properties, readonly.
void CheckOptions(const Json& body, std::optional<Dialect> dialect, DatasourceRecord& record,
                  ConnectorConfig& config, std::vector<RuleFailure>& failures) {
  auto timeout = body.find("query_timeout_seconds");
  record.query_timeout_seconds.reset();
  if (timeout != body.end() && !timeout->is_null()) {
    if (!timeout->is_number_integer() || timeout->get<int64_t>() < 1 ||
        timeout->get<int64_t>() > 86400) {
      failures.push_back({errc::kDatasourceQueryTimeoutInvalid, "query_timeout_seconds",
                          "query_timeout_seconds must be an integer >= 1"});
    } else {
      record.query_timeout_seconds = timeout->get<int>();
    }
  }
  // PUT replaces the allowlist wholesale; absent means empty (REST §9.4).
  record.include_schemas = datasource_rules::NormalizeIncludeSchemas(
      body.value("introspection_include_schemas", Json()), failures);
  Json properties = body.value("properties", Json::object());
  if (dialect) {
    auto more = datasource_rules::CheckProperties(*dialect, properties, config);
    failures.insert(failures.end(), more.begin(), more.end());
  }
  record.properties = properties.is_object() ? properties : Json::object();
  if (auto readonly = body.find("readonly"); readonly != body.end() && !readonly->is_null()) {
    if (!readonly->is_boolean()) {
      failures.push_back({errc::kRequestInvalid, "readonly", "readonly must be a boolean"});
    } else {
      record.readonly = readonly->get<bool>();
    }
  }
}

}  // namespace

DatasourceRecord DatasourceService::RequireManageable(const Principal& principal,
                                                      const std::string& name) {
  RequireHuman(principal);
  auto record = store_.FindDatasource(name);
  if (!record || record->is_deleted) throw NotRegistered(name);
  if (principal.super_admin) return *record;
  bool own = !record->workspace_id.empty() && record->workspace_id == principal.workspace_id;
  if (own && HoldsWorkspaceAdmin(principal)) return *record;
  if (own || store_.IsDatasourceGranted(name, principal.workspace_id)) {
    throw DomainError(errc::kRoleRequired,
                      "Only an instance admin, or a ws_admin of the workspace that registered "
                      "it, may change this datasource.",
                      Json{{"required", "ws_admin"}});
  }
  throw NotRegistered(name);
}

DatasourceRecord DatasourceService::BuildRecord(const Json& body,
                                                const DatasourceRecord* existing) {
  std::vector<RuleFailure> failures;  // every failed rule, not the first (§6.1)
  DatasourceRecord record = existing ? *existing : DatasourceRecord{};
  ConnectorConfig config;
  std::optional<std::string> password;
  CheckIdentity(body, existing, record, failures);
  auto dialect = CheckConnection(body, existing, record, config, password, failures);
  CheckOptions(body, dialect, record, config, failures);
  if (!failures.empty()) Refuse(failures);
  // An empty password is stored as no password, so password_set stays truthful.
  if (password)
    record.password_encrypted = password->empty() ? "" : secrets_.Seal(*password, record.name);
  record.updated_at_ms = NowMs();
  return record;
}

Json DatasourceService::Insert(DatasourceRecord record, const std::string& actor,
                               const std::vector<std::string>& grant_workspace_ids) {
  record.created_by = actor;
  record.created_at_ms = record.updated_at_ms;
  if (auto taken = store_.FindDatasource(record.name); taken && taken->is_deleted) {
    RefuseDeletedName(*taken);
  }
  try {
    store_.InsertDatasource(record);
  } catch (const DuplicateKeyError&) {
    if (auto taken = store_.FindDatasource(record.name); taken && taken->is_deleted) {
      RefuseDeletedName(*taken);
    }
    throw DomainError(errc::kDatasourceDuplicateName,
                      "A datasource named '" + record.name + "' already exists.",
                      Json{{"name", record.name}});
  }
  for (const auto& workspace_id : grant_workspace_ids) {
    store_.InsertDatasourceGrant({record.name, workspace_id, actor, NowMs()});
  }
  return View(record, false);
}

Json DatasourceService::Create(const Principal& principal, const Json& body) {
  RequireHuman(principal);
  DatasourceRecord record = BuildRecord(body, nullptr);
  std::vector<std::string> grants;
  auto owner = body.find("workspace");
  if (principal.super_admin) {
    // An instance admin registers at the instance level unless a workspace is named.
    if (owner != body.end() && owner->is_string()) {
      auto ws = workspaces_.FindWorkspaceByName(owner->get<std::string>());
      if (!ws) {
        throw DomainError(errc::kWorkspaceNotFound, "No such workspace.",
                          Json{{"workspace", owner->get<std::string>()}});
      }
      record.workspace_id = ws->id;
      grants.push_back(ws->id);
    }
    if (auto extra = body.find("grants"); extra != body.end() && extra->is_array()) {
      for (const auto& name : *extra) {
        auto ws = name.is_string() ? workspaces_.FindWorkspaceByName(name.get<std::string>())
                                   : std::nullopt;
        if (!ws)
          throw DomainError(errc::kWorkspaceNotFound, "No such workspace.",
                            Json{{"workspace", name}});
        grants.push_back(ws->id);
      }
    }
  } else {
    EnforceAccess(principal, Operation::kDatasourcesCreate);
    RequireMayOwnDialect(principal, record);
    record.workspace_id = principal.workspace_id;
    grants.push_back(principal.workspace_id);
  }
  Json view = Insert(std::move(record), principal.user_id, grants);
  view["granted"] = store_.IsDatasourceGranted(view["name"], principal.workspace_id);
  return view;
}

Json DatasourceService::Update(const Principal& principal, const std::string& name,
                               const Json& body) {
  DatasourceRecord existing = RequireManageable(principal, name);
  DatasourceRecord record = BuildRecord(body, &existing);
  RequireMayOwnDialect(principal, record);
  if (!store_.UpdateDatasource(record)) throw NotRegistered(name);
  // The next lease builds a fresh pool from the new row (§5.2); in-flight leases drain.
  DropConnector(name);
  Audit("datasource.pool_rebuild", name, &principal);
  return View(record, store_.IsDatasourceGranted(name, principal.workspace_id));
}

void DatasourceService::Delete(const Principal& principal, const std::string& name) {
  RequireManageable(principal, name);
  // A pipeline version naming it (a node source or a write-back target) would fail at run
  // time: refuse, and say which pipelines to change first.
  if (auto users = UsersOf(name); !users.empty()) {
    throw DomainError(errc::kDatasourceInUse,
                      "Pipelines use datasource '" + name + "'; change them before deleting it.",
                      Json{{"datasource", name}, {"pipelines", users}});
  }
  if (!store_.SoftDeleteDatasource(name, NowMs())) throw NotRegistered(name);
  DropConnector(name);
}

std::vector<std::string> DatasourceService::UsersOf(const std::string& name) {
  return ports_.users_of ? ports_.users_of(name) : std::vector<std::string>{};
}

DatasourceRecord DatasourceService::RequireDeleted(const std::string& name) {
  auto record = store_.FindDatasource(name);
  if (!record || !record->is_deleted) {
    throw DomainError(errc::kDatasourceNotFound, "No deleted datasource named '" + name + "'.",
                      Json{{"name", name}, {"reason", record ? "not_deleted" : "unknown"}});
  }
  return *record;
}

void DatasourceService::RefuseDeletedName(const DatasourceRecord& taken_by) {
  const std::string& name = taken_by.name;
  std::vector<std::string> users = UsersOf(name);
  const bool purgeable = users.empty();
  std::string message = "A deleted datasource holds the name '" + name +
                        "': restore it (POST /api/v1/datasources/" + name +
                        "/restore, or `datapipelines datasources restore --name " + name + "`)";
  if (purgeable) {
    message += ", or, since no pipeline uses it, delete it for good (DELETE /api/v1/datasources/" +
               name + "?purge=true, or `datapipelines datasources purge --name " + name +
               "`) and register the name anew.";
  } else {
    message += "; it cannot be deleted for good while pipelines use it.";
  }
  Json details{{"name", name},
               {"reason", "deleted"},
               {"restore", true},
               {"purge", purgeable},
               {"restore_route", "POST /api/v1/datasources/" + name + "/restore"}};
  if (purgeable) {
    details["purge_route"] = "DELETE /api/v1/datasources/" + name + "?purge=true";
  } else {
    details["pipelines"] = users;
  }
  throw DomainError(errc::kDatasourceDuplicateName, message, std::move(details));
}

Json DatasourceService::Restore(const Principal& principal, const std::string& name) {
  RequireHuman(principal);
  DatasourceRecord record = RequireDeleted(name);
  const bool own = !record.workspace_id.empty() && record.workspace_id == principal.workspace_id;
  if (!principal.super_admin && !(own && HoldsWorkspaceAdmin(principal))) {
    throw DomainError(errc::kRoleRequired,
                      "Only an instance admin, or a ws_admin of the workspace that registered "
                      "it, may restore this datasource.",
                      Json{{"required", own ? "ws_admin" : "super_admin"}});
  }
  if (!store_.RestoreDatasource(name, NowMs())) throw NotRegistered(name);
  record.is_deleted = false;
  Audit("datasource.restored", name, &principal);
  return View(record, store_.IsDatasourceGranted(name, principal.workspace_id));
}

Json DatasourceService::RestoreAsOperator(const std::string& name) {
  DatasourceRecord record = RequireDeleted(name);
  if (!store_.RestoreDatasource(name, NowMs())) throw NotRegistered(name);
  record.is_deleted = false;
  Audit("datasource.restored", name, nullptr);
  return View(record, false);
}

void DatasourceService::Purge(const Principal& principal, const std::string& name) {
  RequireSuperAdminToGrant(principal);
  PurgeRow(name, &principal);
}

void DatasourceService::PurgeAsOperator(const std::string& name) { PurgeRow(name, nullptr); }

void DatasourceService::PurgeRow(const std::string& name, const Principal* principal) {
  RequireDeleted(name);
  if (auto users = UsersOf(name); !users.empty()) {
    throw DomainError(errc::kDatasourceInUse,
                      "Pipelines still name deleted datasource '" + name +
                          "'; it can be restored, not deleted for good.",
                      Json{{"datasource", name}, {"pipelines", users}});
  }
  if (!store_.PurgeDatasource(name)) throw NotRegistered(name);
  DropConnector(name);
  Audit("datasource.purged", name, principal);
}

Json DatasourceService::Grant(const Principal& principal, const std::string& name,
                              const std::string& workspace) {
  RequireSuperAdminToGrant(principal);
  RequireManageable(principal, name);
  auto ws = workspaces_.FindWorkspaceByName(workspace);
  if (!ws) {
    throw DomainError(errc::kWorkspaceNotFound, "No such workspace.",
                      Json{{"workspace", workspace}});
  }
  store_.InsertDatasourceGrant({name, ws->id, principal.user_id, NowMs()});
  return ListGrants(principal, name);
}

void DatasourceService::Revoke(const Principal& principal, const std::string& name,
                               const std::string& workspace) {
  RequireSuperAdminToGrant(principal);
  RequireManageable(principal, name);
  auto ws = workspaces_.FindWorkspaceByName(workspace);
  if (!ws || !store_.DeleteDatasourceGrant(name, ws->id)) {
    throw DomainError(errc::kDatasourceNotFound,
                      "That workspace holds no grant on this datasource.",
                      Json{{"name", name}, {"workspace", workspace}});
  }
}

Json DatasourceService::ListGrants(const Principal& principal, const std::string& name) {
  RequireManageable(principal, name);
  Json out = Json::array();
  for (const auto& grant : store_.ListDatasourceGrants(name)) {
    auto ws = workspaces_.FindWorkspaceById(grant.workspace_id);
    out.push_back({{"workspace", ws ? ws->name : grant.workspace_id},
                   {"granted_at", FormatIso8601Ms(grant.granted_at_ms)}});
  }
  return Json{{"datasource", name}, {"grants", out}};
}

Json DatasourceService::CreateAsOperator(const Json& body,
                                         const std::vector<std::string>& grant_workspaces) {
  DatasourceRecord record = BuildRecord(body, nullptr);
  std::vector<std::string> grants;
  for (const auto& name : grant_workspaces) {
    auto ws = workspaces_.FindWorkspaceByName(name);
    if (!ws) {
      throw DomainError(errc::kWorkspaceNotFound, "No workspace named '" + name + "'.",
                        Json{{"workspace", name}});
    }
    grants.push_back(ws->id);
  }
  return Insert(std::move(record), "", grants);
}

Json DatasourceService::GrantAsOperator(const std::string& name, const std::string& workspace) {
  DatasourceRecord record = RequireLive(name);
  auto ws = workspaces_.FindWorkspaceByName(workspace);
  if (!ws) {
    throw DomainError(errc::kWorkspaceNotFound, "No workspace named '" + workspace + "'.",
                      Json{{"workspace", workspace}});
  }
  const bool already = store_.IsDatasourceGranted(name, ws->id);
  if (!already) store_.InsertDatasourceGrant({name, ws->id, "", NowMs()});
  Audit("datasource.granted", name, nullptr,
        Json{{"workspace", workspace}, {"already_granted", already}});
  Json out = Json::array();
  for (const auto& grant : store_.ListDatasourceGrants(name)) {
    auto granted = workspaces_.FindWorkspaceById(grant.workspace_id);
    out.push_back(granted ? granted->name : grant.workspace_id);
  }
  return Json{{"datasource", name}, {"grants", out}};
}

void DatasourceService::RevokeAsOperator(const std::string& name, const std::string& workspace) {
  RequireLive(name);
  auto ws = workspaces_.FindWorkspaceByName(workspace);
  if (!ws || !store_.DeleteDatasourceGrant(name, ws->id)) {
    throw DomainError(errc::kDatasourceNotFound,
                      "That workspace holds no grant on this datasource.",
                      Json{{"name", name}, {"workspace", workspace}});
  }
  Audit("datasource.revoked", name, nullptr, Json{{"workspace", workspace}});
}

Json DatasourceService::ListRegistry(const Principal& principal) {
  RequireSuperAdminToGrant(principal);
  Json out = ListAllForOperator();
  for (auto& view : out) {
    view["granted"] = store_.IsDatasourceGranted(view["name"], principal.workspace_id);
  }
  return out;
}

Json DatasourceService::ListAllForOperator() {
  Json out = Json::array();
  for (const auto& record : store_.ListDatasources()) {
    Json view = View(record, false);
    Json grants = Json::array();
    for (const auto& grant : store_.ListDatasourceGrants(record.name)) {
      auto ws = workspaces_.FindWorkspaceById(grant.workspace_id);
      grants.push_back(ws ? ws->name : grant.workspace_id);
    }
    view["grants"] = grants;
    out.push_back(std::move(view));
  }
  return out;
}

std::vector<std::string> DatasourceService::BootstrapFromFile(
    const std::string& path,
    const std::function<void(const std::string&, const std::string&)>& on_lake_manifest) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw std::runtime_error("cannot read the datasources bootstrap file '" + path + "': " + e.msg);
  }
  Json doc = YamlToJson(root);
  Json entries = doc.is_object() ? doc.value("datasources", Json::array()) : doc;
  if (!entries.is_array()) {
    throw std::runtime_error("datasources bootstrap file '" + path +
                             "': expected a list under 'datasources:'");
  }
  std::vector<std::string> created;
  for (Json entry : entries) {
    std::string name = entry.is_object() ? entry.value("name", std::string()) : std::string();
    if (name.empty()) throw std::runtime_error("datasources bootstrap file: an entry has no name");
    std::string lake_manifest;
    if (auto it = entry.find("lake_manifest"); it != entry.end()) {
      if (!it->is_string()) {
        throw std::runtime_error("datasources bootstrap file: '" + name +
                                 "': lake_manifest must be a string (a manifest URL)");
      }
      lake_manifest = it->get<std::string>();
      entry.erase(it);
    }
    auto import_manifest = [&] {
      if (lake_manifest.empty() || !on_lake_manifest) return;
      try {
        on_lake_manifest(name, lake_manifest);
      } catch (const DomainError& error) {
        throw std::runtime_error("datasources bootstrap file: '" + name +
                                 "' lake_manifest refused: " + std::string(error.code().code) +
                                 ": " + error.what());
      }
    };
    if (store_.FindDatasource(name)) {  // create-if-absent, never update
      import_manifest();
      continue;
    }
    CoerceTypes(entry);
    if (entry.contains("password") && entry["password"].is_string()) {
      entry["password"] = ExpandEnv(entry["password"].get<std::string>());
    }
    std::vector<std::string> grants;
    std::string missing;
    for (const auto& ws : entry.value("grants", Json::array())) {
      if (!ws.is_string()) continue;
      grants.push_back(ws.get<std::string>());
      if (!workspaces_.FindWorkspaceByName(grants.back())) missing = grants.back();
    }
    if (!missing.empty()) {
      // Created on a later start, once the workspace exists, so the grant is never lost.
      spdlog::warn("datasources bootstrap: '{}' waits for workspace '{}' to exist", name, missing);
      continue;
    }
    try {
      CreateAsOperator(entry, grants);
    } catch (const DomainError& error) {
      throw std::runtime_error("datasources bootstrap file: '" + name + "' refused: " +
                               std::string(error.code().code) + ": " + error.what());
    }
    created.push_back(name);
    import_manifest();
  }
  return created;
}

}  // namespace dp
