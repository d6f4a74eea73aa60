#include "datapipelines/connectors/named_parameters.hpp"

#include <algorithm>
#include <cctype>

namespace dp {
namespace {

bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Index just past a quoted run starting at `pos` (which holds the quote).
std::size_t SkipQuoted(std::string_view sql, std::size_t pos, char quote, bool backslash) {
  for (std::size_t i = pos + 1; i < sql.size(); ++i) {
    if (backslash && sql[i] == '\\') {
      ++i;
    } else if (sql[i] == quote) {
      if (i + 1 < sql.size() && sql[i + 1] == quote) {
        ++i;  // doubled quote
      } else {
        return i + 1;
      }
    }
  }
  return sql.size();
}

// PG dollar quote: $tag$ … $tag$. Returns pos unchanged when `$` does not open one.
std::size_t SkipDollar(std::string_view sql, std::size_t pos) {
  std::size_t end = pos + 1;
  while (end < sql.size() && IsNameChar(sql[end])) ++end;
  if (end >= sql.size() || sql[end] != '$') return pos;
  if (end > pos + 1 && std::isdigit(static_cast<unsigned char>(sql[pos + 1]))) return pos;
  std::string_view tag = sql.substr(pos, end - pos + 1);
  std::size_t close = sql.find(tag, end + 1);
  return close == std::string_view::npos ? sql.size() : close + tag.size();
}

// Index past a comment at pos, or pos when none starts there.
std::size_t SkipComment(std::string_view sql, std::size_t pos, Dialect dialect) {
  if (sql.compare(pos, 2, "--") == 0 || (dialect == Dialect::kMysql && sql[pos] == '#')) {
    std::size_t nl = sql.find('\n', pos);
    return nl == std::string_view::npos ? sql.size() : nl + 1;
  }
  if (sql.compare(pos, 2, "/*") == 0) {
    std::size_t close = sql.find("*/", pos + 2);
    return close == std::string_view::npos ? sql.size() : close + 2;
  }
  return pos;
}

// Index past a literal/identifier/comment at pos, or pos when none starts there.
std::size_t SkipOpaque(std::string_view sql, std::size_t pos, Dialect dialect) {
  char c = sql[pos];
  bool mysql = dialect == Dialect::kMysql;
  if (c == '\'') {
    bool escape = mysql || (pos > 0 && (sql[pos - 1] == 'E' || sql[pos - 1] == 'e') &&
                            (pos < 2 || !IsNameChar(sql[pos - 2])));
    return SkipQuoted(sql, pos, '\'', escape);
  }
  if (c == '"') return SkipQuoted(sql, pos, '"', mysql);
  if (c == '`' && mysql) return SkipQuoted(sql, pos, '`', false);
  if (c == '[' && dialect == Dialect::kSqlite) {
    std::size_t close = sql.find(']', pos);
    return close == std::string_view::npos ? sql.size() : close + 1;
  }
  if (c == '$' &&
      (dialect == Dialect::kPostgres || dialect == Dialect::kDuckdb || dialect == Dialect::kLake)) {
    return SkipDollar(sql, pos);
  }
  return SkipComment(sql, pos, dialect);
}

}  // namespace

NamedParameters NamedParameters::Parse(std::string_view sql, Dialect dialect) {
  NamedParameters out;
  std::string current;
  std::size_t i = 0;
  while (i < sql.size()) {
    std::size_t skipped = SkipOpaque(sql, i, dialect);
    if (skipped != i) {
      current.append(sql.substr(i, skipped - i));
      i = skipped;
      continue;
    }
    if (sql[i] == ':' && i + 1 < sql.size() && sql[i + 1] == ':') {
      // A `::type` cast: copy it and the type name, never a parameter.
      std::size_t end = i + 2;
      while (end < sql.size() && IsNameChar(sql[end])) ++end;
      current.append(sql.substr(i, end - i));
      i = end;
      continue;
    }
    if (sql[i] == ':' && i + 1 < sql.size() && IsNameStart(sql[i + 1]) &&
        (i == 0 || (sql[i - 1] != ':' && !IsNameChar(sql[i - 1])))) {
      std::size_t end = i + 1;
      while (end < sql.size() && IsNameChar(sql[end])) ++end;
      out.pieces.push_back(std::move(current));
      current.clear();
      out.names.emplace_back(sql.substr(i + 1, end - i - 1));
      i = end;
      continue;
    }
    current.push_back(sql[i++]);
  }
  out.pieces.push_back(std::move(current));
  return out;
}

std::vector<std::string> NamedParameters::DistinctNames() const {
  std::vector<std::string> out;
  for (const auto& name : names) {
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

}  // namespace dp
