// Issue 9, crashes: a deeply nested JSON body must be refused before any DOM exists, on every
// surface (MCP with a key, REST with a key, login with no credential). Each case builds its
// body from tests/hardening_cases/request_bodies.json: `@` becomes open*depth + 1 + close*depth.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "datapipelines/mcp/mcp_http_endpoint.hpp"
#include "datapipelines/mcp/tools/docs_tools.hpp"
#include "datapipelines/util/json_body.hpp"
#include "hardening_case.hpp"

namespace dp {
namespace {

std::string BuildBody(const Json& spec) {
  std::string nested;
  const std::string open = spec["open"].get<std::string>();
  const std::string close = spec["close"].get<std::string>();
  const int depth = spec["depth"].get<int>();
  nested.reserve((open.size() + close.size()) * depth + 1);
  for (int i = 0; i < depth; ++i) nested += open;
  nested += "1";
  for (int i = 0; i < depth; ++i) nested += close;
  std::string body = spec["body"].get<std::string>();
  body.replace(body.find('@'), 1, nested);
  return body;
}

class JsonDepthCases : public test::HardeningStack {};

TEST_P(JsonDepthCases, RefusedBeforeParsing) {
  const Json& spec = GetParam().spec;
  const std::string surface = spec["surface"].get<std::string>();
  HttpRequest request;
  request.method = "POST";
  request.body = BuildBody(spec);
  request.remote_ip = "127.0.0.1";
  request.correlation_id = "00000000-0000-4000-8000-000000000009";
  if (surface == "mcp") {
    request.path = request.target = "/mcp";
    request.headers.Add("DP-API-Key", keys_.at("ann"));
  } else if (surface == "login") {
    request.path = request.target = "/api/v1/auth/login";
  } else {
    request.path = request.target = "/api/v1/auth/api-keys";
    request.headers.Add("DP-API-Key", keys_.at("ann"));
  }
  HttpResponse response = surface == "mcp" ? endpoint_->Handle(request) : rest_->HandleApi(request);
  EXPECT_EQ(response.status, spec["expect_status"].get<int>()) << response.body;
  Json body = Json::parse(response.body);
  if (spec.contains("expect_rpc")) {
    EXPECT_EQ(body["error"]["code"], spec["expect_rpc"]) << response.body;
  }
  if (spec.contains("expect_code")) {
    EXPECT_EQ(body["error"]["code"], spec["expect_code"]) << response.body;
  }
}

INSTANTIATE_TEST_SUITE_P(Bodies, JsonDepthCases,
                         ::testing::ValuesIn(test::LoadHardeningCases("request_bodies.json")),
                         test::HardeningCaseName);

TEST(JsonNestingDepth, CountsOnlyOutsideStrings) {
  EXPECT_EQ(JsonNestingDepth("1", 64), 0);
  EXPECT_EQ(JsonNestingDepth("[[1],[2,[3]]]", 64), 3);
  EXPECT_EQ(JsonNestingDepth(R"({"a":"[[[[","b":{"c":"\"[["}})", 64), 2);
  EXPECT_EQ(JsonNestingDepth(R"(["\\",[1]])", 64), 2);  // an escaped backslash ends the escape
  EXPECT_EQ(JsonNestingDepth(std::string(1000000, '['), 64), 65);  // stops at the limit
}

TEST(JsonNestingDepth, ParseJsonBodyReportsTheFault) {
  EXPECT_EQ(ParseJsonBody("[[1]]", 2).fault, JsonBodyFault::kNone);
  EXPECT_EQ(ParseJsonBody("[[[1]]]", 2).fault, JsonBodyFault::kTooDeep);
  EXPECT_EQ(ParseJsonBody("[[1]", 2).fault, JsonBodyFault::kMalformed);
  EXPECT_EQ(ParseJsonBody("[[[1]]]", 3).value, Json::parse("[[[1]]]"));
}

}  // namespace
}  // namespace dp
