#include "datapipelines/service/identity/account_service.hpp"

#include "datapipelines/service/identity/account_administration.hpp"

namespace dp {

void AccountService::ChangePassword(const Principal& principal, const std::string& current_password,
                                    const std::string& new_password) {
  auth_.ChangeOwnPassword(principal, current_password, new_password);
}

}  // namespace dp
