// Issue 8, the hot path: McpHttpEndpoint::TryHandleInline answers on the I/O thread only what
// needs neither the store nor the network, for a key already validated in the cache, and
// otherwise does nothing at all (no rate charge, no audit row), leaving it to Handle.
#include <gtest/gtest.h>

#include <string>

#include "datapipelines/limits/memory_rate_limiter.hpp"
#include "hardening_case.hpp"

namespace dp {
namespace {

class McpInlinePathTest : public test::HardeningStack {
 protected:
  // A limiter whose clock stands still: its buckets never refill during a test, so
  // RateLimit-Remaining counts exactly the requests charged, however slowly they run (a refill
  // of 100 tokens per millisecond hid every charge under ThreadSanitizer).
  std::unique_ptr<RateLimiter> MakeLimiter() override {
    MemoryRateLimiterOptions options;
    options.now = [] { return std::chrono::steady_clock::time_point{}; };
    return std::make_unique<MemoryRateLimiter>(RateLimitPolicy{100000, 1000000}, options);
  }
  HttpRequest Post(const std::string& body) {
    HttpRequest request;
    request.method = "POST";
    request.path = request.target = "/mcp";
    request.body = body;
    request.remote_ip = "127.0.0.1";
    request.correlation_id = "00000000-0000-4000-8000-000000000011";
    request.headers.Add("DP-API-Key", keys_.at("ann"));
    return request;
  }
  static long Remaining(const HttpResponse& response) {
    for (const auto& [name, value] : response.headers) {
      if (name == "RateLimit-Remaining") return std::stol(value);
    }
    ADD_FAILURE() << "no RateLimit-Remaining header";
    return -1;
  }
  std::size_t AuditRows() { return store_->Audit().ListAudit("", 1000).size(); }

  const std::string ping_ = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
};

TEST_P(McpInlinePathTest, ChargesEachRequestOnceWhicheverPathAnswers) {
  HttpRequest request = Post(ping_);
  HttpResponse first = endpoint_->Handle(request);  // validates the key and caches it
  ASSERT_EQ(first.status, 200) << first.body;
  std::optional<HttpResponse> fast = endpoint_->TryHandleInline(request);
  ASSERT_TRUE(fast.has_value());
  EXPECT_EQ(fast->body, first.body);
  // Each answered request is charged once, whichever path answered it.
  EXPECT_EQ(Remaining(*fast), Remaining(first) - 1);
}

TEST_P(McpInlinePathTest, AnswersCheapMethodsLikeThePool) {
  ASSERT_EQ(endpoint_->Handle(Post(ping_)).status, 200);
  for (const std::string& body : {
           std::string(R"({"jsonrpc":"2.0","id":"a","method":"tools/list"})"),
           std::string(R"({"jsonrpc":"2.0","id":2,"method":"prompts/list"})"),
           std::string(R"({"jsonrpc":"2.0","id":3,"method":"resources/templates/list"})"),
           std::string(R"({"jsonrpc":"2.0","id":4,"method":"initialize","params":)"
                       R"({"protocolVersion":"2025-06-18","capabilities":{},)"
                       R"("clientInfo":{"name":"t","version":"1"}}})"),
           std::string(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"),
       }) {
    HttpRequest request = Post(body);
    std::optional<HttpResponse> fast = endpoint_->TryHandleInline(request);
    ASSERT_TRUE(fast.has_value()) << body;
    HttpResponse pooled = endpoint_->Handle(request);
    EXPECT_EQ(fast->status, pooled.status) << body;
    EXPECT_EQ(fast->body, pooled.body) << body;
  }
}

TEST_P(McpInlinePathTest, LeavesRealWorkAndOddRequestsToThePool) {
  ASSERT_EQ(endpoint_->Handle(Post(ping_)).status, 200);
  const std::size_t audited = AuditRows();
  HttpRequest call =
      Post(R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"docs_get",)"
           R"("arguments":{"name":"skill"}}})");
  HttpRequest resources = Post(R"({"jsonrpc":"2.0","id":6,"method":"resources/list"})");
  HttpRequest large = Post(R"({"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":")" +
                           std::string(McpHttpEndpoint::kInlineBodyLimit, 'x') + "\"}}");
  HttpRequest old_revision = Post(ping_);
  old_revision.headers.Add("MCP-Protocol-Version", "1999-01-01");
  HttpRequest workspace_switch = Post(ping_);
  workspace_switch.headers.Add("DP-Workspace", "other");
  HttpRequest two_keys = Post(ping_);
  two_keys.headers.Add("Authorization", "Bearer " + keys_.at("ann"));
  HttpRequest unknown_key = Post(ping_);
  unknown_key.headers = HttpHeaders{};
  unknown_key.headers.Add("DP-API-Key", "dpk_AAAAAAAAAAAA_notavalidsecretatall0000000000");
  for (const HttpRequest* request :
       {&call, &resources, &large, &old_revision, &workspace_switch, &two_keys, &unknown_key}) {
    EXPECT_FALSE(endpoint_->TryHandleInline(*request).has_value()) << request->body.substr(0, 80);
  }
  EXPECT_EQ(AuditRows(), audited);  // nothing recorded: the pool path records what it does
  // Nothing was charged either: the next answer is one request after the warm-up.
  HttpResponse warm = endpoint_->Handle(Post(ping_));
  std::optional<HttpResponse> fast = endpoint_->TryHandleInline(Post(ping_));
  ASSERT_TRUE(fast.has_value());
  EXPECT_EQ(Remaining(*fast), Remaining(warm) - 1);
}

INSTANTIATE_TEST_SUITE_P(Stack, McpInlinePathTest,
                         ::testing::Values(test::HardeningCase{"embedded", Json::object()}),
                         [](const auto&) { return std::string("embedded"); });

}  // namespace
}  // namespace dp
