// Namespaces, tables/views with remarks, columns with canonical types, catalog stats, and
// quoting of hostile identifiers, on each engine.
#include <algorithm>

#include "connector_test_support.hpp"

namespace dp::test {
namespace {

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

const TableInfo* FindTable(const TableListing& listing, const std::string& name) {
  for (const auto& table : listing.tables) {
    if (table.name == name) return &table;
  }
  return nullptr;
}

const ColumnSchema* FindColumn(const std::vector<ColumnSchema>& columns, const std::string& name) {
  for (const auto& column : columns) {
    if (column.name == name) return &column;
  }
  return nullptr;
}

// Checks common to every dialect over a table `orders` (id PK NOT NULL, total decimal(18,2)
// remarked 'Gross total', note text) and a view `big_orders`, in namespace `schema`.
void CheckTablesAndColumns(Connection& conn, const std::optional<std::string>& schema,
                           const std::string& orders, const std::string& view, bool remarks) {
  TableListing listing = conn.ListTables(schema, IntrospectionOptions{});
  const TableInfo* table = FindTable(listing, orders);
  const TableInfo* big = FindTable(listing, view);
  ASSERT_TRUE(table);
  ASSERT_TRUE(big);
  EXPECT_EQ(table->type, "TABLE");
  EXPECT_EQ(big->type, "VIEW");
  if (remarks) {
    EXPECT_EQ(table->remarks, "Customer orders");
  }
  EXPECT_FALSE(big->remarks);
  EXPECT_FALSE(listing.truncated);

  std::vector<ColumnSchema> columns = conn.ListColumns(schema, orders, IntrospectionOptions{});
  ASSERT_EQ(columns.size(), 3u);
  EXPECT_EQ(columns[0].name, "id");
  EXPECT_EQ(columns[0].mapping.type, CanonicalType::kInteger);
  EXPECT_EQ(columns[0].nullable, false);
  const ColumnSchema* total = FindColumn(columns, "total");
  ASSERT_TRUE(total);
  EXPECT_EQ(total->nullable, true);
  if (remarks) {
    EXPECT_EQ(total->remarks, "Gross total");
  }
  Json entry = total->ToCatalogJson();
  // SQLite cannot hold the declared DECIMAL(18,2) scale: the entry says so (docs/types.md).
  EXPECT_EQ(entry["warnings"].size(), schema ? 0u : 1u) << entry.dump();
  EXPECT_FALSE(entry["source_type"].get<std::string>().empty());
  // An unknown table or schema is not an error: it lists nothing.
  EXPECT_TRUE(conn.ListColumns(schema, "dp_no_such_table", IntrospectionOptions{}).empty());
  EXPECT_TRUE(
      conn.ListTables(std::string("dp_no_such_schema"), IntrospectionOptions{}).tables.empty());
  // Injection-shaped names are data: they match nothing and run nothing.
  EXPECT_TRUE(conn.ListColumns(schema, "x' OR '1'='1", IntrospectionOptions{}).empty());
  EXPECT_TRUE(
      conn.ListColumns(schema, orders + "'; DROP TABLE " + orders + "; --", IntrospectionOptions{})
          .empty());
  EXPECT_TRUE(conn.ListTables(std::string("x' OR 1=1 -- "), IntrospectionOptions{}).tables.empty());
  EXPECT_EQ(conn.ListColumns(schema, orders, IntrospectionOptions{}).size(), 3u);
  IntrospectionOptions capped;
  capped.cap = 1;
  TableListing one = conn.ListTables(schema, capped);
  EXPECT_EQ(one.tables.size(), 1u);
  EXPECT_TRUE(one.truncated);
}

TEST_F(PostgresConnectorTest, Introspection) {
  auto conn = connector_->Acquire();
  conn->Execute(
      "DROP SCHEMA IF EXISTS dp_it CASCADE; CREATE SCHEMA dp_it;"
      "CREATE TABLE dp_it.orders (id integer NOT NULL PRIMARY KEY, total numeric(18,2), note text);"
      "COMMENT ON TABLE dp_it.orders IS 'Customer orders';"
      "COMMENT ON COLUMN dp_it.orders.total IS 'Gross total';"
      "CREATE VIEW dp_it.big_orders AS SELECT * FROM dp_it.orders WHERE total > 100;"
      "CREATE INDEX orders_total_idx ON dp_it.orders (total, note);"
      "INSERT INTO dp_it.orders VALUES (1, 10.5, 'a'), (2, 200, 'b'), (3, 300, NULL);"
      "ANALYZE dp_it.orders");
  NamespaceListing namespaces = conn->ListNamespaces(IntrospectionOptions{});
  EXPECT_TRUE(Contains(namespaces.names, "dp_it"));
  EXPECT_TRUE(Contains(namespaces.names, "public"));
  EXPECT_FALSE(Contains(namespaces.names, "pg_catalog"));
  EXPECT_FALSE(Contains(namespaces.names, "information_schema"));
  IntrospectionOptions include;
  include.include_schemas = {"information_schema"};
  EXPECT_TRUE(Contains(conn->ListNamespaces(include).names, "information_schema"));

  CheckTablesAndColumns(*conn, std::string("dp_it"), "orders", "big_orders", true);
  auto columns = conn->ListColumns(std::string("dp_it"), "orders", IntrospectionOptions{});
  EXPECT_EQ(columns[1].source_type, "numeric(18,2)");
  EXPECT_EQ(columns[1].mapping.type, CanonicalType::kBigDecimal);
  EXPECT_EQ(columns[1].mapping.precision, 18);
  // Without a schema the session's current schema (public) is read: no merge across schemas.
  EXPECT_TRUE(conn->ListColumns(std::nullopt, "orders", IntrospectionOptions{}).empty());

  TableStats stats = conn->GetTableStats(std::string("dp_it"), "orders");
  EXPECT_EQ(stats.stats_source, "pg_class");
  EXPECT_EQ(stats.row_estimate, 3);
  ASSERT_EQ(stats.indexes.size(), 2u);
  EXPECT_EQ(stats.indexes[0].name, "orders_pkey");
  EXPECT_TRUE(stats.indexes[0].primary);
  EXPECT_EQ(stats.indexes[1].columns, (std::vector<std::string>{"total", "note"}));
  EXPECT_EQ(stats.indexes[1].kind, "btree");
  auto id = std::find_if(stats.columns.begin(), stats.columns.end(),
                         [](const ColumnStats& c) { return c.name == "id"; });
  ASSERT_NE(id, stats.columns.end());
  EXPECT_EQ(id->min, "1");
  EXPECT_EQ(id->max, "3");
  EXPECT_TRUE(id->distinct_is_ratio);
  EXPECT_EQ(stats.ToJson()["row_estimate"], 3);
  conn->Execute("DROP SCHEMA dp_it CASCADE");
}

TEST_F(MysqlConnectorTest, Introspection) {
  auto conn = connector_->Acquire();
  conn->Execute("DROP VIEW IF EXISTS dp_it_big_orders");
  conn->Execute("DROP TABLE IF EXISTS dp_it_orders");
  conn->Execute(
      "CREATE TABLE dp_it_orders (id INT NOT NULL PRIMARY KEY, total DECIMAL(18,2) COMMENT "
      "'Gross total', note TEXT, KEY orders_total_idx (total)) COMMENT = 'Customer orders'");
  conn->Execute("CREATE VIEW dp_it_big_orders AS SELECT * FROM dp_it_orders WHERE total > 100");
  conn->Execute("INSERT INTO dp_it_orders VALUES (1, 10.5, 'a'), (2, 200, 'b'), (3, 300, NULL)");
  conn->Execute("ANALYZE TABLE dp_it_orders");
  NamespaceListing namespaces = conn->ListNamespaces(IntrospectionOptions{});
  EXPECT_TRUE(Contains(namespaces.names, config_.database));  // databases are the namespaces
  EXPECT_FALSE(Contains(namespaces.names, "information_schema"));
  EXPECT_FALSE(Contains(namespaces.names, "mysql"));
  EXPECT_FALSE(Contains(namespaces.names, "performance_schema"));

  CheckTablesAndColumns(*conn, config_.database, "dp_it_orders", "dp_it_big_orders", true);
  // No namespace: the connection's current database.
  auto columns = conn->ListColumns(std::nullopt, "dp_it_orders", IntrospectionOptions{});
  ASSERT_EQ(columns.size(), 3u);
  EXPECT_EQ(columns[1].source_type, "decimal(18,2)");
  EXPECT_EQ(columns[1].mapping.precision, 18);

  TableStats stats = conn->GetTableStats(config_.database, "dp_it_orders");
  EXPECT_EQ(stats.stats_source, "information_schema.tables");
  EXPECT_TRUE(stats.row_estimate);
  ASSERT_EQ(stats.indexes.size(), 2u);
  EXPECT_EQ(stats.indexes[0].name, "PRIMARY");
  EXPECT_TRUE(stats.indexes[0].primary);
  EXPECT_TRUE(stats.indexes[0].unique);
  EXPECT_EQ(stats.indexes[1].columns, (std::vector<std::string>{"total"}));
  conn->Execute("DROP VIEW dp_it_big_orders");
  conn->Execute("DROP TABLE dp_it_orders");
}

TEST_F(SqliteConnectorTest, Introspection) {
  auto conn = connector_->Acquire();
  conn->Execute(
      "CREATE TABLE orders (id INTEGER NOT NULL PRIMARY KEY, total DECIMAL(18,2), note TEXT);"
      "CREATE VIEW big_orders AS SELECT * FROM orders WHERE total > 100;"
      "CREATE INDEX orders_total_idx ON orders (total);"
      "INSERT INTO orders VALUES (1, 10.5, 'a'), (2, 200, 'b'), (3, 300, NULL);"
      "ANALYZE");
  EXPECT_TRUE(conn->ListNamespaces(IntrospectionOptions{}).names.empty());  // schemaless
  CheckTablesAndColumns(*conn, std::nullopt, "orders", "big_orders", false);
  TableStats stats = conn->GetTableStats(std::nullopt, "orders");
  EXPECT_EQ(stats.stats_source, "sqlite_stat1");
  EXPECT_EQ(stats.row_estimate, 3);
  ASSERT_EQ(stats.indexes.size(), 1u);
  EXPECT_EQ(stats.indexes[0].name, "orders_total_idx");
  // SQLite's catalog holds no column stats: every column is listed, stats absent, except
  // the distinct count an index's sqlite_stat1 average implies for its leading column.
  ASSERT_EQ(stats.columns.size(), 3u);
  EXPECT_EQ(stats.columns[0].name, "id");
  EXPECT_FALSE(stats.columns[0].n_distinct);
  EXPECT_EQ(stats.columns[1].name, "total");
  EXPECT_EQ(stats.columns[1].n_distinct, 3.0);
  EXPECT_FALSE(stats.columns[2].null_fraction);
  EXPECT_EQ(stats.ToJson()["columns"].size(), 3u);
}

TEST_F(SqliteConnectorTest, TableStatsBeforeAnalyzeListColumnsWithSourceNone) {
  auto conn = connector_->Acquire();
  conn->Execute("CREATE TABLE fresh (id INTEGER PRIMARY KEY, label TEXT, at TIMESTAMP)");
  TableStats stats = conn->GetTableStats(std::nullopt, "fresh");
  EXPECT_EQ(stats.stats_source, "none");
  EXPECT_FALSE(stats.row_estimate);
  Json json = stats.ToJson();
  ASSERT_EQ(json["columns"].size(), 3u);
  EXPECT_EQ(json["columns"][2], (Json{{"name", "at"}, {"distinct_is_ratio", false}}));
  conn->Execute("DROP TABLE fresh");
}

void CheckHostileIdentifiers(Connector& connector) {
  const std::string table = "dp \"we`ird'; DROP TABLE x; --";
  const std::string column = "col \"x\" `y`";
  auto conn = connector.Acquire();
  std::string quoted = connector.QuoteIdentifier(table);
  conn->Execute("DROP TABLE IF EXISTS " + quoted);
  conn->Execute("CREATE TABLE " + quoted + " (" + connector.QuoteIdentifier(column) + " INTEGER)");
  conn->Execute("INSERT INTO " + quoted + " VALUES (7)");
  Json value;
  QueryResult result = conn->Query(
      "SELECT " + connector.QuoteIdentifier(column) + " FROM " + quoted + connector.LimitClause(1),
      {}, QueryOptions{}, [&](const RowView& row) { return value = row.Wire(0), true; });
  EXPECT_EQ(value, 7);
  EXPECT_EQ(result.columns[0].name, column);
  TableListing listing = conn->ListTables(std::nullopt, IntrospectionOptions{});
  EXPECT_TRUE(FindTable(listing, table));
  conn->Execute("DROP TABLE " + quoted);
  EXPECT_THROW(connector.QuoteIdentifier(std::string("bad\0name", 8)), DomainError);
}

TEST_F(PostgresConnectorTest, HostileIdentifiersAreQuoted) { CheckHostileIdentifiers(*connector_); }
TEST_F(MysqlConnectorTest, HostileIdentifiersAreQuoted) { CheckHostileIdentifiers(*connector_); }
TEST_F(SqliteConnectorTest, HostileIdentifiersAreQuoted) { CheckHostileIdentifiers(*connector_); }
TEST_F(DuckdbConnectorTest, HostileIdentifiersAreQuoted) { CheckHostileIdentifiers(*connector_); }

}  // namespace
}  // namespace dp::test
