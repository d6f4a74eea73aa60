#include "datapipelines/service/identity/api_key_view.hpp"

#include "datapipelines/util/clock.hpp"

namespace dp {
namespace {

Json OptionalTimestamp(const std::optional<int64_t>& ms) {
  return ms ? Json(FormatIso8601Ms(*ms)) : Json();
}

}  // namespace

Json ApiKeyView(const ApiKeyRecord& key) {
  return Json{{"id", key.id},
              {"name", key.name},
              {"user_id", key.user_id},
              {"workspace_id", key.workspace_id},
              {"kind", std::string(ToString(key.kind))},
              {"scope", std::string(ToString(key.scope))},
              {"revoked", key.is_revoked},
              {"created_at", FormatIso8601Ms(key.created_at_ms)},
              {"expires_at", OptionalTimestamp(key.expires_at_ms)},
              {"last_used_at", OptionalTimestamp(key.last_used_at_ms)},
              // "session", "operator" or the minting key's id; null = not recorded (pre-0010).
              {"minted_by", key.minted_by.empty() ? Json() : Json(key.minted_by)}};
}

}  // namespace dp
