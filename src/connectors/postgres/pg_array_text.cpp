#include "pg_array_text.hpp"

namespace dp {

std::vector<std::string> ParsePgArrayText(std::string_view text) {
  std::vector<std::string> out;
  if (text.size() < 2 || text.front() != '{' || text.back() != '}') return out;
  text = text.substr(1, text.size() - 2);
  std::string current;
  bool quoted = false, in_quotes = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_quotes) {
      if (c == '\\' && i + 1 < text.size()) {
        current.push_back(text[++i]);
      } else if (c == '"') {
        in_quotes = false;
      } else {
        current.push_back(c);
      }
    } else if (c == '"') {
      in_quotes = quoted = true;
    } else if (c == ',') {
      out.push_back(current);
      current.clear();
      quoted = false;
    } else {
      current.push_back(c);
    }
  }
  if (!text.empty() || quoted) out.push_back(current);
  return out;
}

}  // namespace dp
