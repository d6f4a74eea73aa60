#pragma once
// The one registry of error codes (pipeline-contract §13, workspaces design §8, MCP spec).
// REST envelopes and MCP isError results are both built from these.
#include <span>

#include "datapipelines/domain/error_code.hpp"

namespace dp::errc {

// auth (pipeline-contract §13.7, auth.md §9)
inline constexpr ErrorCode kApiKeyMissing{"auth.api_key.missing", 401};
inline constexpr ErrorCode kApiKeyInvalid{"auth.api_key.invalid", 401};
inline constexpr ErrorCode kApiKeyExpired{"auth.api_key.expired", 401};
inline constexpr ErrorCode kSessionInvalid{"auth.session.invalid", 401};
inline constexpr ErrorCode kSessionExpired{"auth.session.expired", 401};
inline constexpr ErrorCode kLoginInvalid{"auth.login.invalid_credentials", 401};
inline constexpr ErrorCode kLoginUserInactive{"auth.login.user_inactive", 403};
inline constexpr ErrorCode kScopeInsufficient{"auth.scope.insufficient", 403};
inline constexpr ErrorCode kRoleRequired{"auth.role_required", 403};
inline constexpr ErrorCode kKeyIssuerRoleLost{"auth.key_issuer_role_lost", 403};
inline constexpr ErrorCode kKeyScopeExceedsIssuer{"auth.api_key.scope_exceeds_issuer", 403};
inline constexpr ErrorCode kApiKeyNotFound{"auth.api_key.not_found", 404};
inline constexpr ErrorCode kEndpointKeyKindRefused{"endpoint.key_kind_refused", 403};

// workspaces (workspaces design §8)
inline constexpr ErrorCode kWorkspaceHeaderForbidden{"workspace.header_forbidden", 400};
inline constexpr ErrorCode kWorkspaceNotFound{"workspace.not_found", 404};
inline constexpr ErrorCode kWorkspaceMembershipRequired{"workspace.membership_required", 403};
inline constexpr ErrorCode kWorkspaceNameInvalid{"workspace.validation.name_invalid", 400};
inline constexpr ErrorCode kWorkspaceDuplicateName{"workspace.validation.duplicate_name", 409};

// users (operator CLI and REST admin)
inline constexpr ErrorCode kUserNotFound{"user.not_found", 404};
inline constexpr ErrorCode kUserEmailInvalid{"user.validation.email_invalid", 400};
inline constexpr ErrorCode kUserDuplicateEmail{"user.validation.duplicate_email", 409};
inline constexpr ErrorCode kUserPasswordWeak{"user.validation.password_too_short", 400};

// rate limiting (pipeline-contract §13.11, REST §12.3)
inline constexpr ErrorCode kRateLimitExceeded{"rate_limit.exceeded", 429};
inline constexpr ErrorCode kRateLimitUnavailable{"rate_limit.unavailable", 429};

// request-level (REST API §4.2) and MCP documents (§6.2.41)
inline constexpr ErrorCode kRequestInvalid{"request.validation.invalid", 400};
inline constexpr ErrorCode kRequestBodyTooLarge{"request.body_too_large", 413};
inline constexpr ErrorCode kRouteNotFound{"request.route_not_found", 404};
inline constexpr ErrorCode kMethodNotAllowed{"request.method_not_allowed", 405};
inline constexpr ErrorCode kHostNotAllowed{"request.host_not_allowed", 403};
inline constexpr ErrorCode kOriginNotAllowed{"request.origin_not_allowed", 403};
inline constexpr ErrorCode kProtocolVersionUnsupported{"mcp.protocol_version.unsupported", 400};
inline constexpr ErrorCode kDocNotFound{"mcp.doc_not_found", 404};
inline constexpr ErrorCode kSkillReferenceNotFound{"skill.reference_not_found", 404};
inline constexpr ErrorCode kInternal{"internal.error", 500};
inline constexpr ErrorCode kServiceUnavailable{"service.unavailable", 503};

// Every code above, for registry-wide checks (format, uniqueness) in tests.
std::span<const ErrorCode> All();

}  // namespace dp::errc
