#pragma once
// A published endpoint's path pattern (REST API §19.1, the published-endpoints design §4.1):
// 1–10 segments, each a literal [a-z0-9][a-z0-9_.-]{0,63} or a variable {name} with name in
// [a-z_][a-z0-9_]*; at most 200 characters; a leading '/', no trailing slash, no wildcard.
// Ambiguity is refused, never resolved by precedence: Overlaps() says whether two patterns
// could match one URL, so at most one published pattern ever matches a request.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dp {

class PathPattern {
 public:
  struct Segment {
    std::string text;  // the literal, or the variable's name
    bool variable = false;
  };

  // The pattern, or nullopt with `reason` (a sentence naming the offending segment) filled.
  static std::optional<PathPattern> Parse(const std::string& text, std::string* reason = nullptr);

  // Whether some URL matches both patterns: the same segment count, and at every position the
  // same literal or a variable on either side.
  bool Overlaps(const PathPattern& other) const;
  // The variables bound by a request path below /api/x ("/finance/revenue/emea"), each
  // segment percent-decoded; nullopt when the path does not match.
  std::optional<std::map<std::string, std::string>> Match(const std::string& request_path) const;

  const std::string& text() const { return text_; }
  const std::vector<Segment>& segments() const { return segments_; }
  std::vector<std::string> Variables() const;

 private:
  std::string text_;
  std::vector<Segment> segments_;
};

}  // namespace dp
