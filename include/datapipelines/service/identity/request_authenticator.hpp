#pragma once
// Turns a request's credentials (read from its headers at the HTTP edge) into a Principal and
// charges the user's rate budget — the one path REST and MCP share (auth.md §7.3, §8.5; REST API
// §12).
#include <optional>
#include <string>

#include "datapipelines/limits/rate_limiter.hpp"
#include "datapipelines/net/request_credentials.hpp"
#include "datapipelines/service/identity/principal.hpp"

namespace dp {

class Authenticator;
class WorkspaceStore;

enum class CredentialPolicy {
  kApiKeyOnly,       // /mcp: DP-API-Key or Authorization: Bearer dpk_…, user keys only
  kApiKeyOrSession,  // /api/v1: an API key or the dp_session cookie
  // /api/x: an API key of any kind (the endpoint's bindings judge the kind), never a session
  kPublishedEndpoint,
};

struct AuthenticatedRequest {
  Principal principal;
  RateDecision rate;
};

class RequestAuthenticator {
 public:
  RequestAuthenticator(Authenticator& auth, RateLimiter& limiter, WorkspaceStore& workspaces);

  // Throws DomainError: auth.api_key.* (401), endpoint.key_kind_refused (403),
  // workspace.header_forbidden (400), rate_limit.exceeded / rate_limit.unavailable (429, with
  // details.retry_after_seconds).
  // `path` is the resource the credentials are presented for: a session held at the forced
  // password change reaches only the change (auth.password.change_required, 403).
  AuthenticatedRequest Authenticate(const RequestCredentials& credentials,
                                    const std::string& remote_ip, CredentialPolicy policy,
                                    std::string_view path);
  // The credential check alone (no rate-limit charge): the HTTP layer admits a request on its
  // headers with it before reading the body. Same refusals as Authenticate minus the 429s.
  Principal Identify(const RequestCredentials& credentials, const std::string& remote_ip,
                     CredentialPolicy policy, std::string_view path);

  // The I/O-thread path (no store, no network): Identify for one API key whose validation is
  // fresh in the cache; nullopt when anything needs the full path (a session, a cache miss, a
  // header to refuse), and then nothing was done.
  std::optional<Principal> IdentifyCached(const RequestCredentials& credentials,
                                          CredentialPolicy policy) const;
  // Authenticate on the same path, when the rate limiter decides in process; nullopt as
  // above (nothing charged). Throws Authenticate's 429s: they are answers, not misses.
  std::optional<AuthenticatedRequest> AuthenticateCached(const RequestCredentials& credentials,
                                                         CredentialPolicy policy);

 private:
  Principal AuthenticateKey(const RequestCredentials& credentials, const std::string& remote_ip,
                            CredentialPolicy policy);
  Principal SelectSessionWorkspace(Principal principal, std::string_view workspace_name);
  RateDecision ChargeRate(const std::string& user_id);

  Authenticator& auth_;
  RateLimiter& limiter_;
  WorkspaceStore& workspaces_;
};

}  // namespace dp
