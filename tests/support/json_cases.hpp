#pragma once
// What the data-driven suites (a folder or file of JSON cases) share: a case's test name and
// the "expected is a subset of actual" match their `details` / `result` expectations use.
#include <gtest/gtest.h>

#include <string>

#include "datapipelines/util/json.hpp"

namespace dp::test {

// A case whose JSON carries its own "name".
inline std::string CaseName(const ::testing::TestParamInfo<Json>& info) {
  return info.param["name"].get<std::string>();
}

// Every key of `expected` is in `actual` with a matching value (objects recursively; any
// other value must be equal).
inline bool ContainsSubset(const Json& actual, const Json& expected) {
  if (!expected.is_object()) return actual == expected;
  if (!actual.is_object()) return false;
  for (const auto& [key, value] : expected.items()) {
    if (!actual.contains(key) || !ContainsSubset(actual[key], value)) return false;
  }
  return true;
}

}  // namespace dp::test
