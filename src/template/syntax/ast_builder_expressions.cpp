// AstBuilder: expressions, in FreeMarker's precedence (lowest first), with the parse-time
// checks FreeMarker makes (literal operand types, built-in names, literal regexes).
#include <string>
#include <utility>

#include "template/evaluation/builtins/builtin_names.hpp"
#include "template/evaluation/value.hpp"
#include "template/java/java_regex.hpp"
#include "template/syntax/ast_builder.hpp"
#include "template/syntax/ast_builder_support.hpp"

namespace dp::tmpl {

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
    ExprPtr node = MakeExpr(ExprKind::kCompare, begin);
    node->op = lexer_.Next().text == "!=" ? Operator::kNotEqual : Operator::kEqual;
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
  Operator op = Operator::kNone;
  if (t.kind == TokKind::kOp &&
      (t.text == "<" || t.text == "<=" || t.text == ">" || t.text == ">=")) {
    op = OperatorFromText(t.text);
  } else if (IsIdent(t, "lt")) {
    op = Operator::kLess;
  } else if (IsIdent(t, "lte")) {
    op = Operator::kLessEqual;
  } else if (IsIdent(t, "gt")) {
    op = Operator::kGreater;
  } else if (IsIdent(t, "gte")) {
    op = Operator::kGreaterEqual;
  }
  if (op != Operator::kNone) {
    lexer_.Next();
    ExprPtr node = MakeExpr(ExprKind::kCompare, begin);
    node->op = op;
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
    node->op = OperatorFromText(op == "..!" ? "..<" : op);
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
    node->op = OperatorFromText(lexer_.Next().text);
    node->args.push_back(std::move(left));
    node->args.push_back(ParseMultiplicative());
    if (node->op == Operator::kSubtract) {
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
    node->op = OperatorFromText(lexer_.Next().text);
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
