#include "datapipelines/net/sse_decoder.hpp"

namespace dp {

void SseDecoder::Feed(std::string_view piece) {
  for (char c : piece) {
    if (after_cr_) {
      after_cr_ = false;
      if (c == '\n') continue;  // the LF of a CRLF
    }
    if (c == '\r' || c == '\n') {
      after_cr_ = c == '\r';
      Line(line_);
      line_.clear();
    } else {
      line_.push_back(c);
    }
  }
}

void SseDecoder::Finish() {
  if (!line_.empty()) Line(line_);
  line_.clear();
  Line("");
}

void SseDecoder::Line(std::string_view line) {
  if (line.empty()) {
    if (has_data_) on_event_(data_);
    data_.clear();
    has_data_ = false;
    return;
  }
  if (line.front() == ':') return;  // a comment (keep-alive)
  std::size_t colon = line.find(':');
  std::string_view field = line.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? "" : line.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (field != "data") return;
  if (has_data_) data_.push_back('\n');
  data_.append(value);
  has_data_ = true;
}

}  // namespace dp
