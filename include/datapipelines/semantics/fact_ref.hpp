#pragma once
// One structural reference of a learned fact (design §3.1): a table, or a column of it, on the
// fact's datasource. schema is empty on a schemaless dialect (SQLite); column is empty for a
// table-grain fact. Refs are stored normalised — sorted and without repeats — so the duplicate
// refusal compares them as one value.
#include <string>
#include <vector>

#include "datapipelines/util/json.hpp"

namespace dp {

struct FactRef {
  std::string schema;
  std::string table;
  std::string column;

  // "schema.table", or "table" without a schema: the fingerprint's and the drift check's key.
  std::string TableKey() const;
  bool SameTable(const FactRef& other) const {
    return schema == other.schema && table == other.table;
  }
  // {"schema": s|null, "table": t, "column": c|null}.
  Json ToJson() const;
  // From the stored/wire shape; absent or null members are empty.
  static FactRef FromJson(const Json& ref);

  friend bool operator==(const FactRef&, const FactRef&) = default;
  friend auto operator<=>(const FactRef&, const FactRef&) = default;
};

// Sorted by (schema, table, column), repeats dropped.
std::vector<FactRef> NormaliseRefs(std::vector<FactRef> refs);
Json RefsToJson(const std::vector<FactRef>& refs);
std::vector<FactRef> RefsFromJson(const Json& refs);

}  // namespace dp
