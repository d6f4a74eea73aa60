#include "datapipelines/service/identity/login_throttle.hpp"

namespace dp {
namespace {

std::string FailuresKey(std::string_view account) {
  return "login:failures:" + std::string(account);
}
std::string LockKey(std::string_view account) { return "login:lock:" + std::string(account); }

}  // namespace

LoginThrottle::LoginThrottle(LoginThrottleOptions options, ThrottleStore& store)
    : options_(options),
      store_(store),
      addresses_(options.per_address_per_minute, store, "login:address") {}

LoginThrottle::AddressVerdict LoginThrottle::TakeAddressAttempt(std::string_view address,
                                                                int64_t now_ms) {
  return addresses_.Take(address, now_ms);
}

int64_t LoginThrottle::LockedFor(std::string_view account, int64_t now_ms) {
  return store_.RemainingMs(LockKey(account), now_ms);
}

bool LoginThrottle::RecordFailure(std::string_view account, int64_t now_ms) {
  const ThrottleStore::Count failures =
      store_.Increment(FailuresKey(account), options_.lock_ms, now_ms);
  if (failures.count < options_.max_failures) return false;
  // The lock replaces the count: when it ends, the account has a fresh budget.
  store_.Flag(LockKey(account), options_.lock_ms, now_ms);
  store_.Remove(FailuresKey(account));
  return true;
}

void LoginThrottle::RecordSuccess(std::string_view account) { store_.Remove(FailuresKey(account)); }

void LoginThrottle::Unlock(std::string_view account) {
  store_.Remove(LockKey(account));
  store_.Remove(FailuresKey(account));
}

}  // namespace dp
