// Published endpoints and their key bindings (migration 0008), written once in the portable
// subset over the metadata database's connection.
#include <stdexcept>
#include <string>

#include "datapipelines/store/endpoint_store.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/sql_executor.hpp"
#include "sql_cells.hpp"

namespace dp {

using sql_cells::Bool;
using sql_cells::Int;
using sql_cells::Text;

namespace {

constexpr const char* kColumns =
    "id, workspace_id, path_pattern, pipeline_id, timeout_seconds, description, is_enabled, "
    "created_by, created_at_ms, updated_at_ms";
constexpr const char* kBindingColumns =
    "path_prefix, api_key_id, workspace_id, created_by, created_at_ms";

PublishedEndpointRecord ToRecord(const SqlRow& r) {
  PublishedEndpointRecord e;
  e.id = Text(r, 0);
  e.workspace_id = Text(r, 1);
  e.path = Text(r, 2);
  e.pipeline_id = Text(r, 3);
  e.timeout_seconds = static_cast<int>(Int(r, 4));
  e.description = Text(r, 5);
  e.enabled = Int(r, 6) != 0;
  e.created_by = Text(r, 7);
  e.created_at_ms = Int(r, 8);
  e.updated_at_ms = Int(r, 9);
  return e;
}

EndpointKeyBinding ToBinding(const SqlRow& r) {
  return EndpointKeyBinding{Text(r, 0), Text(r, 1), Text(r, 2), Text(r, 3), Int(r, 4)};
}

class SqlEndpointStore : public EndpointStore {
 public:
  explicit SqlEndpointStore(SqlExecutor& sql) : sql_(sql) {}

  bool Insert(const PublishedEndpointRecord& e) override {
    try {
      sql_.Execute(
          std::string("INSERT INTO published_endpoints (") + kColumns +
              ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
          {e.id, e.workspace_id, e.path, e.pipeline_id, int64_t{e.timeout_seconds}, e.description,
           Bool(e.enabled), e.created_by, e.created_at_ms, e.updated_at_ms});
      return true;
    } catch (const DuplicateKeyError&) {
      return false;
    }
  }

  std::optional<PublishedEndpointRecord> FindByPath(const std::string& path) override {
    auto rows = sql_.Query(
        std::string("SELECT ") + kColumns + " FROM published_endpoints WHERE path_pattern = $1",
        {path});
    if (rows.empty()) return std::nullopt;
    return ToRecord(rows.front());
  }

  std::vector<PublishedEndpointRecord> ListAll() override {
    std::vector<PublishedEndpointRecord> out;
    for (const auto& row : sql_.Query(
             std::string("SELECT ") + kColumns + " FROM published_endpoints ORDER BY path_pattern",
             {})) {
      out.push_back(ToRecord(row));
    }
    return out;
  }

  std::vector<PublishedEndpointRecord> ListByPipeline(const std::string& pipeline_id) override {
    std::vector<PublishedEndpointRecord> out;
    for (const auto& row : sql_.Query(std::string("SELECT ") + kColumns +
                                          " FROM published_endpoints WHERE pipeline_id = $1 "
                                          "ORDER BY path_pattern",
                                      {pipeline_id})) {
      out.push_back(ToRecord(row));
    }
    return out;
  }

  bool Delete(const std::string& id) override {
    return sql_.Execute("DELETE FROM published_endpoints WHERE id = $1", {id}) == 1;
  }

  bool InsertBinding(const EndpointKeyBinding& b) override {
    try {
      sql_.Execute(std::string("INSERT INTO endpoint_key_bindings (") + kBindingColumns +
                       ") VALUES ($1, $2, $3, $4, $5)",
                   {b.path_prefix, b.api_key_id, b.workspace_id, b.created_by, b.created_at_ms});
      return true;
    } catch (const DuplicateKeyError&) {
      return false;
    }
  }

  bool DeleteBinding(const std::string& path_prefix, const std::string& api_key_id) override {
    return sql_.Execute(
               "DELETE FROM endpoint_key_bindings WHERE path_prefix = $1 AND api_key_id = $2",
               {path_prefix, api_key_id}) == 1;
  }

  std::vector<EndpointKeyBinding> BindingsAt(const std::vector<std::string>& prefixes) override {
    std::vector<EndpointKeyBinding> out;
    if (prefixes.empty()) return out;
    std::string sql = std::string("SELECT ") + kBindingColumns +
                      " FROM endpoint_key_bindings WHERE path_prefix IN (";
    std::vector<SqlValue> params;
    for (std::size_t i = 0; i < prefixes.size(); ++i) {
      sql += (i ? ", $" : "$") + std::to_string(i + 1);
      params.emplace_back(prefixes[i]);
    }
    sql += ") ORDER BY path_prefix, api_key_id";
    for (const auto& row : sql_.Query(sql, params)) out.push_back(ToBinding(row));
    return out;
  }

  std::vector<EndpointKeyBinding> ListBindings(const std::string& workspace_id) override {
    std::vector<EndpointKeyBinding> out;
    for (const auto& row :
         sql_.Query(std::string("SELECT ") + kBindingColumns +
                        " FROM endpoint_key_bindings WHERE workspace_id = $1 ORDER BY "
                        "path_prefix, api_key_id",
                    {workspace_id})) {
      out.push_back(ToBinding(row));
    }
    return out;
  }

 private:
  SqlExecutor& sql_;
};

}  // namespace

std::unique_ptr<EndpointStore> OpenEndpointStore(MetadataStore& metadata) {
  return std::make_unique<SqlEndpointStore>(metadata);
}

}  // namespace dp
