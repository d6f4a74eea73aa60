#include "datapipelines/util/socket_deadline.hpp"

#include <sys/socket.h>

namespace dp {

SocketDeadline::SocketDeadline(int fd, std::chrono::milliseconds timeout) {
  if (timeout.count() <= 0) return;
  watchdog_ = std::thread([this, fd, timeout] {
    std::unique_lock lock(mutex_);
    if (!done_cv_.wait_for(lock, timeout, [this] { return done_; })) {
      ::shutdown(fd, SHUT_RDWR);
      expired_ = true;
    }
  });
}

SocketDeadline::~SocketDeadline() {
  if (!watchdog_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  done_cv_.notify_all();
  watchdog_.join();
}

bool SocketDeadline::Expired() const {
  std::lock_guard lock(mutex_);
  return expired_;
}

}  // namespace dp
