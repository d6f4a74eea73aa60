// The lake registry (migration 0009) in the portable SQL subset over the metadata database's
// connection; the namespace is stored as its JSON segments array.
#include <stdexcept>

#include "datapipelines/lake/lake_table_store.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/sql_executor.hpp"
#include "datapipelines/util/clock.hpp"

namespace dp {

Json LakeTableRecord::ToJson() const {
  Json out{{"namespace", table.ns},
           {"name", table.name},
           {"qualified_name", table.QualifiedName()},
           {"format", table.format},
           {"location", table.location},
           {"partition_column", table.partition_column ? Json(*table.partition_column) : Json()},
           {"registered_at", FormatIso8601Ms(registered_at_ms)}};
  if (!last_error.empty()) out["last_error"] = last_error;
  return out;
}

namespace {

std::string Text(const SqlRow& row, std::size_t i) { return row.at(i).value_or(""); }

class SqlLakeTableStore : public LakeTableStore {
 public:
  explicit SqlLakeTableStore(SqlExecutor& sql) : sql_(sql) {}

  void Insert(const LakeTableRecord& r) override {
    SqlValue partition = nullptr;
    if (r.table.partition_column) partition = *r.table.partition_column;
    sql_.Execute(
        "INSERT INTO lake_tables (datasource_id, namespace_json, name, format, location, "
        "partition_column, registered_by, registered_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, "
        "$8)",
        {r.datasource, Json(r.table.ns).dump(), r.table.name, r.table.format, r.table.location,
         partition, r.registered_by, r.registered_at_ms});
  }

  std::vector<LakeTableRecord> List(const std::string& datasource) override {
    auto rows = sql_.Query(
        "SELECT datasource_id, namespace_json, name, format, location, partition_column, "
        "registered_by, registered_at_ms, last_error FROM lake_tables WHERE datasource_id = $1 "
        "ORDER BY registered_at_ms, namespace_json, name",
        {datasource});
    std::vector<LakeTableRecord> out;
    for (const auto& row : rows) {
      LakeTableRecord r;
      r.datasource = Text(row, 0);
      Json ns = Json::parse(Text(row, 1), nullptr, /*allow_exceptions=*/false);
      if (ns.is_array()) {
        for (const auto& segment : ns) {
          if (segment.is_string()) r.table.ns.push_back(segment.get<std::string>());
        }
      }
      r.table.name = Text(row, 2);
      r.table.format = Text(row, 3);
      r.table.location = Text(row, 4);
      if (row.at(5)) r.table.partition_column = *row.at(5);
      r.registered_by = Text(row, 6);
      r.registered_at_ms = row.at(7) ? std::stoll(*row.at(7)) : 0;
      r.last_error = Text(row, 8);
      out.push_back(std::move(r));
    }
    return out;
  }

  bool Delete(const std::string& datasource, const std::vector<std::string>& ns,
              const std::string& name) override {
    return sql_.Execute(
               "DELETE FROM lake_tables WHERE datasource_id = $1 AND namespace_json = $2 AND "
               "name = $3",
               {datasource, Json(ns).dump(), name}) > 0;
  }

 private:
  SqlExecutor& sql_;
};

}  // namespace

std::unique_ptr<LakeTableStore> OpenLakeTableStore(MetadataStore& metadata) {
  return std::make_unique<SqlLakeTableStore>(metadata);
}

}  // namespace dp
