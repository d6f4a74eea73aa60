#include "template/ast_builder.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "template/builtin_names.hpp"
#include "template/java_regex.hpp"
#include "template/value.hpp"

namespace dp::tmpl {
namespace {

bool IsAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool IsIdentStart(char c) { return IsAlpha(c) || c == '_' || c == '$'; }

bool IsOp(const Token& t, std::string_view op) { return t.kind == TokKind::kOp && t.text == op; }
bool IsIdent(const Token& t, std::string_view word) {
  return t.kind == TokKind::kIdent && t.text == word;
}

constexpr std::array<std::string_view, 19> kUnsupportedDirectives = {
    "iterate",   "escape",  "noescape",     "noEscape",     "visit",    "recurse", "fallback",
    "flush",     "stop",    "outputformat", "outputFormat", "autoesc",  "autoEsc", "noautoesc",
    "noAutoEsc", "comment", "on",           "call",         "transform"};

bool IsUnsupportedDirective(std::string_view name) {
  return std::find(kUnsupportedDirectives.begin(), kUnsupportedDirectives.end(), name) !=
         kUnsupportedDirectives.end();
}

// FreeMarker rejects operands that are literals of the wrong type at parse time
// ("Found string literal: 'b'. Expecting: number").
enum class Want { kNumber, kBoolean, kString };

void CheckLiteral(const Expr* e, Want want, size_t offset) {
  std::string found;
  switch (e->kind) {
    case ExprKind::kString:
    case ExprKind::kStringInterp:
      if (want != Want::kString) found = "string literal";
      break;
    case ExprKind::kNumber:
      if (want != Want::kNumber) found = "number literal";
      break;
    case ExprKind::kBoolean:
      if (want != Want::kBoolean) found = "boolean literal";
      break;
    case ExprKind::kSequence:
      found = "list literal";
      break;
    case ExprKind::kHash:
      found = "hash literal";
      break;
    default:
      break;
  }
  if (found.empty()) return;
  const char* expected = want == Want::kNumber    ? "number"
                         : want == Want::kBoolean ? "boolean (true/false)"
                                                  : "string";
  throw SyntaxError{offset, "Found " + found + ": " + e->source + ". Expecting: " + expected};
}

}  // namespace

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

void AstBuilder::MarkBooleanUse(Expr* e) {
  while (e->kind == ExprKind::kParen) e = e->args[0].get();
  if (e->IsBuiltIn(BuiltIn::kMatches)) e->boolean = true;
}

void AstBuilder::CompileLiteralRegex(Expr* node, const Token& name) {
  const BuiltIn builtin = node->builtin->id;
  const auto& args = node->call_args;
  const size_t flags_at = node->builtin->flags_position;  // 1-based; 0 = none
  // ?matches(re) and ?ensure_starts_with(re, prefix) are regexes without a flags argument.
  const bool implied = (builtin == BuiltIn::kMatches && args.size() == 1) ||
                       (builtin == BuiltIn::kEnsureStartsWith && args.size() == 2);
  node->regex_call =
      builtin == BuiltIn::kMatches || implied || (flags_at > 0 && args.size() == flags_at);
  if (!implied && (flags_at == 0 || args.size() != flags_at)) return;
  if (args[0]->kind != ExprKind::kString) return;
  RegexFlags flags;
  if (!implied) {
    if (args[flags_at - 1]->kind != ExprKind::kString) return;
    flags = RegexFlags::Parse(args[flags_at - 1]->text);
  }
  if (implied || builtin == BuiltIn::kMatches) flags.regex = true;
  if (!flags.regex) return;
  try {
    node->regex = JavaRegex::Compile(args[0]->text, flags);
  } catch (const RegexError& error) {
    // Java's own syntax errors surface at render, where FreeMarker reports them.
    if (error.unsupported) {
      Refuse(name.begin, "The regular expression of ?" + name.text + " (" + error.message + ")",
             "Java's regex dialect differs from the engine's there");
    }
  }
}

void AstBuilder::EnterNesting(size_t offset) {
  if (++depth_ > max_depth_) Fail(offset, "Template nesting is too deep");
}

std::unique_ptr<TemplateAst> AstBuilder::Build() {
  auto ast = std::make_unique<TemplateAst>();
  ast_ = ast.get();
  ast->root = NewNode(NodeKind::kRoot, 0);
  Terminator t = ParseContent(ast->root.get());
  if (t.kind != "eof") {
    Fail(t.begin, "Unexpected " +
                      (t.kind.rfind("end:", 0) == 0 ? "closing tag" : "<#" + t.kind + ">") +
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
    if (i >= n) return Terminator{"eof", n, n, nullptr, ""};
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
      return Terminator{"end:" + name, i, j, nullptr, ""};
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
      return Terminator{"end:@", i, j, nullptr, name};
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

bool AstBuilder::ParseDirective(Node* parent, size_t begin, Terminator* terminator) {
  size_t j = begin + 2;
  while (j < source_.size() && (IsAlpha(source_[j]) || source_[j] == '_')) ++j;
  const std::string name(source_.substr(begin + 2, j - begin - 2));
  lexer_.Start(j, ExprMode::kTag);
  if (name == "if") {
    ParseIf(parent, begin);
  } else if (name == "elseif" || name == "elseIf" || name == "case") {
    terminator->kind = name == "case" ? "case" : "elseif";
    terminator->begin = begin;
    terminator->expr = ParseExpression();
    terminator->end = ExpectTagEnd(false);
    return true;
  } else if (name == "else" || name == "default") {
    terminator->kind = name;
    terminator->begin = begin;
    terminator->end = ExpectTagEnd(true);
    return true;
  } else if (name == "list") {
    ParseList(parent, begin);
  } else if (name == "items") {
    if (items_allowed_ != 1)
      Fail(begin, "<#items> must be directly inside a <#list> without \"as\"");
    ParseItems(parent, begin);
  } else if (name == "sep") {
    if (list_depth_ == 0) Fail(begin, "<#sep> must be inside a <#list>");
    ParseSep(parent, begin, terminator);
    return !terminator->kind.empty();
  } else if (name == "break") {
    if (list_depth_ == 0 && switch_depth_ == 0)
      Fail(begin, "<#break> must be inside <#list> or <#switch>");
    NodePtr node = NewNode(NodeKind::kBreak, begin);
    FinishNode(node.get(), ExpectTagEnd(true));
    AddChild(parent, std::move(node));
  } else if (name == "assign" || name == "global" || name == "local") {
    if (name == "local" && macro_depth_ == 0)
      Fail(begin, "<#local> is only allowed inside a macro or function");
    ParseAssign(parent, begin,
                name == "assign" ? AssignScope::kAssign
                                 : (name == "global" ? AssignScope::kGlobal : AssignScope::kLocal),
                name);
  } else if (name == "macro" || name == "function") {
    ParseMacro(parent, begin, name == "function");
  } else if (name == "nested") {
    if (macro_depth_ == 0 || in_function_) Fail(begin, "<#nested> is only allowed inside a macro");
    NodePtr node = NewNode(NodeKind::kNested, begin);
    while (StartsExpression(lexer_.Peek())) {
      node->exprs.push_back(ParseExpression());
      if (IsOp(lexer_.Peek(), ",")) lexer_.Next();
    }
    FinishNode(node.get(), ExpectTagEnd(true));
    AddChild(parent, std::move(node));
  } else if (name == "return") {
    if (macro_depth_ == 0) Fail(begin, "<#return> is only allowed inside a macro or function");
    NodePtr node = NewNode(NodeKind::kReturn, begin);
    if (StartsExpression(lexer_.Peek())) {
      if (!in_function_) Fail(begin, "A macro's <#return> cannot return a value");
      node->exprs.push_back(ParseExpression());
    }
    FinishNode(node.get(), ExpectTagEnd(true));
    AddChild(parent, std::move(node));
  } else if (name == "switch") {
    ParseSwitch(parent, begin);
  } else if (name == "t" || name == "lt" || name == "rt" || name == "nt") {
    NodePtr node = NewNode(NodeKind::kTrim, begin);
    node->trim_left = name == "t" || name == "lt";
    node->trim_right = name == "t" || name == "rt";
    FinishNode(node.get(), ExpectTagEnd(true));
    AddChild(parent, std::move(node));
  } else if (name == "setting") {
    ParseSetting(parent, begin);
  } else if (name == "continue") {
    if (list_depth_ == 0) Fail(begin, "<#continue> must be inside <#list> or <#items>");
    NodePtr node = NewNode(NodeKind::kContinue, begin);
    FinishNode(node.get(), ExpectTagEnd(true));
    AddChild(parent, std::move(node));
  } else if (name == "compress") {
    ParseBlock(parent, begin, NodeKind::kCompress, "compress");
  } else if (name == "noparse" || name == "noParse") {
    ParseNoParse(parent, begin);
  } else if (name == "attempt") {
    ParseAttempt(parent, begin);
  } else if (name == "recover") {
    terminator->kind = "recover";
    terminator->begin = begin;
    terminator->end = ExpectTagEnd(false);
    return true;
  } else if (name == "include" || name == "import" || name == "ftl") {
    ParseForbidden(parent, begin, "<#" + name + ">");
  } else if (IsUnsupportedDirective(name)) {
    Refuse(begin, "<#" + name + ">");
  } else {
    Fail(begin, "Unknown directive <#" + name + ">");
  }
  return false;
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
  if (t.kind == "end:" + std::string(name)) return;
  if (t.kind == "eof")
    Fail(t.begin, "Unclosed <#" + std::string(name) + ">: expected </#" + std::string(name) + ">");
  Fail(t.begin,
       "Expected </#" + std::string(name) + "> but found " +
           (t.kind.rfind("end:", 0) == 0 ? "</#" + t.kind.substr(4) + ">" : "<#" + t.kind + ">"));
}

void AstBuilder::ParseIf(Node* parent, size_t begin) {
  NodePtr node = NewNode(NodeKind::kIf, begin);
  Node* if_node = node.get();
  AddChild(parent, std::move(node));
  NodePtr branch = NewNode(NodeKind::kIfBranch, begin);
  branch->exprs.push_back(ParseExpression());
  MarkBooleanUse(branch->exprs[0].get());
  FinishNode(branch.get(), ExpectTagEnd(false));
  bool seen_else = false;
  while (true) {
    Node* current = branch.get();
    AddChild(if_node, std::move(branch));
    Terminator t = ParseContent(current);
    if (!current->children.empty()) current->end = current->children.back()->end;
    if (t.kind == "elseif" && !seen_else) {
      branch = NewNode(NodeKind::kIfBranch, t.begin);
      branch->exprs.push_back(std::move(t.expr));
      MarkBooleanUse(branch->exprs[0].get());
      FinishNode(branch.get(), t.end);
    } else if (t.kind == "else" && !seen_else) {
      seen_else = true;
      branch = NewNode(NodeKind::kIfBranch, t.begin);
      FinishNode(branch.get(), t.end);
    } else {
      ExpectEndTag(t, "if");
      FinishNode(if_node, t.end);
      return;
    }
  }
}

// "as item" or "as key, value" of <#list> and <#items>.
void AstBuilder::ParseLoopVariables(Node* node, size_t begin, const char* tag) {
  if (!IsIdent(lexer_.Next(), "as")) {
    Fail(begin, std::string("Expected \"as\" in <#") + tag + ">");
  }
  auto take_name = [&] {
    Token var = lexer_.Next();
    if (var.kind != TokKind::kIdent) Fail(var.begin, "Expected a loop variable name");
    node->names.push_back(var.text);
  };
  take_name();
  if (IsOp(lexer_.Peek(), ",")) {
    lexer_.Next();
    take_name();
  }
}

void AstBuilder::ParseList(Node* parent, size_t begin) {
  NodePtr node = NewNode(NodeKind::kList, begin);
  node->exprs.push_back(ParseExpression());
  const bool items_form = lexer_.Peek().kind == TokKind::kTagEnd;
  if (!items_form) {
    ParseLoopVariables(node.get(), begin, "list");
  }
  const size_t tag_end = ExpectTagEnd(false);
  Node* list = node.get();
  AddChild(parent, std::move(node));
  NodePtr body = NewNode(NodeKind::kListBody, tag_end + 1);
  Node* body_ptr = body.get();
  AddChild(list, std::move(body));
  const int saved_items = items_allowed_;
  if (items_form) {
    items_allowed_ = 1;
  } else {
    ++list_depth_;
    items_allowed_ = 0;
  }
  const size_t saved_vars = loop_vars_.size();
  for (const auto& var : list->names) loop_vars_.push_back(var);
  Terminator t = ParseContent(body_ptr);
  loop_vars_.resize(saved_vars);
  if (!items_form) --list_depth_;
  if (items_form && items_allowed_ != 2) {
    Fail(begin, "A <#list> without \"as\" needs an <#items as ...> inside");
  }
  items_allowed_ = saved_items;
  body_ptr->end =
      body_ptr->children.empty() ? lexer_.PosAt(tag_end) : body_ptr->children.back()->end;
  if (body_ptr->children.empty()) body_ptr->begin = list->begin;
  for (const auto& child : body_ptr->children) {
    if (child->kind == NodeKind::kSep) list->has_sep = true;
  }
  if (t.kind == "else") {
    NodePtr else_node = NewNode(NodeKind::kListElse, t.begin);
    FinishNode(else_node.get(), t.end);
    Node* else_ptr = else_node.get();
    AddChild(list, std::move(else_node));
    t = ParseContent(else_ptr);
    if (!else_ptr->children.empty()) else_ptr->end = else_ptr->children.back()->end;
  }
  ExpectEndTag(t, "list");
  FinishNode(list, t.end);
}

void AstBuilder::ParseItems(Node* parent, size_t begin) {
  NodePtr node = NewNode(NodeKind::kItems, begin);
  ParseLoopVariables(node.get(), begin, "items");
  FinishNode(node.get(), ExpectTagEnd(false));
  Node* items = node.get();
  AddChild(parent, std::move(node));
  items_allowed_ = 0;
  ++list_depth_;
  const size_t saved_vars = loop_vars_.size();
  for (const auto& var : items->names) loop_vars_.push_back(var);
  Terminator t = ParseContent(items);
  loop_vars_.resize(saved_vars);
  --list_depth_;
  items_allowed_ = 2;
  ExpectEndTag(t, "items");
  FinishNode(items, t.end);
}

void AstBuilder::ParseSep(Node* parent, size_t begin, Terminator* pending) {
  NodePtr node = NewNode(NodeKind::kSep, begin);
  const size_t tag_end = ExpectTagEnd(true);
  FinishNode(node.get(), tag_end);
  Node* sep = node.get();
  AddChild(parent, std::move(node));
  Terminator t = ParseContent(sep);
  if (!sep->children.empty()) sep->end = sep->children.back()->end;
  if (t.kind == "end:sep") {
    FinishNode(sep, t.end);
    return;
  }
  *pending = std::move(t);  // </#list> or <#else> closes the <#sep> implicitly
}

// <#setting name=value>: accepted when it restates the Configuration the engine emulates
// (templates.md §4.3), so it changes nothing; any other value would change formatting.
void AstBuilder::ParseSetting(Node* parent, size_t begin) {
  const Token name = lexer_.Next();
  if (name.kind != TokKind::kIdent) Fail(name.begin, "Expected a setting name in <#setting>");
  if (!IsOp(lexer_.Next(), "=")) Fail(name.begin, "Expected \"=\" in <#setting>");
  ExprPtr value = ParseExpression();
  const std::string setting = NormalizeBuiltInName(name.text);
  static constexpr std::pair<std::string_view, std::string_view> kRestated[] = {
      {"number_format", "computer"},
      {"boolean_format", "c"},
      {"locale", "en_US"},
      {"time_zone", "UTC"}};
  bool restated = false;
  for (const auto& [key, fixed] : kRestated) {
    restated =
        restated || (setting == key && value->kind == ExprKind::kString && value->text == fixed);
  }
  if (!restated) {
    Refuse(begin, "<#setting " + name.text + "=" + value->source + ">",
           "only number_format=\"computer\", boolean_format=\"c\", locale=\"en_US\" and "
           "time_zone=\"UTC\" (the engine's fixed configuration) are accepted");
  }
  NodePtr node = NewNode(NodeKind::kSetting, begin);
  FinishNode(node.get(), ExpectTagEnd(true));
  AddChild(parent, std::move(node));
}

// A directive whose body is plain content up to its end tag (<#compress>).
void AstBuilder::ParseBlock(Node* parent, size_t begin, NodeKind kind, std::string_view name) {
  NodePtr node = NewNode(kind, begin);
  FinishNode(node.get(), ExpectTagEnd(false));
  Node* block = node.get();
  AddChild(parent, std::move(node));
  Terminator t = ParseContent(block);
  ExpectEndTag(t, name);
  FinishNode(block, t.end);
}

// <#noparse>raw</#noparse>: one text element spanning both tags, as in FreeMarker.
void AstBuilder::ParseNoParse(Node* parent, size_t begin) {
  const size_t body = ExpectTagEnd(false) + 1;
  size_t close = body;
  size_t end = std::string_view::npos;
  while ((close = source_.find("</#no", close)) != std::string_view::npos) {
    size_t j = close + 5;
    if (source_.substr(j, 5) == "parse" || source_.substr(j, 5) == "Parse") {
      j += 5;
      while (j < source_.size() && std::isspace(static_cast<unsigned char>(source_[j]))) ++j;
      if (j < source_.size() && source_[j] == '>') {
        end = j;
        break;
      }
    }
    ++close;
  }
  if (end == std::string_view::npos) Fail(begin, "Unclosed <#noparse>: expected </#noparse>");
  NodePtr text = NewNode(NodeKind::kText, begin);
  text->text = std::string(source_.substr(body, close - body));
  FinishNode(text.get(), end);
  AddChild(parent, std::move(text));
  pos_ = end + 1;
}

// <#attempt>body<#recover>fallback</#attempt>
void AstBuilder::ParseAttempt(Node* parent, size_t begin) {
  NodePtr node = NewNode(NodeKind::kAttempt, begin);
  const size_t tag_end = ExpectTagEnd(false);
  Node* attempt = node.get();
  AddChild(parent, std::move(node));
  NodePtr body = NewNode(NodeKind::kListBody, tag_end + 1);
  Node* body_ptr = body.get();
  AddChild(attempt, std::move(body));
  Terminator t = ParseContent(body_ptr);
  body_ptr->end =
      body_ptr->children.empty() ? lexer_.PosAt(tag_end) : body_ptr->children.back()->end;
  if (body_ptr->children.empty()) body_ptr->begin = attempt->begin;
  if (t.kind != "recover") {
    if (t.kind == "eof") Fail(begin, "Unclosed <#attempt>: expected <#recover>");
    Fail(t.begin, "Expected <#recover> inside <#attempt>");
  }
  NodePtr recover = NewNode(NodeKind::kRecover, t.begin);
  FinishNode(recover.get(), t.end);
  Node* recover_ptr = recover.get();
  AddChild(attempt, std::move(recover));
  t = ParseContent(recover_ptr);
  if (!recover_ptr->children.empty()) recover_ptr->end = recover_ptr->children.back()->end;
  if (t.kind != "end:recover") ExpectEndTag(t, "attempt");
  FinishNode(attempt, t.end);
}

void AstBuilder::ParseSwitch(Node* parent, size_t begin) {
  NodePtr node = NewNode(NodeKind::kSwitch, begin);
  node->exprs.push_back(ParseExpression());
  ExpectTagEnd(false);
  Node* sw = node.get();
  AddChild(parent, std::move(node));
  Node preamble;
  preamble.kind = NodeKind::kRoot;
  Terminator t = ParseContent(&preamble);
  for (const auto& child : preamble.children) {
    const bool blank = child->kind == NodeKind::kText &&
                       child->text.find_first_not_of(" \t\r\n") == std::string::npos;
    if (!blank && child->kind != NodeKind::kComment) {
      Fail(begin, "Only <#case> and <#default> may follow <#switch>");
    }
  }
  ++switch_depth_;
  bool seen_default = false;
  while (t.kind == "case" || (t.kind == "default" && !seen_default)) {
    NodePtr kase = NewNode(NodeKind::kCase, t.begin);
    if (t.kind == "case") {
      kase->exprs.push_back(std::move(t.expr));
    } else {
      seen_default = true;
    }
    FinishNode(kase.get(), t.end);
    Node* case_ptr = kase.get();
    AddChild(sw, std::move(kase));
    t = ParseContent(case_ptr);
    if (!case_ptr->children.empty()) case_ptr->end = case_ptr->children.back()->end;
  }
  --switch_depth_;
  ExpectEndTag(t, "switch");
  FinishNode(sw, t.end);
}

std::string AstBuilder::IdentOrString(std::string_view what) {
  Token t = lexer_.Next();
  if (t.kind == TokKind::kIdent || t.kind == TokKind::kString || t.kind == TokKind::kRawString) {
    return t.text;
  }
  Fail(t.begin, "Expected " + std::string(what));
}

void AstBuilder::ParseAssign(Node* parent, size_t begin, AssignScope scope,
                             std::string_view directive) {
  NodePtr node = NewNode(NodeKind::kAssign, begin);
  node->scope = scope;
  while (true) {
    node->names.push_back(IdentOrString("a variable name"));
    const Token& op = lexer_.Peek();
    if (op.kind == TokKind::kOp && (op.text == "=" || op.text == "+=" || op.text == "-=" ||
                                    op.text == "*=" || op.text == "/=" || op.text == "%=")) {
      node->ops.push_back(lexer_.Next().text);
      node->exprs.push_back(ParseExpression());
    } else if (IsOp(op, "++") || IsOp(op, "--")) {
      node->ops.push_back(lexer_.Next().text);
      node->exprs.push_back(nullptr);
    } else if (op.kind == TokKind::kTagEnd && node->names.size() == 1) {
      // Block form: <#assign x>captured output</#assign>
      node->kind = NodeKind::kAssignBlock;
      FinishNode(node.get(), ExpectTagEnd(false));
      Node* block = node.get();
      AddChild(parent, std::move(node));
      Terminator t = ParseContent(block);
      ExpectEndTag(t, directive);
      FinishNode(block, t.end);
      return;
    } else {
      Fail(op.begin, "Expected \"=\" in <#" + std::string(directive) + ">");
    }
    if (IsOp(lexer_.Peek(), ",")) lexer_.Next();
    const Token& next = lexer_.Peek();
    if (next.kind == TokKind::kTagEnd || next.kind == TokKind::kEmptyTagEnd) break;
    if (IsIdent(next, "in")) {
      Refuse(next.begin, "<#" + std::string(directive) + " ... in namespace>",
             "assign in the template's own namespace");
    }
  }
  FinishNode(node.get(), ExpectTagEnd(true));
  AddChild(parent, std::move(node));
}

void AstBuilder::ParseMacro(Node* parent, size_t begin, bool function) {
  if (macro_depth_ > 0) Fail(begin, "Macro and function definitions can't be nested");
  NodePtr node = NewNode(function ? NodeKind::kFunction : NodeKind::kMacro, begin);
  node->names.push_back(IdentOrString("a macro name"));
  bool seen_catch_all = false;
  while (lexer_.Peek().kind == TokKind::kIdent) {
    if (seen_catch_all) Fail(lexer_.Peek().begin, "The catch-all parameter must be the last one");
    MacroParam param;
    param.name = lexer_.Next().text;
    if (IsOp(lexer_.Peek(), "...")) {
      lexer_.Next();
      param.catch_all = seen_catch_all = true;
    } else if (IsOp(lexer_.Peek(), "=")) {
      lexer_.Next();
      param.default_value = ParseExpression();
    }
    node->params.push_back(std::move(param));
    if (IsOp(lexer_.Peek(), ",")) lexer_.Next();
  }
  ExpectTagEnd(false);
  Node* macro = node.get();
  AddChild(parent, std::move(node));
  ast_->definitions.push_back(macro);
  const int saved_list = list_depth_;
  const int saved_switch = switch_depth_;
  list_depth_ = switch_depth_ = 0;
  ++macro_depth_;
  in_function_ = function;
  std::vector<std::string> saved_vars;
  saved_vars.swap(loop_vars_);  // a macro body doesn't see the loops around its definition
  Terminator t = ParseContent(macro);
  loop_vars_.swap(saved_vars);
  --macro_depth_;
  in_function_ = false;
  list_depth_ = saved_list;
  switch_depth_ = saved_switch;
  ExpectEndTag(t, function ? "function" : "macro");
  FinishNode(macro, t.end);
}

void AstBuilder::ParseCall(Node* parent, size_t begin) {
  NodePtr node = NewNode(NodeKind::kCall, begin);
  lexer_.Start(begin + 2, ExprMode::kTag);
  Token first = lexer_.Next();
  if (first.kind != TokKind::kIdent) Fail(first.begin, "Expected a macro name after <@");
  ExprPtr callee = MakeExpr(ExprKind::kVariable, first.begin);
  callee->name = first.text;
  std::string callee_text = first.text;
  while (IsOp(lexer_.Peek(), ".")) {
    lexer_.Next();
    Token key = lexer_.Next();
    if (key.kind != TokKind::kIdent) Fail(key.begin, "Expected a name after \".\"");
    ExprPtr dot = MakeExpr(ExprKind::kDot, key.begin);
    dot->name = key.text;
    dot->args.push_back(std::move(callee));
    callee = std::move(dot);
    callee_text += "." + key.text;
  }
  callee->source = callee_text;
  node->exprs.push_back(std::move(callee));
  if (lexer_.Peek().kind == TokKind::kIdent && IsOp(lexer_.Peek(1), "=")) {
    while (lexer_.Peek().kind == TokKind::kIdent && IsOp(lexer_.Peek(1), "=")) {
      std::string name = lexer_.Next().text;
      lexer_.Next();
      node->named_args.emplace_back(name, ParseExpression());
      if (IsOp(lexer_.Peek(), ",")) lexer_.Next();
    }
  } else {
    while (StartsExpression(lexer_.Peek())) {
      node->exprs.push_back(ParseExpression());
      if (IsOp(lexer_.Peek(), ",")) lexer_.Next();
    }
  }
  if (IsOp(lexer_.Peek(), ";")) {  // loop variables the macro's <#nested x, y> sets
    lexer_.Next();
    while (lexer_.Peek().kind == TokKind::kIdent) {
      node->names.push_back(lexer_.Next().text);
      if (IsOp(lexer_.Peek(), ",")) lexer_.Next();
    }
  }
  Token end = lexer_.Next();
  if (end.kind == TokKind::kEmptyTagEnd) {
    pos_ = end.end;
    FinishNode(node.get(), end.end - 1);
    AddChild(parent, std::move(node));
    return;
  }
  if (end.kind != TokKind::kTagEnd)
    Fail(end.begin, "Unexpected \"" + end.text + "\" in macro call");
  pos_ = end.end;
  Node* call = node.get();
  AddChild(parent, std::move(node));
  Terminator t = ParseContent(call);
  if (t.kind != "end:@") Fail(t.begin, "Expected </@" + callee_text + ">");
  if (!t.name.empty() && t.name != callee_text) {
    Fail(t.begin, "Expected </@" + callee_text + "> but found </@" + t.name + ">");
  }
  FinishNode(call, t.end);
}

// ---------------------------------------------------------------------------------------------
// Expressions

ExprPtr AstBuilder::MakeExpr(ExprKind kind, size_t begin) {
  auto expr = std::make_unique<Expr>();
  expr->kind = kind;
  expr->pos = lexer_.PosAt(begin);
  return expr;
}

bool AstBuilder::StartsExpression(const Token& t) {
  switch (t.kind) {
    case TokKind::kNumber:
    case TokKind::kString:
    case TokKind::kRawString:
      return true;
    case TokKind::kIdent:
      return t.text != "as" && t.text != "in" && t.text != "using";
    case TokKind::kOp:
      return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "!" || t.text == "-" ||
             t.text == "+";
    default:
      return false;
  }
}

ExprPtr AstBuilder::ParseExpression() {
  NestingGuard guard(this, lexer_.Peek().begin);
  return ParseOr();
}

ExprPtr AstBuilder::ParseOr() {
  const size_t begin = lexer_.Peek().begin;
  ExprPtr left = ParseAnd();
  ChainDepth chain(this);
  while (IsOp(lexer_.Peek(), "||") || IsOp(lexer_.Peek(), "|")) {
    chain.Add(lexer_.Next().begin);
    ExprPtr node = MakeExpr(ExprKind::kOr, begin);
    node->args.push_back(std::move(left));
    node->args.push_back(ParseAnd());
    MarkBooleanUse(node->args[0].get());
    MarkBooleanUse(node->args[1].get());
    CheckLiteral(node->args[0].get(), Want::kBoolean, begin);
    CheckLiteral(node->args[1].get(), Want::kBoolean, begin);
    left = std::move(node);
  }
  return left;
}

ExprPtr AstBuilder::ParseAnd() {
  const size_t begin = lexer_.Peek().begin;
  ExprPtr left = ParseEquality();
  ChainDepth chain(this);
  while (IsOp(lexer_.Peek(), "&&") || IsOp(lexer_.Peek(), "&")) {
    chain.Add(lexer_.Next().begin);
    ExprPtr node = MakeExpr(ExprKind::kAnd, begin);
    node->args.push_back(std::move(left));
    node->args.push_back(ParseEquality());
    MarkBooleanUse(node->args[0].get());
    MarkBooleanUse(node->args[1].get());
    CheckLiteral(node->args[0].get(), Want::kBoolean, begin);
    CheckLiteral(node->args[1].get(), Want::kBoolean, begin);
    left = std::move(node);
  }
  return left;
}

ExprPtr AstBuilder::ParseEquality() {
  const size_t begin = lexer_.Peek().begin;
  ExprPtr left = ParseRelational();
  const Token& t = lexer_.Peek();
  if (IsOp(t, "==") || IsOp(t, "=") || IsOp(t, "!=")) {
    std::string op = lexer_.Next().text == "!=" ? "!=" : "==";
    ExprPtr node = MakeExpr(ExprKind::kCompare, begin);
    node->name = op;
    node->args.push_back(std::move(left));
    node->args.push_back(ParseRelational());
    left = std::move(node);
  }
  return left;
}

ExprPtr AstBuilder::ParseRelational() {
  const size_t begin = lexer_.Peek().begin;
  ExprPtr left = ParseRange();
  const Token& t = lexer_.Peek();
  std::string op;
  if (t.kind == TokKind::kOp &&
      (t.text == "<" || t.text == "<=" || t.text == ">" || t.text == ">=")) {
    op = t.text;
  } else if (IsIdent(t, "lt")) {
    op = "<";
  } else if (IsIdent(t, "lte")) {
    op = "<=";
  } else if (IsIdent(t, "gt")) {
    op = ">";
  } else if (IsIdent(t, "gte")) {
    op = ">=";
  }
  if (!op.empty()) {
    lexer_.Next();
    ExprPtr node = MakeExpr(ExprKind::kCompare, begin);
    node->name = op;
    node->args.push_back(std::move(left));
    node->args.push_back(ParseRange());
    CheckLiteral(node->args[0].get(), Want::kNumber, begin);
    CheckLiteral(node->args[1].get(), Want::kNumber, begin);
    left = std::move(node);
  }
  return left;
}

ExprPtr AstBuilder::ParseRange() {
  const size_t begin = lexer_.Peek().begin;
  ExprPtr left = ParseAdditive();
  const Token& t = lexer_.Peek();
  if (IsOp(t, "..") || IsOp(t, "..<") || IsOp(t, "..!") || IsOp(t, "..*")) {
    std::string op = lexer_.Next().text;
    ExprPtr node = MakeExpr(ExprKind::kRange, begin);
    node->name = op == "..!" ? "..<" : op;
    node->args.push_back(std::move(left));
    CheckLiteral(node->args[0].get(), Want::kNumber, begin);
    if (StartsExpression(lexer_.Peek())) {
      node->args.push_back(ParseAdditive());
      CheckLiteral(node->args[1].get(), Want::kNumber, begin);
    } else if (op != "..") {
      Fail(lexer_.Peek().begin, "Expected the end of the range after \"" + op + "\"");
    }
    left = std::move(node);
  }
  return left;
}

ExprPtr AstBuilder::ParseAdditive() {
  const size_t begin = lexer_.Peek().begin;
  ExprPtr left = ParseMultiplicative();
  ChainDepth chain(this);
  while (IsOp(lexer_.Peek(), "+") || IsOp(lexer_.Peek(), "-")) {
    chain.Add(lexer_.Peek().begin);
    ExprPtr node = MakeExpr(ExprKind::kArithmetic, begin);
    node->name = lexer_.Next().text;
    node->args.push_back(std::move(left));
    node->args.push_back(ParseMultiplicative());
    if (node->name == "-") {
      CheckLiteral(node->args[0].get(), Want::kNumber, begin);
      CheckLiteral(node->args[1].get(), Want::kNumber, begin);
    }
    left = std::move(node);
  }
  return left;
}

ExprPtr AstBuilder::ParseMultiplicative() {
  const size_t begin = lexer_.Peek().begin;
  ExprPtr left = ParseUnary();
  ChainDepth chain(this);
  while (IsOp(lexer_.Peek(), "*") || IsOp(lexer_.Peek(), "/") || IsOp(lexer_.Peek(), "%")) {
    chain.Add(lexer_.Peek().begin);
    ExprPtr node = MakeExpr(ExprKind::kArithmetic, begin);
    node->name = lexer_.Next().text;
    node->args.push_back(std::move(left));
    node->args.push_back(ParseUnary());
    CheckLiteral(node->args[0].get(), Want::kNumber, begin);
    CheckLiteral(node->args[1].get(), Want::kNumber, begin);
    left = std::move(node);
  }
  return left;
}

ExprPtr AstBuilder::ParseUnary() {
  NestingGuard guard(this, lexer_.Peek().begin);
  const Token& t = lexer_.Peek();
  const size_t begin = t.begin;
  if (IsOp(t, "!") || IsOp(t, "-") || IsOp(t, "+")) {
    const char op = t.text[0];
    lexer_.Next();
    ExprPtr node = MakeExpr(
        op == '!' ? ExprKind::kNot : (op == '-' ? ExprKind::kNegate : ExprKind::kUnaryPlus), begin);
    // FreeMarker checks no literal operand of a unary operator at parse time.
    node->args.push_back(op == '!' ? ParseUnary() : ParsePrimary());
    if (op == '!') MarkBooleanUse(node->args[0].get());
    node->source = std::string(source_.substr(begin, lexer_.consumed_end() - begin));
    return node;
  }
  return ParsePrimary();
}

std::vector<ExprPtr> AstBuilder::ParseArgs(std::string_view close) {
  std::vector<ExprPtr> args;
  while (!IsOp(lexer_.Peek(), close)) {
    args.push_back(ParseExpression());
    if (IsOp(lexer_.Peek(), ",")) {
      lexer_.Next();
    } else if (!IsOp(lexer_.Peek(), close)) {
      Fail(lexer_.Peek().begin, "Expected \",\" or \"" + std::string(close) + "\"");
    }
  }
  lexer_.Next();
  return args;
}

ExprPtr AstBuilder::ParsePrimary() {
  const size_t begin = lexer_.Peek().begin;
  ExprPtr expr = ParseAtom();
  ChainDepth chain(this);
  while (true) {
    chain.Add(lexer_.Peek().begin);
    const Token& t = lexer_.Peek();
    ExprPtr node;
    if (IsOp(t, ".")) {
      lexer_.Next();
      Token key = lexer_.Next();
      if (key.kind != TokKind::kIdent) Fail(key.begin, "Expected a name after \".\"");
      node = MakeExpr(ExprKind::kDot, begin);
      node->name = key.text;
      node->args.push_back(std::move(expr));
    } else if (IsOp(t, "[")) {
      // FreeMarker refuses to index a number or boolean literal at parse time.
      if (expr->kind == ExprKind::kNumber || expr->kind == ExprKind::kBoolean) {
        Fail(begin, "Found " + std::string(expr->kind == ExprKind::kNumber ? "number" : "boolean") +
                        " literal: " + expr->source + ". Expecting: string, sequence or hash");
      }
      lexer_.Next();
      node = MakeExpr(ExprKind::kDynamicKey, begin);
      node->args.push_back(std::move(expr));
      node->args.push_back(ParseExpression());
      if (!IsOp(lexer_.Next(), "]")) Fail(lexer_.consumed_end(), "Expected \"]\"");
    } else if (IsOp(t, "(")) {
      lexer_.Next();
      node = MakeExpr(ExprKind::kMethodCall, begin);
      node->args.push_back(std::move(expr));
      for (auto& arg : ParseArgs(")")) node->args.push_back(std::move(arg));
    } else if (IsOp(t, "?")) {
      lexer_.Next();
      Token name = lexer_.Next();
      if (name.kind != TokKind::kIdent) Fail(name.begin, "Expected a built-in name after \"?\"");
      const std::string normalized = NormalizeBuiltInName(name.text);
      if (const char* why = UnsupportedBuiltInReason(normalized)) {
        Refuse(name.begin, "?" + name.text, why);
      }
      const BuiltInSpec* builtin = FindBuiltIn(normalized);
      if (!builtin) Fail(name.begin, "Unknown built-in: ?" + name.text);
      // FreeMarker bans the legacy escaping built-ins where output is auto-escaped, and the
      // markup ones where there is no markup output format (the sql type).
      if (html_ && (builtin->id == BuiltIn::kHtml || builtin->id == BuiltIn::kXhtml ||
                    builtin->id == BuiltIn::kXml)) {
        Fail(name.begin, "Using ?" + name.text +
                             " in the html template type is not allowed: its output is escaped "
                             "already");
      }
      if (!html_ && builtin->family == BuiltInFamily::kOutputFormat) {
        Fail(name.begin,
             "?" + name.text + " needs the html template type (a markup output format)");
      }
      // As FreeMarker: ?index and its kin apply to the name of an enclosing loop's variable.
      if (builtin->family == BuiltInFamily::kLoopVariable &&
          (expr->kind != ExprKind::kVariable ||
           std::find(loop_vars_.begin(), loop_vars_.end(), expr->name) == loop_vars_.end())) {
        Fail(name.begin, "The left hand operand of ?" + name.text +
                             " must be a loop variable of an enclosing <#list> or <#items>");
      }
      node = MakeExpr(ExprKind::kBuiltIn, begin);
      node->name = normalized;
      node->builtin = builtin;
      if (builtin->id == BuiltIn::kC || builtin->id == BuiltIn::kThen ||
          builtin->id == BuiltIn::kStringOf) {
        MarkBooleanUse(expr.get());
      }
      node->args.push_back(std::move(expr));
      if (builtin->family == BuiltInFamily::kStream) {
        ParseStreamArgument(node.get(), name);
      } else if (IsOp(lexer_.Peek(), "(") && lexer_.Peek().begin == name.end) {
        lexer_.Next();
        node->has_call_args = true;
        node->call_args = ParseArgs(")");
        CompileLiteralRegex(node.get(), name);
      }
    } else if (IsOp(t, "??")) {
      lexer_.Next();
      node = MakeExpr(ExprKind::kExists, begin);
      node->args.push_back(std::move(expr));
    } else if (IsOp(t, "!")) {
      lexer_.Next();
      node = MakeExpr(ExprKind::kDefaultTo, begin);
      node->args.push_back(std::move(expr));
      if (StartsExpression(lexer_.Peek())) node->args.push_back(ParseExpression());
      node->source = std::string(source_.substr(begin, lexer_.consumed_end() - begin));
      return node;
    } else {
      return expr;
    }
    node->source = std::string(source_.substr(begin, lexer_.consumed_end() - begin));
    expr = std::move(node);
  }
}

// .data_model, .locale, .lang, .output_format, .auto_esc as values; .vars, .globals and .main
// only looked into (.vars.x, .main["x"]): their listing differs from FreeMarker's.
ExprPtr AstBuilder::ParseSpecialVariable(const Token& dot) {
  const Token name = lexer_.Next();
  const std::string shown =
      "The special variable ." + (name.kind == TokKind::kIdent ? name.text : "");
  if (name.kind != TokKind::kIdent || name.begin != dot.end)
    Fail(dot.begin, "Expected a name after \".\"");
  static constexpr std::string_view kValues[] = {"data_model", "locale", "lang", "output_format",
                                                 "auto_esc"};
  static constexpr std::string_view kLookups[] = {"vars", "globals", "main"};
  const bool value =
      std::find(std::begin(kValues), std::end(kValues), name.text) != std::end(kValues);
  const bool lookup =
      std::find(std::begin(kLookups), std::end(kLookups), name.text) != std::end(kLookups);
  if (!value && !lookup) Refuse(dot.begin, shown);
  if (lookup && !IsOp(lexer_.Peek(), ".") && !IsOp(lexer_.Peek(), "[")) {
    Refuse(dot.begin, shown,
           "only a member of it (." + name.text + ".x or ." + name.text + "[\"x\"]) can be read");
  }
  ExprPtr node = MakeExpr(ExprKind::kSpecialVariable, dot.begin);
  node->name = name.text;
  return node;
}

// The inside of #{...}: an expression, then optionally "; m<min>M<max>" (fraction digits, in
// either order, max defaulting to min, min to 0) as FreeMarker's NumericalOutput.
ExprPtr AstBuilder::ParseLegacyNumber(size_t begin) {
  ExprPtr node = MakeExpr(ExprKind::kLegacyNumber, begin);
  node->args.push_back(ParseExpression());
  node->source = node->args[0]->source;
  if (!IsOp(lexer_.Peek(), ";")) return node;
  lexer_.Next();
  const Token spec = lexer_.Next();
  int min = -1, max = -1;
  bool valid = spec.kind == TokKind::kIdent;
  for (size_t i = 0; valid && i < spec.text.size();) {
    const char kind = spec.text[i++];
    size_t digits = 0;
    int n = 0;
    for (; i < spec.text.size() && std::isdigit(static_cast<unsigned char>(spec.text[i]));
         ++i, ++digits) {
      n = std::min(n * 10 + (spec.text[i] - '0'), 1000);
    }
    int& slot = kind == 'm' ? min : max;
    valid = (kind == 'm' || kind == 'M') && digits > 0 && slot == -1;
    slot = n;
  }
  if (!valid) Fail(spec.begin, "Invalid format specifier in #{...}: " + spec.text);
  if (max == -1) max = min;
  if (min == -1) min = 0;
  if (min > max) Fail(spec.begin, "Invalid format specification, min cannot be greater than max");
  if (max > 50) Fail(spec.begin, "Cannot specify more than 50 fraction digits");
  // The same digits as java.text.DecimalFormat with that many fraction digits, no grouping.
  node->text = "0";
  if (max > 0) node->text += "." + std::string(min, '0') + std::string(max - min, '#');
  return node;
}

// ?filter(x -> ...) and its kin take exactly one argument: a lambda or a function.
void AstBuilder::ParseStreamArgument(Expr* node, const Token& name) {
  if (!IsOp(lexer_.Peek(), "(") || lexer_.Peek().begin != name.end) {
    Fail(name.begin, "?" + name.text + " needs one argument: a lambda (x -> ...) or a function");
  }
  lexer_.Next();
  node->has_call_args = true;
  const Token& first = lexer_.Peek();
  const bool bare = first.kind == TokKind::kIdent && IsOp(lexer_.Peek(1), "->");
  const bool parenthesized = IsOp(first, "(") && lexer_.Peek(1).kind == TokKind::kIdent &&
                             IsOp(lexer_.Peek(2), ")") && IsOp(lexer_.Peek(3), "->");
  if (bare || parenthesized) {
    const size_t begin = first.begin;
    if (parenthesized) lexer_.Next();
    ExprPtr lambda = MakeExpr(ExprKind::kLambda, begin);
    lambda->name = lexer_.Next().text;
    if (parenthesized) lexer_.Next();
    lexer_.Next();  // "->"
    lambda->args.push_back(ParseExpression());
    lambda->source = std::string(source_.substr(begin, lexer_.consumed_end() - begin));
    node->call_args.push_back(std::move(lambda));
  } else if (!IsOp(first, ")")) {
    node->call_args.push_back(ParseExpression());
  }
  if (node->call_args.size() != 1 || !IsOp(lexer_.Next(), ")")) {
    Fail(name.begin,
         "?" + name.text + " needs exactly one argument: a lambda (x -> ...) or a function");
  }
}

namespace {

// The next "${" or "#{" of a string literal whose characters were both written as such.
size_t FindInterpolation(const Token& token, size_t from) {
  const auto escaped = [&](size_t at) {
    return std::find(token.escaped.begin(), token.escaped.end(), at) != token.escaped.end();
  };
  const std::string& text = token.text;
  for (size_t open = text.find('{', from + 1); open != std::string::npos;
       open = text.find('{', open + 1)) {
    if ((text[open - 1] == '$' || text[open - 1] == '#') && open - 1 >= from &&
        !escaped(open - 1) && !escaped(open)) {
      return open - 1;
    }
  }
  return std::string::npos;
}

}  // namespace

ExprPtr AstBuilder::ParseStringLiteral(const Token& token) {
  if (token.kind == TokKind::kRawString || FindInterpolation(token, 0) == std::string::npos) {
    ExprPtr node = MakeExpr(ExprKind::kString, token.begin);
    node->text = token.text;
    node->constant = Value::String(node->text);
    return node;
  }
  ExprPtr node = MakeExpr(ExprKind::kStringInterp, token.begin);
  const std::string& value = token.text;
  AstBuilder sub(value, max_depth_ - depth_, html_);
  sub.loop_vars_ = loop_vars_;
  size_t i = 0;
  try {
    while (i < value.size()) {
      const size_t open = FindInterpolation(token, i);
      const size_t stop = open == std::string::npos ? value.size() : open;
      if (stop > i) {
        ExprPtr piece = MakeExpr(ExprKind::kString, token.begin);
        piece->text = value.substr(i, stop - i);
        piece->constant = Value::String(piece->text);
        node->args.push_back(std::move(piece));
      }
      if (open == std::string::npos) break;
      sub.lexer_.Start(open + 2, ExprMode::kInterpolation);
      ExprPtr inner = value[open] == '#' ? sub.ParseLegacyNumber(open) : sub.ParseExpression();
      Token close = sub.lexer_.Next();
      if (close.kind != TokKind::kInterpEnd)
        Fail(token.begin, "Malformed ${...} in string literal");
      node->args.push_back(std::move(inner));
      i = close.end;
    }
  } catch (const SyntaxError& error) {
    throw SyntaxError{token.begin, error.message, error.unsupported};
  }
  return node;
}

ExprPtr AstBuilder::ParseAtom() {
  Token t = lexer_.Next();
  ExprPtr node;
  switch (t.kind) {
    case TokKind::kNumber: {
      node = MakeExpr(ExprKind::kNumber, t.begin);
      auto parsed = Decimal::Parse(t.text);
      if (!parsed) {
        throw SyntaxError{t.begin, "Number literal longer than " +
                                       std::to_string(Decimal::kMaxDigits) + " digits"};
      }
      node->number = *parsed;
      node->constant = Value::Number(node->number);
      break;
    }
    case TokKind::kString:
    case TokKind::kRawString:
      node = ParseStringLiteral(t);
      break;
    case TokKind::kIdent:
      if (t.text == "true" || t.text == "false") {
        node = MakeExpr(ExprKind::kBoolean, t.begin);
        node->boolean = t.text == "true";
      } else {
        node = MakeExpr(ExprKind::kVariable, t.begin);
        node->name = t.text;
      }
      break;
    case TokKind::kOp:
      if (t.text == "(") {
        node = MakeExpr(ExprKind::kParen, t.begin);
        node->args.push_back(ParseExpression());
        if (!IsOp(lexer_.Next(), ")")) Fail(lexer_.consumed_end(), "Expected \")\"");
      } else if (t.text == "[") {
        node = MakeExpr(ExprKind::kSequence, t.begin);
        node->args = ParseArgs("]");
      } else if (t.text == "{") {
        node = MakeExpr(ExprKind::kHash, t.begin);
        while (!IsOp(lexer_.Peek(), "}")) {
          node->args.push_back(ParseExpression());
          CheckLiteral(node->args.back().get(), Want::kString,
                       node->args.back()->source.empty() ? t.begin : lexer_.consumed_end());
          if (!IsOp(lexer_.Next(), ":"))
            Fail(lexer_.consumed_end(), "Expected \":\" in hash literal");
          node->args.push_back(ParseExpression());
          if (IsOp(lexer_.Peek(), ",")) {
            lexer_.Next();
          } else if (!IsOp(lexer_.Peek(), "}")) {
            Fail(lexer_.Peek().begin, "Expected \",\" or \"}\" in hash literal");
          }
        }
        lexer_.Next();
      } else if (t.text == ".") {
        node = ParseSpecialVariable(t);
      } else {
        Fail(t.begin, "Unexpected \"" + t.text + "\"; expected an expression");
      }
      break;
    case TokKind::kEnd:
      Fail(t.begin, "Unexpected end of template; expected an expression");
    default:
      Fail(t.begin, "Expected an expression");
  }
  node->source = std::string(source_.substr(t.begin, lexer_.consumed_end() - t.begin));
  return node;
}

}  // namespace dp::tmpl
