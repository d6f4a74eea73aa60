// What the HTTP edge reads from a request's headers before RequestAuthenticator judges it: each
// case is the headers → the credentials they carry.
#include "datapipelines/net/request_credentials.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dp {
namespace {

struct CredentialCase {
  std::string name;
  std::vector<std::pair<std::string, std::string>> headers;
  int key_count;
  std::string api_key;
  std::optional<std::string> session;
  std::optional<std::string> workspace;
};

const CredentialCase kCases[] = {
    {"nothing", {}, 0, "", std::nullopt, std::nullopt},
    {"dp_api_key", {{"DP-API-Key", "dpk_A.b"}}, 1, "dpk_A.b", std::nullopt, std::nullopt},
    {"bearer_key", {{"Authorization", "Bearer dpk_A.b"}}, 1, "dpk_A.b", std::nullopt, std::nullopt},
    {"other_bearer_is_no_key",
     {{"Authorization", "Bearer eyJhbGciOi"}},
     0,
     "",
     std::nullopt,
     std::nullopt},
    {"both_carriers_count_twice",
     {{"DP-API-Key", "dpk_A.b"}, {"Authorization", "Bearer dpk_C.d"}},
     2,
     "dpk_A.b",
     std::nullopt,
     std::nullopt},
    {"two_key_headers",
     {{"DP-API-Key", "dpk_A.b"}, {"dp-api-key", "dpk_C.d"}},
     2,
     "dpk_A.b",
     std::nullopt,
     std::nullopt},
    {"session_cookie_among_others",
     {{"Cookie", "a=1; dp_session=tok.en; b=2"}},
     0,
     "",
     "tok.en",
     std::nullopt},
    {"workspace_header",
     {{"Cookie", "dp_session=t"}, {"DP-Workspace", "analytics"}},
     0,
     "",
     "t",
     "analytics"},
};

class RequestCredentialsCases : public ::testing::TestWithParam<CredentialCase> {};

TEST_P(RequestCredentialsCases, ReadsWhatTheHeadersCarry) {
  const CredentialCase& c = GetParam();
  HttpHeaders headers;
  for (const auto& [name, value] : c.headers) headers.Add(name, value);
  RequestCredentials credentials = RequestCredentials::FromHeaders(headers);
  EXPECT_EQ(credentials.key_count, c.key_count);
  EXPECT_EQ(credentials.api_key, c.api_key);
  EXPECT_EQ(credentials.session_token, c.session);
  EXPECT_EQ(credentials.workspace, c.workspace);
}

INSTANTIATE_TEST_SUITE_P(Headers, RequestCredentialsCases, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return info.param.name; });

TEST(RequestCredentials, SessionOnlyIgnoresKeysAndTheWorkspaceHeader) {
  HttpHeaders headers;
  headers.Add("DP-API-Key", "dpk_A.b");
  headers.Add("DP-Workspace", "analytics");
  headers.Add("Cookie", "dp_session=tok");
  RequestCredentials credentials = RequestCredentials::SessionOnly(headers);
  EXPECT_EQ(credentials.key_count, 0);
  EXPECT_EQ(credentials.api_key, "");
  EXPECT_EQ(credentials.session_token, "tok");
  EXPECT_EQ(credentials.workspace, std::nullopt);
}

}  // namespace
}  // namespace dp
