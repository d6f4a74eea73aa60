#include "datapipelines/service/identity/request_authenticator.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/identity/authenticator.hpp"
#include "datapipelines/service/identity/forced_password_change.hpp"
#include "datapipelines/store/workspace_store.hpp"

namespace dp {

RequestAuthenticator::RequestAuthenticator(Authenticator& auth, RateLimiter& limiter,
                                           WorkspaceStore& workspaces)
    : auth_(auth), limiter_(limiter), workspaces_(workspaces) {}

AuthenticatedRequest RequestAuthenticator::Authenticate(const RequestCredentials& credentials,
                                                        const std::string& remote_ip,
                                                        CredentialPolicy policy,
                                                        std::string_view path) {
  Principal principal = Identify(credentials, remote_ip, policy, path);
  RateDecision rate = ChargeRate(principal.user_id);
  return {std::move(principal), rate};
}

Principal RequestAuthenticator::Identify(const RequestCredentials& credentials,
                                         const std::string& remote_ip, CredentialPolicy policy,
                                         std::string_view path) {
  bool has_key = credentials.key_count > 0;
  const auto& workspace_header = credentials.workspace;
  Principal principal;
  if (has_key || policy != CredentialPolicy::kApiKeyOrSession) {
    // A key is pinned to its workspace: a header that tries to switch it is refused, not ignored.
    if (workspace_header) {
      AuditEvent rejected;
      rejected.event = "auth.workspace.header_rejected";
      rejected.source_ip = remote_ip;
      rejected.details = {{"workspace", std::string(*workspace_header)},
                          {"path", std::string(path)}};
      auth_.audit_log().Record(std::move(rejected));
      throw DomainError(errc::kWorkspaceHeaderForbidden,
                        "DP-Workspace is not accepted with an API key: the key's pinned workspace "
                        "is the context.");
    }
    principal = AuthenticateKey(credentials, remote_ip, policy);
  } else {
    const auto& cookie = credentials.session_token;
    if (!cookie || cookie->empty()) {
      throw DomainError(errc::kApiKeyMissing,
                        "Send an API key in DP-API-Key, or log in for a dp_session cookie.");
    }
    principal = auth_.AuthenticateSession(*cookie);
    RequireSettledPassword(principal, path);
    if (workspace_header)
      principal = SelectSessionWorkspace(std::move(principal), *workspace_header);
  }
  return principal;
}

std::optional<Principal> RequestAuthenticator::IdentifyCached(const RequestCredentials& credentials,
                                                              CredentialPolicy policy) const {
  if (policy == CredentialPolicy::kApiKeyOrSession || credentials.workspace) return std::nullopt;
  if (credentials.key_count != 1) return std::nullopt;
  auto principal = auth_.CachedApiKeyPrincipal(credentials.api_key);
  if (!principal) return std::nullopt;
  if (policy == CredentialPolicy::kApiKeyOnly && principal->kind != KeyKind::kUser) {
    return std::nullopt;
  }
  return principal;
}

std::optional<AuthenticatedRequest> RequestAuthenticator::AuthenticateCached(
    const RequestCredentials& credentials, CredentialPolicy policy) {
  if (!limiter_.DecidesInProcess()) return std::nullopt;
  auto principal = IdentifyCached(credentials, policy);
  if (!principal) return std::nullopt;
  RateDecision rate = ChargeRate(principal->user_id);
  return AuthenticatedRequest{std::move(*principal), rate};
}

Principal RequestAuthenticator::AuthenticateKey(const RequestCredentials& credentials,
                                                const std::string& remote_ip,
                                                CredentialPolicy policy) {
  int carriers = credentials.key_count;
  if (carriers == 0) {
    throw DomainError(errc::kApiKeyMissing,
                      policy == CredentialPolicy::kApiKeyOnly
                          ? "Send an API key as DP-API-Key: dpk_… or Authorization: Bearer dpk_…; "
                            "session cookies and other bearer tokens are not accepted on /mcp."
                      : policy == CredentialPolicy::kPublishedEndpoint
                          ? "Send an API key as DP-API-Key: dpk_…; published endpoints are a "
                            "machine surface and take no session."
                          : "Send an API key as DP-API-Key: dpk_….");
  }
  if (carriers > 1) {
    throw DomainError(errc::kApiKeyAmbiguous,
                      "Send exactly one credential: DP-API-Key or Authorization: Bearer dpk_…, "
                      "not both.");
  }
  Principal principal = auth_.AuthenticateApiKey(credentials.api_key, remote_ip);
  if (policy == CredentialPolicy::kApiKeyOnly && principal.kind != KeyKind::kUser) {
    throw DomainError(errc::kEndpointKeyKindRefused,
                      "This key is a " + std::string(ToString(principal.kind)) +
                          " key; only user (agent) keys may call /mcp.",
                      Json{{"kind", std::string(ToString(principal.kind))}});
  }
  return principal;
}

Principal RequestAuthenticator::SelectSessionWorkspace(Principal principal,
                                                       std::string_view workspace_name) {
  // A workspace the caller cannot reach does not exist: unknown and not-a-member are one
  // answer, so a name cannot be probed (auth.md §11A.1).
  auto not_found = [&] {
    return DomainError(errc::kWorkspaceNotFound, "Workspace not found.",
                       Json{{"workspace", std::string(workspace_name)}});
  };
  auto workspace = workspaces_.FindWorkspaceByName(std::string(workspace_name));
  // Deactivated cannot be selected, by a super admin either: they reactivate it first.
  if (!workspace || !workspace->active()) throw not_found();
  auto membership = workspaces_.FindMembership(workspace->id, principal.user_id);
  if (!membership && !principal.super_admin) throw not_found();
  principal.workspace_id = workspace->id;
  principal.workspace_name = workspace->name;
  // A super admin is an implicit member of every workspace, holding every flag.
  principal.membership = membership ? membership->flags : MemberFlags{true, true, true};
  principal.acting_as_super_admin = !membership;
  return principal;
}

RateDecision RequestAuthenticator::ChargeRate(const std::string& user_id) {
  RateDecision decision;
  try {
    decision = limiter_.Acquire(user_id);
  } catch (const RateLimiterUnavailable&) {
    // Fail closed: an undecidable limit is a refusal, never a free pass (REST API §12.3).
    throw DomainError(errc::kRateLimitUnavailable,
                      "The rate limiter is unavailable; retry shortly.",
                      Json{{"retry_after_seconds", 1}});
  }
  if (!decision.allowed) {
    throw DomainError(
        errc::kRateLimitExceeded, "Rate limit exceeded; retry after the delay.",
        Json{{"retry_after_seconds", decision.retry_after_seconds}, {"limit", decision.limit}});
  }
  return decision;
}

}  // namespace dp
