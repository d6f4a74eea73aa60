#include "datapipelines/domain/error_codes.hpp"

#include <array>

namespace dp::errc {

std::span<const ErrorCode> All() {
  static constexpr std::array kAll{kApiKeyMissing,
                                   kApiKeyInvalid,
                                   kApiKeyExpired,
                                   kSessionInvalid,
                                   kSessionExpired,
                                   kLoginInvalid,
                                   kLoginUserInactive,
                                   kScopeInsufficient,
                                   kCsrfInvalid,
                                   kRoleRequired,
                                   kKeyIssuerRoleLost,
                                   kKeyScopeExceedsIssuer,
                                   kApiKeyNotFound,
                                   kApiKeyAmbiguous,
                                   kEndpointKeyKindRefused,
                                   kWorkspaceHeaderForbidden,
                                   kWorkspaceNotFound,
                                   kWorkspaceMembershipRequired,
                                   kWorkspaceNameInvalid,
                                   kWorkspaceDuplicateName,
                                   kUserNotFound,
                                   kUserEmailInvalid,
                                   kUserDuplicateEmail,
                                   kUserPasswordWeak,
                                   kRateLimitExceeded,
                                   kRateLimitUnavailable,
                                   kRequestInvalid,
                                   kRequestBodyTooLarge,
                                   kRequestHeaderTooLarge,
                                   kRouteNotFound,
                                   kMethodNotAllowed,
                                   kHostNotAllowed,
                                   kOriginNotAllowed,
                                   kProtocolVersionUnsupported,
                                   kDocNotFound,
                                   kSkillReferenceNotFound,
                                   kInternal,
                                   kServiceUnavailable,
                                   kDatasourceDialectInvalid,
                                   kDatasourceUrlMalformed,
                                   kDatasourceDriverNotLoaded,
                                   kDatasourceTableForbidden,
                                   kDatasourceUnreachable,
                                   kParameterRequired,
                                   kNodeConnectionFailed,
                                   kNodeQueryFailed,
                                   kDatasourcePropertiesInvalid,
                                   kTemplateSyntaxError,
                                   kTemplateDangerousConstruct,
                                   kTemplateLibraryWithoutMacros,
                                   kTemplateRenderFailed};
  return kAll;
}

}  // namespace dp::errc
