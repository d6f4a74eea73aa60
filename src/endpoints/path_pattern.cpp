#include "datapipelines/endpoints/path_pattern.hpp"

#include <set>

#include "datapipelines/util/percent_encoding.hpp"

namespace dp {
namespace {

constexpr std::size_t kMaxLength = 200;
constexpr std::size_t kMaxSegments = 10;
constexpr std::size_t kMaxLiteral = 64;

bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsLiteral(const std::string& s) {
  if (s.empty() || s.size() > kMaxLiteral || !(IsLower(s[0]) || IsDigit(s[0]))) return false;
  for (char c : s) {
    if (!(IsLower(c) || IsDigit(c) || c == '_' || c == '.' || c == '-')) return false;
  }
  return true;
}

bool IsVariableName(const std::string& s) {
  if (s.empty() || !(IsLower(s[0]) || s[0] == '_')) return false;
  for (char c : s) {
    if (!(IsLower(c) || IsDigit(c) || c == '_')) return false;
  }
  return true;
}

std::vector<std::string> Split(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 1;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    parts.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

std::optional<PathPattern> Refuse(std::string* reason, std::string why) {
  if (reason) *reason = std::move(why);
  return std::nullopt;
}

}  // namespace

std::optional<PathPattern> PathPattern::Parse(const std::string& text, std::string* reason) {
  if (text.size() > kMaxLength) {
    return Refuse(reason, "the path is longer than 200 characters");
  }
  if (text.empty() || text[0] != '/') return Refuse(reason, "the path must start with '/'");
  if (text.size() > 1 && text.back() == '/') {
    return Refuse(reason, "the path must not end with '/'");
  }
  std::vector<std::string> parts = Split(text);
  if (parts.size() > kMaxSegments) return Refuse(reason, "the path has more than 10 segments");
  PathPattern pattern;
  pattern.text_ = text;
  std::set<std::string> names;
  for (const auto& part : parts) {
    if (part.empty()) return Refuse(reason, "the path has an empty segment");
    if (part.front() == '{' || part.back() == '}') {
      std::string name = part.size() >= 2 && part.front() == '{' && part.back() == '}'
                             ? part.substr(1, part.size() - 2)
                             : std::string();
      if (!IsVariableName(name)) {
        return Refuse(reason, "segment '" + part +
                                  "' is not a {variable} naming a parameter ([a-z_][a-z0-9_]*)");
      }
      if (!names.insert(name).second) {
        return Refuse(reason, "variable {" + name + "} appears twice");
      }
      pattern.segments_.push_back({name, true});
      continue;
    }
    if (!IsLiteral(part)) {
      return Refuse(reason, "segment '" + part +
                                "' is not a literal [a-z0-9][a-z0-9_.-]{0,63} (no wildcards)");
    }
    pattern.segments_.push_back({part, false});
  }
  return pattern;
}

bool PathPattern::Overlaps(const PathPattern& other) const {
  if (segments_.size() != other.segments_.size()) return false;
  for (std::size_t i = 0; i < segments_.size(); ++i) {
    const Segment& a = segments_[i];
    const Segment& b = other.segments_[i];
    if (!a.variable && !b.variable && a.text != b.text) return false;
  }
  return true;
}

std::optional<std::map<std::string, std::string>> PathPattern::Match(
    const std::string& request_path) const {
  if (request_path.empty() || request_path[0] != '/') return std::nullopt;
  std::vector<std::string> parts = Split(request_path);
  if (parts.size() != segments_.size()) return std::nullopt;
  std::map<std::string, std::string> bound;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty()) return std::nullopt;
    auto decoded = PercentDecode(parts[i]);
    if (!decoded) return std::nullopt;
    if (segments_[i].variable) {
      bound[segments_[i].text] = *decoded;
    } else if (*decoded != segments_[i].text) {
      return std::nullopt;
    }
  }
  return bound;
}

std::vector<std::string> PathPattern::Variables() const {
  std::vector<std::string> names;
  for (const auto& segment : segments_) {
    if (segment.variable) names.push_back(segment.text);
  }
  return names;
}

}  // namespace dp
