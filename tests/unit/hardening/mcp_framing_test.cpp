// Issue 9: the Streamable HTTP framing in front of the dispatcher (McpHttpEndpoint) — batches,
// notifications, client responses, ids JSON-RPC allows, the protocol version header and the
// -32700/-32600/-32601/-32602 mapping with its HTTP status. Cases in
// tests/hardening_cases/mcp_framing.json; the first ones are findings of the dispatcher fuzz
// target (tests/fuzz/dispatcher_fuzz.cpp).
#include <gtest/gtest.h>

#include <fstream>

#include "datapipelines/mcp/mcp_http_endpoint.hpp"
#include "datapipelines/mcp/tools/docs_tools.hpp"
#include "hardening_case.hpp"
#include "support/json_cases.hpp"

namespace dp {
namespace {

class McpFramingCases : public test::HardeningStack {};

TEST_P(McpFramingCases, Answers) {
  const Json& spec = GetParam().spec;
  HttpRequest request;
  request.method = "POST";
  request.path = request.target = "/mcp";
  request.body = spec["body"].get<std::string>();
  request.remote_ip = "127.0.0.1";
  request.correlation_id = "00000000-0000-4000-8000-000000000010";
  request.headers.Add("DP-API-Key", keys_.at("ann"));
  const Json headers = spec.value("headers", Json::object());  // outlives the loop
  for (const auto& [name, value] : headers.items()) {
    request.headers.Add(name, value.get<std::string>());
  }
  HttpResponse response = endpoint_->Handle(request);
  ASSERT_EQ(response.stream, nullptr);
  // The I/O thread's path (the key is in the validation cache now) answers exactly as the
  // pool's does, or leaves the request to it.
  if (std::optional<HttpResponse> fast = endpoint_->TryHandleInline(request)) {
    EXPECT_EQ(fast->status, response.status);
    EXPECT_EQ(fast->body, response.body);
  }
  EXPECT_EQ(response.status, spec["expect_status"].get<int>()) << response.body;
  if (spec["expect"].is_null()) {
    EXPECT_EQ(response.body, "");
    return;
  }
  Json body = Json::parse(response.body);
  std::string where;
  EXPECT_TRUE(test::ContainsSubset(body, spec["expect"], where)) << where << "\n" << response.body;
  if (body.contains("jsonrpc")) {  // a JSON-RPC answer has exactly one of result and error
    EXPECT_NE(body.contains("result"), body.contains("error")) << response.body;
  }
}

INSTANTIATE_TEST_SUITE_P(Framing, McpFramingCases,
                         ::testing::ValuesIn(test::LoadHardeningCases("mcp_framing.json")),
                         test::HardeningCaseName);

}  // namespace
}  // namespace dp
