#pragma once
// Shared helpers for the result-store and rate-limiter suites.
#include <chrono>
#include <mutex>
#include <string>

#include "datapipelines/util/steady_now.hpp"

namespace dp::test {

// Redis tests run on database 1 so they never touch data on database 0.
inline std::string RedisDb1Url(const std::string& url) {
  auto authority = url.find("://");
  auto slash = url.find('/', authority == std::string::npos ? 0 : authority + 3);
  return (slash == std::string::npos ? url : url.substr(0, slash)) + "/1";
}

// A steady clock that only moves when told to.
class FakeSteadyClock {
 public:
  SteadyNow Now() {
    return [this] {
      std::lock_guard lock(mutex_);
      return base_ + offset_;
    };
  }
  void Advance(std::chrono::milliseconds by) {
    std::lock_guard lock(mutex_);
    offset_ += by;
  }

 private:
  std::mutex mutex_;
  std::chrono::steady_clock::time_point base_ = std::chrono::steady_clock::now();
  std::chrono::milliseconds offset_{0};
};

// A loopback port with nothing listening.
inline constexpr const char* kClosedRedisUrl = "redis://:s3cret-pw@127.0.0.1:1/1";

}  // namespace dp::test
