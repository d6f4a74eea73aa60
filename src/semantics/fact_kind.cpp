#include "datapipelines/semantics/fact_kind.hpp"

#include <array>

namespace dp {
namespace {

constexpr std::array<FactKind, 12> kKinds = {{
    {"unit", FactScope::kDatasource},
    {"time_zone", FactScope::kDatasource},
    {"sampling", FactScope::kDatasource},
    {"grain", FactScope::kDatasource},
    {"window", FactScope::kDatasource},
    {"enum_meaning", FactScope::kDatasource},
    {"join", FactScope::kDatasource},
    {"caveat", FactScope::kDatasource},
    {"format", FactScope::kDatasource},
    {"definition", FactScope::kWorkspace},
    {"exclusion", FactScope::kWorkspace},
    {"preference", FactScope::kWorkspace},
}};

}  // namespace

std::string_view ToString(FactScope scope) {
  return scope == FactScope::kDatasource ? "DATASOURCE" : "WORKSPACE";
}

std::optional<FactScope> ParseFactScope(std::string_view text) {
  if (text == "DATASOURCE") return FactScope::kDatasource;
  if (text == "WORKSPACE") return FactScope::kWorkspace;
  return std::nullopt;
}

std::span<const FactKind> AllFactKinds() { return kKinds; }

std::optional<FactScope> ScopeOfKind(std::string_view kind) {
  for (const FactKind& entry : kKinds) {
    if (entry.name == kind) return entry.scope;
  }
  return std::nullopt;
}

int DriftRank(std::string_view trust) {
  if (trust == trust::kRetired) return 3;
  if (trust == trust::kStale) return 2;
  if (trust == trust::kNeedsReview) return 1;
  return 0;
}

}  // namespace dp
