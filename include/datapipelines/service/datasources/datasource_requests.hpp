#pragma once
// The arguments of the datasource reads (MCP spec §6.2.16–19), parsed once for both surfaces:
// the MCP tools hand over their arguments, the REST routes their path and body, and each
// FromJson refuses a bad shape with request.validation.invalid {field} before anything runs.
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/connectors/bind_value.hpp"
#include "datapipelines/service/list_window.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

// Where a table lives: the namespace array wins over the legacy dotted `schema` string.
struct TableLocator {
  std::string datasource;
  std::optional<std::vector<std::string>> namespace_path;
  std::optional<std::string> schema;
  std::string table;  // empty for the tables listing

  // {name, namespace?, schema?, table?}
  static TableLocator FromJson(const Json& arguments);
};

struct OrderTerm {
  std::string column;
  bool descending = false;
};

struct PreviewRequest {
  TableLocator locator;
  std::vector<OrderTerm> order_by;
  int limit = 50;

  // The locator's fields, limit?, order_by? [{column, direction: ASC|DESC}] — never a free
  // "col DESC" string (§6.2.19).
  static PreviewRequest FromJson(const Json& arguments);
};

struct ProbeRequest {
  std::string datasource;
  std::string sql;
  BindMap parameters;
  int limit = 50;
  int timeout_seconds = 10;

  // {name, sql, limit?, timeout_seconds?, parameters? {name: {type, value}}}; a value that does
  // not read as its type is refused here, before any lease.
  static ProbeRequest FromJson(const Json& arguments);
};

// The paged datasource listing (REST §9.1): the workspace's datasources, or with scope=instance
// the whole registry for an instance admin; one window of them.
struct DatasourceListQuery {
  // The listing's window: a limit clamped into 1..200 (0 reads as 1), a negative limit or offset
  // refused.
  static constexpr ListWindowRules kWindowRules{
      .out_of_range = ListWindowRules::OutOfRange::kClampRefusingNegative};

  std::optional<std::string> dialect;  // empty = every dialect
  bool instance_registry = false;
  ListWindow window;

  // {scope? ("instance" = the registry), dialect?, limit?, offset?}
  static DatasourceListQuery FromJson(const Json& arguments);
};

}  // namespace dp
