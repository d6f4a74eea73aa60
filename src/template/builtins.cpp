// Built-ins (x?name and x?name(args)) of Evaluator, FreeMarker 2.3.31 semantics.
#include <algorithm>
#include <cctype>

#include "template/builtin_names.hpp"
#include "template/evaluator.hpp"
#include "template/java_collation.hpp"
#include "template/number_format.hpp"
#include "template/string_escapes.hpp"
#include "template/text_case.hpp"
#include "template/truncate.hpp"
#include "template/utf16_text.hpp"

namespace dp::tmpl {
namespace {

bool IsWs(char c) { return static_cast<unsigned char>(c) <= ' '; }

std::string PosText(const SourcePos& pos) {
  return "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column);
}

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && IsWs(s[b])) ++b;
  while (e > b && IsWs(s[e - 1])) --e;
  return s.substr(b, e - b);
}

std::string ReplaceAll(const std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) {
    // FreeMarker inserts the replacement around every character (UTF-16 unit).
    std::string out = to;
    for (char16_t unit : ToUtf16(s)) {
      out += FromUtf16(std::u16string_view(&unit, 1));
      out += to;
    }
    return out;
  }
  std::string out;
  size_t pos = 0;
  while (true) {
    const size_t found = s.find(from, pos);
    if (found == std::string::npos) break;
    out.append(s, pos, found - pos);
    out += to;
    pos = found + from.size();
  }
  out.append(s, pos, std::string::npos);
  return out;
}

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

ValuePtr Evaluator::EvalBuiltIn(const Expr* e, Ctx& ctx) {
  const std::string_view name = e->name;  // literal compares: length check first, no strlen
  const Expr* target_expr = e->args[0].get();
  Step(1, e->pos);

  // Built-ins that tolerate a missing target.
  if (name == "has_content" || name == "exists" || name == "if_exists" || name == "default") {
    ValuePtr v = EvalLenient(target_expr, ctx);
    if (name == "exists") return Value::Boolean(v != nullptr);
    if (name == "if_exists") return v ? v : Value::String("");
    if (name == "default") {
      if (v) return v;
      for (const auto& arg : e->call_args) {
        if (ValuePtr d = Eval(arg.get(), ctx)) return d;
      }
      return nullptr;
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

  // Loop-variable built-ins: the target must name a <#list> variable in scope.
  if (IsLoopVariableBuiltIn(name)) {
    const LoopState* loop = nullptr;
    if (target_expr->kind == ExprKind::kVariable) {
      for (const LoopState* l = ctx.loops; l; l = l->parent) {
        const std::vector<std::string>& vars = l->list->names;
        if (!l->nested_vars &&
            std::find(vars.begin(), vars.end(), target_expr->name) != vars.end()) {
          loop = l;
          break;
        }
      }
    }
    if (!loop)
      Fail(e->pos, "?" + std::string(name) + " must be applied to a loop variable of <#list>");
    const int64_t counter = static_cast<int64_t>(loop->index) + 1;
    if (name == "index") return Value::Int(counter - 1);
    if (name == "counter") return Value::Int(counter);
    if (name == "has_next") return Value::Boolean(loop->has_next);
    if (name == "is_first") return Value::Boolean(loop->index == 0);
    if (name == "is_last") return Value::Boolean(!loop->has_next);
    if (name == "is_even_item") return Value::Boolean(counter % 2 == 0);
    if (name == "is_odd_item") return Value::Boolean(counter % 2 == 1);
    if (name == "item_parity") return Value::String(counter % 2 == 0 ? "even" : "odd");
    if (name == "item_parity_cap") return Value::String(counter % 2 == 0 ? "Even" : "Odd");
    // item_cycle(a, b, ...)
    if (e->call_args.empty()) Fail(e->pos, "?item_cycle needs at least one argument");
    return EvalRequired(e->call_args[(counter - 1) % e->call_args.size()].get(), ctx);
  }

  if (auto streamed = EvalStreamBuiltIn(e, ctx)) return *streamed;
  ValuePtr target = EvalRequired(target_expr, ctx);
  // A ?matches result is a boolean as well as the sequence of its matches.
  if (target->regex && target->type == ValueType::kSequence) {
    if (name == "is_boolean") return Value::Boolean(true);
    if (name == "c" || name == "string" || name == "then") {
      target = Value::Boolean(target->regex->whole_match);
    }
  }
  if (name == "groups") {
    if (e->has_call_args) Fail(e->pos, "?groups doesn't take arguments");
    return RegexGroupsOf(e, target);
  }
  // Regex calls skip the long name dispatch below (they are string built-ins; numbers and
  // booleans arrive as text, and so do ?matches/?replace/?split arguments).
  if (e->regex_call && target->type != ValueType::kString &&
      (target->type == ValueType::kNumber || target->type == ValueType::kBoolean)) {
    target = Value::String(Stringify(target, target_expr, "a string"));
  }
  if (e->regex_call && target->type == ValueType::kString) {
    std::vector<ValuePtr> regex_args;
    regex_args.reserve(e->call_args.size());
    for (const auto& arg : e->call_args) {
      ValuePtr v = EvalRequired(arg.get(), ctx);
      if ((name == "matches" || name == "replace" || name == "split") &&
          (v->type == ValueType::kNumber || v->type == ValueType::kBoolean)) {
        v = Value::String(Stringify(v, arg.get(), "a string"));
      }
      regex_args.push_back(std::move(v));
    }
    Step(target->str.size() / 64, e->pos);
    if (auto regex_result = EvalRegexBuiltIn(e, target->str, regex_args)) return *regex_result;
  }

  // Lazily evaluated arguments.
  if (name == "then") {
    const bool cond = RequireBoolean(target, target_expr);
    if (e->call_args.size() != 2) Fail(e->pos, "?then needs exactly 2 arguments");
    return EvalRequired(e->call_args[cond ? 0 : 1].get(), ctx);
  }
  if (name == "switch") {
    const size_t n = e->call_args.size();
    if (n < 2) Fail(e->pos, "?switch needs at least 2 arguments");
    for (size_t i = 0; i + 1 < n; i += 2) {
      if (Compare(target, EvalRequired(e->call_args[i].get(), ctx), "==", e->call_args[i].get())) {
        return EvalRequired(e->call_args[i + 1].get(), ctx);
      }
    }
    if (n % 2 == 1) return EvalRequired(e->call_args[n - 1].get(), ctx);
    Fail(e->pos, "The value didn't match any ?switch case and there was no default");
  }

  std::vector<ValuePtr> args;
  args.reserve(e->call_args.size());
  for (const auto& arg : e->call_args) args.push_back(EvalRequired(arg.get(), ctx));
  // FreeMarker's ?matches, ?replace and ?split are legacy string methods: a number or boolean
  // argument arrives formatted as text.
  if (name == "matches" || name == "replace" || name == "split") {
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i]->type == ValueType::kNumber || args[i]->type == ValueType::kBoolean) {
        args[i] = Value::String(Stringify(args[i], e->call_args[i].get(), "a string"));
      }
    }
  }
  auto need_args = [&](size_t min, size_t max) {
    if (args.size() < min || args.size() > max) {
      Fail(e->pos, "?" + std::string(name) + " expects " + std::to_string(min) +
                       (max != min ? "-" + std::to_string(max) : "") + " argument(s), got " +
                       std::to_string(args.size()));
    }
  };
  auto arg_string = [&](size_t i) -> const std::string& {
    return RequireString(args[i], e->call_args[i].get(), "a string argument");
  };
  auto arg_number = [&](size_t i) -> const Decimal& {
    return RequireNumber(args[i], e->call_args[i].get());
  };
  auto str = [&](std::string s) { return MakeString(std::move(s), e->pos); };

  // Type tests.
  if (name.rfind("is_", 0) == 0) {
    const ValueType t = target->type;
    if (name == "is_string") return Value::Boolean(t == ValueType::kString);
    if (name == "is_number") return Value::Boolean(t == ValueType::kNumber);
    if (name == "is_boolean") return Value::Boolean(t == ValueType::kBoolean);
    if (name == "is_sequence" || name == "is_indexable")
      return Value::Boolean(t == ValueType::kSequence);
    // JSON lists and FTL literals are sequences, never FreeMarker "collections".
    if (name == "is_collection") return Value::Boolean(false);
    if (name == "is_enumerable") return Value::Boolean(t == ValueType::kSequence);
    if (name == "is_hash" || name == "is_hash_ex") return Value::Boolean(t == ValueType::kHash);
    // <#function> values are macros to FreeMarker, not methods.
    if (name == "is_macro" || name == "is_directive") {
      return Value::Boolean(t == ValueType::kMacro || t == ValueType::kFunction);
    }
    if (name == "is_method") return Value::Boolean(false);
    if (name == "is_markup_output") return Value::Boolean(t == ValueType::kMarkup);
    if (name == "is_date") return Value::Boolean(false);
    if (name == "is_infinite" || name == "is_nan") {
      RequireNumber(target, target_expr);
      return Value::Boolean(false);
    }
  }

  // Output format.
  if (name == "no_esc" || name == "esc") {
    if (mode_ != TemplateMode::kHtml)
      Fail(e->pos, "?" + std::string(name) + " needs the html template type");
    if (target->type == ValueType::kMarkup) return target;
    std::string text = Stringify(target, target_expr, "a string");
    return Value::Markup(name == "esc" ? HtmlEscape(text) : text);
  }

  // ?c and ?string work on several types.
  if (name == "c") {
    if (target->type == ValueType::kNumber)
      return Value::String(NumberFormat::Computer(target->number));
    if (target->type == ValueType::kBoolean)
      return Value::String(target->boolean ? "true" : "false");
    FailType(target_expr, "a number or boolean", target);
  }
  if (name == "string") {
    switch (target->type) {
      case ValueType::kNumber: {
        need_args(0, 1);
        if (args.empty()) return Value::String(NumberFormat::Computer(target->number));
        auto formatted = NumberFormat::Format(target->number, arg_string(0));
        if (!formatted) {
          throw RenderError{"unsupported_construct",
                            "?string(\"" + arg_string(0) +
                                "\") is not supported: the engine formats DecimalFormat patterns "
                                "without exponents (at " +
                                PosText(e->pos) + ")",
                            e->pos, Json{{"construct", "?string(\"" + arg_string(0) + "\")"}}};
        }
        return Value::String(*formatted);
      }
      case ValueType::kBoolean:
        if (args.empty()) return Value::String(target->boolean ? "true" : "false");
        need_args(2, 2);
        return target->boolean ? args[0] : args[1];
      case ValueType::kString:
        need_args(0, 0);
        return target;
      default:
        FailType(target_expr, "a number, boolean or string", target);
    }
  }

  // Numbers.
  if (name == "round" || name == "floor" || name == "ceiling" || name == "abs" || name == "int" ||
      name == "long" || name == "short" || name == "byte" || name == "double" ||
      name == "lower_abc" || name == "upper_abc") {
    const Decimal& n = RequireNumber(target, target_expr);
    need_args(0, 0);
    if (name == "round") {
      return Value::Number((n + Decimal(5, 1)).SetScale(0, RoundingMode::kFloor));
    }
    if (name == "floor") return Value::Number(n.SetScale(0, RoundingMode::kFloor));
    if (name == "ceiling") return Value::Number(n.SetScale(0, RoundingMode::kCeiling));
    if (name == "abs") return Value::Number(n.IsNegative() ? -n : n);
    // Java narrowing conversions: truncate toward zero, then wrap to the type's width.
    if (name == "int") return Value::Int(static_cast<int32_t>(n.LongValue()));
    if (name == "long") return Value::Int(n.LongValue());
    if (name == "short") return Value::Int(static_cast<int16_t>(n.LongValue()));
    if (name == "byte") return Value::Int(static_cast<int8_t>(n.LongValue()));
    if (name == "double") return Value::Number(Decimal::FromDouble(n.ToDouble()));
    if (!n.IsInteger()) Fail(e->pos, "?" + std::string(name) + " needs a whole number");
    const int64_t v = n.LongValue();
    if (v < 1) Fail(e->pos, "?" + std::string(name) + " needs a number of at least 1");
    return Value::String(Abc(v, name == "upper_abc"));
  }

  // Sequences.
  if (target->type == ValueType::kSequence) {
    const size_t size = target->SequenceSize();
    if (name == "size") return Value::Int(static_cast<int64_t>(size));
    if (name == "first") return size ? target->SequenceAt(0) : nullptr;
    if (name == "last") return size ? target->SequenceAt(size - 1) : nullptr;
    if (name == "join") {
      need_args(1, 3);
      const std::string& sep = arg_string(0);
      std::string out;
      size_t emitted = 0;
      for (size_t i = 0; i < size; ++i) {
        Step(1, e->pos);
        ValuePtr item = target->SequenceAt(i);
        if (!item) continue;
        if (emitted++) out += sep;
        out += Stringify(item, target_expr, "sequence items of string, number or boolean type");
        if (out.size() > 0 && out.size() / 4096 != (out.size() - 1) / 4096) MakeString(out, e->pos);
      }
      if (emitted == 0 && args.size() > 1) return str(arg_string(1));
      if (emitted > 0 && args.size() > 2) out += arg_string(2);
      return str(std::move(out));
    }
    if (name == "seq_contains" || name == "seq_index_of" || name == "seq_last_index_of") {
      const bool backwards = name == "seq_last_index_of";
      need_args(1, name == "seq_contains" ? 1 : 2);
      const ValuePtr& needle = args[0];
      // The optional start index is clamped into the sequence; past its far end nothing is found.
      int64_t start = backwards ? static_cast<int64_t>(size) - 1 : 0;
      if (args.size() > 1) {
        const int64_t wanted = arg_number(1).LongValue();
        start = backwards ? std::min(wanted, start) : std::max<int64_t>(wanted, 0);
      }
      const size_t scanned = backwards ? static_cast<size_t>(std::max<int64_t>(start + 1, 0))
                                       : size - std::min<size_t>(size, static_cast<size_t>(start));
      int64_t found = -1;
      for (size_t k = 0; k < scanned; ++k) {
        Step(1, e->pos);
        const size_t i =
            backwards ? static_cast<size_t>(start) - k : static_cast<size_t>(start) + k;
        ValuePtr item = target->SequenceAt(i);
        if (!item) continue;
        bool equal = false;
        if (item->type == needle->type) {
          if (item->type == ValueType::kNumber) equal = item->number.Compare(needle->number) == 0;
          if (item->type == ValueType::kString) equal = item->str == needle->str;
          if (item->type == ValueType::kBoolean) equal = item->boolean == needle->boolean;
        }
        if (equal) {
          found = static_cast<int64_t>(i);
          break;
        }
      }
      if (name == "seq_contains") return Value::Boolean(found >= 0);
      return Value::Int(found);
    }
    if (name == "reverse") {
      Step(size, e->pos);
      std::vector<ValuePtr> items;
      for (size_t i = size; i-- > 0;) items.push_back(target->SequenceAt(i));
      return Value::Sequence(std::move(items));
    }
    if (name == "min" || name == "max") {
      ValuePtr best;
      for (size_t i = 0; i < size; ++i) {
        Step(1, e->pos);
        ValuePtr item = target->SequenceAt(i);
        if (!item) continue;
        const Decimal& n = RequireNumber(item, target_expr);
        if (!best || (name == "min" ? n.Compare(best->number) < 0 : n.Compare(best->number) > 0)) {
          best = item;
        }
      }
      return best;
    }
    if (name == "sort" || name == "sort_by") {
      Step(size * 8, e->pos);
      std::vector<ValuePtr> items;
      for (size_t i = 0; i < size; ++i) items.push_back(target->SequenceAt(i));
      std::vector<std::pair<ValuePtr, ValuePtr>> keyed;
      std::vector<std::string> path;  // ?sort_by("key") or ?sort_by(["key", "subkey"])
      if (name == "sort_by") {
        need_args(1, 1);
        if (args[0]->type == ValueType::kSequence) {
          for (size_t i = 0; i < args[0]->SequenceSize(); ++i) {
            ValuePtr part = args[0]->SequenceAt(i);
            if (!part || part->type != ValueType::kString)
              Fail(e->pos, "?sort_by(key): a key path must be a sequence of strings");
            path.push_back(part->str);
          }
        } else {
          path.push_back(arg_string(0));
        }
      }
      for (size_t i = 0; i < items.size(); ++i) {
        ValuePtr key = items[i];
        for (size_t k = 0; k < path.size(); ++k) {
          if (!key || key->type != ValueType::kHash) {
            Fail(e->pos, "?sort_by failed at sequence index " + std::to_string(i) + ": " +
                             (k == 0 ? "sequence items must be hashes"
                                     : "the \"" + path[k - 1] + "\" subvariable is not a hash"));
          }
          key = key->HashGet(path[k]);
          if (!key) {
            Fail(e->pos, "?sort_by failed at sequence index " + std::to_string(i) + ": the \"" +
                             path[k] + "\" subvariable was null or missing");
          }
        }
        if (!key) Fail(e->pos, "?" + std::string(name) + " found a missing value");
        keyed.emplace_back(key, items[i]);
      }
      if (!keyed.empty()) {
        const ValueType t = keyed[0].first->type;
        for (const auto& k : keyed) {
          if (k.first->type != t ||
              (t != ValueType::kNumber && t != ValueType::kString && t != ValueType::kBoolean)) {
            Fail(e->pos,
                 "?" + std::string(name) + " needs values of one type: all strings or all numbers");
          }
        }
        if (t == ValueType::kString) {
          for (const auto& k : keyed) {
            if (!JavaCollatorCompare(k.first->str, "")) {
              throw RenderError{"unsupported_construct",
                                "?" + std::string(name) +
                                    " of strings with non-ASCII characters is not supported: "
                                    "FreeMarker orders them with Java's locale collation (at " +
                                    PosText(e->pos) + ")",
                                e->pos, Json{{"construct", "?" + std::string(name)}}};
            }
          }
        }
        Step(keyed.size() * 4, e->pos);  // the comparisons
        std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
          if (a.first->type == ValueType::kNumber)
            return a.first->number.Compare(b.first->number) < 0;
          if (a.first->type == ValueType::kBoolean) return !a.first->boolean && b.first->boolean;
          return *JavaCollatorCompare(a.first->str, b.first->str) < 0;
        });
      }
      std::vector<ValuePtr> sorted;
      for (auto& k : keyed) sorted.push_back(k.second);
      return Value::Sequence(std::move(sorted));
    }
    if (name == "chunk") {
      need_args(1, 2);
      const int64_t requested = arg_number(0).LongValue();
      if (requested < 1) Fail(e->pos, "?chunk size must be at least 1");
      // Padding a short last chunk to `requested` items is paid for up front, so a huge size
      // hits the step budget before anything is allocated; the stride is clamped so index
      // arithmetic cannot wrap.
      if (args.size() > 1) Step(static_cast<uint64_t>(requested), e->pos);
      const size_t n = static_cast<size_t>(
          std::min<int64_t>(requested, static_cast<int64_t>(std::max<size_t>(size, 1))));
      // The whole result is counted before anything is allocated (a range stays lazy until
      // then): every item and every chunk.
      Step(size + (size + n - 1) / n, e->pos);
      std::vector<ValuePtr> chunks;
      for (size_t i = 0; i < size; i += n) {
        std::vector<ValuePtr> chunk;
        for (size_t j = i; j < std::min(size, i + n); ++j) chunk.push_back(target->SequenceAt(j));
        while (args.size() > 1 && chunk.size() < static_cast<size_t>(requested)) {
          chunk.push_back(args[1]);
        }
        chunks.push_back(Value::Sequence(std::move(chunk)));
      }
      return Value::Sequence(std::move(chunks));
    }
  }

  // Hashes.
  if (target->type == ValueType::kHash) {
    if (name == "size") return Value::Int(static_cast<int64_t>(target->ReportedHashSize()));
    if (name == "keys" || name == "values") {
      Step(target->HashSize(), e->pos);
      std::vector<ValuePtr> items;
      for (size_t i = 0; i < target->HashSize(); ++i) {
        items.push_back(name == "keys" ? Value::String(target->HashKeyAt(i))
                                       : target->HashValueAt(i));
      }
      return Value::Sequence(std::move(items));
    }
  }

  // Booleans.
  if (name == "boolean") {
    const std::string& s = RequireString(target, target_expr, "a string");
    if (s == "true") return Value::Boolean(true);
    if (s == "false") return Value::Boolean(false);
    Fail(e->pos, "Can't convert this string to boolean: \"" + s + "\"");
  }

  // Strings.
  // String built-ins coerce numbers and booleans to text, as FreeMarker does.
  if (target->type == ValueType::kNumber || target->type == ValueType::kBoolean) {
    target = Value::String(Stringify(target, target_expr, "a string"));
  } else if (target->type != ValueType::kString) {
    Fail(e->pos, "?" + std::string(name) + " can't be applied to " + TypeName(target->type) +
                     " (\"" + target_expr->source + "\")");
  }
  const std::string& s = target->str;
  Step(s.size() / 64, e->pos);
  if (auto regex_result = EvalRegexBuiltIn(e, s, args)) return *regex_result;
  if (name == "length") return Value::Int(Utf16Length(s));
  if (name == "upper_case") return str(TextCase::Upper(s));
  if (name == "lower_case") return str(TextCase::Lower(s));
  if (name == "trim") return str(Trim(s));
  if (name == "cap_first") return str(TextCase::ChangeFirst(s, true));
  if (name == "uncap_first") return str(TextCase::ChangeFirst(s, false));
  if (name == "capitalize") return str(TextCase::Capitalize(s));
  if (name == "contains" || name == "starts_with" || name == "ends_with") {
    need_args(1, 1);
    const std::string& needle = arg_string(0);
    if (name == "contains") return Value::Boolean(s.find(needle) != std::string::npos);
    if (name == "starts_with") return Value::Boolean(s.rfind(needle, 0) == 0);
    return Value::Boolean(s.size() >= needle.size() &&
                          s.compare(s.size() - needle.size(), needle.size(), needle) == 0);
  }
  if (name == "index_of" || name == "last_index_of") {
    need_args(1, 2);
    // Java's String.indexOf / lastIndexOf, in UTF-16 units.
    const std::u16string text = ToUtf16(s);
    const std::u16string needle = ToUtf16(arg_string(0));
    const int64_t length = static_cast<int64_t>(text.size());
    size_t found;
    if (name == "index_of") {
      const int64_t from = args.size() > 1 ? std::max<int64_t>(0, arg_number(1).LongValue()) : 0;
      if (from >= length) return Value::Int(needle.empty() ? length : -1);
      found = text.find(needle, static_cast<size_t>(from));
    } else {
      const int64_t from = args.size() > 1 ? arg_number(1).LongValue() : length;
      if (from < 0) return Value::Int(-1);
      found = text.rfind(needle, static_cast<size_t>(from));
    }
    return Value::Int(found == std::u16string::npos ? -1 : static_cast<int64_t>(found));
  }
  if (name == "replace") {
    need_args(2, 2);
    std::string out = ReplaceAll(s, arg_string(0), arg_string(1));
    return str(std::move(out));
  }
  if (name == "split") {
    need_args(1, 1);
    const std::string& sep = arg_string(0);
    std::vector<ValuePtr> parts;
    if (sep.empty()) {  // one part per character (UTF-16 unit), as Java splits
      for (char16_t unit : ToUtf16(s)) {
        parts.push_back(Value::String(FromUtf16(std::u16string_view(&unit, 1))));
      }
    } else {
      size_t pos = 0;
      while (true) {
        Step(1, e->pos);
        const size_t found = s.find(sep, pos);
        if (found == std::string::npos) break;
        parts.push_back(Value::String(s.substr(pos, found - pos)));
        pos = found + sep.size();
      }
      parts.push_back(Value::String(s.substr(pos)));
    }
    return Value::Sequence(std::move(parts));
  }
  if (name == "left_pad" || name == "right_pad") {
    need_args(1, 2);
    const int64_t width = arg_number(0).LongValue();
    const std::string fill = args.size() > 1 ? arg_string(1) : " ";
    if (fill.empty()) Fail(e->pos, "?" + std::string(name) + " fill string can't be empty");
    if (width > static_cast<int64_t>(options_.max_output_bytes)) {
      MakeString(std::string(options_.max_output_bytes + 1, ' '), e->pos);
    }
    const int64_t length = Utf16Length(s);
    const int64_t missing = width - length;
    if (missing <= 0) return target;
    // The fill pattern (UTF-16 units) is anchored at the start of the result (StringUtil.leftPad).
    const std::u16string units = ToUtf16(fill);
    std::u16string pad;
    const int64_t offset = name == "left_pad" ? 0 : length;
    for (int64_t i = 0; i < missing; ++i)
      pad += units[static_cast<size_t>(offset + i) % units.size()];
    return str(name == "left_pad" ? FromUtf16(pad) + s : s + FromUtf16(pad));
  }
  if (name == "keep_before" || name == "keep_after" || name == "keep_before_last" ||
      name == "keep_after_last") {
    need_args(1, 2);
    const std::string& needle = arg_string(0);
    const bool last = name.size() > 10 && name.compare(name.size() - 5, 5, "_last") == 0;
    const size_t found = last ? s.rfind(needle) : s.find(needle);
    if (name.rfind("keep_before", 0) == 0) {
      return str(found == std::string::npos ? s : s.substr(0, found));
    }
    return str(found == std::string::npos ? "" : s.substr(found + needle.size()));
  }
  if (name == "remove_beginning") {
    need_args(1, 1);
    return str(s.rfind(arg_string(0), 0) == 0 ? s.substr(arg_string(0).size()) : s);
  }
  if (name == "remove_ending" || name == "ensure_ends_with") {
    need_args(1, 1);
    const std::string& suffix = arg_string(0);
    const bool ends = s.size() >= suffix.size() &&
                      s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (name == "remove_ending") return str(ends ? s.substr(0, s.size() - suffix.size()) : s);
    return str(ends ? s : s + suffix);
  }
  if (name == "ensure_starts_with") {
    need_args(1, 1);
    return str(s.rfind(arg_string(0), 0) == 0 ? s : arg_string(0) + s);
  }
  if (name == "chop_linebreak") {
    std::string out = s;
    if (!out.empty() && out.back() == '\n') out.pop_back();
    if (!out.empty() && out.back() == '\r') out.pop_back();
    return str(std::move(out));
  }
  if (name == "number") {
    auto parsed = Decimal::Parse(s);
    if (!parsed) Fail(e->pos, "Can't convert this string to number: \"" + s + "\"");
    return Value::Number(*parsed);
  }
  if (name == "j_string") return str(JavaStringEscape(s));
  if (name == "js_string") return str(JsStringEscape(s, false));
  if (name == "json_string") return str(JsStringEscape(s, true));
  if (name == "truncate" || name == "truncate_w" || name == "truncate_c") {
    need_args(1, 3);
    const int64_t max_length = arg_number(0).LongValue();
    if (max_length < 0)
      Fail(e->pos, "?" + std::string(name) + "(...) argument #1 can't be negative");
    std::optional<int64_t> terminator_length;
    if (args.size() > 2) {
      terminator_length = arg_number(2).LongValue();
      if (*terminator_length < 0)
        Fail(e->pos, "?" + std::string(name) + "(...) argument #3 can't be negative");
    }
    const TruncateMode mode = name == "truncate"     ? TruncateMode::kAuto
                              : name == "truncate_w" ? TruncateMode::kWordBoundary
                                                     : TruncateMode::kCharBoundary;
    return str(
        Truncate(s, max_length,
                 args.size() > 1 ? std::optional<std::string_view>(arg_string(1)) : std::nullopt,
                 terminator_length, mode));
  }
  if (name == "url" || name == "url_path") {
    // No url_escaping_charset is configured (templates.md §4.3): the charset must be given.
    if (args.empty()) {
      Fail(e->pos, "?" + std::string(name) + " needs the charset as argument, e.g. ?" +
                       std::string(name) + "('UTF-8')");
    }
    need_args(1, 1);
    auto encoded = UrlEscape(s, arg_string(0), name == "url_path");
    if (!encoded) {
      throw RenderError{"unsupported_construct",
                        "?" + std::string(name) + "('" + arg_string(0) +
                            "') is not supported: the charset must be UTF-8, ISO-8859-1 or "
                            "US-ASCII (at " +
                            PosText(e->pos) + ")",
                        e->pos, Json{{"construct", "?" + std::string(name)}}};
    }
    return str(std::move(*encoded));
  }
  if (name == "html" || name == "xhtml") return str(HtmlEscape(s));
  if (name == "xml") return str(ReplaceAll(HtmlEscape(s), "&#39;", "&apos;"));
  if (name == "word_list") {  // java.util.StringTokenizer's default delimiters " \t\n\r\f"
    std::vector<ValuePtr> words;
    std::string current;
    for (char c : s) {
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f') {
        current += c;
      } else if (!current.empty()) {
        words.push_back(Value::String(std::move(current)));
        current.clear();
      }
    }
    if (!current.empty()) words.push_back(Value::String(std::move(current)));
    return Value::Sequence(std::move(words));
  }
  if (name == "substring") {
    need_args(1, 2);
    const int64_t length = Utf16Length(s);
    const int64_t from = arg_number(0).LongValue();
    const int64_t to = args.size() > 1 ? arg_number(1).LongValue() : length;
    if (from < 0 || to < from || to > length) Fail(e->pos, "?substring index out of bounds");
    return str(Utf16Substring(s, from, to));
  }
  if (name == "size") {
    Fail(e->pos, "?size can't be applied to a string; use ?length");
  }
  Fail(e->pos,
       "?" + std::string(name) + " can't be applied to a string (\"" + target_expr->source + "\")");
}

}  // namespace dp::tmpl
