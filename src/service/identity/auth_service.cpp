#include "datapipelines/service/identity/auth_service.hpp"

namespace dp {

AuthService::AuthService(UserStore& users, WorkspaceStore& workspaces, CredentialStore& credentials,
                         AuditLog& audit, AuthOptions options)
    : records_(users, workspaces, credentials, audit, options.hasher, options.clock),
      authentication_(records_, options),
      keys_(records_, authentication_),
      accounts_(records_, authentication_, keys_, options.mail) {}

}  // namespace dp
