#pragma once
// A response body produced over time (Server-Sent Events): a producer thread writes events, the
// HTTP session writes them to the socket as they come and ends the chunked body on Close(). The
// consumer polls with a short, growing interval — a stream only exists for calls already known
// to be long, so a few milliseconds of pickup cost nothing and no cross-thread timer is needed.
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace dp {

class EventStream {
 public:
  // Producer side (any thread).
  void Write(std::string chunk);
  // One SSE event carrying `data` (a JSON-RPC message or an event payload).
  void WriteEvent(const std::string& data, const std::string& event = "");
  // An SSE comment: keeps proxies from cutting an idle stream.
  void WriteComment(const std::string& text);
  void Close();
  // True once the consumer is gone (the client disconnected).
  bool cancelled() const;

  // Consumer side (the HTTP session): everything queued so far; `closed` is true when the
  // producer closed and nothing remains.
  std::vector<std::string> Drain(bool& closed);
  void Cancel();

 private:
  mutable std::mutex mutex_;
  std::deque<std::string> queue_;
  bool closed_ = false;
  bool cancelled_ = false;
};

}  // namespace dp
