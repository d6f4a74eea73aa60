#include "datapipelines/semantics/drift_check.hpp"

#include "datapipelines/semantics/fact_kind.hpp"
#include "datapipelines/semantics/schema_fingerprint.hpp"

namespace dp {
namespace {

DriftVerdict Stale(std::string why) { return {std::string(trust::kStale), std::move(why)}; }

}  // namespace

std::optional<DriftVerdict> DriftCheck::FromColumns(const std::vector<FactRef>& refs,
                                                    const std::string& stored_fingerprint,
                                                    const FactRef& table,
                                                    const std::vector<ColumnSchema>& columns) {
  bool on_table = false;
  for (const auto& ref : refs) {
    if (!ref.SameTable(table)) continue;
    on_table = true;
    if (ref.column.empty()) continue;
    bool present = false;
    for (const auto& column : columns) present = present || column.name == ref.column;
    if (!present) return Stale("column " + ref.column + " no longer exists");
  }
  if (!on_table) return std::nullopt;
  auto recorded = SchemaFingerprint::Parse(stored_fingerprint).Digest(table.TableKey());
  if (recorded && *recorded != SchemaFingerprint::TableDigest(columns)) {
    return DriftVerdict{std::string(trust::kNeedsReview),
                        "table columns changed since this was recorded"};
  }
  return std::nullopt;
}

std::optional<DriftVerdict> DriftCheck::FromListing(const std::vector<FactRef>& refs,
                                                    const std::set<std::string>& listed_keys) {
  for (const auto& ref : refs) {
    if (!listed_keys.count(ref.TableKey())) {
      return Stale("table " + ref.TableKey() + " no longer exists");
    }
  }
  return std::nullopt;
}

std::optional<DriftVerdict> DriftCheck::TableGone(const std::vector<FactRef>& refs,
                                                  const FactRef& table) {
  for (const auto& ref : refs) {
    if (ref.SameTable(table)) return Stale("table " + table.TableKey() + " no longer exists");
  }
  return std::nullopt;
}

bool DriftCheck::Demotes(std::string_view current, std::string_view proposed) {
  int from = DriftRank(current);
  return from < 3 && DriftRank(proposed) > from;
}

}  // namespace dp
