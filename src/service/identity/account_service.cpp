#include "datapipelines/service/identity/account_service.hpp"

#include "datapipelines/service/identity/account_administration.hpp"

namespace dp {

void AccountService::ChangePassword(const Principal& principal, const std::string& current_password,
                                    const std::string& new_password, std::string_view source_ip) {
  auth_.ChangeOwnPassword(principal, current_password, new_password, source_ip);
}

bool AccountService::HasLocalPassword(const Principal& principal) {
  return principal.via_session && auth_.HasLocalPassword(principal.user_id);
}

}  // namespace dp
