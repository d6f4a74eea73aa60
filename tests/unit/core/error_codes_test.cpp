#include "datapipelines/domain/error_codes.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "datapipelines/domain/domain_error.hpp"

namespace dp {
namespace {

// {domain}.{entity}.{failure} (two segments where the domain has no entity), lowercase.
TEST(ErrorCodesTest, RegistryIsWellFormedAndUnique) {
  std::regex shape("^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*){1,2}$");
  std::set<std::string_view> seen;
  for (const ErrorCode& code : errc::All()) {
    EXPECT_TRUE(std::regex_match(std::string(code.code), shape)) << code.code;
    EXPECT_TRUE(seen.insert(code.code).second) << "duplicate " << code.code;
    EXPECT_GE(code.http_status, 400) << code.code;
    EXPECT_LE(code.http_status, 599) << code.code;
  }
  EXPECT_GT(seen.size(), 30u);
}

TEST(ErrorCodesTest, DomainErrorJsonIsTheRestErrorObject) {
  DomainError plain(errc::kApiKeyMissing, "no key");
  EXPECT_EQ(plain.ToJson().dump(), R"({"code":"auth.api_key.missing","message":"no key"})");
  DomainError detailed(errc::kDocNotFound, "nope", Json{{"known_docs", {"skill"}}});
  EXPECT_EQ(detailed.http_status(), 404);
  EXPECT_EQ(detailed.ToJson()["details"]["known_docs"][0], "skill");
}

}  // namespace
}  // namespace dp
