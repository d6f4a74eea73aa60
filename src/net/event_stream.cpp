#include "datapipelines/net/event_stream.hpp"

namespace dp {

void EventStream::Write(std::string chunk) {
  std::lock_guard lock(mutex_);
  if (!closed_ && !cancelled_) queue_.push_back(std::move(chunk));
}

void EventStream::WriteEvent(const std::string& data, const std::string& event) {
  std::string chunk;
  if (!event.empty()) chunk += "event: " + event + "\n";
  // A payload line break would end the field early: each line is its own data: field.
  std::size_t start = 0;
  while (true) {
    std::size_t end = data.find('\n', start);
    chunk += "data: " + data.substr(start, end - start) + "\n";
    if (end == std::string::npos) break;
    start = end + 1;
  }
  Write(chunk + "\n");
}

void EventStream::WriteComment(const std::string& text) { Write(": " + text + "\n\n"); }

void EventStream::Close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
}

bool EventStream::cancelled() const {
  std::lock_guard lock(mutex_);
  return cancelled_;
}

std::vector<std::string> EventStream::Drain(bool& closed) {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out(std::make_move_iterator(queue_.begin()),
                               std::make_move_iterator(queue_.end()));
  queue_.clear();
  closed = closed_;
  return out;
}

void EventStream::Cancel() {
  std::lock_guard lock(mutex_);
  cancelled_ = true;
  queue_.clear();
}

}  // namespace dp
