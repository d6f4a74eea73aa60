#pragma once
// Integration tests read server URLs from the environment scripts/test-services writes.
// Under scripts/test (DP_REQUIRE_SERVICES=1) a missing URL fails the test instead of
// skipping it, so CI can never go green without the real servers.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace dp::test {

inline std::string ServiceUrl(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

inline bool ServicesRequired() {
  const char* value = std::getenv("DP_REQUIRE_SERVICES");
  return value && std::string(value) == "1";
}

}  // namespace dp::test

// Use at the top of a test body or SetUp(): binds `var` to the URL or skips/fails.
#define DP_REQUIRE_SERVICE_URL(var, env_name)                                 \
  std::string var = ::dp::test::ServiceUrl(env_name);                         \
  if (var.empty()) {                                                          \
    if (::dp::test::ServicesRequired()) FAIL() << env_name << " is not set";  \
    GTEST_SKIP() << env_name << " not set (run scripts/test-services start)"; \
  }
