#pragma once
// What the data-driven suites (a folder or file of JSON cases) share: a case's test name and
// the "expected is a subset of actual" matches their `details` / `result` expectations use.
#include <gtest/gtest.h>

#include <string>

#include "datapipelines/util/json.hpp"

namespace dp::test {

// A case whose JSON carries its own "name".
inline std::string CaseName(const ::testing::TestParamInfo<Json>& info) {
  return info.param["name"].get<std::string>();
}

// Every key of `expected` is in `actual` with a matching value (objects recursively; any
// other value, arrays included, must be equal).
inline bool ContainsMembers(const Json& actual, const Json& expected) {
  if (!expected.is_object()) return actual == expected;
  if (!actual.is_object()) return false;
  for (const auto& [key, value] : expected.items()) {
    if (!actual.contains(key) || !ContainsMembers(actual[key], value)) return false;
  }
  return true;
}

// True when every member of `expected` appears in `actual` (arrays: element-wise prefix; an
// empty expected array matches only an empty one). `where` names the first mismatch.
inline bool ContainsSubset(const Json& actual, const Json& expected, std::string& where) {
  if (expected.is_object()) {
    if (!actual.is_object()) return false;
    for (const auto& [key, value] : expected.items()) {
      if (!actual.contains(key)) {
        where = key + " missing";
        return false;
      }
      if (!ContainsSubset(actual[key], value, where)) {
        where = key + "." + where;
        return false;
      }
    }
    return true;
  }
  if (expected.is_array()) {
    if (!actual.is_array() || actual.size() < expected.size()) return false;
    if (expected.empty() && !actual.empty()) return false;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (!ContainsSubset(actual[i], expected[i], where)) return false;
    }
    return true;
  }
  if (actual != expected) where = "expected " + expected.dump() + " got " + actual.dump();
  return actual == expected;
}

}  // namespace dp::test
