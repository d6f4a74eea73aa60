#pragma once
// Recursive-descent parser from FTL source to the TemplateAst (template_ast.hpp). Throws
// SyntaxError; forbidden constructs are parsed into the tree (kForbidden nodes, built-in
// names) so TemplateValidator rejects them from the AST, never from the raw text.
// Defined in three files: ast_builder.cpp (content, tags, end tags), ast_builder_directives.cpp
// and ast_builder_expressions.cpp.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "template/syntax/template_ast.hpp"
#include "template/syntax/template_lexer.hpp"

namespace dp::tmpl {

class AstBuilder {
 public:
  // `html`: the html template type (FreeMarker's HTML output format, auto-escaping).
  AstBuilder(std::string_view source, int max_depth, bool html = false);
  std::unique_ptr<TemplateAst> Build();
  SourcePos PosAt(size_t offset) const { return lexer_.PosAt(offset); }

 private:
  // What ended a ParseContent run: the end of the source, an end tag, or a directive that
  // continues its parent (<#else>, <#case>, ...).
  enum class TerminatorKind {
    kNone,
    kEof,
    kEndTag,
    kEndCall,
    kElse,
    kElseIf,
    kCase,
    kDefault,
    kRecover
  };
  struct Terminator {
    TerminatorKind kind = TerminatorKind::kNone;
    size_t begin = 0;
    size_t end = 0;  // offset of the tag's last byte
    ExprPtr expr;
    // kEndTag: the directive it closes ("if"); kEndCall: the closing macro name (may be empty).
    std::string name;

    bool Closes(std::string_view directive) const {
      return kind == TerminatorKind::kEndTag && name == directive;
    }
    // As an error message names it: "</#if>", "</#@>", "<#else>".
    std::string Describe() const;
  };

  Terminator ParseContent(Node* parent);
  NodePtr NewNode(NodeKind kind, size_t begin);
  void AddChild(Node* parent, NodePtr child);
  void FinishNode(Node* node, size_t last_byte);

  // Directives; each consumes through its end tag and appends to parent.
  // Returns a terminator when the directive itself is a terminator.
  bool ParseDirective(Node* parent, size_t begin, Terminator* terminator);
  void ParseIf(Node* parent, size_t begin);
  void ParseLoopVariables(Node* node, size_t begin, const char* tag);
  void ParseList(Node* parent, size_t begin);
  void ParseItems(Node* parent, size_t begin);
  void ParseSep(Node* parent, size_t begin, Terminator* pending);
  void ParseSwitch(Node* parent, size_t begin);
  void ParseBlock(Node* parent, size_t begin, NodeKind kind, std::string_view name);
  void ParseNoParse(Node* parent, size_t begin);
  void ParseSetting(Node* parent, size_t begin);
  void ParseAttempt(Node* parent, size_t begin);
  void ParseAssign(Node* parent, size_t begin, AssignScope scope, std::string_view directive);
  void ParseMacro(Node* parent, size_t begin, bool function);
  void ParseCall(Node* parent, size_t begin);
  void ParseInterpolation(Node* parent, size_t begin);
  void ParseForbidden(Node* parent, size_t begin, std::string construct);
  size_t ExpectTagEnd(bool allow_empty);
  void ExpectEndTag(const Terminator& t, std::string_view name);

  // Expressions (FreeMarker precedence, lowest first).
  ExprPtr ParseExpression();
  ExprPtr ParseOr();
  ExprPtr ParseAnd();
  ExprPtr ParseEquality();
  ExprPtr ParseRelational();
  ExprPtr ParseRange();
  ExprPtr ParseAdditive();
  ExprPtr ParseMultiplicative();
  ExprPtr ParseUnary();
  ExprPtr ParsePrimary();
  ExprPtr ParseAtom();
  ExprPtr ParseStringLiteral(const Token& token);
  void ParseStreamArgument(Expr* node, const Token& name);
  ExprPtr ParseSpecialVariable(const Token& dot);
  ExprPtr ParseLegacyNumber(size_t begin);
  std::vector<ExprPtr> ParseArgs(std::string_view close);
  bool StartsExpression(const Token& token);
  ExprPtr MakeExpr(ExprKind kind, size_t begin);
  std::string IdentOrString(std::string_view what);

  [[noreturn]] void Fail(size_t offset, std::string message);
  // Valid FreeMarker the engine does not render: "<construct> is not supported[: why]".
  [[noreturn]] void Refuse(size_t offset, std::string construct, std::string why = "");
  // A regex built-in whose regex and flags are literals: compiled once here (refused when the
  // engine cannot reproduce Java's dialect).
  void CompileLiteralRegex(Expr* node, const Token& name);
  // A ?matches result used only as a boolean (an <#if> condition, an operand of && || !, the
  // target of ?c ?then ?string): its list of matches is never built.
  static void MarkBooleanUse(Expr* e);
  void EnterNesting(size_t offset);

  std::string_view source_;
  TemplateLexer lexer_;
  size_t pos_ = 0;
  int max_depth_;
  int depth_ = 0;
  int list_depth_ = 0;
  int items_allowed_ = 0;  // 1 inside <#list xs> (no "as"), 2 once its <#items> was seen
  int switch_depth_ = 0;
  int macro_depth_ = 0;
  bool in_function_ = false;
  std::vector<std::string> loop_vars_;
  bool html_ = false;  // variables of the enclosing <#list>/<#items> bodies
  TemplateAst* ast_ = nullptr;

  friend struct NestingGuard;
  friend struct ChainDepth;
};

}  // namespace dp::tmpl
