#include "datapipelines/connectors/introspection.hpp"

namespace dp {

Json TableStats::ToJson() const {
  Json out = Json::object();
  if (row_estimate) out["row_estimate"] = *row_estimate;
  if (stats_as_of) out["stats_as_of"] = *stats_as_of;
  out["stats_source"] = stats_source;
  out["indexes"] = Json::array();
  for (const auto& index : indexes) {
    out["indexes"].push_back(Json{{"name", index.name},
                                  {"columns", index.columns},
                                  {"unique", index.unique},
                                  {"primary", index.primary},
                                  {"kind", index.kind}});
  }
  out["columns"] = Json::array();
  for (const auto& column : columns) {
    Json entry{{"name", column.name}};
    if (column.n_distinct) entry["n_distinct"] = *column.n_distinct;
    entry["distinct_is_ratio"] = column.distinct_is_ratio;
    if (column.null_fraction) entry["null_fraction"] = *column.null_fraction;
    if (column.min) entry["min"] = *column.min;
    if (column.max) entry["max"] = *column.max;
    out["columns"].push_back(std::move(entry));
  }
  return out;
}

}  // namespace dp
