// Built-ins (x?name and x?name(args)) of Evaluator, FreeMarker 2.3.31 semantics: the dispatch
// on the family resolved at parse time, and the families of one or two types. Sequences and
// hashes are in builtins_sequences.cpp, strings in builtins_strings.cpp.
#include "template/evaluation/builtins/builtin_args.hpp"
#include "template/evaluation/evaluator.hpp"
#include "template/java/number_format.hpp"

namespace dp::tmpl {
namespace {

std::string Abc(int64_t n, bool upper) {
  std::string out;
  while (n > 0) {
    --n;
    out.insert(out.begin(), static_cast<char>((upper ? 'A' : 'a') + n % 26));
    n /= 26;
  }
  return out;
}

}  // namespace

void BuiltInArgs::Need(size_t min, size_t max) const {
  if (values.size() < min || values.size() > max) {
    evaluator.Fail(e->pos, "?" + e->name + " expects " + std::to_string(min) +
                               (max != min ? "-" + std::to_string(max) : "") +
                               " argument(s), got " + std::to_string(values.size()));
  }
}

const std::string& BuiltInArgs::String(size_t i) const {
  return evaluator.RequireString(values[i], e->call_args[i].get(), "a string argument");
}

const Decimal& BuiltInArgs::Number(size_t i) const {
  return evaluator.RequireNumber(values[i], e->call_args[i].get());
}

ValuePtr Evaluator::EvalBuiltIn(const Expr* e, Ctx& ctx) {
  Step(1, e->pos);
  const BuiltInFamily family = e->builtin->family;
  if (family == BuiltInFamily::kExistence) return EvalExistenceBuiltIn(e, ctx);
  if (family == BuiltInFamily::kLoopVariable) return EvalLoopVariableBuiltIn(e, ctx);
  const Expr* target_expr = e->args[0].get();
  if (family == BuiltInFamily::kStream || target_expr->IsBuiltInOf(BuiltInFamily::kStream)) {
    if (auto streamed = EvalStreamBuiltIn(e, ctx)) return *streamed;
  }
  ValuePtr target = EvalRequired(target_expr, ctx);
  const BuiltIn id = e->builtin->id;
  // A ?matches result is a boolean as well as the sequence of its matches.
  if (target->regex && target->type == ValueType::kSequence) {
    if (id == BuiltIn::kIsBoolean) return Value::Boolean(true);
    if (id == BuiltIn::kC || id == BuiltIn::kStringOf || id == BuiltIn::kThen) {
      target = Value::Boolean(target->regex->whole_match);
    }
  }
  if (family == BuiltInFamily::kGroups) {
    if (e->has_call_args) Fail(e->pos, "?groups doesn't take arguments");
    return RegexGroupsOf(e, target);
  }
  if (e->regex_call) {
    if (auto regex_result = EvalRegexCall(e, target, ctx)) return *regex_result;
  }
  if (family == BuiltInFamily::kLazy) return EvalLazyBuiltIn(e, target, ctx);

  Arguments values;  // inline: a built-in takes a few arguments, no heap vector per call
  for (const auto& arg : e->call_args) values.push_back(EvalRequired(arg.get(), ctx));
  // FreeMarker's ?matches, ?replace and ?split are legacy string methods: a number or boolean
  // argument arrives formatted as text.
  if (id == BuiltIn::kMatches || id == BuiltIn::kReplace || id == BuiltIn::kSplit) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (values[i]->type == ValueType::kNumber || values[i]->type == ValueType::kBoolean) {
        values[i] = Value::String(Stringify(values[i], e->call_args[i].get(), "a string"));
      }
    }
  }
  const BuiltInArgs args{*this, e, {values.data(), values.size()}};
  switch (family) {
    case BuiltInFamily::kTypeTest:
      return EvalTypeTest(e, target);
    case BuiltInFamily::kOutputFormat:
      return EvalOutputFormatBuiltIn(e, target);
    case BuiltInFamily::kFormat:
      return EvalFormatBuiltIn(e, target, args);
    case BuiltInFamily::kNumber:
      return EvalNumberBuiltIn(e, target, args);
    default:
      break;
  }
  if (target->type == ValueType::kSequence && family == BuiltInFamily::kSequence) {
    return EvalSequenceBuiltIn(e, target, args);
  }
  if (target->type == ValueType::kHash &&
      (family == BuiltInFamily::kHash || id == BuiltIn::kSize)) {
    return EvalHashBuiltIn(e, target);
  }
  if (id == BuiltIn::kBooleanOf) {
    const std::string& s = RequireString(target, target_expr, "a string");
    if (s == "true") return Value::Boolean(true);
    if (s == "false") return Value::Boolean(false);
    Fail(e->pos, "Can't convert this string to boolean: \"" + s + "\"");
  }
  return EvalStringBuiltIn(e, std::move(target), args);
}

// ?matches, and ?replace/?split/?keep_*/?ensure_starts_with with a flags argument: a string
// target (numbers and booleans arrive as text, and so do ?matches/?replace/?split arguments).
std::optional<ValuePtr> Evaluator::EvalRegexCall(const Expr* e, ValuePtr& target, Ctx& ctx) {
  const Expr* target_expr = e->args[0].get();
  if (target->type == ValueType::kNumber || target->type == ValueType::kBoolean) {
    target = Value::String(Stringify(target, target_expr, "a string"));
  }
  if (target->type != ValueType::kString) return std::nullopt;
  const BuiltIn id = e->builtin->id;
  std::vector<ValuePtr> regex_args;
  regex_args.reserve(e->call_args.size());
  for (const auto& arg : e->call_args) {
    ValuePtr v = EvalRequired(arg.get(), ctx);
    if ((id == BuiltIn::kMatches || id == BuiltIn::kReplace || id == BuiltIn::kSplit) &&
        (v->type == ValueType::kNumber || v->type == ValueType::kBoolean)) {
      v = Value::String(Stringify(v, arg.get(), "a string"));
    }
    regex_args.push_back(std::move(v));
  }
  Step(target->str.size() / 64, e->pos);
  return EvalRegexBuiltIn(e, target->str, regex_args);
}

// ?has_content ?exists ?if_exists ?default: a missing target is a value, not an error.
ValuePtr Evaluator::EvalExistenceBuiltIn(const Expr* e, Ctx& ctx) {
  ValuePtr v = EvalLenient(e->args[0].get(), ctx);
  switch (e->builtin->id) {
    case BuiltIn::kExists:
      return Value::Boolean(v != nullptr);
    case BuiltIn::kIfExists:
      return v ? v : Value::String("");
    case BuiltIn::kDefault:
      if (v) return v;
      for (const auto& arg : e->call_args) {
        if (ValuePtr d = Eval(arg.get(), ctx)) return d;
      }
      return nullptr;
    default:  // ?has_content
      break;
  }
  if (!v) return Value::Boolean(false);
  switch (v->type) {
    case ValueType::kString:
    case ValueType::kMarkup:
      return Value::Boolean(!v->str.empty());
    case ValueType::kSequence:
      return Value::Boolean(v->SequenceSize() > 0);
    case ValueType::kHash:
      return Value::Boolean(v->HashSize() > 0);
    default:
      return Value::Boolean(true);
  }
}

// ?index ?counter ?has_next ...: the target must name a <#list> variable in scope.
ValuePtr Evaluator::EvalLoopVariableBuiltIn(const Expr* e, Ctx& ctx) {
  const Expr* target_expr = e->args[0].get();
  const LoopState* loop = nullptr;
  if (target_expr->kind == ExprKind::kVariable) {
    for (const LoopState* l = ctx.loops; l; l = l->parent) {
      const std::vector<std::string>& vars = l->list->names;
      if (!l->nested_vars && std::find(vars.begin(), vars.end(), target_expr->name) != vars.end()) {
        loop = l;
        break;
      }
    }
  }
  if (!loop) Fail(e->pos, "?" + e->name + " must be applied to a loop variable of <#list>");
  const int64_t counter = static_cast<int64_t>(loop->index) + 1;
  switch (e->builtin->id) {
    case BuiltIn::kIndex:
      return Value::Int(counter - 1);
    case BuiltIn::kCounter:
      return Value::Int(counter);
    case BuiltIn::kHasNext:
      return Value::Boolean(loop->has_next);
    case BuiltIn::kIsFirst:
      return Value::Boolean(loop->index == 0);
    case BuiltIn::kIsLast:
      return Value::Boolean(!loop->has_next);
    case BuiltIn::kIsEvenItem:
      return Value::Boolean(counter % 2 == 0);
    case BuiltIn::kIsOddItem:
      return Value::Boolean(counter % 2 == 1);
    case BuiltIn::kItemParity:
      return Value::String(counter % 2 == 0 ? "even" : "odd");
    case BuiltIn::kItemParityCap:
      return Value::String(counter % 2 == 0 ? "Even" : "Odd");
    default:  // ?item_cycle(a, b, ...)
      if (e->call_args.empty()) Fail(e->pos, "?item_cycle needs at least one argument");
      return EvalRequired(e->call_args[(counter - 1) % e->call_args.size()].get(), ctx);
  }
}

// ?then ?switch: only the chosen argument is evaluated.
ValuePtr Evaluator::EvalLazyBuiltIn(const Expr* e, const ValuePtr& target, Ctx& ctx) {
  if (e->builtin->id == BuiltIn::kThen) {
    const bool cond = RequireBoolean(target, e->args[0].get());
    if (e->call_args.size() != 2) Fail(e->pos, "?then needs exactly 2 arguments");
    return EvalRequired(e->call_args[cond ? 0 : 1].get(), ctx);
  }
  const size_t n = e->call_args.size();
  if (n < 2) Fail(e->pos, "?switch needs at least 2 arguments");
  for (size_t i = 0; i + 1 < n; i += 2) {
    if (Compare(target, EvalRequired(e->call_args[i].get(), ctx), Operator::kEqual,
                e->call_args[i].get())) {
      return EvalRequired(e->call_args[i + 1].get(), ctx);
    }
  }
  if (n % 2 == 1) return EvalRequired(e->call_args[n - 1].get(), ctx);
  Fail(e->pos, "The value didn't match any ?switch case and there was no default");
}

ValuePtr Evaluator::EvalTypeTest(const Expr* e, const ValuePtr& target) {
  const ValueType t = target->type;
  switch (e->builtin->id) {
    case BuiltIn::kIsString:
      return Value::Boolean(t == ValueType::kString);
    case BuiltIn::kIsNumber:
      return Value::Boolean(t == ValueType::kNumber);
    case BuiltIn::kIsBoolean:
      return Value::Boolean(t == ValueType::kBoolean);
    case BuiltIn::kIsSequence:
    case BuiltIn::kIsIndexable:
    case BuiltIn::kIsEnumerable:
      return Value::Boolean(t == ValueType::kSequence);
    case BuiltIn::kIsHash:
    case BuiltIn::kIsHashEx:
      return Value::Boolean(t == ValueType::kHash);
    // <#function> values are macros to FreeMarker, not methods.
    case BuiltIn::kIsMacro:
    case BuiltIn::kIsDirective:
      return Value::Boolean(t == ValueType::kMacro || t == ValueType::kFunction);
    case BuiltIn::kIsMarkupOutput:
      return Value::Boolean(t == ValueType::kMarkup);
    case BuiltIn::kIsInfinite:
    case BuiltIn::kIsNan:
      RequireNumber(target, e->args[0].get());
      return Value::Boolean(false);
    default:  // JSON lists and FTL literals are never FreeMarker "collections"; no dates, methods
      return Value::Boolean(false);
  }
}

ValuePtr Evaluator::EvalOutputFormatBuiltIn(const Expr* e, const ValuePtr& target) {
  if (mode_ != TemplateMode::kHtml) Fail(e->pos, "?" + e->name + " needs the html template type");
  if (target->type == ValueType::kMarkup) return target;
  std::string text = Stringify(target, e->args[0].get(), "a string");
  return Value::Markup(e->builtin->id == BuiltIn::kEsc ? HtmlEscape(text) : text);
}

// ?c and ?string work on several types.
ValuePtr Evaluator::EvalFormatBuiltIn(const Expr* e, const ValuePtr& target,
                                      const BuiltInArgs& args) {
  const Expr* target_expr = e->args[0].get();
  if (e->builtin->id == BuiltIn::kC) {
    if (target->type == ValueType::kNumber)
      return Value::String(NumberFormat::Computer(target->number));
    if (target->type == ValueType::kBoolean)
      return Value::String(target->boolean ? "true" : "false");
    FailType(target_expr, "a number or boolean", target);
  }
  switch (target->type) {
    case ValueType::kNumber: {
      args.Need(0, 1);
      if (args.empty()) return Value::String(NumberFormat::Computer(target->number));
      auto formatted = NumberFormat::Format(target->number, args.String(0));
      if (!formatted) {
        throw RenderError{"unsupported_construct",
                          "?string(\"" + args.String(0) +
                              "\") is not supported: the engine formats DecimalFormat patterns "
                              "without exponents (at " +
                              PosText(e->pos) + ")",
                          e->pos, Json{{"construct", "?string(\"" + args.String(0) + "\")"}}};
      }
      return Value::String(*formatted);
    }
    case ValueType::kBoolean:
      if (args.empty()) return Value::String(target->boolean ? "true" : "false");
      args.Need(2, 2);
      return target->boolean ? args.values[0] : args.values[1];
    case ValueType::kString:
      args.Need(0, 0);
      return target;
    default:
      FailType(target_expr, "a number, boolean or string", target);
  }
}

ValuePtr Evaluator::EvalNumberBuiltIn(const Expr* e, const ValuePtr& target,
                                      const BuiltInArgs& args) {
  const Decimal& n = RequireNumber(target, e->args[0].get());
  args.Need(0, 0);
  const BuiltIn id = e->builtin->id;
  switch (id) {
    case BuiltIn::kRound:
      return Value::Number((n + Decimal(5, 1)).SetScale(0, RoundingMode::kFloor));
    case BuiltIn::kFloor:
      return Value::Number(n.SetScale(0, RoundingMode::kFloor));
    case BuiltIn::kCeiling:
      return Value::Number(n.SetScale(0, RoundingMode::kCeiling));
    case BuiltIn::kAbs:
      return Value::Number(n.IsNegative() ? -n : n);
    // Java narrowing conversions: truncate toward zero, then wrap to the type's width.
    case BuiltIn::kInt:
      return Value::Int(static_cast<int32_t>(n.LongValue()));
    case BuiltIn::kLong:
      return Value::Int(n.LongValue());
    case BuiltIn::kShort:
      return Value::Int(static_cast<int16_t>(n.LongValue()));
    case BuiltIn::kByte:
      return Value::Int(static_cast<int8_t>(n.LongValue()));
    case BuiltIn::kDouble:
      return Value::Number(Decimal::FromDouble(n.ToDouble()));
    default:  // ?lower_abc ?upper_abc
      break;
  }
  if (!n.IsInteger()) Fail(e->pos, "?" + e->name + " needs a whole number");
  const int64_t v = n.LongValue();
  if (v < 1) Fail(e->pos, "?" + e->name + " needs a number of at least 1");
  return Value::String(Abc(v, id == BuiltIn::kUpperAbc));
}

}  // namespace dp::tmpl
