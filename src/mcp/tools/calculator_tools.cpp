#include "datapipelines/mcp/tools/calculator_tools.hpp"

#include <string>

#include "datapipelines/calculators/calculator_catalog.hpp"
#include "datapipelines/calculators/calculator_context.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"

namespace dp {
namespace {

constexpr const char* kCalculatorDocs = "datapipelines://docs/skill/calculators";

Json NameTypePairs(const std::vector<ContextKeyInfo>& keys) {
  Json pairs = Json::array();
  for (const auto& key : keys) pairs.push_back({{"name", key.name}, {"type", key.type}});
  return pairs;
}

// Built once: the catalog never changes while the process runs.
const Json& CalculatorListing() {
  static const Json kListing = [] {
    Json kinds = Json::array();
    for (const auto& kind : AllCalculators()) kinds.push_back(kind.ToJson());
    const size_t count = kinds.size();
    return Json{{"kinds", std::move(kinds)},
                {"count", count},
                {"context_keys",
                 {{"org", NameTypePairs(OrgContextKeys())},
                  {"platform", NameTypePairs(PlatformContextKeys())}}},
                {"docs", kCalculatorDocs}};
  }();
  return kListing;
}

}  // namespace

void BindCalculatorTools(ToolCatalog& catalog, const OrgSettings& /*org*/) {
  catalog.Bind("calculators_list", [](const ToolCall&) { return CalculatorListing(); });
  catalog.Bind("calculators_get", [](const ToolCall& call) {
    const Json& kind = call.arguments["kind"];
    const CalculatorKind* found =
        kind.is_string() ? FindCalculator(kind.get<std::string>()) : nullptr;
    if (!found) {
      const std::string shown = kind.is_string() ? kind.get<std::string>() : kind.dump();
      throw DomainError(errc::kPipelineCalculatorUnknown,
                        "unknown calculator kind '" + shown + "'; calculators_list lists them",
                        Json{{"kind", kind}, {"known_kinds", CalculatorKindNames()}});
    }
    Json entry = found->ToJson();
    entry["docs"] = kCalculatorDocs;
    return entry;
  });
}

}  // namespace dp
