#pragma once
// Decodes a text/event-stream body fed in arbitrary pieces (the WHATWG event-stream rules):
// `data:` lines joined by "\n", an empty line ends an event, comment lines (": keep-alive")
// and the other fields are skipped, LF, CRLF and CR all end a line.
#include <functional>
#include <string>
#include <string_view>

namespace dp {

class SseDecoder {
 public:
  using EventHandler = std::function<void(const std::string& data)>;
  explicit SseDecoder(EventHandler on_event) : on_event_(std::move(on_event)) {}

  void Feed(std::string_view piece);
  // The stream ended: an event still open (no trailing empty line) is dispatched.
  void Finish();

 private:
  void Line(std::string_view line);

  EventHandler on_event_;
  std::string line_;
  std::string data_;
  bool has_data_ = false;
  bool after_cr_ = false;
};

}  // namespace dp
