// AstBuilder: the directives (<#if>, <#list>, <#assign>, <#macro>, <@call>, ...), each parsed
// through its end tag.
#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "template/evaluation/builtins/builtin_names.hpp"
#include "template/syntax/ast_builder.hpp"
#include "template/syntax/ast_builder_support.hpp"

namespace dp::tmpl {
namespace {

constexpr std::array<std::string_view, 19> kUnsupportedDirectives = {
    "iterate",   "escape",  "noescape",     "noEscape",     "visit",    "recurse", "fallback",
    "flush",     "stop",    "outputformat", "outputFormat", "autoesc",  "autoEsc", "noautoesc",
    "noAutoEsc", "comment", "on",           "call",         "transform"};

bool IsUnsupportedDirective(std::string_view name) {
  return std::find(kUnsupportedDirectives.begin(), kUnsupportedDirectives.end(), name) !=
         kUnsupportedDirectives.end();
}

}  // namespace

bool AstBuilder::ParseDirective(Node* parent, size_t begin, Terminator* terminator) {
  size_t j = begin + 2;
  while (j < source_.size() && (IsAlpha(source_[j]) || source_[j] == '_')) ++j;
  const std::string name(source_.substr(begin + 2, j - begin - 2));
  lexer_.Start(j, ExprMode::kTag);
  if (name == "if") {
    ParseIf(parent, begin);
  } else if (name == "elseif" || name == "elseIf" || name == "case") {
    terminator->kind = name == "case" ? TerminatorKind::kCase : TerminatorKind::kElseIf;
    terminator->begin = begin;
    terminator->expr = ParseExpression();
    terminator->end = ExpectTagEnd(false);
    return true;
  } else if (name == "else" || name == "default") {
    terminator->kind = name == "else" ? TerminatorKind::kElse : TerminatorKind::kDefault;
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
    return terminator->kind != TerminatorKind::kNone;
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
    terminator->kind = TerminatorKind::kRecover;
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
    if (t.kind == TerminatorKind::kElseIf && !seen_else) {
      branch = NewNode(NodeKind::kIfBranch, t.begin);
      branch->exprs.push_back(std::move(t.expr));
      MarkBooleanUse(branch->exprs[0].get());
      FinishNode(branch.get(), t.end);
    } else if (t.kind == TerminatorKind::kElse && !seen_else) {
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
  if (t.kind == TerminatorKind::kElse) {
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
  if (t.Closes("sep")) {
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
  if (t.kind != TerminatorKind::kRecover) {
    if (t.kind == TerminatorKind::kEof) Fail(begin, "Unclosed <#attempt>: expected <#recover>");
    Fail(t.begin, "Expected <#recover> inside <#attempt>");
  }
  NodePtr recover = NewNode(NodeKind::kRecover, t.begin);
  FinishNode(recover.get(), t.end);
  Node* recover_ptr = recover.get();
  AddChild(attempt, std::move(recover));
  t = ParseContent(recover_ptr);
  if (!recover_ptr->children.empty()) recover_ptr->end = recover_ptr->children.back()->end;
  if (!t.Closes("recover")) ExpectEndTag(t, "attempt");
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
  while (t.kind == TerminatorKind::kCase || (t.kind == TerminatorKind::kDefault && !seen_default)) {
    NodePtr kase = NewNode(NodeKind::kCase, t.begin);
    if (t.kind == TerminatorKind::kCase) {
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
      node->ops.push_back(OperatorFromText(lexer_.Next().text));
      node->exprs.push_back(ParseExpression());
    } else if (IsOp(op, "++") || IsOp(op, "--")) {
      node->ops.push_back(OperatorFromText(lexer_.Next().text));
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
  if (t.kind != TerminatorKind::kEndCall) Fail(t.begin, "Expected </@" + callee_text + ">");
  if (!t.name.empty() && t.name != callee_text) {
    Fail(t.begin, "Expected </@" + callee_text + "> but found </@" + t.name + ">");
  }
  FinishNode(call, t.end);
}

}  // namespace dp::tmpl
