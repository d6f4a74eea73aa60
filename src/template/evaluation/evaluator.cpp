#include "template/evaluation/evaluator.hpp"

#include <algorithm>

#include "template/evaluation/builtins/builtin_names.hpp"
#include "template/evaluation/sequence_stream.hpp"
#include "template/java/number_format.hpp"
#include "template/syntax/whitespace_compressor.hpp"

namespace dp::tmpl {
std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

namespace {
constexpr uint64_t kClockEverySteps = 4096;
}  // namespace

Evaluator::Evaluator(const RenderOptions& options, TemplateMode mode, std::string template_name)
    : pool_(options.max_memory_bytes),
      options_(options),
      mode_(mode),
      template_name_(std::move(template_name)) {
  if (options_.timeout_ms > 0) {
    deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.timeout_ms);
    next_check_ = std::min<uint64_t>(options_.max_steps, kClockEverySteps);
  } else {
    next_check_ = options_.max_steps;
  }
}

void Evaluator::CheckBudgets(const SourcePos& pos) {
  if (steps_ > options_.max_steps) FailSteps(pos);
  if (options_.timeout_ms <= 0) return;
  if (std::chrono::steady_clock::now() > deadline_) {
    throw RenderError{"render_timeout",
                      "Render exceeded its time limit of " + std::to_string(options_.timeout_ms) +
                          " ms (at " + PosText(pos) + ")",
                      pos, Json{{"timeout_ms", options_.timeout_ms}}};
  }
  next_check_ = std::min<uint64_t>(options_.max_steps, steps_ + kClockEverySteps);
}

void Evaluator::Fail(const SourcePos& pos, std::string message) {
  throw RenderError{"evaluation_error", message + " (at " + PosText(pos) + ")", pos, nullptr};
}

void Evaluator::FailType(const Expr* e, std::string_view expected, const ValuePtr& got) {
  Fail(e->pos, "Expected " + std::string(expected) + ", but \"" + e->source +
                   "\" has evaluated to " + TypeName(got->type));
}

void Evaluator::FailStackDepth(const SourcePos& pos) {
  --stack_depth_;
  throw RenderError{"call_depth_exceeded",
                    "Template evaluation nested too deeply (at " + PosText(pos) + ")", pos,
                    Json{{"max_stack_depth", StackGuard::kMaxStackDepth}}};
}

void Evaluator::FailSteps(const SourcePos& pos) {
  throw RenderError{"step_budget_exceeded",
                    "Render exceeded its step budget of " + std::to_string(options_.max_steps) +
                        " (at " + PosText(pos) + ")",
                    pos, Json{{"max_steps", options_.max_steps}}};
}

ValuePtr Evaluator::MakeString(std::string s, const SourcePos& pos) {
  if (s.size() > options_.max_output_bytes) [[unlikely]]
    FailOutputCap("A string value exceeded the output cap of ", pos);
  Step(s.size() / kBytesPerStep, pos);
  return Value::String(std::move(s));
}

void Evaluator::FailOutputCap(std::string_view what, const SourcePos& pos) {
  throw RenderError{"output_limit_exceeded",
                    std::string(what) + std::to_string(options_.max_output_bytes) + " bytes (at " +
                        PosText(pos) + ")",
                    pos, Json{{"max_output_bytes", options_.max_output_bytes}}};
}

// ---------------------------------------------------------------------------------------------
// Namespaces and libraries

void Evaluator::FailForbidden(const Node* node) {
  Fail(node->begin, "Forbidden construct " + node->text);
}

ValuePtr Evaluator::Callable(const Node* definition, Namespace* home) {
  auto v = Value::New();
  v->type = definition->kind == NodeKind::kFunction ? ValueType::kFunction : ValueType::kMacro;
  v->callable = definition;
  v->home = home;
  return v;
}

void Evaluator::DefineMacros(const ParsedTemplate& tmpl, Namespace* ns) {
  for (const Node* def : tmpl.ast().definitions) ns->vars.Set(def->names[0], Callable(def, ns));
}

ValuePtr Evaluator::NamespaceHash(Namespace* ns) {
  auto hash = Value::New();
  hash->type = ValueType::kHash;
  // Sorted by name, as FreeMarker lists a namespace; sorted by reference (no key copies).
  std::vector<const NameTable::Entry*> entries;
  entries.reserve(ns->vars.size());
  for (const auto& entry : ns->vars) entries.push_back(&entry);
  std::sort(entries.begin(), entries.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  for (const auto* entry : entries) hash->HashPut(entry->first, entry->second);
  return hash;
}

Namespace* Evaluator::InstantiateLibrary(const ParsedTemplate* library) {
  auto found = library_namespaces_.find(library);
  if (found != library_namespaces_.end()) return found->second;
  if (++call_depth_ > options_.max_call_depth) {
    throw RenderError{"call_depth_exceeded", "Library imports are nested too deeply", {}, nullptr};
  }
  namespaces_.push_back(std::make_unique<Namespace>());
  Namespace* ns = namespaces_.back().get();
  ns->tmpl = library;
  library_namespaces_[library] = ns;
  for (const auto& [alias, imported] : library->imports()) {
    ns->vars.Set(alias, NamespaceHash(InstantiateLibrary(imported.get())));
  }
  DefineMacros(*library, ns);
  // Run the library's top level (assignments); its output is discarded like an #import's.
  std::string discard;
  std::string* saved = out_;
  out_ = &discard;
  Frame frame;
  frame.ns = ns;
  Ctx ctx{&frame, nullptr};
  ExecChildren(library->ast().root->children, ctx);
  out_ = saved;
  --call_depth_;
  return ns;
}

std::string Evaluator::Run(const ParsedTemplate& main, const Json& data_model,
                           const std::map<std::string, const ParsedTemplate*>& libraries) {
  if (!data_model.is_object() && !data_model.is_null()) {
    throw RenderError{"evaluation_error", "The data model must be a JSON object", {}, nullptr};
  }
  ValuePool::Scope pool_scope(&pool_);
  data_model_ = data_model.is_null() ? nullptr : Value::FromJson(data_model);
  namespaces_.push_back(std::make_unique<Namespace>());
  Namespace* main_ns = namespaces_.back().get();
  main_ns_ = main_ns;
  main_ns->tmpl = &main;
  for (const auto& [alias, imported] : main.imports()) {
    main_ns->vars.Set(alias, NamespaceHash(InstantiateLibrary(imported.get())));
  }
  for (const auto& [alias, library] : libraries) {
    main_ns->vars.Set(alias, NamespaceHash(InstantiateLibrary(library)));
  }
  DefineMacros(main, main_ns);
  std::string output;
  // Most renders are a few KB: skip the first rounds of regrowth (never past the cap).
  output.reserve(std::min<size_t>(options_.max_output_bytes, 4096));
  out_ = &output;
  Frame frame;
  frame.ns = main_ns;
  Ctx ctx{&frame, nullptr};
  ExecChildren(main.ast().root->children, ctx);
  return output;
}

// ---------------------------------------------------------------------------------------------
// Elements

Flow Evaluator::ExecChildren(const std::vector<NodePtr>& nodes, Ctx& ctx) {
  for (const auto& node : nodes) {
    Flow flow = Exec(node.get(), ctx);
    if (flow != Flow::kNormal) return flow;
  }
  return Flow::kNormal;
}

Flow Evaluator::Exec(const Node* node, Ctx& ctx) {
  Step(1, node->begin);
  // Text does not recurse, so it needs no stack guard.
  if (node->kind == NodeKind::kText) {
    Write(node->text, node->begin);
    return Flow::kNormal;
  }
  StackGuard guard(this, node->begin);
  switch (node->kind) {
    case NodeKind::kInterpolation: {
      const Expr* expr = node->exprs[0].get();
      const ValuePtr v = EvalRequired(expr, ctx);
      // Text that needs no escaping is written straight from the value, without a copy.
      const bool verbatim = v->type == ValueType::kMarkup ||
                            (v->type == ValueType::kString && mode_ != TemplateMode::kHtml);
      Write(verbatim ? std::string_view(v->str) : std::string_view(ToOutput(v, expr)), node->begin);
      return Flow::kNormal;
    }
    case NodeKind::kIf:
      return ExecIf(node, ctx);
    case NodeKind::kList:
      return ExecList(node, ctx);
    case NodeKind::kItems:
      if (!ctx.pending_items) Fail(node->begin, "<#items> used outside its <#list>");
      return RunLoop(node, node->children, ctx.pending_items, ctx.pending_expr, ctx);
    case NodeKind::kSep:
      if (ctx.loops && ctx.loops->has_next) return ExecChildren(node->children, ctx);
      return Flow::kNormal;
    case NodeKind::kBreak:
      return Flow::kBreak;
    case NodeKind::kContinue:
      return Flow::kContinue;
    case NodeKind::kCompress:
      return ExecCompress(node, ctx);
    case NodeKind::kAttempt:
      return ExecAttempt(node, ctx);
    case NodeKind::kTrim:
    case NodeKind::kSetting:
      return Flow::kNormal;
    case NodeKind::kAssign:
      ExecAssign(node, ctx);
      return Flow::kNormal;
    case NodeKind::kAssignBlock:
      ExecAssignBlock(node, ctx);
      return Flow::kNormal;
    case NodeKind::kMacro:
    case NodeKind::kFunction:
      ctx.frame->ns->vars.Set(node->names[0], Callable(node, ctx.frame->ns));
      return Flow::kNormal;
    case NodeKind::kNested:
      ExecNested(node, ctx);
      return Flow::kNormal;
    case NodeKind::kReturn:
      if (!node->exprs.empty()) ctx.frame->return_value = EvalRequired(node->exprs[0].get(), ctx);
      return Flow::kReturn;
    case NodeKind::kCall:
      ExecCall(node, ctx);
      return Flow::kNormal;
    case NodeKind::kSwitch:
      return ExecSwitch(node, ctx);
    case NodeKind::kComment:
      return Flow::kNormal;
    case NodeKind::kForbidden:
      FailForbidden(node);
    default:
      return ExecChildren(node->children, ctx);
  }
}

Flow Evaluator::ExecIf(const Node* node, Ctx& ctx) {
  for (const auto& branch : node->children) {
    if (branch->exprs.empty() ||
        RequireBoolean(EvalRequired(branch->exprs[0].get(), ctx), branch->exprs[0].get())) {
      return ExecChildren(branch->children, ctx);
    }
  }
  return Flow::kNormal;
}

Flow Evaluator::ExecList(const Node* node, Ctx& ctx) {
  const Expr* source_expr = node->exprs[0].get();
  if (node->names.size() == 1 && source_expr->IsBuiltInOf(BuiltInFamily::kStream)) {
    // <#list xs?filter(...) as x>: FreeMarker iterates the stream lazily.
    SequenceStream stream(this, source_expr, ctx);
    const Node* else_node = node->children.size() > 1 ? node->children[1].get() : nullptr;
    if (!stream.HasNext() && else_node) return ExecChildren(else_node->children, ctx);
    return RunStreamLoop(node, node->children[0]->children, stream, ctx);
  }
  ValuePtr source = EvalRequired(source_expr, ctx);
  const Node* body = node->children[0].get();
  const Node* else_node = node->children.size() > 1 ? node->children[1].get() : nullptr;
  if (!node->names.empty()) {
    const bool empty = source->type == ValueType::kHash
                           ? source->HashSize() == 0
                           : source->type == ValueType::kSequence && source->SequenceSize() == 0;
    if (empty && else_node) return ExecChildren(else_node->children, ctx);
    return RunLoop(node, body->children, source, source_expr, ctx);
  }
  // <#list xs>...<#items as x>...</#items>...</#list>: the body runs once, if xs is non-empty.
  size_t size = 0;
  if (source->type == ValueType::kHash) {
    size = source->HashSize();
  } else if (source->type == ValueType::kSequence) {
    size = source->SequenceSize();
  } else {
    FailType(source_expr, "a sequence or hash", source);
  }
  if (size == 0) return else_node ? ExecChildren(else_node->children, ctx) : Flow::kNormal;
  Ctx inner{ctx.frame, ctx.loops, source, source_expr};
  Flow flow = ExecChildren(body->children, inner);
  return flow == Flow::kBreak ? Flow::kNormal : flow;
}

Flow Evaluator::RunLoop(const Node* vars, const std::vector<NodePtr>& body, const ValuePtr& source,
                        const Expr* source_expr, Ctx& ctx) {
  const bool hash_listing = vars->names.size() == 2;
  size_t size = 0;
  if (hash_listing) {
    if (source->type != ValueType::kHash) FailType(source_expr, "a hash", source);
    size = source->HashSize();
  } else {
    if (source->type != ValueType::kSequence) FailType(source_expr, "a sequence", source);
    size = source->SequenceSize();
  }
  LoopState state;
  state.list = vars;
  state.parent = ctx.loops;
  Ctx inner{ctx.frame, &state};
  for (size_t i = 0; i < size; ++i) {
    Step(1, vars->begin);
    state.index = i;
    state.has_next = i + 1 < size;
    if (hash_listing) {
      state.item = Value::String(source->HashKeyAt(i));
      state.value = source->HashValueAt(i);
    } else {
      state.item = source->SequenceAt(i);
    }
    Flow flow = ExecChildren(body, inner);
    if (flow == Flow::kBreak) break;
    if (flow == Flow::kReturn) return flow;  // kContinue: on to the next item
  }
  return Flow::kNormal;
}

Flow Evaluator::ExecSwitch(const Node* node, Ctx& ctx) {
  const Expr* subject_expr = node->exprs[0].get();
  ValuePtr subject = EvalRequired(subject_expr, ctx);
  bool processed = false;
  const Node* default_case = nullptr;
  for (const auto& kase : node->children) {
    bool run = processed;
    if (!processed) {
      if (kase->exprs.empty()) {
        default_case = kase.get();
      } else {
        run = Compare(subject, EvalRequired(kase->exprs[0].get(), ctx), Operator::kEqual,
                      kase->exprs[0].get());
      }
    }
    if (run) {
      processed = true;
      Flow flow = ExecChildren(kase->children, ctx);
      // FreeMarker's #switch ends at a <#continue> as at a <#break>.
      if (flow == Flow::kBreak || flow == Flow::kContinue) return Flow::kNormal;
      if (flow == Flow::kReturn) return flow;
    }
  }
  if (!processed && default_case) {
    Flow flow = ExecChildren(default_case->children, ctx);
    if (flow == Flow::kReturn) return flow;
  }
  return Flow::kNormal;
}

void Evaluator::SetVariable(const Node* node, AssignScope scope, const std::string& name,
                            ValuePtr value, Ctx& ctx) {
  switch (scope) {
    case AssignScope::kAssign:
      ctx.frame->ns->vars.Set(name, std::move(value));
      break;
    case AssignScope::kGlobal:
      globals_.Set(name, std::move(value));
      break;
    case AssignScope::kLocal:
      if (!ctx.frame->callable) Fail(node->begin, "<#local> used outside a macro or function");
      ctx.frame->locals.Set(name, std::move(value));
      break;
  }
}

void Evaluator::ExecAssign(const Node* node, Ctx& ctx) {
  for (size_t i = 0; i < node->names.size(); ++i) {
    const std::string& name = node->names[i];
    const Operator op = node->ops[i];
    const Expr* expr = node->exprs[i].get();
    ValuePtr value;
    if (op == Operator::kAssign) {
      value = EvalRequired(expr, ctx);
    } else {
      ValuePtr current = Lookup(name, ctx);
      if (!current) {
        throw RenderError{"undefined_variable",
                          "The left-hand operand of " + std::string(OperatorText(op)) +
                              " is missing: " + name + " (at " + PosText(node->begin) + ")",
                          node->begin, Json{{"variable", name}}};
      }
      Expr fake;
      fake.kind = ExprKind::kVariable;
      fake.pos = node->begin;
      fake.source = name;
      if (op == Operator::kAddAssign) {
        value = Add(current, EvalRequired(expr, ctx), expr);
      } else {
        const Decimal& left = RequireNumber(current, &fake);
        if (op == Operator::kIncrement) {
          value = Value::Number(left + Decimal::FromInt(1));
        } else if (op == Operator::kDecrement) {
          value = Value::Number(left - Decimal::FromInt(1));
        } else {
          const ValuePtr right_value = EvalRequired(expr, ctx);
          const Decimal& right = RequireNumber(right_value, expr);
          if (op == Operator::kSubtractAssign) {
            value = Value::Number(left - right);
          } else if (op == Operator::kMultiplyAssign) {
            value = Value::Number(left.EngineMultiply(right));
          } else if (op == Operator::kDivideAssign) {
            auto q = left.Divide(right);
            if (!q) Fail(node->begin, "Division by zero");
            value = Value::Number(*q);
          } else {
            if (right.LongValue() == 0) Fail(node->begin, "Division by zero");
            const int64_t divisor = right.LongValue();
            value = Value::Int(divisor == -1 ? 0 : left.LongValue() % divisor);
          }
        }
      }
    }
    SetVariable(node, node->scope, name, std::move(value), ctx);
  }
}

Flow Evaluator::Capture(const std::vector<NodePtr>& nodes, Ctx& ctx, std::string* captured) {
  std::string* saved = out_;
  out_ = captured;
  try {
    Flow flow = ExecChildren(nodes, ctx);
    out_ = saved;
    return flow;
  } catch (...) {
    out_ = saved;
    throw;
  }
}

Flow Evaluator::ExecCompress(const Node* node, Ctx& ctx) {
  std::string captured;
  Flow flow = Capture(node->children, ctx, &captured);
  // Already counted against the output cap while captured; the result is never longer.
  out_->append(CompressWhitespace(captured));
  return flow;
}

// FreeMarker discards the attempted block's output when it fails, and also when a <#break>,
// <#continue> or <#return> leaves it. Only template errors are recovered: a render guard
// (steps, time, output, memory, depth) still ends the render, and so does a construct the
// engine refuses (it would render the fallback where FreeMarker renders a value).
Flow Evaluator::ExecAttempt(const Node* node, Ctx& ctx) {
  std::string captured;
  const size_t output_before = output_total_;
  const int call_depth_before = call_depth_;
  Flow flow;
  try {
    flow = Capture(node->children[0]->children, ctx, &captured);
  } catch (const RenderError& error) {
    if (error.reason != "evaluation_error" && error.reason != "undefined_variable") throw;
    output_total_ = output_before;
    call_depth_ = call_depth_before;
    return ExecChildren(node->children[1]->children, ctx);
  }
  if (flow == Flow::kNormal) {
    out_->append(captured);
  } else {
    output_total_ = output_before;
  }
  return flow;
}

void Evaluator::ExecAssignBlock(const Node* node, Ctx& ctx) {
  std::string captured;
  std::string* saved = out_;
  out_ = &captured;
  Flow flow = ExecChildren(node->children, ctx);
  out_ = saved;
  (void)flow;
  ValuePtr value = mode_ == TemplateMode::kHtml ? Value::Markup(std::move(captured))
                                                : Value::String(std::move(captured));
  SetVariable(node, node->scope, node->names[0], std::move(value), ctx);
}

void Evaluator::BindParams(const Node* callable, Frame* frame, std::span<const ValuePtr> positional,
                           std::span<const NamedArgument> named, const SourcePos& pos) {
  const std::string& name = callable->names[0];
  const MacroParam* catch_all = nullptr;
  for (const auto& p : callable->params) {
    if (p.catch_all) catch_all = &p;
  }
  size_t regular = callable->params.size() - (catch_all ? 1 : 0);
  std::vector<ValuePtr> extra;
  for (size_t i = 0; i < positional.size(); ++i) {
    if (i < regular) {
      if (positional[i]) frame->locals.Set(callable->params[i].name, positional[i]);
    } else if (catch_all) {
      extra.push_back(positional[i]);
    } else {
      Fail(pos, "\"" + name + "\" only accepts " + std::to_string(regular) +
                    " parameter(s), but got " + std::to_string(positional.size()));
    }
  }
  MutableValuePtr rest;  // named arguments a catch-all parameter collects
  if (catch_all) {
    rest = Value::New();
    rest->type = ValueType::kHash;
  }
  for (const auto& [arg_name, value] : named) {
    // The parameter's own name is kept: it lives in the parse tree, `named` does not.
    const MacroParam* param = nullptr;
    for (size_t i = 0; i < regular && !param; ++i) {
      if (callable->params[i].name == arg_name) param = &callable->params[i];
    }
    if (param) {
      if (value) frame->locals.Set(param->name, value);
    } else if (catch_all) {
      if (value) rest->HashPut(arg_name, value);
    } else {
      Fail(pos,
           "Macro \"" + name + "\" has no parameter with name \"" + std::string(arg_name) + "\"");
    }
  }
  if (catch_all) {
    frame->locals.Set(catch_all->name,
                      named.empty() ? Value::Sequence(std::move(extra)) : ValuePtr(rest));
  }
  Ctx ctx{frame, nullptr};
  for (size_t i = 0; i < regular; ++i) {
    const MacroParam& p = callable->params[i];
    if (frame->locals.Find(p.name)) continue;
    if (!p.default_value) {
      Fail(pos, "When calling \"" + name + "\", required parameter \"" + p.name +
                    "\" (parameter #" + std::to_string(i + 1) + ") was not specified");
    }
    frame->locals.Set(p.name, EvalRequired(p.default_value.get(), ctx));
  }
}

void Evaluator::ExecCall(const Node* node, Ctx& ctx) {
  const Expr* callee_expr = node->exprs[0].get();
  ValuePtr callee = EvalRequired(callee_expr, ctx);
  if (callee->type != ValueType::kMacro) FailType(callee_expr, "a macro", callee);
  Arguments positional;
  for (size_t i = 1; i < node->exprs.size(); ++i)
    positional.push_back(Eval(node->exprs[i].get(), ctx));
  boost::container::small_vector<NamedArgument, 4> named;
  for (const auto& [name, expr] : node->named_args) named.emplace_back(name, Eval(expr.get(), ctx));
  if (++call_depth_ > options_.max_call_depth) {
    throw RenderError{"call_depth_exceeded",
                      "Macro calls are nested deeper than " +
                          std::to_string(options_.max_call_depth) + " (at " + PosText(node->begin) +
                          ")",
                      node->begin, Json{{"max_call_depth", options_.max_call_depth}}};
  }
  Frame frame;
  frame.ns = const_cast<Namespace*>(callee->home);
  frame.callable = callee->callable;
  frame.call_site = node;
  frame.caller = ctx.frame;
  frame.caller_loops = ctx.loops;
  BindParams(callee->callable, &frame, {positional.data(), positional.size()},
             {named.data(), named.size()}, node->begin);
  Ctx inner{&frame, nullptr};
  ExecChildren(callee->callable->children, inner);
  --call_depth_;
}

void Evaluator::ExecNested(const Node* node, Ctx& ctx) {
  Frame* frame = ctx.frame;
  if (!frame->call_site) return;
  // The arguments are evaluated where <#nested> is (the macro), the body where <@m> is.
  LoopState vars;
  vars.list = frame->call_site;
  vars.nested_vars = true;
  vars.parent = frame->caller_loops;
  // Every argument is evaluated (a missing one is null); those past the declared names are dropped.
  for (size_t i = 0; i < node->exprs.size(); ++i) {
    ValuePtr value = Eval(node->exprs[i].get(), ctx);
    if (i < frame->call_site->names.size()) vars.nested_values.push_back(std::move(value));
  }
  if (frame->call_site->children.empty()) return;
  Ctx caller{frame->caller, frame->call_site->names.empty() ? frame->caller_loops : &vars};
  ExecChildren(frame->call_site->children, caller);
}

ValuePtr Evaluator::CallFunction(const Value& fn, std::span<const ValuePtr> args,
                                 const SourcePos& pos) {
  if (++call_depth_ > options_.max_call_depth) {
    throw RenderError{"call_depth_exceeded",
                      "Function calls are nested deeper than " +
                          std::to_string(options_.max_call_depth) + " (at " + PosText(pos) + ")",
                      pos, Json{{"max_call_depth", options_.max_call_depth}}};
  }
  Frame frame;
  frame.ns = const_cast<Namespace*>(fn.home);
  frame.callable = fn.callable;
  BindParams(fn.callable, &frame, args, {}, pos);
  std::string discard;
  std::string* saved = out_;
  out_ = &discard;
  Ctx inner{&frame, nullptr};
  ExecChildren(fn.callable->children, inner);
  out_ = saved;
  --call_depth_;
  return frame.return_value;
}

}  // namespace dp::tmpl
