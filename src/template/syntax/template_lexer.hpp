#pragma once
// Tokenizer for FTL expressions (inside ${...} and directive tags). Text outside tags is
// scanned by the parser itself; the lexer is (re)started at each expression's first byte and
// tracks bracket depth so a '>' closes a tag only at depth 0, as in FreeMarker.
#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "template/syntax/template_ast.hpp"

namespace dp::tmpl {

enum class TokKind {
  kEnd,
  kNumber,
  kString,
  kRawString,
  kIdent,
  kOp,
  kTagEnd,
  kEmptyTagEnd,
  kInterpEnd
};

struct Token {
  TokKind kind = TokKind::kEnd;
  std::string text;  // identifier/operator text, or the unescaped string literal value
  size_t begin = 0;
  size_t end = 0;  // one past the last byte
  // kString: offsets in `text` of the '$' and '{' that came from escapes ("$\{x}" is no
  // interpolation).
  std::vector<size_t> escaped;
};

// A syntax error with its byte offset; TemplateParser turns it into a DomainError.
struct SyntaxError {
  SyntaxError(size_t at, std::string text, std::string construct = "")
      : offset(at), message(std::move(text)), unsupported(std::move(construct)) {}

  size_t offset;
  std::string message;
  // Set when the text is valid FreeMarker the engine refuses (templates.md: every construct
  // renders as FreeMarker does or is refused at save): names the construct.
  std::string unsupported;
};

enum class ExprMode { kTag, kInterpolation, kFree };

class TemplateLexer {
 public:
  explicit TemplateLexer(std::string_view source);

  std::string_view source() const { return source_; }
  SourcePos PosAt(size_t offset) const;

  void Start(size_t offset, ExprMode mode);
  const Token& Peek(size_t ahead = 0);
  Token Next();
  // Offset just past the last consumed token.
  size_t consumed_end() const { return consumed_end_; }

 private:
  Token Scan();
  void SkipSpaceAndComments();
  Token ScanString(char quote, bool raw);
  Token ScanNumber();

  std::string_view source_;
  std::vector<size_t> line_starts_;
  size_t scan_ = 0;
  size_t consumed_end_ = 0;
  int depth_ = 0;
  ExprMode mode_ = ExprMode::kFree;
  std::deque<Token> lookahead_;
};

}  // namespace dp::tmpl
