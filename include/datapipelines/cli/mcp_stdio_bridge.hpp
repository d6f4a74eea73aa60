#pragma once
// The stdio side of `datapipelines mcp`: reads newline-delimited JSON-RPC messages (the MCP
// stdio transport), forwards each to a running server's /mcp with the API key header, and
// writes every JSON-RPC message of each answer — a JSON body or each event of an SSE body,
// progress notifications included — as one line on the output. Keep-alive comments keep the
// HTTP call open and are not protocol, so they are not written. Messages are forwarded
// concurrently (a ping is answered while a long execute runs); output lines never interleave.
#include <condition_variable>
#include <iosfwd>
#include <mutex>
#include <string>

#include "datapipelines/http/http_client.hpp"
#include "datapipelines/util/json.hpp"

namespace dp::cli {

class McpStdioBridge {
 public:
  // api_key is sent as "Authorization: Bearer …" and never written anywhere else.
  McpStdioBridge(HttpClient client, std::string api_key, std::ostream& out, std::ostream& log);

  // Forwards until `in` closes, waits for the answers still in flight, and returns 0.
  int Run(std::istream& in);

  // Forwards one message and writes its answers (blocking); public for the tests.
  void Forward(const std::string& message);

 private:
  void Write(std::string_view message);
  void Log(std::string_view what);
  void WriteFailure(const Json& id, const std::string& why);
  void Remember(const Json& request, const Json& answer, const HttpHeaders& headers);
  std::vector<std::pair<std::string, std::string>> Headers();

  HttpClient client_;
  std::string api_key_;
  std::ostream& out_;
  std::ostream& log_;
  std::mutex out_mutex_;  // one writer at a time on out_ and log_
  std::mutex state_mutex_;
  std::string session_id_;        // Mcp-Session-Id, when the server issues one
  std::string protocol_version_;  // negotiated by initialize, sent on every later call
  std::condition_variable idle_;
  int in_flight_ = 0;  // guarded by state_mutex_
};

}  // namespace dp::cli
