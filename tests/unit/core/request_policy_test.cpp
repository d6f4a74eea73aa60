#include "datapipelines/http/request_policy.hpp"

#include <gtest/gtest.h>

#include "datapipelines/http/router.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

struct HostCase {
  const char* host;
  bool allowed;
};

TEST(RequestPolicyTest, HostAllowlist) {
  RequestPolicy policy({"dp.example.com:443"}, {});
  const HostCase cases[] = {{"localhost", true},           {"localhost:8080", true},
                            {"127.0.0.1:8080", true},      {"127.1.2.3", true},
                            {"[::1]:8080", true},          {"dp.example.com", true},
                            {"DP.Example.com:8443", true}, {"evil.example.com", false},
                            {"127.0.0.1.evil.com", false}, {"", false},
                            {"localhost.evil.com", false}};
  for (const auto& c : cases) EXPECT_EQ(policy.HostAllowed(c.host), c.allowed) << c.host;
}

TEST(RequestPolicyTest, OriginAllowlist) {
  RequestPolicy policy({}, {"https://app.example.com"});
  EXPECT_TRUE(policy.OriginAllowed(std::nullopt));
  EXPECT_TRUE(policy.OriginAllowed("https://app.example.com"));
  EXPECT_TRUE(policy.OriginAllowed("http://localhost:3000"));
  EXPECT_TRUE(policy.OriginAllowed("http://127.0.0.1:8080"));
  EXPECT_FALSE(policy.OriginAllowed("https://evil.example.com"));
  EXPECT_FALSE(policy.OriginAllowed("null"));
  EXPECT_FALSE(policy.OriginAllowed("http://localhost.evil.com"));
}

TEST(RequestPolicyTest, CorrelationIdKeptOnlyWhenUuid) {
  HttpHeaders good;
  good.Add("DP-Correlation-Id", "0F8FAD5B-D9CB-469F-A165-70867728950E");
  EXPECT_EQ(RequestPolicy::CorrelationIdFor(good), "0f8fad5b-d9cb-469f-a165-70867728950e");
  HttpHeaders bad;
  bad.Add("DP-Correlation-Id", "<script>");
  std::string minted = RequestPolicy::CorrelationIdFor(bad);
  EXPECT_TRUE(IsUuid(minted));
  EXPECT_TRUE(IsUuid(RequestPolicy::CorrelationIdFor(HttpHeaders{})));
}

TEST(RouterTest, ExactPrefixAndMethods) {
  Router router;
  router.Add("POST", "/mcp", [](const HttpRequest&) {
    HttpResponse response;
    response.status = 201;
    return response;
  });
  router.Add("*", "/api/v1/*", [](const HttpRequest&) {
    HttpResponse response;
    response.status = 202;
    return response;
  });
  HttpRequest request;
  auto post = router.Match("POST", "/mcp");
  ASSERT_NE(post.handler, nullptr);
  EXPECT_EQ((*post.handler)(request).status, 201);
  auto get = router.Match("GET", "/mcp");
  EXPECT_EQ(get.handler, nullptr);
  EXPECT_EQ(get.allow, "POST");
  auto api = router.Match("DELETE", "/api/v1/auth/api-keys/dpk_X");
  ASSERT_NE(api.handler, nullptr);
  EXPECT_EQ((*api.handler)(request).status, 202);
  auto none = router.Match("GET", "/nowhere");
  EXPECT_EQ(none.handler, nullptr);
  EXPECT_TRUE(none.allow.empty());
  EXPECT_EQ(router.Match("GET", "/mcp/extra").handler, nullptr);
}

TEST(HttpMessageTest, HeadersQueryAndCookies) {
  HttpHeaders headers;
  headers.Add("Content-Type", "application/json");
  headers.Add("Cookie", "a=1; dp_session=abc.def; b=2");
  EXPECT_EQ(headers.Get("content-type"), "application/json");
  EXPECT_EQ(CookieValue(headers, "dp_session"), "abc.def");
  EXPECT_EQ(CookieValue(headers, "missing"), std::nullopt);
  EXPECT_EQ(QueryParam("a=1&name=hello%20world&x", "name"), "hello world");
  EXPECT_EQ(QueryParam("a=1&x", "x"), "");
  EXPECT_EQ(QueryParam("a=1", "b"), std::nullopt);
  EXPECT_EQ(QueryParam("p=%zz%4", "p"), "%zz%4");
}

}  // namespace
}  // namespace dp

namespace dp {
namespace {

// Credentials are opaque bytes for the authenticator to judge: a garbled key is a wrong key
// (401 there), not bad text at the edge; any other header must still be UTF-8.
TEST(RequestPolicyTest, OnlyCredentialHeadersMayCarryBytesThatAreNotUtf8) {
  RequestPolicy policy({}, {});
  for (const char* credential : {"Authorization", "DP-API-Key", "Cookie"}) {
    HttpRequest request;
    request.target = "/api/v1/pipelines";
    request.headers.Add("Host", "localhost");
    request.headers.Add(credential, "Bearer dp_\xff\xfe\xc3");
    EXPECT_FALSE(policy.Refusal(request).has_value()) << credential;
  }
  HttpRequest request;
  request.target = "/api/v1/pipelines";
  request.headers.Add("Host", "localhost");
  request.headers.Add("DP-Workspace", "\xff\xfe");
  ASSERT_TRUE(policy.Refusal(request).has_value());
  EXPECT_EQ(policy.Refusal(request)->status, 400);
}

}  // namespace
}  // namespace dp
