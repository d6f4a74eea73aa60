#pragma once
// Thrown by the store adapters when a unique constraint is violated; callers map it to a
// domain code (a duplicate name, an id taken).
#include <stdexcept>

namespace dp {

class DuplicateKeyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace dp
