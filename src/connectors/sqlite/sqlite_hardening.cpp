#include "datapipelines/connectors/sqlite/sqlite_hardening.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dp {
namespace {

thread_local bool t_trusted = false;

constexpr std::array<SqliteRole, 4> kRoles = {SqliteRole::kMetadata, SqliteRole::kDatasource,
                                              SqliteRole::kProbe, SqliteRole::kTempdb};

std::string Lower(const char* text) {
  std::string out = text ? text : "";
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Functions no handle of ours may call: pointer leaks / plants, filesystem and extension
// access (the last ones exist only in some builds; refused by name whatever the build).
bool DeniedFunction(const std::string& name) {
  static constexpr std::string_view kDenied[] = {
      "fts3_tokenizer",   "load_extension", "readfile",         "writefile", "edit",
      "fts5_api_from_db", "sqlar_compress", "sqlar_uncompress", "zipfile",   "sqlite_dbpage"};
  return std::find(std::begin(kDenied), std::end(kDenied), name) != std::end(kDenied);
}

// PRAGMAs a datasource, probe or tempdb handle may run: introspection and reads of settings
// without side effects. Everything else (optimize, writable_schema, journal_mode,
// max_page_count, query_only = 0, …) is refused for author SQL.
bool ReadOnlyPragma(const std::string& name) {
  static constexpr std::string_view kAllowed[] = {
      "table_info",   "table_xinfo",      "table_list",      "index_list",    "index_info",
      "index_xinfo",  "foreign_key_list", "collation_list",  "database_list", "function_list",
      "module_list",  "pragma_list",      "compile_options", "encoding",      "page_size",
      "page_count",   "freelist_count",   "schema_version",  "user_version",  "application_id",
      "data_version", "foreign_keys",     "query_only"};
  return std::find(std::begin(kAllowed), std::end(kAllowed), name) != std::end(kAllowed);
}

// Settings pragmas that may be read but not assigned (an argument means an assignment).
bool AssignmentPragma(const std::string& name) {
  return name == "encoding" || name == "page_size" || name == "schema_version" ||
         name == "user_version" || name == "application_id" || name == "foreign_keys" ||
         name == "query_only";
}

bool SchemaTable(const char* table) {
  std::string name = Lower(table);
  return name == "sqlite_master" || name == "sqlite_schema" || name == "sqlite_temp_master";
}

int Authorize(void* user_data, int action, const char* arg1, const char* arg2, const char*,
              const char*) {
  const SqliteRole role = *static_cast<const SqliteRole*>(user_data);
  switch (action) {
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
      return SQLITE_DENY;
    case SQLITE_FUNCTION:
      return DeniedFunction(Lower(arg2)) ? SQLITE_DENY : SQLITE_OK;
    case SQLITE_PRAGMA: {
      if (role == SqliteRole::kMetadata || t_trusted) return SQLITE_OK;
      std::string name = Lower(arg1);
      if (!ReadOnlyPragma(name)) return SQLITE_DENY;
      if (arg2 != nullptr && AssignmentPragma(name)) return SQLITE_DENY;
      return SQLITE_OK;
    }
    default:
      break;
  }
  if (role != SqliteRole::kProbe) return SQLITE_OK;
  switch (action) {
    case SQLITE_INSERT:
    case SQLITE_UPDATE:
    case SQLITE_DELETE:
      // SQLite itself reports schema-table bookkeeping while it prepares some reads; a real
      // write to them is impossible on a read-only, defensive handle anyway.
      return SchemaTable(arg1) ? SQLITE_OK : SQLITE_DENY;
    case SQLITE_CREATE_INDEX:
    case SQLITE_CREATE_TABLE:
    case SQLITE_CREATE_TRIGGER:
    case SQLITE_CREATE_VIEW:
    case SQLITE_CREATE_VTABLE:
    case SQLITE_DROP_INDEX:
    case SQLITE_DROP_TABLE:
    case SQLITE_DROP_TRIGGER:
    case SQLITE_DROP_VIEW:
    case SQLITE_DROP_VTABLE:
    case SQLITE_ALTER_TABLE:
    case SQLITE_REINDEX:
    case SQLITE_ANALYZE:
    case SQLITE_CREATE_TEMP_INDEX:
    case SQLITE_CREATE_TEMP_TABLE:
    case SQLITE_CREATE_TEMP_TRIGGER:
    case SQLITE_CREATE_TEMP_VIEW:
    case SQLITE_DROP_TEMP_INDEX:
    case SQLITE_DROP_TEMP_TABLE:
    case SQLITE_DROP_TEMP_TRIGGER:
    case SQLITE_DROP_TEMP_VIEW:
      return SQLITE_DENY;
    default:
      return SQLITE_OK;
  }
}

void Config(sqlite3* db, int option, int value) {
  int applied = -1;
  if (sqlite3_db_config(db, option, value, &applied) != SQLITE_OK || applied != value) {
    throw std::runtime_error("SQLite hardening: db_config " + std::to_string(option) +
                             " did not take");
  }
}

}  // namespace

void SqliteHardening::Harden(sqlite3* db, SqliteRole role) {
  Config(db, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0);
  Config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0);
  Config(db, SQLITE_DBCONFIG_DEFENSIVE, 1);
  Config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0);
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  const SqliteRole* slot = &kRoles[static_cast<std::size_t>(role)];
  sqlite3_set_authorizer(db, Authorize, const_cast<SqliteRole*>(slot));
}

SqliteHardening::TrustedScope::TrustedScope() : previous_(t_trusted) { t_trusted = true; }
SqliteHardening::TrustedScope::~TrustedScope() { t_trusted = previous_; }

}  // namespace dp
