#pragma once
// The closed kind list of the learned semantic layer (enums.md §19, the learned-semantic-layer
// design §4) and the trust ladder (§5). Each kind belongs to exactly one scope; nothing JDBC
// metadata already provides (type, nullable, key, comment, partition) is a kind (D-S2).
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace dp {

enum class FactScope { kDatasource, kWorkspace };

std::string_view ToString(FactScope scope);
std::optional<FactScope> ParseFactScope(std::string_view text);

struct FactKind {
  std::string_view name;
  FactScope scope;
};

// The twelve kinds, in the order enums.md §19 lists them.
std::span<const FactKind> AllFactKinds();
// The kind's scope, or nullopt for a name outside the closed list.
std::optional<FactScope> ScopeOfKind(std::string_view kind);

// Trust states. Demotions by machine only ever move right along
// {asserted, observed, verified} → needs_review → stale; retired is explicit.
namespace trust {
inline constexpr std::string_view kAsserted = "asserted";
inline constexpr std::string_view kObserved = "observed";
inline constexpr std::string_view kVerified = "verified";
inline constexpr std::string_view kNeedsReview = "needs_review";
inline constexpr std::string_view kStale = "stale";
inline constexpr std::string_view kRetired = "retired";
}  // namespace trust

// How far down the drift ladder a trust state is: 0 for a live undemoted fact, 1 for
// needs_review, 2 for stale, 3 for retired. A demotion only ever raises it.
int DriftRank(std::string_view trust);

}  // namespace dp
