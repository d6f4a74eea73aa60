// The regular-expression built-ins of Evaluator (?matches, ?groups, and ?replace, ?split,
// ?keep_before..., ?ensure_starts_with with a flags argument), FreeMarker 2.3.31 semantics:
// java.util.regex through JavaRegex, Matcher's find/replace/split loops reproduced here.
#include <algorithm>

#include "template/evaluation/evaluator.hpp"
#include "template/java/java_regex.hpp"
#include "template/java/text_case.hpp"
#include "template/java/utf16_text.hpp"

namespace dp::tmpl {
namespace {

// PCRE2's backtracking budget for one match attempt: a catastrophic pattern stops here (about
// a tenth of a second) instead of stalling the render.
constexpr uint32_t kMatchLimit = 10'000'000;

size_t Utf8Length(unsigned char lead) {
  return lead < 0x80 ? 1 : (lead >> 5) == 6 ? 2 : (lead >> 4) == 14 ? 3 : 4;
}

std::u32string ToCodePoints(std::string_view s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    const size_t width = Utf8Length(static_cast<unsigned char>(s[i]));
    char32_t cp = static_cast<unsigned char>(s[i]) & (width == 1 ? 0x7F : 0x3F >> (width - 1));
    for (size_t k = 1; k < width && i + k < s.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out += cp;
    i += width;
  }
  return out;
}

[[noreturn]] void Unsupported(const Expr* e, const std::string& what) {
  throw RenderError{
      "unsupported_construct",
      "?" + e->name + " is not supported here: " + what + " (at " + PosText(e->pos) + ")", e->pos,
      Json{{"construct", "?" + e->name + ": " + what}}};
}

// Java's s.toLowerCase().indexOf(needle.toLowerCase()) family applies the lower-cased string's
// indexes to the original: exact only while lower-casing keeps every length and the text stays
// in the scripts TextCase maps as Java does.
std::u16string LowerForSearch(const Expr* e, const std::string& s) {
  // Scripts TextCase maps (to U+04FF), and caseless blocks: general punctuation, currency,
  // and the emoji and symbol planes from U+1F000.
  for (char32_t cp : ToCodePoints(s)) {
    const bool ok = cp < 0x500 || (cp >= 0x2000 && cp <= 0x20CF) || cp >= 0x1F000;
    if (!ok) Unsupported(e, "case-insensitive search beyond Latin, Greek and Cyrillic");
  }
  std::u16string lowered = ToUtf16(TextCase::Lower(s));
  if (lowered.size() != ToUtf16(s).size()) {
    Unsupported(e, "case-insensitive search where lower-casing changes the length");
  }
  return lowered;
}

}  // namespace

const JavaRegex& Evaluator::CompiledRegex(const Expr* e, const std::string& pattern,
                                          const RegexFlags& flags,
                                          std::shared_ptr<const JavaRegex>* holder) {
  if (e->regex) return *e->regex;  // a literal regex, compiled at parse time
  try {
    *holder = JavaRegex::Cached(pattern, flags);
  } catch (const RegexError& error) {
    if (error.unsupported) Unsupported(e, "the regular expression uses " + error.message);
    Fail(e->pos, "Malformed regular expression: " + error.message);
  }
  return **holder;
}

bool Evaluator::RegexMatchAt(const Expr* e, const JavaRegex& regex, std::string_view s, size_t from,
                             JavaRegex::Anchor anchor, RegexMatch* match) {
  Step(1 + (s.size() - std::min(from, s.size())) / 256, e->pos);
  try {
    return regex.Match(s, from, anchor, kMatchLimit, match);
  } catch (const RegexLimitError& limit) {
    throw RenderError{
        "step_budget_exceeded",
        "A regular expression exceeded its backtracking limit of " +
            std::to_string(limit.match_limit) + " (at " + PosText(e->pos) + ")",
        e->pos, Json{{"max_steps", options_.max_steps}, {"regex_match_limit", limit.match_limit}}};
  } catch (const RegexError& error) {
    if (error.unsupported) Unsupported(e, error.message);
    Fail(e->pos, "Regular expression match failed: " + error.message);
  }
}

// Matcher.find() from the start: after an empty match Java resumes one UTF-16 unit further.
template <typename Fn>
void Evaluator::RegexFindAll(const Expr* e, const JavaRegex& regex, std::string_view s, Fn fn) {
  size_t from = 0;
  RegexMatch m;
  while (RegexMatchAt(e, regex, s, from, JavaRegex::Anchor::kFind, &m)) {
    if (!fn(m)) return;
    if (m.end() != m.begin()) {
      from = m.end();
      continue;
    }
    if (m.end() >= s.size()) return;
    const size_t width = Utf8Length(static_cast<unsigned char>(s[m.end()]));
    // Java would resume inside the surrogate pair.
    if (width == 4) Unsupported(e, "an empty regex match before a character beyond U+FFFF");
    from = m.end() + width;
  }
}

// Matcher.appendReplacement's replacement syntax: \x a literal x, $n and ${name} groups.
void Evaluator::AppendReplacement(const Expr* e, const JavaRegex& regex, std::string_view s,
                                  const RegexMatch& m, std::string_view replacement,
                                  std::string* out) {
  auto fail = [&](const std::string& why) {
    Fail(e->pos, "?replace(...) replacement \"" + std::string(replacement) + "\": " + why);
  };
  size_t i = 0;
  while (i < replacement.size()) {
    const char c = replacement[i];
    if (c == '\\') {
      if (++i == replacement.size()) fail("character to be escaped is missing");
      const size_t width = Utf8Length(static_cast<unsigned char>(replacement[i]));
      out->append(replacement.substr(i, width));
      i += width;
    } else if (c == '$') {
      if (++i == replacement.size()) fail("Illegal group reference: group index is missing");
      size_t group;
      if (replacement[i] == '{') {
        ++i;
        std::string name;
        while (i < replacement.size() && std::isalnum(static_cast<unsigned char>(replacement[i])))
          name += replacement[i++];
        if (name.empty()) fail("named capturing group has 0 length name");
        if (i >= replacement.size() || replacement[i] != '}')
          fail("named capturing group is missing trailing '}'");
        if (std::isdigit(static_cast<unsigned char>(name[0])))
          fail("capturing group name {" + name + "} starts with digit character");
        const int number = regex.GroupNumber(name);
        if (number < 0) fail("No group with name {" + name + "}");
        group = static_cast<size_t>(number);
        ++i;
      } else {
        if (replacement[i] < '0' || replacement[i] > '9') fail("Illegal group reference");
        group = static_cast<size_t>(replacement[i++] - '0');
        while (i < replacement.size() && replacement[i] >= '0' && replacement[i] <= '9') {
          const size_t next = group * 10 + static_cast<size_t>(replacement[i] - '0');
          if (next > regex.group_count()) break;
          group = next;
          ++i;
        }
        if (group > regex.group_count()) fail("No group " + std::to_string(group));
      }
      const auto [b, end] = m.groups[group];
      if (b != RegexMatch::npos) out->append(s.substr(b, end - b));
    } else {
      *out += c;
      ++i;
    }
  }
}

std::optional<ValuePtr> Evaluator::EvalRegexBuiltIn(const Expr* e, const std::string& s,
                                                    std::span<const ValuePtr> args) {
  const std::string_view name = e->name;
  const BuiltIn id = e->builtin->id;
  auto arg = [&](size_t i) -> const std::string& {
    return RequireString(args[i], e->call_args[i].get(), "a string argument");
  };
  auto str = [&](std::string v) { return MakeString(std::move(v), e->pos); };
  const bool keep = id == BuiltIn::kKeepBefore || id == BuiltIn::kKeepAfter ||
                    id == BuiltIn::kKeepBeforeLast || id == BuiltIn::kKeepAfterLast;
  // Which argument is the flags string, and which built-ins take one at all.
  RegexFlags flags;
  if (id == BuiltIn::kMatches) {
    if (args.empty() || args.size() > 2) {
      Fail(e->pos, "?matches(...) expects 1 or 2 arguments, but has received " +
                       std::to_string(args.size()) + ".");
    }
    if (args.size() > 1) flags = RegexFlags::Parse(arg(1));
    flags.regex = true;
  } else if ((id == BuiltIn::kReplace && args.size() == 3) ||
             ((id == BuiltIn::kSplit || keep) && args.size() == 2)) {
    flags = RegexFlags::Parse(arg(args.size() - 1));
  } else if (id == BuiltIn::kEnsureStartsWith && (args.size() == 2 || args.size() == 3)) {
    flags = args.size() == 3 ? RegexFlags::Parse(arg(2)) : RegexFlags::Parse("r");
  } else {
    return std::nullopt;
  }
  const std::string& needle = arg(0);
  // ?keep_* and ?ensure_starts_with refuse the regex-only flags without "r"; ?replace and
  // ?split only log a warning.
  if (!flags.regex && (keep || id == BuiltIn::kEnsureStartsWith) &&
      !flags.RegexOnlyFlag().empty()) {
    Fail(e->pos, "?" + std::string(name) + " doesn't support the \"" +
                     std::string(flags.RegexOnlyFlag()) + "\" flag without the \"r\" flag.");
  }

  if (!flags.regex) {
    // Literal search, case-insensitive with "i" (lower-cased copies, original indexes).
    const std::u16string text = ToUtf16(s);
    const std::u16string sub = ToUtf16(needle);
    std::u16string search_text = text, search_sub = sub;
    if (flags.case_insensitive) {
      search_text = LowerForSearch(e, s);
      search_sub = LowerForSearch(e, needle);
    }
    auto cut = [&](size_t from, size_t to) {
      return FromUtf16(std::u16string_view(text).substr(from, to - from));
    };
    if (id == BuiltIn::kReplace) {
      const std::string& replacement = arg(1);
      if (sub.empty()) {
        if (replacement.empty()) return str(s);
        if (flags.first_only) return str(replacement + s);
        std::string out = replacement;
        for (char16_t unit : text) {
          out += FromUtf16(std::u16string_view(&unit, 1));
          out += replacement;
        }
        return str(std::move(out));
      }
      size_t found = search_text.find(search_sub);
      if (found == std::u16string::npos) return str(s);
      std::string out;
      size_t b = 0;
      do {
        Step(1, e->pos);
        out += cut(b, found);
        out += replacement;
        b = found + sub.size();
        found = search_text.find(search_sub, b);
      } while (found != std::u16string::npos && !flags.first_only);
      out += cut(b, text.size());
      return str(std::move(out));
    }
    if (id == BuiltIn::kSplit) {
      std::vector<ValuePtr> parts;
      if (sub.empty()) {
        for (char16_t unit : text)
          parts.push_back(Value::String(FromUtf16(std::u16string_view(&unit, 1))));
        return Value::Sequence(std::move(parts));
      }
      size_t prev = 0, next;
      while ((next = search_text.find(search_sub, prev)) != std::u16string::npos) {
        Step(1, e->pos);
        parts.push_back(Value::String(cut(prev, next)));
        prev = next + sub.size();
      }
      parts.push_back(Value::String(cut(prev, text.size())));
      return Value::Sequence(std::move(parts));
    }
    if (id == BuiltIn::kEnsureStartsWith) {
      const bool starts = search_text.compare(0, search_sub.size(), search_sub) == 0;
      return str(starts ? s : arg(1) + s);
    }
    // keep_*
    const bool last = id == BuiltIn::kKeepBeforeLast || id == BuiltIn::kKeepAfterLast;
    const size_t found = last ? search_text.rfind(search_sub) : search_text.find(search_sub);
    if (id == BuiltIn::kKeepBefore || id == BuiltIn::kKeepBeforeLast) {
      return str(found == std::u16string::npos ? s : cut(0, found));
    }
    return str(found == std::u16string::npos ? "" : cut(found + sub.size(), text.size()));
  }

  std::shared_ptr<const JavaRegex> holder;
  const JavaRegex& regex = CompiledRegex(e, needle, flags, &holder);
  RegexMatch m;
  const bool whole_only =
      id == BuiltIn::kMatches && e->boolean;  // Matcher.matches(), no find() list
  try {
    regex.CheckSubject(s, !whole_only && id != BuiltIn::kEnsureStartsWith);
  } catch (const RegexError& error) {
    Unsupported(e, error.message);
  }
  if (whole_only) {
    return Value::Boolean(RegexMatchAt(e, regex, s, 0, JavaRegex::Anchor::kWholeInput, &m));
  }
  if (id == BuiltIn::kMatches) {
    auto info = std::make_unique<Value::RegexGroups>();
    info->whole_match = RegexMatchAt(e, regex, s, 0, JavaRegex::Anchor::kWholeInput, &m);
    if (info->whole_match) {
      for (const auto& [b, end] : m.groups) {
        info->groups.push_back(Value::String(b == RegexMatch::npos ? "" : s.substr(b, end - b)));
      }
    }
    std::vector<ValuePtr> matches;
    RegexFindAll(e, regex, s, [&](const RegexMatch& found) {
      auto item = Value::New();
      item->type = ValueType::kString;
      item->str = s.substr(found.begin(), found.end() - found.begin());
      auto groups = std::make_unique<Value::RegexGroups>();
      for (const auto& [b, end] : found.groups) {
        groups->groups.push_back(b == RegexMatch::npos ? nullptr
                                                       : Value::String(s.substr(b, end - b)));
      }
      item->regex = std::move(groups);
      matches.push_back(std::move(item));
      return true;
    });
    auto result = Value::New();
    result->type = ValueType::kSequence;
    result->items = std::move(matches);
    result->regex = std::move(info);
    return result;
  }
  if (id == BuiltIn::kReplace) {
    const std::string& replacement = arg(1);
    std::string out;
    size_t last = 0;
    RegexFindAll(e, regex, s, [&](const RegexMatch& found) {
      out.append(s, last, found.begin() - last);
      AppendReplacement(e, regex, s, found, replacement, &out);
      last = found.end();
      if (out.size() > options_.max_output_bytes) MakeString(out, e->pos);
      return !flags.first_only;
    });
    out.append(s, last, std::string::npos);
    return str(std::move(out));
  }
  if (id == BuiltIn::kSplit) {  // Pattern.split(s): limit 0
    std::vector<std::string> parts;
    size_t index = 0;
    bool matched = false;
    RegexFindAll(e, regex, s, [&](const RegexMatch& found) {
      // No empty leading part for a zero-width match at the beginning.
      if (index == 0 && found.begin() == 0 && found.end() == 0) return true;
      parts.push_back(s.substr(index, found.begin() - index));
      index = found.end();
      matched = true;
      return true;
    });
    std::vector<ValuePtr> items;
    if (!matched) {
      items.push_back(Value::String(s));
      return Value::Sequence(std::move(items));
    }
    parts.push_back(s.substr(index));
    while (!parts.empty() && parts.back().empty()) parts.pop_back();
    for (auto& part : parts) items.push_back(Value::String(std::move(part)));
    return Value::Sequence(std::move(items));
  }
  if (id == BuiltIn::kEnsureStartsWith) {  // Matcher.lookingAt()
    const bool starts = RegexMatchAt(e, regex, s, 0, JavaRegex::Anchor::kLookingAt, &m);
    return str(starts ? s : arg(1) + s);
  }
  // keep_*: the first match, or (the _last forms) the last of the matches found by
  // find(previous start + 1), which may overlap.
  if (!RegexMatchAt(e, regex, s, 0, JavaRegex::Anchor::kFind, &m)) {
    return str(id == BuiltIn::kKeepBefore || id == BuiltIn::kKeepBeforeLast ? s : "");
  }
  if (id == BuiltIn::kKeepBefore) return str(s.substr(0, m.begin()));
  if (id == BuiltIn::kKeepAfter) return str(s.substr(m.end()));
  RegexMatch next;
  while (true) {
    if (m.begin() >= s.size()) {
      Fail(e->pos, "?" + std::string(name) + ": Illegal start index (a match at the end)");
    }
    const size_t width = Utf8Length(static_cast<unsigned char>(s[m.begin()]));
    if (width == 4) Unsupported(e, "a regex match starting at a character beyond U+FFFF");
    if (!RegexMatchAt(e, regex, s, m.begin() + width, JavaRegex::Anchor::kFind, &next)) break;
    m = next;
  }
  if (id == BuiltIn::kKeepBeforeLast) return str(s.substr(0, m.begin()));
  return str(s.substr(m.end()));
}

ValuePtr Evaluator::RegexGroupsOf(const Expr* e, const ValuePtr& target) {
  if (!target->regex) {
    Fail(e->pos, "?groups can only be applied to the result of ?matches or to one of its items");
  }
  if (target->type == ValueType::kSequence && !target->regex->whole_match) {
    Unsupported(e, "the groups of a string that does not match the whole regex");
  }
  return Value::Sequence(target->regex->groups);
}

}  // namespace dp::tmpl
