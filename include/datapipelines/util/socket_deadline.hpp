#pragma once
// One deadline for a whole blocking exchange on a socket. Asio's synchronous reads and writes
// ignore SO_RCVTIMEO (they wait again on EAGAIN), so a watchdog thread shuts the socket down
// once the deadline passes, which ends a blocked read or write at once with an error. The
// HTTP client and the SMTP client both bound their exchanges with it.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace dp {

class SocketDeadline {
 public:
  // `fd` stays open: only shutdown(2) is called on it when the deadline passes. A timeout of
  // zero or less sets no deadline.
  SocketDeadline(int fd, std::chrono::milliseconds timeout);
  ~SocketDeadline();  // stops the watchdog
  SocketDeadline(const SocketDeadline&) = delete;
  SocketDeadline& operator=(const SocketDeadline&) = delete;

  // True once the watchdog has shut the socket down.
  bool Expired() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  bool expired_ = false;
  std::thread watchdog_;
};

}  // namespace dp
