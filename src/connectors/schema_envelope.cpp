#include "datapipelines/connectors/schema_envelope.hpp"

namespace dp {

Json SchemaEnvelope::Warnings(const std::vector<ColumnSchema>& columns) {
  Json out = Json::array();
  for (const auto& column : columns) {
    if (column.mapping.warning) out.push_back(column.mapping.warning->ToJson());
  }
  return out;
}

Json SchemaEnvelope::Build(const std::vector<ColumnSchema>& columns) {
  Json schema = Json::array();
  for (const auto& column : columns) schema.push_back(column.ToDescriptor());
  Json out{{"schema_version", kSchemaVersion}, {"schema", std::move(schema)}};
  Json warnings = Warnings(columns);
  if (!warnings.empty()) out["warnings"] = std::move(warnings);
  return out;
}

}  // namespace dp
