#pragma once
// The read-time drift check (design §6, spec §6.2.18a): from the columns a read just listed, or
// from a COMPLETE tables listing, decide whether a fact's refs still resolve. Nothing re-maps:
// a ref that no longer resolves makes the fact stale; a changed column set around refs that
// still resolve makes it needs_review. Demotions are one-way.
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/connectors/column_schema.hpp"
#include "datapipelines/semantics/fact_ref.hpp"

namespace dp {

struct DriftVerdict {
  std::string trust;  // needs_review | stale
  std::string drift;  // why, for the reader
};

class DriftCheck {
 public:
  // The fact's refs on `table` against the columns just read for it; nullopt = unchanged.
  static std::optional<DriftVerdict> FromColumns(const std::vector<FactRef>& refs,
                                                 const std::string& stored_fingerprint,
                                                 const FactRef& table,
                                                 const std::vector<ColumnSchema>& columns);
  // Every ref's table against a complete listing's table keys; nullopt = all listed.
  static std::optional<DriftVerdict> FromListing(const std::vector<FactRef>& refs,
                                                 const std::set<std::string>& listed_keys);
  // `table` is gone (a columns read refused it as not found).
  static std::optional<DriftVerdict> TableGone(const std::vector<FactRef>& refs,
                                               const FactRef& table);
  // Whether moving from `current` to `proposed` is a demotion (never a promotion, never out
  // of retired, never twice the same).
  static bool Demotes(std::string_view current, std::string_view proposed);
};

}  // namespace dp
