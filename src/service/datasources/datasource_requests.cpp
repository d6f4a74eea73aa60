#include "datapipelines/service/datasources/datasource_requests.hpp"

#include "datapipelines/connectors/canonical_type.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/domain/request_fields.hpp"

namespace dp {
namespace {

[[noreturn]] void Invalid(const std::string& message, const std::string& field) {
  throw DomainError(errc::kRequestInvalid, message, Json{{"field", field}});
}

}  // namespace

TableLocator TableLocator::FromJson(const Json& args) {
  TableLocator locator;
  locator.datasource = OptionalStringField(args, "name").value_or("");
  locator.table = OptionalStringField(args, "table").value_or("");
  locator.schema = OptionalStringField(args, "schema");
  if (auto it = args.find("namespace"); it != args.end() && !it->is_null()) {
    if (!it->is_array()) Invalid("'namespace' must be an array of strings.", "namespace");
    std::vector<std::string> path;
    for (const auto& segment : *it) {
      if (!segment.is_string()) Invalid("'namespace' must be an array of strings.", "namespace");
      path.push_back(segment.get<std::string>());
    }
    locator.namespace_path = std::move(path);
  }
  return locator;
}

PreviewRequest PreviewRequest::FromJson(const Json& args) {
  PreviewRequest request;
  request.locator = TableLocator::FromJson(args);
  request.limit = OptionalIntField(args, "limit").value_or(50);
  if (auto it = args.find("order_by"); it != args.end() && !it->is_null()) {
    if (!it->is_array()) Invalid("'order_by' must be an array of {column, direction}.", "order_by");
    for (const auto& term : *it) {
      // A free "col DESC" string is refused, never parsed (§6.2.19).
      if (!term.is_object() || !term.contains("column") || !term["column"].is_string()) {
        Invalid("each order_by entry must be an object {column, direction}.", "order_by");
      }
      OrderTerm order{term["column"].get<std::string>(), false};
      std::string direction = term.value("direction", std::string("ASC"));
      if (direction != "ASC" && direction != "DESC") {
        Invalid("order_by direction must be ASC or DESC.", "order_by");
      }
      order.descending = direction == "DESC";
      request.order_by.push_back(std::move(order));
    }
  }
  return request;
}

ProbeRequest ProbeRequest::FromJson(const Json& args) {
  ProbeRequest request;
  request.datasource = OptionalStringField(args, "name").value_or("");
  request.sql = OptionalStringField(args, "sql").value_or("");
  request.limit = OptionalIntField(args, "limit").value_or(50);
  request.timeout_seconds = OptionalIntField(args, "timeout_seconds").value_or(10);
  if (auto it = args.find("parameters"); it != args.end() && !it->is_null()) {
    if (!it->is_object()) Invalid("'parameters' must be an object.", "parameters");
    for (const auto& [name, spec] : it->items()) {
      if (!spec.is_object() || !spec.contains("type") || !spec["type"].is_string()) {
        Invalid("parameter '" + name + "' needs a canonical type.", "parameters");
      }
      auto type = ParseCanonicalType(spec["type"].get<std::string>());
      if (!type || *type == CanonicalType::kNull) {
        Invalid("parameter '" + name + "' has an unknown type.", "parameters");
      }
      Json value = spec.contains("value") ? spec["value"] : Json();
      if (!value.is_null() && !value.is_string()) {
        Invalid("parameter '" + name + "' value must be its wire string or null.", "parameters");
      }
      BindValue bind{*type, value};
      bind.DriverText(name);  // mistyped values are argument faults, refused before any lease
      request.parameters[name] = std::move(bind);
    }
  }
  return request;
}

DatasourceListQuery DatasourceListQuery::FromJson(const Json& arguments) {
  DatasourceListQuery query;
  query.instance_registry = OptionalStringField(arguments, "scope") == "instance";
  query.dialect = OptionalStringField(arguments, "dialect");
  query.window = ListWindow::FromJson(arguments, kWindowRules);
  return query;
}

}  // namespace dp
