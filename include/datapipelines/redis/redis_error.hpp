#pragma once
// Failure of a Redis call. `connection_broken` tells the pool the connection is unusable
// (I/O error, timeout) so it may reconnect once; false means Redis answered with an error.
#include <stdexcept>
#include <string>

namespace dp {

class RedisError : public std::runtime_error {
 public:
  RedisError(const std::string& message, bool connection_broken)
      : std::runtime_error(message), connection_broken_(connection_broken) {}
  bool connection_broken() const { return connection_broken_; }

 private:
  bool connection_broken_;
};

}  // namespace dp
