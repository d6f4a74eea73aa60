#pragma once
// The resources/list cursor (spec §7.3): an opaque, server-issued token naming the last
// descriptor a page ended on. It is signed (HMAC-SHA256 under a key every instance sharing the
// deployment derives from the configured encryption key) and bound to the API key it was issued
// to, so a cursor the server did not issue — garbage, edited, or another key's — is refused.
// Positions are keys, not offsets: an entity inserted mid-run never shifts a later page.
#include <optional>
#include <string>
#include <string_view>

namespace dp {

// Where a page ended: the kind's rank in the §7.3 order and the descriptor's sort key in it.
struct ResourcePosition {
  int rank = 0;
  std::string key;
};

class ResourceCursor {
 public:
  // `signing_key`: any non-empty secret; the same on every instance of one deployment.
  explicit ResourceCursor(std::string signing_key);

  std::string Issue(const ResourcePosition& position, std::string_view api_key_id) const;
  // nullopt for any token this server did not issue to `api_key_id`.
  std::optional<ResourcePosition> Redeem(std::string_view token, std::string_view api_key_id) const;

 private:
  std::string Mac(std::string_view payload, std::string_view api_key_id) const;

  std::string signing_key_;
};

}  // namespace dp
