#pragma once
// The parsed form of a template: an immutable tree of elements (directives, text,
// interpolations) holding expression trees. Built by TemplateParser, walked by the validator
// and the evaluator; never mutated after parsing, so it is shared freely across threads.
#include <memory>
#include <string>
#include <vector>

#include "template/evaluation/builtins/builtin_names.hpp"
#include "template/evaluation/value_ptr.hpp"
#include "template/java/decimal.hpp"
#include "template/syntax/template_operator.hpp"

namespace dp::tmpl {

struct SourcePos {
  int line = 0;
  int column = 0;
};

// "line 3, column 7": how every error message names a place in the template.
inline std::string PosText(const SourcePos& pos) {
  return "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column);
}

enum class ExprKind {
  kNumber,        // number literal (number)
  kString,        // string literal without interpolation (text)
  kStringInterp,  // "a ${b}" : parts in args (kString pieces and expressions)
  kBoolean,       // true / false (number unused, boolean)
  kVariable,      // name
  kDot,           // args[0].name
  kDynamicKey,    // args[0][args[1]]  (index, key or slice by range)
  kMethodCall,    // args[0](args[1..])
  kBuiltIn,       // args[0]?name, call_args when called with (...)
  kDefaultTo,     // args[0]!args[1]  (args[1] may be absent)
  kExists,        // args[0]??
  kParen,         // (args[0])
  kNot,           // !args[0]
  kNegate,        // -args[0]
  kUnaryPlus,     // +args[0]
  kArithmetic,    // args[0] op args[1], op kAdd..kModulo
  kCompare,       // args[0] op args[1], op kEqual..kGreaterEqual
  kAnd,
  kOr,
  kRange,     // args[0]..args[1]; op kRange*; args[1] absent for "1.."
  kSequence,  // [args...]
  kHash,      // {args[0]: args[1], ...}
  kLambda,    // name -> args[0]: only as the argument of ?filter, ?map, ?take_while, ?drop_while
  kSpecialVariable,  // .name (.data_model, .vars, ...)
  kLegacyNumber,     // #{args[0]}: a number as text; text is the DecimalFormat pattern or ""
};

struct Expr {
  ExprKind kind;
  SourcePos pos;
  std::string name;                      // variable name, key, built-in name
  Operator op = Operator::kNone;         // kArithmetic, kCompare, kRange
  const BuiltInSpec* builtin = nullptr;  // kBuiltIn: its table entry, resolved at parse time
  std::string text;                      // string literal value
  Decimal number;
  bool boolean = false;        // kBoolean's value; on a ?matches kBuiltIn: used only as a boolean
  bool has_call_args = false;  // built-in invoked with (...)
  bool regex_call = false;     // a regex built-in call (?matches, or a flags argument)
  std::vector<std::unique_ptr<Expr>> args;
  std::vector<std::unique_ptr<Expr>> call_args;
  std::string source;  // canonical-ish source snippet, for error messages
  // kString / kNumber: the literal's value, built once at parse time and shared by every
  // render (values are immutable), so evaluating a literal allocates nothing. Owned here and
  // handed to renders unowned (Unowned): its count is only touched while parsing.
  ValuePtr constant;
  // kBuiltIn with a literal regex and literal flags: the regex compiled at parse time.
  std::shared_ptr<const class JavaRegex> regex;

  bool IsBuiltIn(BuiltIn id) const { return builtin && builtin->id == id; }
  bool IsBuiltInOf(BuiltInFamily family) const { return builtin && builtin->family == family; }
};
using ExprPtr = std::unique_ptr<Expr>;

enum class NodeKind {
  kRoot,
  kText,
  kInterpolation,  // exprs[0]
  kComment,
  kIf,        // children: kIfBranch
  kIfBranch,  // exprs[0] condition (absent for <#else>)
  kList,      // exprs[0] source; names: loop var(s), none when the body has <#items>;
              // children: kListBody [, kListElse]
  kItems,     // <#items as x>: names loop var(s); children body
  kListBody,
  kListElse,
  kSep,
  kBreak,
  kAssign,       // assignments: names[i] op ops[i] exprs[i]; scope
  kAssignBlock,  // names[0] captures children output
  kMacro,        // names[0] name; params; children body
  kFunction,
  kNested,     // exprs = loop args
  kReturn,     // exprs[0] optional
  kCall,       // exprs[0] callee; named_args or positional exprs[1..]; children body
  kSwitch,     // exprs[0]; children: kCase
  kCase,       // exprs[0] value (absent for <#default>)
  kForbidden,  // a construct refused by TemplateValidator; text names it
  kTrim,       // <#t> <#lt> <#rt> <#nt>: trim_left / trim_right; parse time only
  kCompress,   // <#compress>: children's output with white-space runs collapsed
  kAttempt,    // children: the attempted block, then the kRecover block
  kRecover,
  kContinue,
  kSetting,  // an accepted <#setting> (it restates the configuration): renders nothing
};

enum class AssignScope { kAssign, kGlobal, kLocal };

struct MacroParam {
  std::string name;
  ExprPtr default_value;  // null when required
  bool catch_all = false;
};

struct Node {
  NodeKind kind;
  SourcePos begin;
  SourcePos end;  // position of the element's last character
  std::string text;
  std::vector<ExprPtr> exprs;
  std::vector<std::string> names;
  std::vector<Operator> ops;  // kAssign: each name's operator (kAssign, kAddAssign, ...)
  AssignScope scope = AssignScope::kAssign;
  std::vector<MacroParam> params;
  std::vector<std::pair<std::string, ExprPtr>> named_args;
  std::vector<std::unique_ptr<Node>> children;
  bool has_sep = false;     // list body contains a <#sep>
  bool trim_left = false;   // kTrim: <#t>, <#lt>
  bool trim_right = false;  // kTrim: <#t>, <#rt>
  // Whitespace-stripping bookkeeping (parse time only).
  Node* parent = nullptr;
  size_t index = 0;
};
using NodePtr = std::unique_ptr<Node>;

// A parsed template body plus the index of its top-level macro/function definitions.
struct TemplateAst {
  NodePtr root;
  std::vector<const Node*> definitions;  // top-level <#macro>/<#function>, in order
  std::string name;
};

}  // namespace dp::tmpl
