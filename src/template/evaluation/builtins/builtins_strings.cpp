// String built-ins of Evaluator, FreeMarker 2.3.31 semantics (the regex forms are in
// evaluator_regex.cpp).
#include <algorithm>

#include "template/evaluation/builtins/builtin_args.hpp"
#include "template/evaluation/builtins/truncate.hpp"
#include "template/evaluation/evaluator.hpp"
#include "template/java/text_case.hpp"
#include "template/java/utf16_text.hpp"
#include "template/syntax/string_escapes.hpp"

namespace dp::tmpl {
namespace {

bool IsTrimmableSpace(char c) { return static_cast<unsigned char>(c) <= ' '; }

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && IsTrimmableSpace(s[b])) ++b;
  while (e > b && IsTrimmableSpace(s[e - 1])) --e;
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

}  // namespace

// String built-ins; numbers and booleans are coerced to text first, as FreeMarker does.
ValuePtr Evaluator::EvalStringBuiltIn(const Expr* e, ValuePtr target, const BuiltInArgs& args) {
  const BuiltIn id = e->builtin->id;
  const Expr* target_expr = e->args[0].get();
  auto str = [&](std::string v) { return MakeString(std::move(v), e->pos); };
  // String built-ins coerce numbers and booleans to text, as FreeMarker does.
  if (target->type == ValueType::kNumber || target->type == ValueType::kBoolean) {
    target = Value::String(Stringify(target, target_expr, "a string"));
  } else if (target->type != ValueType::kString) {
    Fail(e->pos, "?" + e->name + " can't be applied to " + TypeName(target->type) + " (\"" +
                     target_expr->source + "\")");
  }
  const std::string& s = target->str;
  Step(s.size() / 64, e->pos);
  if (e->builtin->flags_position > 0) {
    if (auto regex_result = EvalRegexBuiltIn(e, s, args.values)) return *regex_result;
  }
  if (id == BuiltIn::kLength) return Value::Int(Utf16Length(s));
  if (id == BuiltIn::kUpperCase) return str(TextCase::Upper(s));
  if (id == BuiltIn::kLowerCase) return str(TextCase::Lower(s));
  if (id == BuiltIn::kTrim) return str(Trim(s));
  if (id == BuiltIn::kCapFirst) return str(TextCase::ChangeFirst(s, true));
  if (id == BuiltIn::kUncapFirst) return str(TextCase::ChangeFirst(s, false));
  if (id == BuiltIn::kCapitalize) return str(TextCase::Capitalize(s));
  if (id == BuiltIn::kContains || id == BuiltIn::kStartsWith || id == BuiltIn::kEndsWith) {
    args.Need(1, 1);
    const std::string& needle = args.String(0);
    if (id == BuiltIn::kContains) return Value::Boolean(s.find(needle) != std::string::npos);
    if (id == BuiltIn::kStartsWith) return Value::Boolean(s.rfind(needle, 0) == 0);
    return Value::Boolean(s.size() >= needle.size() &&
                          s.compare(s.size() - needle.size(), needle.size(), needle) == 0);
  }
  if (id == BuiltIn::kIndexOf || id == BuiltIn::kLastIndexOf) {
    args.Need(1, 2);
    // Java's String.indexOf / lastIndexOf, in UTF-16 units.
    const std::u16string text = ToUtf16(s);
    const std::u16string needle = ToUtf16(args.String(0));
    const int64_t length = static_cast<int64_t>(text.size());
    size_t found;
    if (id == BuiltIn::kIndexOf) {
      const int64_t from = args.size() > 1 ? std::max<int64_t>(0, args.Number(1).LongValue()) : 0;
      if (from >= length) return Value::Int(needle.empty() ? length : -1);
      found = text.find(needle, static_cast<size_t>(from));
    } else {
      const int64_t from = args.size() > 1 ? args.Number(1).LongValue() : length;
      if (from < 0) return Value::Int(-1);
      found = text.rfind(needle, static_cast<size_t>(from));
    }
    return Value::Int(found == std::u16string::npos ? -1 : static_cast<int64_t>(found));
  }
  if (id == BuiltIn::kReplace) {
    args.Need(2, 2);
    std::string out = ReplaceAll(s, args.String(0), args.String(1));
    return str(std::move(out));
  }
  if (id == BuiltIn::kSplit) {
    args.Need(1, 1);
    const std::string& sep = args.String(0);
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
  if (id == BuiltIn::kLeftPad || id == BuiltIn::kRightPad) {
    args.Need(1, 2);
    const int64_t width = args.Number(0).LongValue();
    const std::string fill = args.size() > 1 ? args.String(1) : " ";
    if (fill.empty()) Fail(e->pos, "?" + e->name + " fill string can't be empty");
    if (width > static_cast<int64_t>(options_.max_output_bytes)) {
      MakeString(std::string(options_.max_output_bytes + 1, ' '), e->pos);
    }
    const int64_t length = Utf16Length(s);
    const int64_t missing = width - length;
    if (missing <= 0) return target;
    // The fill pattern (UTF-16 units) is anchored at the start of the result (StringUtil.leftPad).
    const std::u16string units = ToUtf16(fill);
    std::u16string pad;
    const int64_t offset = id == BuiltIn::kLeftPad ? 0 : length;
    for (int64_t i = 0; i < missing; ++i)
      pad += units[static_cast<size_t>(offset + i) % units.size()];
    return str(id == BuiltIn::kLeftPad ? FromUtf16(pad) + s : s + FromUtf16(pad));
  }
  if (id == BuiltIn::kKeepBefore || id == BuiltIn::kKeepAfter || id == BuiltIn::kKeepBeforeLast ||
      id == BuiltIn::kKeepAfterLast) {
    args.Need(1, 2);
    const std::string& needle = args.String(0);
    const bool last = id == BuiltIn::kKeepBeforeLast || id == BuiltIn::kKeepAfterLast;
    const size_t found = last ? s.rfind(needle) : s.find(needle);
    if (id == BuiltIn::kKeepBefore || id == BuiltIn::kKeepBeforeLast) {
      return str(found == std::string::npos ? s : s.substr(0, found));
    }
    return str(found == std::string::npos ? "" : s.substr(found + needle.size()));
  }
  if (id == BuiltIn::kRemoveBeginning) {
    args.Need(1, 1);
    return str(s.rfind(args.String(0), 0) == 0 ? s.substr(args.String(0).size()) : s);
  }
  if (id == BuiltIn::kRemoveEnding || id == BuiltIn::kEnsureEndsWith) {
    args.Need(1, 1);
    const std::string& suffix = args.String(0);
    const bool ends = s.size() >= suffix.size() &&
                      s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (id == BuiltIn::kRemoveEnding) return str(ends ? s.substr(0, s.size() - suffix.size()) : s);
    return str(ends ? s : s + suffix);
  }
  if (id == BuiltIn::kEnsureStartsWith) {
    args.Need(1, 1);
    return str(s.rfind(args.String(0), 0) == 0 ? s : args.String(0) + s);
  }
  if (id == BuiltIn::kChopLinebreak) {
    std::string out = s;
    if (!out.empty() && out.back() == '\n') out.pop_back();
    if (!out.empty() && out.back() == '\r') out.pop_back();
    return str(std::move(out));
  }
  if (id == BuiltIn::kNumberOf) {
    auto parsed = Decimal::Parse(s);
    if (!parsed) Fail(e->pos, "Can't convert this string to number: \"" + s + "\"");
    return Value::Number(*parsed);
  }
  if (id == BuiltIn::kJString) return str(JavaStringEscape(s));
  if (id == BuiltIn::kJsString) return str(JsStringEscape(s, false));
  if (id == BuiltIn::kJsonString) return str(JsStringEscape(s, true));
  if (id == BuiltIn::kTruncate || id == BuiltIn::kTruncateW || id == BuiltIn::kTruncateC) {
    args.Need(1, 3);
    const int64_t max_length = args.Number(0).LongValue();
    if (max_length < 0) Fail(e->pos, "?" + e->name + "(...) argument #1 can't be negative");
    std::optional<int64_t> terminator_length;
    if (args.size() > 2) {
      terminator_length = args.Number(2).LongValue();
      if (*terminator_length < 0)
        Fail(e->pos, "?" + e->name + "(...) argument #3 can't be negative");
    }
    const TruncateMode mode = id == BuiltIn::kTruncate    ? TruncateMode::kAuto
                              : id == BuiltIn::kTruncateW ? TruncateMode::kWordBoundary
                                                          : TruncateMode::kCharBoundary;
    return str(
        Truncate(s, max_length,
                 args.size() > 1 ? std::optional<std::string_view>(args.String(1)) : std::nullopt,
                 terminator_length, mode));
  }
  if (id == BuiltIn::kUrl || id == BuiltIn::kUrlPath) {
    // No url_escaping_charset is configured (templates.md §4.3): the charset must be given.
    if (args.empty()) {
      Fail(e->pos,
           "?" + e->name + " needs the charset as argument, e.g. ?" + e->name + "('UTF-8')");
    }
    args.Need(1, 1);
    auto encoded = UrlEscape(s, args.String(0), id == BuiltIn::kUrlPath);
    if (!encoded) {
      throw RenderError{"unsupported_construct",
                        "?" + e->name + "('" + args.String(0) +
                            "') is not supported: the charset must be UTF-8, ISO-8859-1 or "
                            "US-ASCII (at " +
                            PosText(e->pos) + ")",
                        e->pos, Json{{"construct", "?" + e->name}}};
    }
    return str(std::move(*encoded));
  }
  if (id == BuiltIn::kHtml || id == BuiltIn::kXhtml) return str(HtmlEscape(s));
  if (id == BuiltIn::kXml) return str(ReplaceAll(HtmlEscape(s), "&#39;", "&apos;"));
  if (id == BuiltIn::kWordList) {  // java.util.StringTokenizer's default delimiters " \t\n\r\f"
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
  if (id == BuiltIn::kSubstring) {
    args.Need(1, 2);
    const int64_t length = Utf16Length(s);
    const int64_t from = args.Number(0).LongValue();
    const int64_t to = args.size() > 1 ? args.Number(1).LongValue() : length;
    if (from < 0 || to < from || to > length) Fail(e->pos, "?substring index out of bounds");
    return str(Utf16Substring(s, from, to));
  }
  if (id == BuiltIn::kSize) {
    Fail(e->pos, "?size can't be applied to a string; use ?length");
  }
  Fail(e->pos, "?" + e->name + " can't be applied to a string (\"" + target_expr->source + "\")");
}

}  // namespace dp::tmpl
