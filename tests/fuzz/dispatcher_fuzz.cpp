// libFuzzer target for the JSON-RPC dispatcher (issue 9, "Standing guards"): the bytes are a
// POST /mcp as the HTTP layer hands it to McpHttpEndpoint, which frames the message (batches,
// notifications, client responses, protocol version, -32700/-32600 mapping), authenticates
// the key and feeds McpServer (-32601/-32602, tools, resources, prompts). Everything behind it
// is real — the SQLite metadata store, AuthService with Argon2 keys, AuditLog, the 41 catalogued
// tool definitions and their input-schema validators — except the tool handlers, which have no
// side effects: each answers a payload derived from its validated arguments, or throws a
// catalogued DomainError for some of them, so both outcomes of a call are exercised.
//
// Input: an optional header block, then the body. When the first line has the shape
// "Name: value" and a blank line ("\n\n") follows the block, the lines before it are request
// headers; "@<principal>" inside a DP-API-Key or Authorization value is replaced by that
// principal's real key (@viewer @operator @author @admin @readkey @lost @removed @revoked
// @super). Without a header block, or without a credential header, the request carries the
// key of the principal the input's length selects. Headers the HTTP layer would refuse before
// routing (invalid UTF-8, control bytes, a second Host) end the input unexamined; Accept is
// dropped (the SSE transport of pipelines_execute is a thread per call, not the dispatcher).
//
// Invariants (a violation aborts with the reason, the reproducer is the input):
//  - a JSON-RPC 2.0 notification (method, no id) and a client response get 202, no body;
//  - every other answer is one JSON value: either a JSON-RPC 2.0 response — "jsonrpc":"2.0",
//    "id" the request's own (a string or an integer) or null, exactly one of result/error,
//    error.code one of -32700 -32600 -32601 -32602 -32002 (never -32603: nothing here may
//    fail internally), parse and framing errors with HTTP 400 and id null, the rest 200 — or
//    a transport refusal envelope (401/403/400/429) with a catalogued error code;
//  - a tools/call result that is not an error went to a principal whose scope and role meet
//    the tool's minimums (recomputed here from the definition, not asked of AuthService), and
//    carries no internal.error;
//  - no response and no audit row holds a planted secret (any key's secret half, a password);
//    every audit string is at most AuditLog::kMaxStringBytes.
// Built by cmake/fuzz_tree.cmake (a clang tree of its own), run by
// tests/fuzz/run_dispatcher_fuzz.sh as integration.dispatcher_fuzz.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/limits/rate_limiter.hpp"
#include "datapipelines/mcp/mcp_http_endpoint.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/mcp/tool_definition.hpp"
#include "datapipelines/mcp/tools/docs_tools.hpp"
#include "datapipelines/net/http_message.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/docs/skill_docs.hpp"
#include "datapipelines/service/identity/auth_service.hpp"
#include "datapipelines/service/identity/request_authenticator.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/util/ascii.hpp"
#include "datapipelines/util/json_body.hpp"
#include "datapipelines/util/utf8.hpp"

namespace dp {
namespace {

constexpr const char* kPassword = "planted password 7f3a9c";
// Rebuilt after this many inputs, so the in-memory audit log stays small over a long run.
constexpr int kInputsPerStack = 20000;

[[noreturn]] void Violated(const std::string& what, std::string_view response) {
  std::fprintf(stderr, "dispatcher_fuzz invariant violated: %s\nresponse: %.*s\n", what.c_str(),
               static_cast<int>(std::min<std::size_t>(response.size(), 2048)), response.data());
  std::abort();
}

struct Member {
  const char* name;
  MemberFlags flags;
  Scope scope;
};

// One workspace, one user per principal. "lost" is demoted after its author key was issued,
// "removed" leaves the workspace, "revoked" keeps its membership and loses its key.
constexpr Member kMembers[] = {
    {"viewer", MemberFlags{}, Scope::kRead},
    {"operator", MemberFlags{}, Scope::kExecute},
    {"author", MemberFlags{true, true, false}, Scope::kAuthor},
    {"admin", MemberFlags{true, true, true}, Scope::kAuthor},
    {"readkey", MemberFlags{true, true, false}, Scope::kRead},
    {"lost", MemberFlags{true, true, false}, Scope::kAuthor},
    {"removed", MemberFlags{true, true, false}, Scope::kAuthor},
    {"revoked", MemberFlags{true, true, false}, Scope::kAuthor},
    {"super", MemberFlags{}, Scope::kAuthor},
};

// What the key may do, as the server should see it (nullopt: the key authenticates nowhere).
struct Grant {
  std::optional<MemberFlags> flags;
  Scope scope;
  bool super_admin;
  bool authenticates;
};

// A side-effect-free handler: the payload names the tool and echoes what it was given, and
// an argument object whose serialization has a length divisible by 5 is refused the way a
// service refuses a missing entity.
Json FakeHandler(std::string_view tool, const ToolCall& call) {
  std::string text = call.arguments.dump();
  if (text.size() % 5 == 0) {
    throw DomainError(errc::kPipelineNotFound, "no such pipeline (fuzz handler)",
                      Json{{"tool", std::string(tool)}});
  }
  if (call.progress) call.progress(1, 1, "fuzz");
  return Json{{"tool", std::string(tool)},
              {"arguments", call.arguments},
              {"argument_bytes", text.size()},
              {"key_id", call.principal.key_id}};
}

class Stack {
 public:
  Stack() {
    store_ = OpenMetadataStore(":memory:");
    store_->Migrate();
    audit_ = std::make_unique<AuditLog>(store_->Audit());
    AuthOptions options;
    options.hasher = Argon2Params{.time_cost = 1, .memory_kib = 1024, .parallelism = 1};
    options.argon2_per_key_per_minute = 1 << 20;
    options.argon2_per_address_per_minute = 1 << 20;
    auth_ = std::make_unique<AuthService>(store_->Users(), store_->Workspaces(),
                                          store_->Credentials(), *audit_, options);
    limiter_ = OpenRateLimiter("memory", RateLimitPolicy{1 << 24, 1 << 30});
    authenticator_ = std::make_unique<RequestAuthenticator>(auth_->authentication(), *limiter_,
                                                            store_->Workspaces());
    for (const ToolDefinition& definition : AllToolDefinitions()) {
      std::string name(definition.name());
      catalog_.Bind(name, [name](const ToolCall& call) { return FakeHandler(name, call); });
    }
    BindDocsTools(catalog_, BuiltInSkillDocs());  // real: they only read the built-in docs
    server_ = std::make_unique<McpServer>(catalog_, *audit_, BuiltInSkillDocs(), "fuzz");
    endpoint_ = std::make_unique<McpHttpEndpoint>(*server_, *authenticator_);
    AddMembers();
    last_audit_id_ = Newest();
  }

  McpHttpEndpoint& endpoint() { return *endpoint_; }
  const std::vector<std::string>& secrets() const { return secrets_; }
  const std::map<std::string, std::string>& keys() const { return keys_; }
  const std::string& KeyFor(std::size_t n) const {
    return keys_.at(kMembers[n % std::size(kMembers)].name);
  }

  // The grant of the key a request presented (the token itself).
  Grant GrantOf(const std::string& token) const {
    auto it = grants_.find(token);
    if (it == grants_.end()) return Grant{std::nullopt, Scope::kRead, false, false};
    return it->second;
  }

  // Audit rows written since the last call: no planted secret, every string capped.
  void CheckNewAuditRows(const std::vector<std::string>& planted) {
    auto rows = store_->Audit().ListAudit("", 16);
    for (const AuditEvent& row : rows) {
      if (row.id <= last_audit_id_) break;
      Json view = AuditLog::View(row);
      std::string text = view.dump();
      for (const std::string& secret : planted) {
        if (text.find(secret) != std::string::npos) Violated("audit row holds a secret", text);
      }
      CheckCapped(view, text);
    }
    if (!rows.empty()) last_audit_id_ = std::max(last_audit_id_, rows.front().id);
  }

 private:
  static void CheckCapped(const Json& value, const std::string& row) {
    if (value.is_string() &&
        value.get_ref<const std::string&>().size() > AuditLog::kMaxStringBytes) {
      Violated("audit string over the cap", row);
    }
    if (value.is_structured()) {
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (value.is_object() && it.key().size() > AuditLog::kMaxStringBytes) {
          Violated("audit key over the cap", row);
        }
        CheckCapped(*it, row);
      }
    }
  }

  int64_t Newest() {
    auto rows = store_->Audit().ListAudit("", 1);
    return rows.empty() ? 0 : rows.front().id;
  }

  void AddMembers() {
    for (const Member& member : kMembers) {
      bool super_admin = std::string_view(member.name) == "super";
      auth_->accounts().CreateUser(std::string(member.name) + "@example.com", member.name,
                                   kPassword, super_admin);
    }
    auth_->accounts().CreateWorkspace("ws", "", "admin@example.com");
    for (const Member& member : kMembers) {
      std::string email = std::string(member.name) + "@example.com";
      bool super_admin = std::string_view(member.name) == "super";
      auth_->accounts().SetMembership("ws", email, member.flags);
      IssuedApiKey key =
          auth_->keys().CreateApiKeyFor(email, "ws", "fuzz", member.scope, KeyKind::kUser, {});
      keys_[member.name] = key.plaintext;
      secrets_.push_back(key.plaintext.substr(key.plaintext.find('.') + 1));
      Grant grant{member.flags, member.scope, super_admin, true};
      std::string_view name = member.name;
      if (name == "lost") {
        auth_->accounts().SetMembership("ws", email, MemberFlags{});
        grant.flags = MemberFlags{};
      } else if (name == "removed") {
        auth_->accounts().RemoveMembership("ws", email);
        grant.flags = std::nullopt;
      } else if (name == "revoked") {
        auth_->keys().RevokeApiKeyById(key.record.id);
        grant.authenticates = false;
      }
      grants_[key.plaintext] = grant;
    }
    secrets_.push_back(kPassword);
  }

  std::unique_ptr<MetadataStore> store_;
  std::unique_ptr<AuditLog> audit_;
  std::unique_ptr<AuthService> auth_;
  std::unique_ptr<RateLimiter> limiter_;
  std::unique_ptr<RequestAuthenticator> authenticator_;
  ToolCatalog catalog_;
  std::unique_ptr<McpServer> server_;
  std::unique_ptr<McpHttpEndpoint> endpoint_;
  std::map<std::string, std::string> keys_;
  std::map<std::string, Grant> grants_;
  std::vector<std::string> secrets_;
  int64_t last_audit_id_ = 0;
};

std::unique_ptr<Stack> stack;
int inputs_on_stack = 0;

bool IsHeaderName(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    bool token = std::isalnum(static_cast<unsigned char>(c)) ||
                 std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
    if (!token) return false;
  }
  return true;
}

// A header value the HTTP layer lets through: valid UTF-8, no control byte but HTAB.
bool IsHeaderValue(std::string_view value) {
  for (char c : value) {
    auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && byte != '\t') || byte == 0x7f) return false;
  }
  return IsValidUtf8(value);
}

std::string Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return std::string(text);
}

// Splits the input into the request; false when the HTTP layer would have refused it first.
bool BuildRequest(std::string_view input, HttpRequest& request, std::string& credential) {
  request.method = "POST";
  request.target = request.path = "/mcp";
  request.remote_ip = "127.0.0.1";
  request.headers.Add("Host", "localhost");
  request.headers.Add("Content-Type", "application/json");
  std::string_view body = input;
  std::size_t blank = input.find("\n\n");
  std::size_t colon = input.find(':');
  std::size_t first_newline = input.find('\n');
  bool has_block = blank != std::string_view::npos && colon != std::string_view::npos &&
                   colon < first_newline && IsHeaderName(input.substr(0, colon));
  bool has_credential = false;
  if (has_block) {
    body = input.substr(blank + 2);
    std::string_view block = input.substr(0, blank + 1);
    int count = 0;
    while (!block.empty()) {
      std::size_t end = block.find('\n');
      std::string_view line = block.substr(0, end);
      block.remove_prefix(end + 1);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      std::size_t separator = line.find(':');
      if (separator == std::string_view::npos || !IsHeaderName(line.substr(0, separator))) {
        return false;
      }
      std::string name(line.substr(0, separator));
      std::string value = Trim(line.substr(separator + 1));
      if (!IsHeaderValue(value) || ++count > 32) return false;
      if (AsciiEqualsIgnoreCase(name, "Host") || AsciiEqualsIgnoreCase(name, "Accept")) continue;
      if (AsciiEqualsIgnoreCase(name, "DP-API-Key") ||
          AsciiEqualsIgnoreCase(name, "Authorization")) {
        for (const auto& [member, key] : stack->keys()) {
          std::string placeholder = "@" + member;
          for (std::size_t at = value.find(placeholder); at != std::string::npos;
               at = value.find(placeholder, at + key.size())) {
            value.replace(at, placeholder.size(), key);
          }
        }
        has_credential = true;
      }
      request.headers.Add(std::move(name), std::move(value));
    }
  }
  if (!has_credential) request.headers.Add("DP-API-Key", stack->KeyFor(input.size()));
  // The token the server will judge, picked as RequestAuthenticator picks it (the grant of a
  // request with two carriers does not matter: it is refused either way).
  if (auto key = request.headers.Get("DP-API-Key")) {
    credential = std::string(*key);
  } else if (auto authorization = request.headers.Get("Authorization");
             authorization && authorization->rfind("Bearer ", 0) == 0) {
    credential = std::string(authorization->substr(7));
  }
  request.body = std::string(body);
  return true;
}

bool AllowedRpcCode(int code) {
  return code == jsonrpc::kParseError || code == jsonrpc::kInvalidRequest ||
         code == jsonrpc::kMethodNotFound || code == jsonrpc::kInvalidParams ||
         code == jsonrpc::kResourceNotFound;
}

bool IsCataloguedCode(const std::string& code) {
  for (const ErrorCode& known : errc::All()) {
    if (known.code == code) return true;
  }
  return false;
}

// The JSON-RPC shape of the request as the spec reads it, computed here from the bytes.
struct Expectation {
  bool valid_object = false;  // a JSON-RPC 2.0 object the server must answer as such
  bool notification = false;  // method string, no id
  bool client_response = false;
  std::optional<Json> id;  // the id a response must echo (string or integer)
  std::string method;
  std::string tool;  // params.name of a tools/call
};

Expectation Expect(const std::string& body) {
  Expectation expect;
  JsonBody parsed = ParseJsonBody(body, kDefaultMaxJsonDepth);
  if (parsed.fault != JsonBodyFault::kNone && parsed.fault != JsonBodyFault::kNulCharacter) {
    return expect;
  }
  const Json& message = parsed.value;
  if (!message.is_object() || message.value("jsonrpc", Json()) != "2.0") return expect;
  auto id = message.find("id");
  auto method = message.find("method");
  if (id != message.end() && (id->is_string() || id->is_number_integer())) expect.id = *id;
  if (method == message.end()) {
    expect.client_response =
        id != message.end() && (message.contains("result") || message.contains("error"));
    return expect;
  }
  if (!method->is_string()) return expect;
  expect.method = method->get<std::string>();
  if (id == message.end()) {
    expect.notification = true;
    return expect;
  }
  expect.valid_object = expect.id.has_value();
  auto params = message.find("params");
  if (params != message.end() && params->is_object() && params->contains("name") &&
      (*params)["name"].is_string()) {
    expect.tool = (*params)["name"].get<std::string>();
  }
  return expect;
}

bool Permits(const Grant& grant, const ToolDefinition& tool) {
  if (grant.scope < tool.access().min_scope) return false;
  if (grant.super_admin) return true;
  return grant.flags && Satisfies(*grant.flags, tool.access().min_role);
}

void CheckResponse(const HttpRequest& request, const HttpResponse& response,
                   const std::string& credential, const std::vector<std::string>& planted) {
  const std::string& text = response.body;
  for (const std::string& secret : planted) {
    if (text.find(secret) != std::string::npos) Violated("response holds a secret", text);
  }
  for (const auto& [name, value] : response.headers) {
    for (const std::string& secret : planted) {
      if (value.find(secret) != std::string::npos)
        Violated("response header holds a secret", value);
    }
  }
  if (response.stream) Violated("a streamed answer without Accept: text/event-stream", text);
  Expectation expect = Expect(request.body);
  Grant grant = stack->GrantOf(credential);
  if (response.status == 202) {
    if (!text.empty()) Violated("202 with a body", text);
    if (!expect.notification && !expect.client_response) {
      Violated("202 for a message that is neither a notification nor a response", text);
    }
    if (!grant.authenticates) Violated("202 for a key that does not authenticate", text);
    return;
  }
  Json answer = Json::parse(text, nullptr, false);
  if (answer.is_discarded() || !answer.is_object())
    Violated("the answer is not a JSON object", text);
  if (!answer.contains("jsonrpc")) {  // a transport refusal envelope
    if (!answer.contains("error") || !answer["error"].is_object() ||
        !answer["error"].contains("code") || !answer["error"]["code"].is_string() ||
        !IsCataloguedCode(answer["error"]["code"].get<std::string>())) {
      Violated("a refusal without a catalogued error code", text);
    }
    if (response.status < 400 || response.status == 500) Violated("a refusal status", text);
    return;
  }
  if (!grant.authenticates) Violated("a JSON-RPC answer to a key that does not authenticate", text);
  // A refusal of the transport (above) may answer a notification; the dispatcher never does.
  if (expect.notification) Violated("a notification got a response", text);
  if (answer["jsonrpc"] != "2.0") Violated("jsonrpc is not \"2.0\"", text);
  if (!answer.contains("id")) Violated("a response without id", text);
  const Json& id = answer["id"];
  if (!id.is_null()) {
    if (!expect.id || id != *expect.id) Violated("the id is not the request's", text);
  }
  if (answer.contains("result") == answer.contains("error")) {
    Violated("not exactly one of result and error", text);
  }
  if (answer.size() != 3) Violated("members beyond jsonrpc, id, result/error", text);
  if (answer.contains("error")) {
    const Json& error = answer["error"];
    if (!error.is_object() || !error.contains("code") || !error["code"].is_number_integer() ||
        !error.contains("message") || !error["message"].is_string()) {
      Violated("error is not {code, message}", text);
    }
    int code = error["code"].get<int>();
    if (!AllowedRpcCode(code)) Violated("error code outside the allowed set", text);
    bool framing = code == jsonrpc::kParseError || code == jsonrpc::kInvalidRequest;
    if (framing != (response.status == 400)) Violated("framing errors are 400, others 200", text);
    if (!framing && response.status != 200) Violated("status of an answered request", text);
    if (!framing && !expect.valid_object) Violated("an answer to an invalid request", text);
    if (code == jsonrpc::kParseError && !id.is_null()) Violated("-32700 with an id", text);
    return;
  }
  if (response.status != 200) Violated("a result with a status other than 200", text);
  if (!expect.valid_object || id.is_null()) Violated("a result for an invalid request", text);
  if (expect.method != "tools/call") return;
  const Json& result = answer["result"];
  if (!result.is_object() || !result.contains("isError") || !result["isError"].is_boolean() ||
      !result.contains("content") || !result["content"].is_array() || result["content"].empty() ||
      !result["content"][0].contains("text")) {
    Violated("a tools/call result without content and isError", text);
  }
  Json payload = Json::parse(result["content"][0]["text"].get<std::string>(), nullptr, false);
  if (payload.is_discarded()) Violated("a tool payload that is not JSON", text);
  if (result["isError"].get<bool>()) {
    if (!payload.contains("error") || !payload["error"].contains("code") ||
        !IsCataloguedCode(payload["error"]["code"].get<std::string>())) {
      Violated("a tool error without a catalogued code", text);
    }
    if (payload["error"]["code"] == errc::kInternal.code)
      Violated("a tool failed internally", text);
    return;
  }
  const ToolDefinition* tool = FindToolDefinition(expect.tool);
  if (!tool) Violated("a successful call of an unknown tool", text);
  if (!Permits(grant, *tool)) Violated("a tool result for a principal the tool refuses", text);
}

}  // namespace
}  // namespace dp

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dp;
  if (!stack || ++inputs_on_stack > kInputsPerStack) {
    stack.reset();
    stack = std::make_unique<Stack>();
    inputs_on_stack = 1;
  }
  std::string_view input(reinterpret_cast<const char*>(data), size);
  HttpRequest request;
  std::string credential;
  if (!BuildRequest(input, request, credential)) return 0;
  static int64_t n = 0;
  char correlation[40];
  std::snprintf(correlation, sizeof correlation, "00000000-0000-4000-8000-%012lld",
                static_cast<long long>(++n % 1000000000000LL));
  request.correlation_id = correlation;
  HttpResponse response = stack->endpoint().Handle(request);
  static const bool trace = std::getenv("DP_DISPATCHER_FUZZ_TRACE") != nullptr;
  if (trace) {
    std::fprintf(stderr, "> %s\n< %d %s\n", request.body.c_str(), response.status,
                 response.body.substr(0, 600).c_str());
  }
  // libFuzzer's comparison tracing learns key bytes from the compares on the auth path and
  // may then send a whole secret in any header or the body; a server that echoes a client's
  // own bytes leaks nothing, so a secret the input itself spells is not scanned for.
  std::vector<std::string> planted;
  for (const std::string& secret : stack->secrets()) {
    if (input.find(secret) == std::string_view::npos) planted.push_back(secret);
  }
  CheckResponse(request, response, credential, planted);
  stack->CheckNewAuditRows(planted);
  // The I/O thread's path (issue 8) answers exactly as the pool's did, or not at all; any row
  // it wrote would pass the same checks (the unit tests assert it writes none).
  if (std::optional<HttpResponse> fast = stack->endpoint().TryHandleInline(request)) {
    if (fast->status != response.status || fast->body != response.body) {
      std::fprintf(stderr, "inline answer differs: %d %s\nvs pool: %d %s\n", fast->status,
                   fast->body.substr(0, 300).c_str(), response.status,
                   response.body.substr(0, 300).c_str());
      std::abort();
    }
  }
  stack->CheckNewAuditRows(planted);
  return 0;
}
