#include "template/syntax/ast_builder.hpp"

#include <string>
#include <utility>

#include "template/syntax/ast_builder_support.hpp"

namespace dp::tmpl {

AstBuilder::AstBuilder(std::string_view source, int max_depth, bool html)
    : source_(source), lexer_(source), max_depth_(max_depth), html_(html) {}

void AstBuilder::Fail(size_t offset, std::string message) {
  throw SyntaxError{offset, std::move(message)};
}

void AstBuilder::Refuse(size_t offset, std::string construct, std::string why) {
  std::string message = construct + " is not supported";
  if (!why.empty()) message += ": " + why;
  throw SyntaxError{offset, std::move(message), std::move(construct)};
}

void AstBuilder::EnterNesting(size_t offset) {
  if (++depth_ > max_depth_) Fail(offset, "Template nesting is too deep");
}

std::unique_ptr<TemplateAst> AstBuilder::Build() {
  auto ast = std::make_unique<TemplateAst>();
  ast_ = ast.get();
  ast->root = NewNode(NodeKind::kRoot, 0);
  Terminator t = ParseContent(ast->root.get());
  if (t.kind != TerminatorKind::kEof) {
    const bool closing = t.kind == TerminatorKind::kEndTag || t.kind == TerminatorKind::kEndCall;
    Fail(t.begin, "Unexpected " + (closing ? std::string("closing tag") : t.Describe()) +
                      " with no matching opening directive");
  }
  ast->root->end = lexer_.PosAt(source_.empty() ? 0 : source_.size() - 1);
  return ast;
}

NodePtr AstBuilder::NewNode(NodeKind kind, size_t begin) {
  auto node = std::make_unique<Node>();
  node->kind = kind;
  node->begin = lexer_.PosAt(begin);
  node->end = node->begin;
  return node;
}

void AstBuilder::AddChild(Node* parent, NodePtr child) {
  child->parent = parent;
  parent->children.push_back(std::move(child));
}

void AstBuilder::FinishNode(Node* node, size_t last_byte) { node->end = lexer_.PosAt(last_byte); }

AstBuilder::Terminator AstBuilder::ParseContent(Node* parent) {
  NestingGuard guard(this, pos_);
  const size_t n = source_.size();
  while (true) {
    size_t i = pos_;
    for (; i < n; ++i) {
      const char c = source_[i];
      const char c1 = i + 1 < n ? source_[i + 1] : '\0';
      const char c2 = i + 2 < n ? source_[i + 2] : '\0';
      const char c3 = i + 3 < n ? source_[i + 3] : '\0';
      if (c == '$' && c1 == '{') break;
      if (c == '#' && c1 == '{') break;
      if (c == '[' && (c1 == '#' || c1 == '@' || c1 == '=')) break;
      if (c != '<') continue;
      if (c1 == '#' && (IsAlpha(c2) || source_.substr(i, 4) == "<#--")) break;
      if (c1 == '/' && c2 == '#' && IsAlpha(c3)) break;
      if (c1 == '@' && IsIdentStart(c2)) break;
      if (c1 == '/' && c2 == '@') break;
    }
    if (i > pos_) {
      NodePtr text = NewNode(NodeKind::kText, pos_);
      text->text = std::string(source_.substr(pos_, i - pos_));
      // FreeMarker's lexer expands a tab to column 8, so a text that starts a line with a tab
      // is not "at column 1" for the white-space stripping rules.
      if (text->begin.column == 1 && source_[pos_] == '\t') text->begin.column = 8;
      FinishNode(text.get(), i - 1);
      AddChild(parent, std::move(text));
    }
    pos_ = i;
    if (i >= n) return Terminator{TerminatorKind::kEof, n, n, nullptr, ""};
    const char c1 = source_[i + 1];
    if (source_[i] == '$') {
      ParseInterpolation(parent, i);
    } else if (source_[i] == '#') {
      ParseInterpolation(parent, i);
    } else if (source_[i] == '[') {
      ParseForbidden(parent, i, "square-bracket syntax " + std::string(source_.substr(i, 2)));
    } else if (c1 == '#' && source_.substr(i, 4) == "<#--") {
      const size_t close = source_.find("-->", i + 4);
      if (close == std::string_view::npos) Fail(i, "Unclosed comment <#--");
      NodePtr comment = NewNode(NodeKind::kComment, i);
      FinishNode(comment.get(), close + 2);
      AddChild(parent, std::move(comment));
      pos_ = close + 3;
    } else if (c1 == '#') {
      Terminator t;
      if (ParseDirective(parent, i, &t)) return t;
    } else if (c1 == '/' && source_[i + 2] == '#') {
      size_t j = i + 3;
      while (j < n && (IsAlpha(source_[j]) || source_[j] == '_')) ++j;
      std::string name(source_.substr(i + 3, j - i - 3));
      while (j < n && std::isspace(static_cast<unsigned char>(source_[j]))) ++j;
      if (j >= n || source_[j] != '>') Fail(i, "Malformed end tag </#" + name + ">");
      pos_ = j + 1;
      if (name == "elseIf") name = "elseif";
      return Terminator{TerminatorKind::kEndTag, i, j, nullptr, name};
    } else if (c1 == '@') {
      ParseCall(parent, i);
    } else {  // "</@"
      size_t j = i + 3;
      while (j < n && (IsIdentStart(source_[j]) ||
                       std::isdigit(static_cast<unsigned char>(source_[j])) || source_[j] == '.')) {
        ++j;
      }
      std::string name(source_.substr(i + 3, j - i - 3));
      while (j < n && std::isspace(static_cast<unsigned char>(source_[j]))) ++j;
      if (j >= n || source_[j] != '>') Fail(i, "Malformed end tag </@" + name + ">");
      pos_ = j + 1;
      return Terminator{TerminatorKind::kEndCall, i, j, nullptr, name};
    }
  }
}

size_t AstBuilder::ExpectTagEnd(bool allow_empty) {
  Token t = lexer_.Next();
  if (t.kind == TokKind::kTagEnd || (allow_empty && t.kind == TokKind::kEmptyTagEnd)) {
    pos_ = t.end;
    return t.end - 1;
  }
  Fail(t.begin, t.kind == TokKind::kEnd ? "Unclosed tag" : "Unexpected \"" + t.text + "\" in tag");
}

void AstBuilder::ParseForbidden(Node* parent, size_t begin, std::string construct) {
  NodePtr node = NewNode(NodeKind::kForbidden, begin);
  node->text = std::move(construct);
  if (source_[begin] == '[') {
    pos_ = begin + 2;
    FinishNode(node.get(), begin + 1);
  } else {
    // Skip the tag's arguments token by token so '>' inside string literals is not its end.
    while (true) {
      const Token& t = lexer_.Peek();
      if (t.kind == TokKind::kTagEnd || t.kind == TokKind::kEmptyTagEnd) break;
      if (t.kind == TokKind::kEnd) Fail(begin, "Unclosed tag");
      lexer_.Next();
    }
    FinishNode(node.get(), ExpectTagEnd(true));
  }
  AddChild(parent, std::move(node));
}

// ${expr}, or the legacy #{expr} / #{expr; m1M3} (a number, with min/max fraction digits).
void AstBuilder::ParseInterpolation(Node* parent, size_t begin) {
  NodePtr node = NewNode(NodeKind::kInterpolation, begin);
  lexer_.Start(begin + 2, ExprMode::kInterpolation);
  node->exprs.push_back(source_[begin] == '#' ? ParseLegacyNumber(begin) : ParseExpression());
  const Expr* value = node->exprs.back().get();
  if (value->kind == ExprKind::kSequence || value->kind == ExprKind::kHash) {
    // As FreeMarker: a sequence or hash literal can't be printed, known at parse time.
    Fail(begin, "Found " + std::string(value->kind == ExprKind::kSequence ? "sequence" : "hash") +
                    " literal: " + value->source +
                    ". Expecting: string, number, boolean or markup output");
  }
  Token t = lexer_.Next();
  if (t.kind != TokKind::kInterpEnd) {
    Fail(t.begin,
         t.kind == TokKind::kEnd ? "Unclosed ${" : "Unexpected \"" + t.text + "\" in ${...}");
  }
  pos_ = t.end;
  FinishNode(node.get(), t.begin);
  AddChild(parent, std::move(node));
}

void AstBuilder::ExpectEndTag(const Terminator& t, std::string_view name) {
  if (t.Closes(name)) return;
  if (t.kind == TerminatorKind::kEof)
    Fail(t.begin, "Unclosed <#" + std::string(name) + ">: expected </#" + std::string(name) + ">");
  Fail(t.begin, "Expected </#" + std::string(name) + "> but found " + t.Describe());
}

std::string AstBuilder::Terminator::Describe() const {
  switch (kind) {
    case TerminatorKind::kEndTag:
      return "</#" + name + ">";
    case TerminatorKind::kEndCall:
      return "</#@>";
    case TerminatorKind::kElse:
      return "<#else>";
    case TerminatorKind::kElseIf:
      return "<#elseif>";
    case TerminatorKind::kCase:
      return "<#case>";
    case TerminatorKind::kDefault:
      return "<#default>";
    case TerminatorKind::kRecover:
      return "<#recover>";
    case TerminatorKind::kEof:
    case TerminatorKind::kNone:
      break;
  }
  return "the end of the template";
}

}  // namespace dp::tmpl
