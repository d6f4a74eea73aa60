#pragma once
// Sign-ins sent to an OpenID provider and not yet back (auth.md §5.4): what the callback must
// find to finish one — the nonce its ID token must carry, the PKCE verifier, the page to land
// on. Keyed by the SHA-256 of the state sent, never the state itself, and taken at most once,
// so a replayed callback finds nothing; in the metadata store, so any instance can finish a
// sign-in another one began. Every call blocks: run it on the blocking pool.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace dp {

class MetadataStore;

struct OidcLoginRequest {
  std::string state_hash;
  std::string provider;
  std::string nonce;
  std::string code_verifier;
  std::string next_path;
  int64_t created_at_ms = 0;
};

class OidcLoginRequestStore {
 public:
  virtual ~OidcLoginRequestStore() = default;
  virtual void Insert(const OidcLoginRequest& request) = 0;
  // Removes and returns the request; nullopt when it is unknown or was taken already.
  virtual std::optional<OidcLoginRequest> Take(const std::string& state_hash) = 0;
  // Drops requests begun before `before_ms` (abandoned sign-ins); returns how many.
  virtual int64_t DropOlderThan(int64_t before_ms) = 0;
};

// The SQL adapter over the metadata store's own connection (SQLite or PostgreSQL).
std::unique_ptr<OidcLoginRequestStore> OpenOidcLoginRequestStore(MetadataStore& metadata);

}  // namespace dp
