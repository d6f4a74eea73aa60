#pragma once
// What the AstBuilder's three sources share: ast_builder.cpp (content, tags, end tags),
// ast_builder_directives.cpp (each directive) and ast_builder_expressions.cpp (expressions).
#include <cctype>
#include <cstddef>
#include <string_view>

#include "template/syntax/ast_builder.hpp"

namespace dp::tmpl {

inline bool IsAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
inline bool IsIdentStart(char c) { return IsAlpha(c) || c == '_' || c == '$'; }

inline bool IsOp(const Token& t, std::string_view op) {
  return t.kind == TokKind::kOp && t.text == op;
}
inline bool IsIdent(const Token& t, std::string_view word) {
  return t.kind == TokKind::kIdent && t.text == word;
}

// FreeMarker rejects operands that are literals of the wrong type at parse time
// ("Found string literal: 'b'. Expecting: number").
enum class Want { kNumber, kBoolean, kString };

// Throws SyntaxError at `offset` when `e` is a literal of another type than `want`.
void CheckLiteral(const Expr* e, Want want, size_t offset);

struct NestingGuard {
  AstBuilder* builder;
  NestingGuard(AstBuilder* b, size_t offset) : builder(b) { builder->EnterNesting(offset); }
  ~NestingGuard() { --builder->depth_; }
};

// Left-deep operator chains (a+b+c..., a.b.c...) are built iteratively but evaluated and
// destroyed recursively, so each link counts as one level of nesting.
struct ChainDepth {
  AstBuilder* builder;
  int links = 0;
  explicit ChainDepth(AstBuilder* b) : builder(b) {}
  void Add(size_t offset) {
    builder->EnterNesting(offset);
    ++links;
  }
  ~ChainDepth() { builder->depth_ -= links; }
};

}  // namespace dp::tmpl
