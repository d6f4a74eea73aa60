// Both backends, migrated from nothing, end with the same schema: the same tables, the same
// columns in the same order with the same nullability, and the same named indexes. The steps
// written once (migrations/common/) make most of this true by construction; this proves it
// for the steps that are still written per backend.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <map>
#include <pqxx/pqxx>
#include <set>
#include <string>
#include <vector>

#include "store_suite.hpp"

namespace dp {
namespace {

using store_suite::ExecAdmin;
using store_suite::UniqueSuffix;
using store_suite::WithSearchPath;

struct Column {
  std::string name;
  bool nullable = true;
  bool operator==(const Column&) const = default;
};

struct Schema {
  std::map<std::string, std::vector<Column>> tables;
  std::set<std::string> indexes;
};

// The bookkeeping table each adapter keeps for itself is not part of the product's schema.
bool IsOwnBookkeeping(const std::string& table) {
  return table == "schema_migrations" || table.rfind("sqlite_", 0) == 0;
}

Schema ReadSqlite(const std::string& path) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  Schema schema;
  auto rows = [&](const std::string& sql, auto&& on_row) {
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sql;
    while (sqlite3_step(stmt) == SQLITE_ROW) on_row(stmt);
    sqlite3_finalize(stmt);
  };
  auto text = [](sqlite3_stmt* stmt, int i) {
    return std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, i)));
  };
  std::vector<std::string> tables;
  rows("SELECT name FROM sqlite_master WHERE type = 'table'",
       [&](sqlite3_stmt* s) { tables.push_back(text(s, 0)); });
  for (const std::string& table : tables) {
    if (IsOwnBookkeeping(table)) continue;
    auto& columns = schema.tables[table];
    rows("SELECT name, \"notnull\", pk FROM pragma_table_info('" + table + "') ORDER BY cid",
         [&](sqlite3_stmt* s) {
           // A PRIMARY KEY column is NOT NULL on PostgreSQL whether or not the DDL says so.
           bool not_null = sqlite3_column_int(s, 1) != 0 || sqlite3_column_int(s, 2) != 0;
           columns.push_back({text(s, 0), !not_null});
         });
  }
  rows("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL",
       [&](sqlite3_stmt* s) { schema.indexes.insert(text(s, 0)); });
  sqlite3_close(db);
  return schema;
}

Schema ReadPostgres(const std::string& url, const std::string& namespace_name) {
  pqxx::connection conn(url);
  pqxx::nontransaction tx(conn);
  Schema schema;
  for (const auto& row :
       tx.exec_params("SELECT table_name, column_name, is_nullable FROM information_schema.columns "
                      "WHERE table_schema = $1 ORDER BY table_name, ordinal_position",
                      namespace_name)) {
    std::string table = row[0].as<std::string>();
    if (IsOwnBookkeeping(table)) continue;
    schema.tables[table].push_back({row[1].as<std::string>(), row[2].as<std::string>() == "YES"});
  }
  // Indexes created by CREATE INDEX (not the ones behind PRIMARY KEY and UNIQUE constraints,
  // which SQLite names automatically and does not list with SQL).
  for (const auto& row : tx.exec_params(
           "SELECT i.indexname FROM pg_indexes i WHERE i.schemaname = $1 AND NOT EXISTS ("
           "SELECT 1 FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace "
           "WHERE n.nspname = $1 AND c.conname = i.indexname)",
           namespace_name)) {
    schema.indexes.insert(row[0].as<std::string>());
  }
  return schema;
}

TEST(SchemaParity, BothBackendsEndWithTheSameSchema) {
  DP_REQUIRE_SERVICE_URL(pg_url, "DP_TEST_PG_META_URL");
  const std::string suffix = UniqueSuffix();
  const std::string pg_schema = "dp_schema_parity_" + suffix;
  ExecAdmin(pg_url, "DROP SCHEMA IF EXISTS " + pg_schema + " CASCADE; CREATE SCHEMA " + pg_schema);
  const auto dir = std::filesystem::temp_directory_path() / ("dp_schema_parity_" + suffix);
  std::filesystem::create_directories(dir);
  const std::string sqlite_path = (dir / "meta.db").string();
  {
    auto sqlite_store = OpenMetadataStore("sqlite:" + sqlite_path);
    auto pg_store = OpenMetadataStore(WithSearchPath(pg_url, pg_schema));
    ASSERT_EQ(sqlite_store->Migrate(), store_suite::LatestVersion());
    ASSERT_EQ(pg_store->Migrate(), store_suite::LatestVersion());
  }
  Schema sqlite = ReadSqlite(sqlite_path);
  Schema postgres = ReadPostgres(pg_url, pg_schema);
  ExecAdmin(pg_url, "DROP SCHEMA IF EXISTS " + pg_schema + " CASCADE");
  std::filesystem::remove_all(dir);

  ASSERT_FALSE(sqlite.tables.empty());
  std::set<std::string> sqlite_tables, pg_tables;
  for (const auto& [name, _] : sqlite.tables) sqlite_tables.insert(name);
  for (const auto& [name, _] : postgres.tables) pg_tables.insert(name);
  ASSERT_EQ(sqlite_tables, pg_tables);
  for (const auto& [table, columns] : sqlite.tables) {
    const auto& other = postgres.tables.at(table);
    ASSERT_EQ(columns.size(), other.size()) << table;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      EXPECT_EQ(columns[i].name, other[i].name) << table << " column " << i;
      EXPECT_EQ(columns[i].nullable, other[i].nullable) << table << "." << columns[i].name;
    }
  }
  EXPECT_EQ(sqlite.indexes, postgres.indexes);
}

}  // namespace
}  // namespace dp
