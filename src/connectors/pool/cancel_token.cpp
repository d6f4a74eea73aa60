#include "datapipelines/connectors/pool/cancel_token.hpp"

namespace dp {

void CancelToken::Cancel() {
  std::lock_guard fire(fire_mutex_);
  std::function<void()> hook;
  {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
    hook = hook_;
  }
  if (hook) hook();
}

bool CancelToken::cancelled() const {
  std::lock_guard lock(mutex_);
  return cancelled_;
}

void CancelToken::Attach(std::function<void()> hook) {
  std::lock_guard firing(fire_mutex_);
  bool fire = false;
  {
    std::lock_guard lock(mutex_);
    hook_ = hook;
    fire = cancelled_;
  }
  if (fire && hook) hook();
}

void CancelToken::Detach() {
  std::lock_guard fire(fire_mutex_);
  std::lock_guard lock(mutex_);
  hook_ = nullptr;
}

}  // namespace dp
