// DatasourceExplorer's catalog half: schemas → tables → columns, table statistics and the row
// preview (MCP spec §6.2.16–19, §6.2.33; datasources.md §7A). Every read runs on a pooled lease
// of the datasource's one connector; identifiers are only ever bound or quoted.
#include <algorithm>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/service/datasources/datasource_explorer.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/service/semantics/learned_facts_enricher.hpp"
#include "datapipelines/store/datasource_store.hpp"
#include "datapipelines/store/workspace_store.hpp"
#include "datasource_rules.hpp"
#include "payload_budget.hpp"

namespace dp {
namespace {

// The locator's namespace as the single-level schema filter our dialects have; a deeper
// path (or dotted catalog.schema) names nothing on them.
struct SchemaFilter {
  bool matches_nothing = false;
  std::optional<std::string> schema;
};

SchemaFilter FilterOf(const TableLocator& locator) {
  if (locator.namespace_path) {
    const auto& path = *locator.namespace_path;
    if (path.empty()) return {};
    if (path.size() == 1) return {false, path[0]};
    return {true, std::nullopt};
  }
  if (locator.schema && !locator.schema->empty()) {
    if (locator.schema->find('.') != std::string::npos) return {true, std::nullopt};
    return {false, *locator.schema};
  }
  return {};
}

IntrospectionOptions OptionsOf(const DatasourceRecord& record) {
  IntrospectionOptions options;
  options.include_schemas = record.include_schemas;
  return options;
}

Json NamespaceOf(const std::string& schema) {
  return schema.empty() ? Json::array() : Json::array({schema});
}

// Runs `fn(connector, connection)` on a lease; connector failures leave translated.
template <typename Fn>
auto WithLease(const std::shared_ptr<Connector>& connector, const std::string& name, Fn fn) {
  try {
    auto lease = connector->Acquire();
    return fn(*connector, *lease);
  } catch (const DomainError& error) {
    throw datasource_rules::Translate(error, name, connector->config());
  }
}

[[noreturn]] void TableNotFound(Connection& conn, const DatasourceRecord& record,
                                const std::string& table, const IntrospectionOptions& options) {
  TableListing all = conn.ListTables(std::nullopt, options);
  std::vector<std::string> names;
  for (const auto& info : all.tables) names.push_back(info.name);
  // SQLite's catalog is complete; PG and MySQL filter it by the credentials' privileges.
  bool complete = record.dialect == "SQLITE";
  std::string message = "Table '" + table + "' does not exist" +
                        (complete ? "" : ", or the datasource's credentials cannot see it") + ".";
  Json details{{"datasource", record.name}, {"table", table}};
  bool lake = record.dialect == "LAKE";
  if (lake) message = "Table '" + table + "' is not in this lake datasource's registry.";
  if (auto nearest = datasource_rules::Nearest(table, names)) {
    for (const auto& info : all.tables) {
      if (info.name != *nearest) continue;
      message +=
          " Did you mean '" + (info.schema.empty() ? "" : info.schema + ".") + *nearest + "'?";
      details["nearest"] = {{"name", *nearest}, {"namespace", NamespaceOf(info.schema)}};
      break;
    }
  }
  throw DomainError(lake ? errc::kLakeTableNotFound : errc::kDatasourceTableNotFound, message,
                    details);
}

// The schema the table lives in (the filter, else the session's current one), or
// datasource.table_not_found naming the nearest listed table.
std::optional<std::string> ResolveTable(Connection& conn, const DatasourceRecord& record,
                                        const SchemaFilter& filter, const std::string& table) {
  IntrospectionOptions options = OptionsOf(record);
  if (filter.matches_nothing) TableNotFound(conn, record, table, options);
  std::optional<std::string> schema = filter.schema;
  if (!schema && record.dialect != "SQLITE") {
    schema = conn.CurrentSchema();
    if (!schema || schema->empty()) {
      throw DomainError(errc::kParameterRequired,
                        "The datasource reports no current schema: pass the table's namespace "
                        "(datasources_get_schemas lists them).",
                        Json{{"parameter", "namespace"}, {"datasource", record.name}});
    }
  }
  for (const auto& info : conn.ListTables(schema, options).tables) {
    if (info.name == table) return schema;
  }
  TableNotFound(conn, record, table, options);
}

void RequireIdentifier(const std::string& value, const std::string& field) {
  if (value.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw DomainError(errc::kRequestInvalid, "'" + field + "' may not be blank.",
                      Json{{"field", field}});
  }
}

// Order terms name real columns: an unknown one is an argument fault, never a guess (SQLite
// would otherwise read a quoted unknown identifier as a string literal and sort by nothing).
void RequireColumns(Connection& conn, const DatasourceRecord& record,
                    const std::optional<std::string>& schema, const std::string& table,
                    const std::vector<OrderTerm>& order_by) {
  if (order_by.empty()) return;
  auto columns = conn.ListColumns(schema, table, OptionsOf(record));
  for (const auto& term : order_by) {
    bool known = std::any_of(columns.begin(), columns.end(),
                             [&](const ColumnSchema& c) { return c.name == term.column; });
    if (!known) {
      throw DomainError(errc::kRequestInvalid,
                        "order_by column '" + term.column + "' is not a column of '" + table +
                            "' (datasources_get_columns lists them).",
                        Json{{"field", "order_by.column"}});
    }
  }
}

}  // namespace

DatasourceExplorer::DatasourceExplorer(DatasourceService& registry,
                                       DatasourceExplorerOptions options)
    : registry_(registry), options_(options) {}

Json DatasourceExplorer::GetSchemas(const Principal& principal, const std::string& name) {
  EnforceAccess(principal, Operation::kDatasourcesGetSchemas);
  DatasourceRecord record = registry_.RequireVisible(principal, name);
  return WithLease(registry_.ConnectorFor(record), name, [&](Connector&, Connection& conn) {
    NamespaceListing listing = conn.ListNamespaces(OptionsOf(record));
    Json entries = Json::array();
    for (const auto& label : listing.names) {
      entries.push_back({{"namespace", Json::array({label})}, {"label", label}});
    }
    return Json{{"schemas", listing.names}, {"entries", entries}, {"truncated", listing.truncated}};
  });
}

Json DatasourceExplorer::GetTables(const Principal& principal, const TableLocator& locator) {
  EnforceAccess(principal, Operation::kDatasourcesGetTables);
  DatasourceRecord record = registry_.RequireVisible(principal, locator.datasource);
  SchemaFilter filter = FilterOf(locator);
  if (filter.matches_nothing) return Json{{"tables", Json::array()}, {"truncated", false}};
  TableListing listing;
  Json out = WithLease(
      registry_.ConnectorFor(record), record.name, [&](Connector& connector, Connection& conn) {
        listing = conn.ListTables(filter.schema, OptionsOf(record));
        Json tables = Json::array();
        for (const auto& info : listing.tables) {
          Json entry{{"namespace", NamespaceOf(info.schema)}};
          if (!info.schema.empty()) entry["schema"] = info.schema;
          entry["name"] = info.name;
          entry["type"] = info.type;
          if (info.remarks && !info.remarks->empty()) entry["remarks"] = *info.remarks;
          if (connector.dialect() == Dialect::kLake) {
            // §6.2.17: a LAKE table's registered partition column, null when unpartitioned.
            entry["partition_column"] = nullptr;
            for (const auto& lake : connector.config().lake_tables) {
              if (lake.name == info.name && !lake.ns.empty() && lake.ns.back() == info.schema) {
                if (lake.partition_column) entry["partition_column"] = *lake.partition_column;
                if (lake.ns.size() > 1) entry["namespace"] = lake.ns;
              }
            }
          }
          tables.push_back(std::move(entry));
        }
        return Json{{"tables", tables}, {"truncated", listing.truncated}};
      });
  if (registry_.fact_enricher()) {
    // Only a COMPLETE listing proves a table is gone (§6.2.17).
    bool complete = !filter.schema && !listing.truncated;
    registry_.fact_enricher()->DecorateTables(principal, record.name, listing.tables, complete,
                                              out["tables"]);
  }
  return out;
}

Json DatasourceExplorer::GetColumns(const Principal& principal, const TableLocator& locator) {
  EnforceAccess(principal, Operation::kDatasourcesGetColumns);
  RequireIdentifier(locator.table, "table");
  DatasourceRecord record = registry_.RequireVisible(principal, locator.datasource);
  SchemaFilter filter = FilterOf(locator);
  std::string schema;  // where the columns were read: the learned facts' table key
  std::optional<DomainError> gone;
  auto columns =
      WithLease(registry_.ConnectorFor(record), record.name, [&](Connector&, Connection& conn) {
        if (filter.matches_nothing) TableNotFound(conn, record, locator.table, OptionsOf(record));
        auto read = conn.ListColumns(filter.schema, locator.table, OptionsOf(record));
        if (registry_.fact_enricher()) {
          // SQLite is schemaless: its facts' refs carry no schema, whatever the locator said.
          if (record.dialect != "SQLITE") {
            schema = filter.schema ? *filter.schema : conn.CurrentSchema().value_or("");
          }
        }
        // An existing table with no readable column is an empty list; a missing one is refused.
        if (read.empty()) {
          try {
            ResolveTable(conn, record, filter, locator.table);
          } catch (const DomainError& error) {
            if (!registry_.fact_enricher() || error.code() != errc::kDatasourceTableNotFound) throw;
            gone = error;
          }
        }
        return read;
      });
  if (gone) {
    registry_.fact_enricher()->TableGone(principal, record.name, schema, locator.table);
    throw *gone;
  }
  Json out = Json::array();
  for (const auto& column : columns) out.push_back(column.ToCatalogJson());
  if (registry_.fact_enricher()) {
    registry_.fact_enricher()->DecorateColumns(principal, record.name, schema, locator.table,
                                               columns, out);
  }
  return out;
}

DatasourceExplorer::LiveCatalog DatasourceExplorer::ReadCatalog(const Principal& principal,
                                                                const std::string& name) {
  DatasourceRecord record = registry_.RequireVisible(principal, name);
  return WithLease(registry_.ConnectorFor(record), record.name, [&](Connector&, Connection& conn) {
    LiveCatalog catalog;
    catalog.tables = conn.ListTables(std::nullopt, OptionsOf(record)).tables;
    if (record.dialect != "SQLITE") catalog.current_schema = conn.CurrentSchema().value_or("");
    return catalog;
  });
}

std::optional<std::vector<ColumnSchema>> DatasourceExplorer::ReadTableColumns(
    const Principal& principal, const std::string& name, const std::string& schema,
    const std::string& table) {
  DatasourceRecord record = registry_.RequireVisible(principal, name);
  return WithLease(registry_.ConnectorFor(record), record.name,
                   [&](Connector&, Connection& conn) -> std::optional<std::vector<ColumnSchema>> {
                     std::optional<std::string> filter;
                     if (!schema.empty()) filter = schema;
                     bool listed = false;
                     for (const auto& info : conn.ListTables(filter, OptionsOf(record)).tables) {
                       listed = listed || (info.name == table && info.schema == schema);
                     }
                     if (!listed) return std::nullopt;
                     return conn.ListColumns(filter, table, OptionsOf(record));
                   });
}

Json DatasourceExplorer::GetTableStats(const Principal& principal, const TableLocator& locator) {
  EnforceAccess(principal, Operation::kDatasourcesGetTableStats);
  RequireIdentifier(locator.table, "table");
  DatasourceRecord record = registry_.RequireVisible(principal, locator.datasource);
  return WithLease(registry_.ConnectorFor(record), record.name, [&](Connector&, Connection& conn) {
    auto schema = ResolveTable(conn, record, FilterOf(locator), locator.table);
    return conn.GetTableStats(schema, locator.table).ToJson();
  });
}

Json DatasourceExplorer::PreviewRows(const Principal& principal, const PreviewRequest& request) {
  EnforceAccess(principal, Operation::kDatasourcesPreviewRows);
  const TableLocator& locator = request.locator;
  RequireIdentifier(locator.table, "table");
  if (locator.schema) RequireIdentifier(*locator.schema, "schema");
  for (const auto& term : request.order_by) RequireIdentifier(term.column, "order_by.column");
  int limit = std::clamp(request.limit, 1, options_.max_preview_rows);
  std::optional<UserConcurrency::Permit> permit;
  if (options_.expensive) permit.emplace(options_.expensive->Acquire(principal.user_id));
  DatasourceRecord record = registry_.RequireVisible(principal, locator.datasource);
  SchemaFilter filter;
  if (locator.schema) filter.schema = *locator.schema;  // preview's schema is one identifier
  return WithLease(
      registry_.ConnectorFor(record), record.name, [&](Connector& connector, Connection& conn) {
        // Resolve before any statement runs (123 §A), then build the whole statement here.
        auto schema = ResolveTable(conn, record, filter, locator.table);
        RequireColumns(conn, record, schema, locator.table, request.order_by);
        std::string sql =
            "SELECT * FROM " + (locator.schema
                                    ? connector.QuoteQualified({*locator.schema, locator.table})
                                    : connector.QuoteIdentifier(locator.table));
        for (std::size_t i = 0; i < request.order_by.size(); ++i) {
          sql += (i == 0 ? " ORDER BY " : ", ") +
                 connector.QuoteIdentifier(request.order_by[i].column) +
                 (request.order_by[i].descending ? " DESC" : " ASC");
        }
        sql += connector.LimitClause(limit + 1);  // one extra row tells whether more exist
        // The extra row is read, not refused: stopping short would cancel the statement on the
        // server (a second connection and round trip) for every full preview.
        QueryOptions options;
        options.max_rows = limit + 1;
        Json rows = Json::array();
        bool more = false;
        PayloadBudget budget(options_.max_cell_bytes, options_.max_payload_bytes);
        QueryResult result = conn.Query(sql, {}, options, [&](const RowView& row) {
          if (static_cast<int>(rows.size()) == limit) {
            more = true;
            return true;
          }
          Json wire = row.ToWireObject();
          if (!budget.Admit(wire)) return false;
          rows.push_back(std::move(wire));
          return true;
        });
        Json columns = Json::array();
        for (const auto& column : result.columns) {
          columns.push_back({{"name", column.name}, {"type", ToString(column.mapping.type)}});
        }
        Json out{{"datasource", record.name}, {"table", locator.table}};
        if (schema && !schema->empty()) out["schema"] = *schema;
        out["columns"] = columns;
        out["rows"] = rows;
        out["row_count"] = rows.size();
        out["truncated"] = more || result.truncated;
        budget.Report(out);
        return out;
      });
}

}  // namespace dp
