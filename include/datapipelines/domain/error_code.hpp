#pragma once
#include <string_view>

namespace dp {

// A catalogued `{domain}.{entity}.{failure}` code and the HTTP status it maps to.
struct ErrorCode {
  std::string_view code;
  int http_status;
  friend constexpr bool operator==(const ErrorCode& a, const ErrorCode& b) {
    return a.code == b.code;
  }
};

}  // namespace dp
