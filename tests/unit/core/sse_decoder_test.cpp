#include "datapipelines/net/sse_decoder.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dp {
namespace {

struct SseCase {
  std::string name;
  std::string stream;
  std::vector<std::string> events;
};

const std::vector<SseCase>& Cases() {
  static const std::vector<SseCase> kCases = {
      {"one_event", "event: message\ndata: {\"id\":1}\n\n", {"{\"id\":1}"}},
      {"keep_alive_comments_skipped", ": keep-alive\n\ndata: a\n\n: keep-alive\n\n", {"a"}},
      {"multi_line_data_joined", "data: a\ndata: b\n\n", {"a\nb"}},
      {"crlf_and_cr_line_ends", "data: a\r\n\r\ndata: b\r\rdata: c\n\n", {"a", "b", "c"}},
      {"no_space_after_colon", "data:x\n\n", {"x"}},
      {"other_fields_ignored", "id: 7\nretry: 10\nevent: m\ndata: y\n\n", {"y"}},
      {"unterminated_event_dispatched_at_finish", "data: tail", {"tail"}},
      {"empty_lines_alone_dispatch_nothing", "\n\n\n", {}},
  };
  return kCases;
}

std::vector<std::string> Decode(const std::string& stream, std::size_t piece) {
  std::vector<std::string> events;
  SseDecoder decoder([&](const std::string& data) { events.push_back(data); });
  for (std::size_t i = 0; i < stream.size(); i += piece) decoder.Feed(stream.substr(i, piece));
  decoder.Finish();
  return events;
}

// Every case decodes the same whether the bytes arrive at once or one at a time.
TEST(SseDecoderTest, DecodesEveryCaseInAnySplit) {
  for (const auto& c : Cases()) {
    for (std::size_t piece : {std::size_t{1}, std::size_t{3}, c.stream.size() + 1}) {
      EXPECT_EQ(Decode(c.stream, piece), c.events) << c.name << " piece=" << piece;
    }
  }
}

}  // namespace
}  // namespace dp
