#include "datapipelines/cli/mcp_stdio_bridge.hpp"

#include <istream>
#include <ostream>
#include <thread>

#include "datapipelines/net/sse_decoder.hpp"
#include "datapipelines/util/json_body.hpp"

namespace dp::cli {

namespace {

// The id a synthesized error answers: the request's, or null for what cannot be parsed.
Json IdOf(const Json& message) {
  return message.is_object() && message.contains("id") ? message["id"] : Json();
}

bool IsJsonRpc(const Json& value) {
  if (value.is_array()) return !value.empty() && value.front().is_object();
  return value.is_object() && value.contains("jsonrpc");
}

std::string TrimmedMessage(std::string_view body) {
  Json envelope = Json::parse(body, nullptr, false);
  if (envelope.is_object() && envelope.contains("error") && envelope["error"].is_object()) {
    return envelope["error"].value("message", std::string());
  }
  return std::string();
}

}  // namespace

McpStdioBridge::McpStdioBridge(HttpClient client, std::string api_key, std::ostream& out,
                               std::ostream& log)
    : client_(std::move(client)), api_key_(std::move(api_key)), out_(out), log_(log) {}

int McpStdioBridge::Run(std::istream& in) {
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    {
      std::lock_guard lock(state_mutex_);
      ++in_flight_;
    }
    std::thread([this, message = std::move(line)] {
      Forward(message);
      std::lock_guard lock(state_mutex_);
      if (--in_flight_ == 0) idle_.notify_all();
    }).detach();
  }
  std::unique_lock lock(state_mutex_);
  idle_.wait(lock, [this] { return in_flight_ == 0; });
  return 0;
}

std::vector<std::pair<std::string, std::string>> McpStdioBridge::Headers() {
  std::vector<std::pair<std::string, std::string>> headers = {
      {"Content-Type", "application/json"},
      {"Accept", "application/json, text/event-stream"},
      {"Authorization", "Bearer " + api_key_}};
  std::lock_guard lock(state_mutex_);
  if (!protocol_version_.empty()) headers.emplace_back("MCP-Protocol-Version", protocol_version_);
  if (!session_id_.empty()) headers.emplace_back("Mcp-Session-Id", session_id_);
  return headers;
}

void McpStdioBridge::Forward(const std::string& message) {
  JsonBody parsed = ParseJsonBody(message, kDefaultMaxJsonDepth);
  const Json request = parsed.fault == JsonBodyFault::kNone ? parsed.value : Json();
  HttpClientRequest call{"POST", client_.Origin().path, Headers(), message};
  int status = 0;
  HttpHeaders answer_headers;
  bool event_stream = false;
  std::string body;
  SseDecoder events([&](const std::string& data) {
    Json event = Json::parse(data, nullptr, false);
    if (!event.is_discarded()) Remember(request, event, answer_headers);
    Write(data);
  });
  try {
    client_.Send(
        call,
        [&](int code, const HttpHeaders& headers) {
          status = code;
          answer_headers = headers;
          auto type = headers.Get("Content-Type");
          event_stream = type && type->find("text/event-stream") != std::string_view::npos;
        },
        [&](std::string_view piece) {
          if (event_stream) {
            events.Feed(piece);
          } else {
            body.append(piece);
          }
        });
  } catch (const std::exception& e) {
    Log(e.what());
    WriteFailure(IdOf(request), std::string("The bridge could not reach the server: ") + e.what());
    return;
  }
  if (event_stream) {
    events.Finish();
    return;
  }
  if (body.empty()) return;  // 202 for a notification or a client's response
  Json answer = Json::parse(body, nullptr, false);
  if (IsJsonRpc(answer)) {
    Remember(request, answer, answer_headers);
    Write(body);
    return;
  }
  std::string why = "The server answered HTTP " + std::to_string(status);
  if (std::string detail = TrimmedMessage(body); !detail.empty()) why += ": " + detail;
  Log(why);
  WriteFailure(IdOf(request), why);
}

// initialize's answer fixes the protocol version (and maybe a session) for every later call.
void McpStdioBridge::Remember(const Json& request, const Json& answer, const HttpHeaders& headers) {
  std::lock_guard lock(state_mutex_);
  if (auto session = headers.Get("Mcp-Session-Id")) session_id_ = std::string(*session);
  if (request.is_object() && request.value("method", "") == "initialize" && answer.is_object() &&
      answer.contains("result") && answer["result"].is_object()) {
    protocol_version_ = answer["result"].value("protocolVersion", protocol_version_);
  }
}

void McpStdioBridge::WriteFailure(const Json& id, const std::string& why) {
  if (id.is_null()) return;  // a notification has nobody to answer
  Json error = {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", -32603}, {"message", why}}}};
  Write(error.dump());
}

// Diagnostics for a person, on the log stream; serialized like the protocol lines (the
// streams are unsynchronized once sync_with_stdio(false)).
void McpStdioBridge::Log(std::string_view what) {
  std::lock_guard lock(out_mutex_);
  log_ << "datapipelines mcp: " << what << std::endl;
}

void McpStdioBridge::Write(std::string_view message) {
  std::string line;
  line.reserve(message.size() + 1);
  for (char c : message) {
    if (c != '\n' && c != '\r') line.push_back(c);  // one message, one line
  }
  line.push_back('\n');
  std::lock_guard lock(out_mutex_);
  out_ << line << std::flush;
}

}  // namespace dp::cli
