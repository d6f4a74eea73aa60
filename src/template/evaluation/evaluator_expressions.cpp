// Expression evaluation of Evaluator (split from evaluator.cpp to keep files short).
#include <algorithm>
#include <limits>

#include "template/evaluation/evaluator.hpp"
#include "template/java/number_format.hpp"
#include "template/java/utf16_text.hpp"

namespace dp::tmpl {
ValuePtr Evaluator::Lookup(const std::string& name, const Ctx& ctx) {
  for (const LambdaArg* arg = ctx.lambda; arg; arg = arg->parent) {
    if (SameName(arg->name, name)) return arg->value;
  }
  for (const LoopState* loop = ctx.loops; loop; loop = loop->parent) {
    if (loop->nested_vars) {
      const std::vector<std::string>& names = loop->list->names;
      for (size_t i = 0; i < names.size(); ++i) {
        if (SameName(names[i], name))
          return i < loop->nested_values.size() ? loop->nested_values[i] : nullptr;
      }
      continue;
    }
    if (SameName(loop->list->names[0], name)) return loop->item;
    if (loop->list->names.size() > 1 && SameName(loop->list->names[1], name)) return loop->value;
  }
  if (ctx.frame->callable) {
    if (const ValuePtr* local = ctx.frame->locals.Find(name)) return *local;
  }
  if (const ValuePtr* var = ctx.frame->ns->vars.Find(name)) return *var;
  if (!globals_.empty()) {
    if (const ValuePtr* global = globals_.Find(name)) return *global;
  }
  return data_model_ ? data_model_->HashGet(name) : nullptr;
}

void Evaluator::FailUndefined(const Expr* e) {
  throw RenderError{"undefined_variable",
                    "The following has evaluated to null or missing: ==> " + e->source + " (at " +
                        PosText(e->pos) + ")",
                    e->pos, Json{{"variable", e->source}}};
}

ValuePtr Evaluator::EvalLenient(const Expr* e, Ctx& ctx) {
  if (e->kind != ExprKind::kParen) return Eval(e, ctx);
  try {
    return Eval(e->args[0].get(), ctx);
  } catch (const RenderError& error) {
    if (error.reason != "undefined_variable") throw;
    return nullptr;
  }
}

bool Evaluator::RequireBoolean(const ValuePtr& v, const Expr* e) {
  if (v->regex && v->type == ValueType::kSequence) return v->regex->whole_match;  // ?matches
  if (v->type != ValueType::kBoolean) FailType(e, "a boolean", v);
  return v->boolean;
}

const Decimal& Evaluator::RequireNumber(const ValuePtr& v, const Expr* e) {
  if (v->type != ValueType::kNumber) FailType(e, "a number", v);
  return v->number;
}

const std::string& Evaluator::RequireString(const ValuePtr& v, const Expr* e,
                                            std::string_view what) {
  if (v->type != ValueType::kString) FailType(e, what, v);
  return v->str;
}

std::string Evaluator::Stringify(const ValuePtr& v, const Expr* e, std::string_view what) {
  if (v->regex && v->type == ValueType::kSequence) return v->regex->whole_match ? "true" : "false";
  switch (v->type) {
    case ValueType::kString:
    case ValueType::kMarkup:
      return v->str;
    case ValueType::kNumber:
      return NumberFormat::Computer(v->number);
    case ValueType::kBoolean:
      return v->boolean ? "true" : "false";
    default:
      FailType(e, what, v);
  }
}

std::string Evaluator::ToOutput(const ValuePtr& v, const Expr* e) {
  if (v->type == ValueType::kString && mode_ == TemplateMode::kHtml) return HtmlEscape(v->str);
  return Stringify(v, e, "a string, number, boolean or markup for ${...}");
}

ValuePtr Evaluator::Add(ValuePtr a, const ValuePtr& b, const Expr* e) {
  if (a->type == ValueType::kNumber && b->type == ValueType::kNumber) {
    GuardArithmetic(a->number, b->number, Operator::kAdd, e->pos);
    return Value::Number(a->number + b->number);
  }
  if (a->type == ValueType::kSequence && b->type == ValueType::kSequence) {
    std::vector<ValuePtr> items;
    const size_t total = a->SequenceSize() + b->SequenceSize();
    Step(total, e->pos);
    items.reserve(total);
    for (size_t i = 0; i < a->SequenceSize(); ++i) items.push_back(a->SequenceAt(i));
    for (size_t i = 0; i < b->SequenceSize(); ++i) items.push_back(b->SequenceAt(i));
    return Value::Sequence(std::move(items));
  }
  if (a->type == ValueType::kHash && b->type == ValueType::kHash) {
    auto merged = Value::New();
    merged->type = ValueType::kHash;
    Step(a->HashSize() + b->HashSize(), e->pos);
    for (size_t i = 0; i < a->HashSize(); ++i) merged->HashPut(a->HashKeyAt(i), a->HashValueAt(i));
    for (size_t i = 0; i < b->HashSize(); ++i) merged->HashPut(b->HashKeyAt(i), b->HashValueAt(i));
    return merged;
  }
  const Expr* left_expr = e->args.size() > 0 ? e->args[0].get() : e;
  const Expr* right_expr = e->args.size() > 1 ? e->args[1].get() : e;
  if (a->type == ValueType::kMarkup || b->type == ValueType::kMarkup) {
    auto part = [&](const ValuePtr& v, const Expr* x) {
      return v->type == ValueType::kString ? HtmlEscape(v->str)
                                           : Stringify(v, x, "a string or markup");
    };
    std::string joined = part(a, left_expr) + part(b, right_expr);
    MakeString(joined, e->pos);  // enforce the cap
    return Value::Markup(std::move(joined));
  }
  if (a->type == ValueType::kString && b->type == ValueType::kString) {
    if (a.use_count() == 1 && !a->regex) {
      // `a` is the temporary of the "+" before it ("'" + s + "'"), held by this call only:
      // `b` is appended to it in place instead of copying both into a new value.
      std::string& joined = const_cast<Value*>(a.get())->str;
      if (joined.size() + b->str.size() > options_.max_output_bytes) [[unlikely]] {
        FailOutputCap("A string value exceeded the output cap of ", e->pos);
      }
      joined.append(b->str);
      Step(joined.size() / kBytesPerStep, e->pos);
      return a;
    }
    // The common case (SQL quoting, identifiers): one buffer, no intermediate copies.
    std::string joined;
    joined.reserve(a->str.size() + b->str.size());
    joined.append(a->str).append(b->str);
    return MakeString(std::move(joined), e->pos);
  }
  std::string joined = Stringify(a, left_expr, "a string or number for \"+\"");
  joined += Stringify(b, right_expr, "a string or number for \"+\"");
  return MakeString(std::move(joined), e->pos);
}

bool Evaluator::Compare(const ValuePtr& a, const ValuePtr& b, Operator op, const Expr* e) {
  int cmp = 0;
  const bool equality = op == Operator::kEqual || op == Operator::kNotEqual;
  if (a->type == ValueType::kNumber && b->type == ValueType::kNumber) {
    cmp = a->number.Compare(b->number);
  } else if ((a->type == ValueType::kString || a->type == ValueType::kMarkup) &&
             (b->type == ValueType::kString || b->type == ValueType::kMarkup)) {
    if (!equality) {
      Fail(e->pos, "Can't use operator \"" + std::string(OperatorText(op)) + "\" on string values");
    }
    cmp = a->str == b->str ? 0 : 1;
  } else if (a->type == ValueType::kBoolean && b->type == ValueType::kBoolean) {
    if (!equality) {
      Fail(e->pos,
           "Can't use operator \"" + std::string(OperatorText(op)) + "\" on boolean values");
    }
    cmp = a->boolean == b->boolean ? 0 : 1;
  } else {
    Fail(e->pos, std::string("Can't compare values of these types: left-hand operand is ") +
                     TypeName(a->type) + ", right-hand operand is " + TypeName(b->type));
  }
  switch (op) {
    case Operator::kEqual:
      return cmp == 0;
    case Operator::kNotEqual:
      return cmp != 0;
    case Operator::kLess:
      return cmp < 0;
    case Operator::kLessEqual:
      return cmp <= 0;
    case Operator::kGreater:
      return cmp > 0;
    default:
      return cmp >= 0;
  }
}

void Evaluator::GuardArithmetic(const Decimal& x, const Decimal& y, Operator op,
                                const SourcePos& pos) {
  const int64_t dx = x.ApproxDigits();
  const int64_t dy = y.ApproxDigits();
  const int64_t scale = std::max<int64_t>({12, x.scale(), y.scale()});
  // Aligning scales multiplies the less scaled operand by 10^|sx - sy|.
  const int64_t align = std::abs(static_cast<int64_t>(x.scale()) - y.scale());
  int64_t result = 0;
  uint64_t work = 0;  // in 64-bit limb operations / 64 (the step unit of strings, roughly)
  if (op == Operator::kMultiply) {
    result = dx + dy;
    work = static_cast<uint64_t>((dx / 19 + 1) * (dy / 19 + 1) / 64);
  } else if (op == Operator::kDivide) {
    result = dx + dy + scale;
    work = static_cast<uint64_t>((result / 19 + 1) * (dy / 19 + 1) / 64);
  } else {  // + - (and the operands of %, which are read as int64)
    result = std::max(dx, dy) + align + 1;
    work = static_cast<uint64_t>(result / 19 / 64);
  }
  const int max_digits = std::min(options_.max_number_digits, Decimal::kMaxDigits);
  if (result > max_digits) {
    throw RenderError{"number_too_large",
                      "Arithmetic result would exceed " + std::to_string(max_digits) +
                          " digits (at " + PosText(pos) + ")",
                      pos, Json{{"max_digits", max_digits}}};
  }
  Step(work, pos);  // the work, not only the step: the deadline is checked inside long math
}

ValuePtr Evaluator::EvalRange(const Expr* e, Ctx& ctx) {
  // Keep the value alive while reading it (RequireNumber returns a reference into it).
  const ValuePtr begin_value = EvalRequired(e->args[0].get(), ctx);
  // FreeMarker ranges are built from Number.intValue(): 32-bit, wrapping.
  const int64_t begin =
      static_cast<int32_t>(RequireNumber(begin_value, e->args[0].get()).LongValue());
  RangeSpec spec;
  spec.begin = begin;
  if (e->args.size() < 2) {  // right-unbounded "n..": effectively infinite
    spec.size = std::numeric_limits<int32_t>::max();
    spec.right_unbounded = spec.right_adaptive = true;
    return Value::Range(spec);
  }
  const int64_t end = static_cast<int32_t>(
      RequireNumber(EvalRequired(e->args[1].get(), ctx), e->args[1].get()).LongValue());
  if (e->op == Operator::kRangeInclusive) {
    spec.step = end >= begin ? 1 : -1;
    spec.size = (end >= begin ? end - begin : begin - end) + 1;
  } else if (e->op == Operator::kRangeExclusive) {
    spec.step = end >= begin ? 1 : -1;
    spec.size = end >= begin ? end - begin : begin - end;
  } else {  // "..*": length-limited
    spec.step = end >= 0 ? 1 : -1;
    spec.size = end >= 0 ? end : -end;
    spec.right_adaptive = true;
  }
  spec.inclusive_end = e->op == Operator::kRangeInclusive;
  return Value::Range(spec);
}

bool Evaluator::IsBareStringBuiltIn(const Expr* e) {
  return e->IsBuiltIn(BuiltIn::kStringOf) && !e->has_call_args;
}

// n?string.percent, n?string["0.00"]: FreeMarker's number ?string is also a hash from format
// names and patterns to the formatted number. `target` is a bare ?string (IsBareStringBuiltIn);
// null when its operand is not a number.
std::optional<ValuePtr> Evaluator::NumberStringMember(const Expr* target, const std::string& key,
                                                      Ctx& ctx) {
  const ValuePtr number = EvalRequired(target->args[0].get(), ctx);
  if (number->type != ValueType::kNumber) return std::nullopt;
  auto formatted = NumberFormat::Format(number->number, key);
  if (!formatted) {
    throw RenderError{
        "unsupported_construct",
        "?string." + key +
            " is not supported: the engine formats DecimalFormat "
            "patterns without exponents and the names number, computer, percent (at " +
            PosText(target->pos) + ")",
        target->pos, Json{{"construct", "?string." + key}}};
  }
  return MakeString(std::move(*formatted), target->pos);
}

// .vars.x, .globals.x, .main.x: a lookup in that scope (null when the name is not there).
std::optional<ValuePtr> Evaluator::SpecialVariableMember(const Expr* special,
                                                         const std::string& key, const Ctx& ctx) {
  if (special->name == "vars") return Lookup(key, ctx);
  if (special->name == "main") {
    const ValuePtr* found = main_ns_->vars.Find(key);
    return found ? *found : nullptr;
  }
  if (special->name == "globals") {
    if (const ValuePtr* found = globals_.Find(key)) return *found;
    return data_model_ ? data_model_->HashGet(key) : nullptr;
  }
  return std::nullopt;
}

ValuePtr Evaluator::EvalSpecialVariable(const Expr* e) {
  const std::string& name = e->name;
  if (name == "data_model") {
    if (data_model_) return data_model_;
    auto empty = Value::New();
    empty->type = ValueType::kHash;
    return empty;
  }
  if (name == "locale") return Value::String("en_US");  // templates.md §4.3: Locale.US
  if (name == "lang") return Value::String("en");
  if (name == "output_format")
    return Value::String(mode_ == TemplateMode::kHtml ? "HTML" : "undefined");
  if (name == "auto_esc") return Value::Boolean(mode_ == TemplateMode::kHtml);
  Fail(e->pos, "The special variable ." + name + " can only be looked into");
}

ValuePtr Evaluator::EvalDynamicKey(const Expr* e, Ctx& ctx) {
  const Expr* special = e->args[0].get();
  if (special->kind == ExprKind::kSpecialVariable &&
      (special->name == "vars" || special->name == "globals" || special->name == "main")) {
    ValuePtr key = EvalRequired(e->args[1].get(), ctx);
    const std::string& name = RequireString(key, e->args[1].get(), "a string key");
    return *SpecialVariableMember(special, name, ctx);
  }
  const Expr* key_expr = e->args[1].get();
  if (IsBareStringBuiltIn(e->args[0].get())) {
    ValuePtr key = EvalRequired(key_expr, ctx);
    if (key->type == ValueType::kString) {
      if (auto formatted = NumberStringMember(e->args[0].get(), key->str, ctx)) return *formatted;
    }
  }
  ValuePtr target = EvalRequired(e->args[0].get(), ctx);
  ValuePtr key = EvalRequired(key_expr, ctx);
  if (key->type == ValueType::kNumber) {
    const int64_t index = key->number.LongValue();
    if (target->type == ValueType::kSequence) {
      if (index < 0 || static_cast<size_t>(index) >= target->SequenceSize()) return nullptr;
      return target->SequenceAt(static_cast<size_t>(index));
    }
    if (target->type == ValueType::kString || target->type == ValueType::kNumber ||
        target->type == ValueType::kBoolean) {
      const std::string s = Stringify(target, e->args[0].get(), "a sequence or string");
      if (index < 0 || index >= Utf16Length(s)) {
        Fail(e->pos, "String index out of bounds: " + std::to_string(index));
      }
      return Value::String(Utf16Substring(s, index, index + 1));
    }
    FailType(e->args[0].get(), "a sequence or string", target);
  }
  if (key->type == ValueType::kString) {
    if (target->type != ValueType::kHash) FailType(e->args[0].get(), "a hash", target);
    return target->HashGet(key->str);
  }
  if (key->type == ValueType::kSequence && key->range) return Slice(target, *key->range, e);
  FailType(key_expr, "a number, string or range", key);
}

// The kinds nearly every expression is made of; the rest go through EvalUncommon, so this
// function's frame (entered for every operand) stays small.
ValuePtr Evaluator::Eval(const Expr* e, Ctx& ctx) {
  // Leaves first: they do not recurse, so they need no stack guard.
  switch (e->kind) {
    case ExprKind::kNumber:
    case ExprKind::kString:
      return Unowned(e->constant.get());
    case ExprKind::kBoolean:
      return Value::Boolean(e->boolean);
    case ExprKind::kVariable:
      return Lookup(e->name, ctx);
    default:
      break;
  }
  StackGuard guard(this, e->pos);
  switch (e->kind) {
    case ExprKind::kDot:
      return EvalDot(e, ctx);
    case ExprKind::kMethodCall:
      return EvalMethodCall(e, ctx);
    case ExprKind::kBuiltIn:
      return EvalBuiltIn(e, ctx);
    case ExprKind::kDefaultTo: {
      ValuePtr v = EvalLenient(e->args[0].get(), ctx);
      if (v) return v;
      if (e->args.size() > 1) return Eval(e->args[1].get(), ctx);
      return Value::String("");
    }
    case ExprKind::kExists:
      return Value::Boolean(EvalLenient(e->args[0].get(), ctx) != nullptr);
    case ExprKind::kParen:
      return Eval(e->args[0].get(), ctx);
    case ExprKind::kNot:
      return Value::Boolean(!RequireBoolean(EvalRequired(e->args[0].get(), ctx), e->args[0].get()));
    case ExprKind::kArithmetic:
      return EvalArithmetic(e, ctx);
    case ExprKind::kCompare:
      return Value::Boolean(Compare(EvalRequired(e->args[0].get(), ctx),
                                    EvalRequired(e->args[1].get(), ctx), e->op, e));
    case ExprKind::kAnd:
      if (!RequireBoolean(EvalRequired(e->args[0].get(), ctx), e->args[0].get())) {
        return Value::Boolean(false);
      }
      return Value::Boolean(RequireBoolean(EvalRequired(e->args[1].get(), ctx), e->args[1].get()));
    case ExprKind::kOr:
      if (RequireBoolean(EvalRequired(e->args[0].get(), ctx), e->args[0].get())) {
        return Value::Boolean(true);
      }
      return Value::Boolean(RequireBoolean(EvalRequired(e->args[1].get(), ctx), e->args[1].get()));
    default:
      return EvalUncommon(e, ctx);
  }
}

ValuePtr Evaluator::EvalDot(const Expr* e, Ctx& ctx) {
  const Expr* target_expr = e->args[0].get();
  if (target_expr->kind == ExprKind::kSpecialVariable) {
    if (auto member = SpecialVariableMember(target_expr, e->name, ctx)) return *member;
  }
  if (IsBareStringBuiltIn(target_expr)) {
    if (auto formatted = NumberStringMember(target_expr, e->name, ctx)) return *formatted;
  }
  ValuePtr target = EvalRequired(target_expr, ctx);
  if (target->type != ValueType::kHash) FailType(target_expr, "a hash", target);
  return target->HashGet(e->name);
}

ValuePtr Evaluator::EvalMethodCall(const Expr* e, Ctx& ctx) {
  ValuePtr callee = EvalRequired(e->args[0].get(), ctx);
  if (callee->type != ValueType::kFunction) FailType(e->args[0].get(), "a function", callee);
  Arguments args;
  for (size_t i = 1; i < e->args.size(); ++i) args.push_back(Eval(e->args[i].get(), ctx));
  return CallFunction(*callee, {args.data(), args.size()}, e->pos);
}

ValuePtr Evaluator::EvalArithmetic(const Expr* e, Ctx& ctx) {
  ValuePtr a = EvalRequired(e->args[0].get(), ctx);
  ValuePtr b = EvalRequired(e->args[1].get(), ctx);
  const Operator op = e->op;
  if (op == Operator::kAdd) return Add(std::move(a), b, e);
  const Decimal& x = RequireNumber(a, e->args[0].get());
  const Decimal& y = RequireNumber(b, e->args[1].get());
  GuardArithmetic(x, y, op, e->pos);
  if (op == Operator::kSubtract) return Value::Number(x - y);
  if (op == Operator::kMultiply) return Value::Number(x.EngineMultiply(y));
  if (op == Operator::kDivide) {
    auto q = x.Divide(y);
    if (!q) Fail(e->pos, "Division by zero");
    return Value::Number(*q);
  }
  const int64_t divisor = y.LongValue();
  if (divisor == 0) Fail(e->pos, "Division by zero");
  // Java's Long.MIN_VALUE % -1 is 0; in C++ it overflows.
  return Value::Int(divisor == -1 ? 0 : x.LongValue() % divisor);
}

ValuePtr Evaluator::EvalUncommon(const Expr* e, Ctx& ctx) {
  switch (e->kind) {
    case ExprKind::kStringInterp: {
      std::string out;
      for (const auto& part : e->args) {
        if (part->kind == ExprKind::kString) {
          out += part->text;
        } else {
          out +=
              Stringify(EvalRequired(part.get(), ctx), part.get(), "a string, number or boolean");
        }
      }
      return MakeString(std::move(out), e->pos);
    }
    case ExprKind::kSpecialVariable:
      return EvalSpecialVariable(e);
    case ExprKind::kLegacyNumber: {
      const ValuePtr value = EvalRequired(e->args[0].get(), ctx);
      const Decimal& n = RequireNumber(value, e->args[0].get());
      if (e->text.empty()) return Value::String(NumberFormat::Computer(n));
      auto formatted = NumberFormat::Format(n, e->text);
      if (!formatted) Fail(e->pos, "Unsupported #{...} format");
      return MakeString(std::move(*formatted), e->pos);
    }
    case ExprKind::kDynamicKey:
      return EvalDynamicKey(e, ctx);
    case ExprKind::kNegate:
      return Value::Number(
          RequireNumber(EvalRequired(e->args[0].get(), ctx), e->args[0].get()).EngineNegate());
    case ExprKind::kUnaryPlus:
      return Value::Number(RequireNumber(EvalRequired(e->args[0].get(), ctx), e->args[0].get()));
    case ExprKind::kRange:
      return EvalRange(e, ctx);
    case ExprKind::kSequence: {
      std::vector<ValuePtr> items;
      items.reserve(e->args.size());
      for (const auto& item : e->args) items.push_back(EvalRequired(item.get(), ctx));
      return Value::Sequence(std::move(items));
    }
    case ExprKind::kLambda:
      Fail(e->pos,
           "A lambda can only be the argument of ?filter, ?map, ?take_while or ?drop_while");
    case ExprKind::kHash: {
      auto hash = Value::New();
      hash->type = ValueType::kHash;
      for (size_t i = 0; i + 1 < e->args.size(); i += 2) {
        ValuePtr key = EvalRequired(e->args[i].get(), ctx);
        const std::string k = Stringify(key, e->args[i].get(), "a string as hash key");
        hash->HashPut(k, EvalRequired(e->args[i + 1].get(), ctx));
      }
      hash->SetLiteralSize(e->args.size() / 2);
      return hash;
    }
    default:
      break;
  }
  Fail(e->pos, "Unsupported expression");
}

}  // namespace dp::tmpl
