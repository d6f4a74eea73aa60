#include "datapipelines/connectors/column_schema.hpp"

namespace dp {

Json TypeWarning::ToJson() const {
  return Json{
      {"code", code}, {"message", message}, {"column", column}, {"source_type", source_type}};
}

Json ColumnSchema::ToDescriptor() const {
  Json out{{"name", name}, {"type", std::string(ToString(mapping.type))}};
  if (mapping.precision) out["precision"] = *mapping.precision;
  if (mapping.scale) out["scale"] = *mapping.scale;
  if (nullable) out["nullable"] = *nullable;
  return out;
}

Json ColumnSchema::ToCatalogJson() const {
  Json out = ToDescriptor();
  out["source_type"] = source_type;
  out["warnings"] = Json::array();
  if (mapping.warning) out["warnings"].push_back(mapping.warning->message);
  if (remarks && !remarks->empty()) out["remarks"] = *remarks;
  return out;
}

}  // namespace dp
