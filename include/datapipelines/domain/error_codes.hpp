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
inline constexpr ErrorCode kCsrfInvalid{"auth.csrf.invalid", 403};
inline constexpr ErrorCode kRoleRequired{"auth.role_required", 403};
inline constexpr ErrorCode kKeyIssuerRoleLost{"auth.key_issuer_role_lost", 403};
inline constexpr ErrorCode kKeyScopeExceedsIssuer{"auth.api_key.scope_exceeds_issuer", 403};
inline constexpr ErrorCode kApiKeyNotFound{"auth.api_key.not_found", 404};
inline constexpr ErrorCode kApiKeyAmbiguous{"auth.api_key.ambiguous", 400};
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
inline constexpr ErrorCode kRequestHeaderTooLarge{"request.header_too_large", 431};
inline constexpr ErrorCode kRouteNotFound{"request.route_not_found", 404};
inline constexpr ErrorCode kMethodNotAllowed{"request.method_not_allowed", 405};
inline constexpr ErrorCode kHostNotAllowed{"request.host_not_allowed", 403};
inline constexpr ErrorCode kOriginNotAllowed{"request.origin_not_allowed", 403};
inline constexpr ErrorCode kProtocolVersionUnsupported{"mcp.protocol_version.unsupported", 400};
inline constexpr ErrorCode kDocNotFound{"mcp.doc_not_found", 404};
inline constexpr ErrorCode kSkillReferenceNotFound{"skill.reference_not_found", 404};
inline constexpr ErrorCode kInternal{"internal.error", 500};
inline constexpr ErrorCode kServiceUnavailable{"service.unavailable", 503};

// datasources and connectors (pipeline-contract §13.4, §13.8; spec §6.2.19, §6.2.34)
inline constexpr ErrorCode kDatasourceDialectInvalid{"datasource.validation.dialect_invalid", 400};
inline constexpr ErrorCode kDatasourceUrlMalformed{"datasource.validation.jdbc_url_malformed", 400};
inline constexpr ErrorCode kDatasourceDriverNotLoaded{"datasource.driver_not_loaded", 400};
inline constexpr ErrorCode kDatasourceTableForbidden{"datasource.table_forbidden", 403};
inline constexpr ErrorCode kDatasourceUnreachable{"pipeline.execution.datasource_unreachable", 502};
inline constexpr ErrorCode kParameterRequired{"pipeline.execution.parameter_required", 400};
inline constexpr ErrorCode kNodeConnectionFailed{"pipeline.node.datasource_connection_failed", 502};
inline constexpr ErrorCode kNodeQueryFailed{"pipeline.node.query_execution_failed", 502};
inline constexpr ErrorCode kDatasourcePropertiesInvalid{"datasource.validation.properties_invalid",
                                                        400};
inline constexpr ErrorCode kDatasourceNameInvalid{"datasource.validation.name_invalid", 400};
inline constexpr ErrorCode kDatasourceUrlSchemeInvalid{"datasource.validation.jdbc_url_scheme_invalid",
                                                       400};
inline constexpr ErrorCode kDatasourcePasswordMissing{"datasource.validation.password_missing", 400};
inline constexpr ErrorCode kDatasourceQueryTimeoutInvalid{
    "datasource.validation.query_timeout_invalid", 400};
inline constexpr ErrorCode kDatasourceDuplicateName{"datasource.validation.duplicate_name", 409};
inline constexpr ErrorCode kDatasourceInUse{"datasource.in_use", 409};
inline constexpr ErrorCode kDatasourceNotFound{"datasource.not_found", 404};
inline constexpr ErrorCode kDatasourceTableNotFound{"datasource.table_not_found", 404};

// templates (pipeline-contract §13.9, templates.md §4.2, §7, §8.2)
inline constexpr ErrorCode kTemplateSyntaxError{"template.validation.syntax_error", 400};
inline constexpr ErrorCode kTemplateDangerousConstruct{"template.validation.dangerous_construct",
                                                       400};
inline constexpr ErrorCode kTemplateLibraryWithoutMacros{
    "template.validation.is_library_without_macros", 400};
inline constexpr ErrorCode kTemplateRenderFailed{"pipeline.node.template_render_failed", 500};
inline constexpr ErrorCode kTemplateNotFound{"template.not_found", 404};
inline constexpr ErrorCode kTemplateIdInvalid{"template.validation.id_invalid", 400};
inline constexpr ErrorCode kTemplateNewRootRequiresConfirmation{
    "template.validation.new_root_requires_confirmation", 400};
inline constexpr ErrorCode kTemplateDuplicateId{"template.validation.duplicate_id", 409};
inline constexpr ErrorCode kTemplateDialectInvalid{"template.validation.dialect_invalid", 400};
inline constexpr ErrorCode kTemplateEngineUnsupported{"template.validation.engine_unsupported",
                                                      400};
inline constexpr ErrorCode kTemplateTypeImmutable{"template.validation.type_immutable", 400};
inline constexpr ErrorCode kTemplateDuplicateAlias{"template.validation.duplicate_alias", 400};
inline constexpr ErrorCode kTemplateImportNotFound{"template.validation.import_not_found", 400};
inline constexpr ErrorCode kTemplateImportNotLibrary{"template.validation.import_not_library", 400};
inline constexpr ErrorCode kTemplateImportCycle{"template.validation.import_cycle", 400};
inline constexpr ErrorCode kTemplateImportDepthExceeded{"template.validation.import_depth_exceeded",
                                                        400};
inline constexpr ErrorCode kTemplateVersionConflict{"template.version.conflict", 409};
inline constexpr ErrorCode kTemplateLastRelease{"template.version.last_release", 409};
inline constexpr ErrorCode kTemplateInUse{"template.in_use", 409};

// Every code above, for registry-wide checks (format, uniqueness) in tests.
std::span<const ErrorCode> All();

}  // namespace dp::errc
