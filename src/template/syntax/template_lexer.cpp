#include "template/syntax/template_lexer.hpp"

#include "datapipelines/util/utf8.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace dp::tmpl {
namespace {

bool IsIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}
bool IsIdentPart(char c) { return IsIdentStart(c) || std::isdigit(static_cast<unsigned char>(c)); }

// Longest operators first so "..<" wins over "..".
constexpr std::array<std::string_view, 25> kOperatorTokens = {
    "...", "..<", "..!", "..*", "..", "??", "==", "!=", "<=", ">=", "&&", "||", "+=",
    "-=",  "*=",  "/=",  "%=",  "++", "--", "->", "+",  "-",  "*",  "/",  "%"};
constexpr std::string_view kSingleOps = "!<>=()[]{},.:;?|&";

}  // namespace

TemplateLexer::TemplateLexer(std::string_view source) : source_(source) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < source_.size(); ++i) {
    if (source_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

SourcePos TemplateLexer::PosAt(size_t offset) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const size_t line_index = static_cast<size_t>(it - line_starts_.begin()) - 1;
  // Columns count characters (UTF-8 continuation bytes are skipped), 1-based.
  int column = 1;
  for (size_t i = line_starts_[line_index]; i < offset && i < source_.size(); ++i) {
    if ((static_cast<unsigned char>(source_[i]) & 0xC0) != 0x80) ++column;
  }
  return SourcePos{static_cast<int>(line_index) + 1, column};
}

void TemplateLexer::Start(size_t offset, ExprMode mode) {
  scan_ = offset;
  consumed_end_ = offset;
  depth_ = 0;
  mode_ = mode;
  lookahead_.clear();
}

const Token& TemplateLexer::Peek(size_t ahead) {
  while (lookahead_.size() <= ahead) lookahead_.push_back(Scan());
  return lookahead_[ahead];
}

Token TemplateLexer::Next() {
  Peek();
  Token token = std::move(lookahead_.front());
  lookahead_.pop_front();
  consumed_end_ = token.end;
  return token;
}

void TemplateLexer::SkipSpaceAndComments() {
  while (scan_ < source_.size()) {
    const char c = source_[scan_];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++scan_;
    } else if (source_.substr(scan_, 4) == "<#--" || source_.substr(scan_, 4) == "<!--") {
      const size_t close = source_.find("-->", scan_ + 4);
      if (close == std::string_view::npos) throw SyntaxError{scan_, "Unclosed comment"};
      scan_ = close + 3;
    } else {
      return;
    }
  }
}

Token TemplateLexer::Scan() {
  SkipSpaceAndComments();
  Token token;
  token.begin = scan_;
  if (scan_ >= source_.size()) {
    token.kind = TokKind::kEnd;
    token.end = scan_;
    return token;
  }
  const char c = source_[scan_];
  const char next = scan_ + 1 < source_.size() ? source_[scan_ + 1] : '\0';
  if (c == '"' || c == '\'') return ScanString(c, false);
  if (c == 'r' && (next == '"' || next == '\'')) {
    ++scan_;
    Token raw = ScanString(next, true);
    raw.begin = token.begin;
    return raw;
  }
  if (std::isdigit(static_cast<unsigned char>(c))) return ScanNumber();
  if (IsIdentStart(c)) {
    size_t end = scan_;
    while (end < source_.size() && IsIdentPart(source_[end])) ++end;
    token.kind = TokKind::kIdent;
    token.text = std::string(source_.substr(scan_, end - scan_));
    scan_ = token.end = end;
    return token;
  }
  if (depth_ == 0 && mode_ == ExprMode::kTag) {
    if (c == '>') {
      token.kind = TokKind::kTagEnd;
      scan_ = token.end = scan_ + 1;
      return token;
    }
    if (c == '/' && next == '>') {
      token.kind = TokKind::kEmptyTagEnd;
      scan_ = token.end = scan_ + 2;
      return token;
    }
  }
  if (depth_ == 0 && mode_ == ExprMode::kInterpolation && c == '}') {
    token.kind = TokKind::kInterpEnd;
    scan_ = token.end = scan_ + 1;
    return token;
  }
  token.kind = TokKind::kOp;
  for (std::string_view op : kOperatorTokens) {
    if (source_.substr(scan_, op.size()) == op) {
      token.text = std::string(op);
      scan_ = token.end = scan_ + op.size();
      return token;
    }
  }
  if (kSingleOps.find(c) == std::string_view::npos) {
    throw SyntaxError{scan_, std::string("Unexpected character '") + c + "'"};
  }
  token.text = std::string(1, c);
  scan_ = token.end = scan_ + 1;
  if (c == '(' || c == '[' || c == '{') ++depth_;
  if ((c == ')' || c == ']' || c == '}') && depth_ > 0) --depth_;
  return token;
}

Token TemplateLexer::ScanNumber() {
  Token token;
  token.kind = TokKind::kNumber;
  token.begin = scan_;
  size_t end = scan_;
  while (end < source_.size() && std::isdigit(static_cast<unsigned char>(source_[end]))) ++end;
  if (end + 1 < source_.size() && source_[end] == '.' &&
      std::isdigit(static_cast<unsigned char>(source_[end + 1]))) {
    ++end;
    while (end < source_.size() && std::isdigit(static_cast<unsigned char>(source_[end]))) ++end;
  }
  token.text = std::string(source_.substr(scan_, end - scan_));
  scan_ = token.end = end;
  return token;
}

Token TemplateLexer::ScanString(char quote, bool raw) {
  Token token;
  token.kind = raw ? TokKind::kRawString : TokKind::kString;
  token.begin = scan_;
  size_t i = scan_ + 1;
  std::string value;
  while (true) {
    if (i >= source_.size()) throw SyntaxError{token.begin, "Unclosed string literal"};
    const char c = source_[i];
    if (c == quote) break;
    if (c == '\\' && !raw) {
      if (i + 1 >= source_.size()) throw SyntaxError{i, "Unclosed string literal"};
      const char e = source_[i + 1];
      i += 2;
      switch (e) {
        case 'n':
          value += '\n';
          break;
        case 'r':
          value += '\r';
          break;
        case 't':
          value += '\t';
          break;
        case 'b':
          value += '\b';
          break;
        case 'f':
          value += '\f';
          break;
        case 'l':
          value += '<';
          break;
        case 'g':
          value += '>';
          break;
        case 'a':
          value += '&';
          break;
        case '{':
          token.escaped.push_back(value.size());
          value += e;
          break;
        case '"':
        case '\'':
        case '\\':
        case '=':
          value += e;
          break;
        case 'x': {
          uint32_t cp = 0;
          int digits = 0;
          while (digits < 4 && i < source_.size() &&
                 std::isxdigit(static_cast<unsigned char>(source_[i]))) {
            cp =
                cp * 16 + static_cast<uint32_t>(std::stoi(std::string(1, source_[i]), nullptr, 16));
            ++i;
            ++digits;
          }
          if (digits == 0) throw SyntaxError{i, "Invalid \\x escape in string literal"};
          if (cp == '$' || cp == '{') token.escaped.push_back(value.size());
          AppendUtf8(&value, cp);
          break;
        }
        default:
          throw SyntaxError{i - 2, std::string("Unsupported escape sequence \\") + e};
      }
      continue;
    }
    value += c;
    ++i;
  }
  token.text = std::move(value);
  scan_ = token.end = i + 1;
  return token;
}

}  // namespace dp::tmpl
