#include "datapipelines/connectors/sql_quoting.hpp"

namespace dp {
namespace {

std::string Quoted(std::string_view text, char quote) {
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back(quote);
  for (char c : text) {
    if (c == quote) out.push_back(quote);
    out.push_back(c);
  }
  out.push_back(quote);
  return out;
}

}  // namespace

std::string DoubleQuoted(std::string_view name) { return Quoted(name, '"'); }

std::string SingleQuoted(std::string_view value) { return Quoted(value, '\''); }

}  // namespace dp
