#pragma once
// Executes a parse tree against a data model: scopes (loop variables, macro locals,
// namespaces, globals, data model), macros/functions/nested, built-ins, and the render guards
// (step budget, output/string cap, call depth). Single-use: one Evaluator per render.
#include <array>
#include <chrono>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "datapipelines/template/evaluation/template_renderer.hpp"
#include "datapipelines/template/syntax/parsed_template.hpp"
#include "datapipelines/util/json.hpp"
#include "template/evaluation/value.hpp"
#include "template/evaluation/value_pool.hpp"
#include "template/java/java_regex.hpp"
#include "template/syntax/template_ast.hpp"

namespace dp::tmpl {

// A render failure before translation to DomainError.
struct RenderError {
  std::string reason;
  std::string message;
  SourcePos pos;
  Json extra;
};

struct Namespace {
  NameTable vars;
  const ParsedTemplate* tmpl = nullptr;
};

struct LoopState {
  const Node* list = nullptr;  // the <#list>/<#items>, or the <@m ...; a, b> of nested_vars
  ValuePtr item;
  ValuePtr value;  // hash listing: the value variable
  size_t index = 0;
  bool has_next = false;
  LoopState* parent = nullptr;
  // <#nested x, y> into <@m; a, b>: list->names[i] is nested_values[i] (missing past its end).
  bool nested_vars = false;
  std::vector<ValuePtr> nested_values;
};

// Macro/function locals: a handful per call, so a flat list beats a hash map, and the first
// few live in the frame itself (a typical call allocates nothing). Names point into the parse
// tree (parameters, <#local> targets), which outlives the render.
class LocalVars {
 public:
  const ValuePtr* Find(std::string_view name) const {
    for (size_t i = 0; i < inline_size_; ++i) {
      if (SameName(inline_[i].first, name)) return &inline_[i].second;
    }
    for (const auto& [key, value] : overflow_) {
      if (SameName(key, name)) return &value;
    }
    return nullptr;
  }
  void Set(std::string_view name, ValuePtr value) {
    if (const ValuePtr* slot = Find(name)) {
      *const_cast<ValuePtr*>(slot) = std::move(value);
    } else if (inline_size_ < kInline) {
      inline_[inline_size_++] = {name, std::move(value)};
    } else {
      overflow_.emplace_back(name, std::move(value));
    }
  }

 private:
  static constexpr size_t kInline = 4;
  std::array<std::pair<std::string_view, ValuePtr>, kInline> inline_;
  size_t inline_size_ = 0;
  std::vector<std::pair<std::string_view, ValuePtr>> overflow_;
};

struct Frame {
  LocalVars locals;
  Namespace* ns = nullptr;
  const Node* callable = nullptr;
  const Node* call_site = nullptr;  // <@m>body</@m>: the body for <#nested>
  Frame* caller = nullptr;
  LoopState* caller_loops = nullptr;
  ValuePtr return_value;
};

// The parameter of the lambda being applied (x in x -> ...); innermost first.
struct LambdaArg {
  std::string_view name;
  ValuePtr value;  // null for a missing item: it still hides outer variables of that name
  const LambdaArg* parent = nullptr;
};

struct Ctx {
  Frame* frame;
  LoopState* loops;
  // Inside <#list xs> without "as": the sequence its <#items as x> iterates.
  ValuePtr pending_items = nullptr;
  const Expr* pending_expr = nullptr;
  const LambdaArg* lambda = nullptr;
};

enum class Flow { kNormal, kBreak, kContinue, kReturn };

class SequenceStream;
struct BuiltInArgs;

// Output and string bytes charged as one step of the render's budget.
inline constexpr uint64_t kBytesPerStep = 64;

class Evaluator {
 public:
  Evaluator(const RenderOptions& options, TemplateMode mode, std::string template_name);
  std::string Run(const ParsedTemplate& main, const Json& data_model,
                  const std::map<std::string, const ParsedTemplate*>& libraries);

 private:
  // Elements
  Flow ExecChildren(const std::vector<NodePtr>& nodes, Ctx& ctx);
  Flow Exec(const Node* node, Ctx& ctx);
  Flow ExecIf(const Node* node, Ctx& ctx);
  Flow ExecList(const Node* node, Ctx& ctx);
  // Iterates `source` with the loop variable(s) named by `vars` (a kList or kItems node).
  Flow RunLoop(const Node* vars, const std::vector<NodePtr>& body, const ValuePtr& source,
               const Expr* source_expr, Ctx& ctx);
  Flow ExecSwitch(const Node* node, Ctx& ctx);
  void ExecAssign(const Node* node, Ctx& ctx);
  void ExecAssignBlock(const Node* node, Ctx& ctx);
  Flow ExecCompress(const Node* node, Ctx& ctx);
  Flow ExecAttempt(const Node* node, Ctx& ctx);
  // Runs `nodes` with the output captured into `*captured` (counted against the output cap).
  Flow Capture(const std::vector<NodePtr>& nodes, Ctx& ctx, std::string* captured);
  void ExecCall(const Node* node, Ctx& ctx);
  void ExecNested(const Node* node, Ctx& ctx);
  void SetVariable(const Node* node, AssignScope scope, const std::string& name, ValuePtr value,
                   Ctx& ctx);
  // Inline: every text block and interpolation; only the failure is out of line.
  void Write(std::string_view text, const SourcePos& pos) {
    output_total_ += text.size();
    if (output_total_ > options_.max_output_bytes) [[unlikely]]
      FailOutputCap("Render output exceeded the cap of ", pos);
    Step(text.size() / kBytesPerStep, pos);
    out_->append(text);
  }
  // Throws `what` + "<max_output_bytes> bytes (at <pos>)".
  [[noreturn]] void FailOutputCap(std::string_view what, const SourcePos& pos);

  // Macros, functions, namespaces
  // The arguments of one call, evaluated in place (a typical call allocates nothing).
  using Arguments = boost::container::small_vector<ValuePtr, 4>;
  using NamedArgument = std::pair<std::string_view, ValuePtr>;  // the name is the call site's
  void BindParams(const Node* callable, Frame* frame, std::span<const ValuePtr> positional,
                  std::span<const NamedArgument> named, const SourcePos& pos);
  ValuePtr CallFunction(const Value& fn, std::span<const ValuePtr> args, const SourcePos& pos);
  Namespace* InstantiateLibrary(const ParsedTemplate* library);
  void DefineMacros(const ParsedTemplate& tmpl, Namespace* ns);
  // The macro or function value of a <#macro>/<#function> defined in `home`.
  static ValuePtr Callable(const Node* definition, Namespace* home);
  [[noreturn]] void FailForbidden(const Node* node);
  ValuePtr NamespaceHash(Namespace* ns);

 public:
  // Expressions (public for the built-in helpers in builtins.cpp)
  ValuePtr Eval(const Expr* e, Ctx& ctx);
  // Inline: every operand goes through it; only the failure is out of line.
  ValuePtr EvalRequired(const Expr* e, Ctx& ctx) {
    ValuePtr v = Eval(e, ctx);
    if (!v) [[unlikely]]
      FailUndefined(e);
    return v;
  }
  [[noreturn]] void FailUndefined(const Expr* e);
  ValuePtr EvalLenient(const Expr* e, Ctx& ctx);
  ValuePtr Lookup(const std::string& name, const Ctx& ctx);
  ValuePtr EvalBuiltIn(const Expr* e, Ctx& ctx);
  // One function per built-in family (builtins*.cpp), chosen by the table entry of the call.
  ValuePtr EvalExistenceBuiltIn(const Expr* e, Ctx& ctx);
  ValuePtr EvalLoopVariableBuiltIn(const Expr* e, Ctx& ctx);
  ValuePtr EvalLazyBuiltIn(const Expr* e, const ValuePtr& target, Ctx& ctx);
  ValuePtr EvalTypeTest(const Expr* e, const ValuePtr& target);
  ValuePtr EvalOutputFormatBuiltIn(const Expr* e, const ValuePtr& target);
  ValuePtr EvalFormatBuiltIn(const Expr* e, const ValuePtr& target, const BuiltInArgs& args);
  ValuePtr EvalNumberBuiltIn(const Expr* e, const ValuePtr& target, const BuiltInArgs& args);
  ValuePtr EvalSequenceBuiltIn(const Expr* e, const ValuePtr& target, const BuiltInArgs& args);
  ValuePtr EvalHashBuiltIn(const Expr* e, const ValuePtr& target);
  ValuePtr EvalStringBuiltIn(const Expr* e, ValuePtr target, const BuiltInArgs& args);
  // A regex call (?matches, or a flags argument) on a string, number or boolean target;
  // nullopt when the target is of another type or the call turns out not to be a regex one.
  std::optional<ValuePtr> EvalRegexCall(const Expr* e, ValuePtr& target, Ctx& ctx);
  // ?matches, and ?replace/?split/?keep_*/?ensure_starts_with with a flags argument
  // (evaluator_regex.cpp); nullopt when `e` is a plain string built-in.
  std::optional<ValuePtr> EvalRegexBuiltIn(const Expr* e, const std::string& s,
                                           std::span<const ValuePtr> args);
  ValuePtr RegexGroupsOf(const Expr* e, const ValuePtr& target);
  // `a` by value: a temporary string held by this call alone is extended in place.
  ValuePtr Add(ValuePtr a, const ValuePtr& b, const Expr* e);
  bool Compare(const ValuePtr& a, const ValuePtr& b, Operator op, const Expr* e);
  bool RequireBoolean(const ValuePtr& v, const Expr* e);
  const Decimal& RequireNumber(const ValuePtr& v, const Expr* e);
  const std::string& RequireString(const ValuePtr& v, const Expr* e, std::string_view what);
  std::string ToOutput(const ValuePtr& v, const Expr* e);
  // String form for concatenation and ?join (numbers formatted, booleans as true/false).
  std::string Stringify(const ValuePtr& v, const Expr* e, std::string_view what);
  ValuePtr MakeString(std::string s, const SourcePos& pos);
  // Inline: called for every element and built-in; only the failure is out of line.
  void Step(uint64_t n, const SourcePos& pos) {
    steps_ += n;
    if (steps_ > next_check_) CheckBudgets(pos);
  }
  // RAII bound on recursion of Exec/Eval (macro recursion x nesting x expression depth).
  struct StackGuard {
    static constexpr int kMaxStackDepth = 4000;
    Evaluator* evaluator;
    StackGuard(Evaluator* e, const SourcePos& pos) : evaluator(e) {
      if (++e->stack_depth_ > kMaxStackDepth) e->FailStackDepth(pos);
    }
    ~StackGuard() { --evaluator->stack_depth_; }
  };
  [[noreturn]] void Fail(const SourcePos& pos, std::string message);
  // The step budget, then (every kClockEverySteps) the render deadline.
  void CheckBudgets(const SourcePos& pos);
  [[noreturn]] void FailSteps(const SourcePos& pos);
  [[noreturn]] void FailStackDepth(const SourcePos& pos);
  [[noreturn]] void FailType(const Expr* e, std::string_view expected, const ValuePtr& got);
  TemplateMode mode() const { return mode_; }

 private:
  const JavaRegex& CompiledRegex(const Expr* e, const std::string& pattern, const RegexFlags& flags,
                                 std::shared_ptr<const JavaRegex>* holder);
  // One PCRE2 match attempt, charged to the step budget; the render errors of a regex.
  bool RegexMatchAt(const Expr* e, const JavaRegex& regex, std::string_view s, size_t from,
                    JavaRegex::Anchor anchor, RegexMatch* match);
  template <typename Fn>
  void RegexFindAll(const Expr* e, const JavaRegex& regex, std::string_view s, Fn fn);
  void AppendReplacement(const Expr* e, const JavaRegex& regex, std::string_view s,
                         const RegexMatch& m, std::string_view replacement, std::string* out);
  ValuePtr EvalDot(const Expr* e, Ctx& ctx);
  ValuePtr EvalMethodCall(const Expr* e, Ctx& ctx);
  ValuePtr EvalArithmetic(const Expr* e, Ctx& ctx);
  ValuePtr EvalUncommon(const Expr* e, Ctx& ctx);
  ValuePtr EvalDynamicKey(const Expr* e, Ctx& ctx);
  ValuePtr EvalRange(const Expr* e, Ctx& ctx);
  ValuePtr EvalSpecialVariable(const Expr* e);
  static bool IsBareStringBuiltIn(const Expr* e);
  std::optional<ValuePtr> NumberStringMember(const Expr* target, const std::string& key, Ctx& ctx);
  std::optional<ValuePtr> SpecialVariableMember(const Expr* special, const std::string& key,
                                                const Ctx& ctx);
  // ?filter/?map/?take_while/?drop_while, and the built-ins that read them lazily as FreeMarker
  // does (evaluator_streams.cpp). Returns null when `e` is not such a built-in.
  std::optional<ValuePtr> EvalStreamBuiltIn(const Expr* e, Ctx& ctx);
  Flow RunStreamLoop(const Node* vars, const std::vector<NodePtr>& body, SequenceStream& stream,
                     Ctx& ctx);
  friend class SequenceStream;
  // target[range] on a sequence or a string (evaluator_slicing.cpp).
  ValuePtr Slice(const ValuePtr& target, const RangeSpec& range, const Expr* e);
  // Refuses arithmetic whose result would exceed Decimal::kMaxDigits and charges its work.
  void GuardArithmetic(const Decimal& x, const Decimal& y, Operator op, const SourcePos& pos);

  // First member, so it is destroyed last: every value of the render is allocated from it.
  ValuePool pool_;
  RenderOptions options_;
  TemplateMode mode_;
  std::string template_name_;
  uint64_t steps_ = 0;
  uint64_t next_check_ = 0;  // steps_ beyond this run CheckBudgets
  std::chrono::steady_clock::time_point deadline_;
  int call_depth_ = 0;
  int stack_depth_ = 0;  // nested Exec/Eval frames, bounded to protect worker-thread stacks
  std::string* out_ = nullptr;
  size_t output_total_ = 0;
  ValuePtr data_model_;
  NameTable globals_;
  Namespace* main_ns_ = nullptr;
  std::vector<std::unique_ptr<Namespace>> namespaces_;
  std::map<const ParsedTemplate*, Namespace*> library_namespaces_;
  std::map<const Namespace*, ValuePtr> namespace_hashes_;
};

std::string HtmlEscape(std::string_view text);

}  // namespace dp::tmpl
