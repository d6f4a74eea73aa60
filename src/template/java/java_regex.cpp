#include "template/java/java_regex.hpp"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

namespace dp::tmpl {
namespace {

// Java's line terminators (without UNIX_LINES), as a PCRE2 class body.
constexpr const char* kTerminators = R"(\n\r\x{85}\x{2028}\x{2029})";
// Java's \b word characters: Character.isLetterOrDigit or '_'.
constexpr const char* kWord = R"([\p{L}\p{Nd}_])";

std::u32string DecodeUtf8(std::string_view s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    char32_t cp;
    int extra;
    if (c < 0x80) {
      cp = c, extra = 0;
    } else if ((c >> 5) == 6) {
      cp = c & 0x1F, extra = 1;
    } else if ((c >> 4) == 14) {
      cp = c & 0x0F, extra = 2;
    } else {
      cp = c & 0x07, extra = 3;
    }
    ++i;
    for (int k = 0; k < extra && i < s.size(); ++k, ++i) {
      cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
    }
    out += cp;
  }
  return out;
}

std::string HexDigitValue(char32_t c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\x{%X}", static_cast<unsigned>(c));
  return buf;
}

bool IsAsciiLetter(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char32_t ToggleCase(char32_t c) { return c ^ 0x20; }
bool IsCommentsModeSpace(char32_t c) {  // comments mode skips these (ASCII only)
  return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
}
bool IsTerminator(char32_t c) {
  return c == '\n' || c == '\r' || c == 0x85 || c == 0x2028 || c == 0x2029;
}

struct Invalid {
  std::string message;
};
struct Unsupported {
  std::string message;
};

struct Property {
  std::string body;             // PCRE2 class body
  bool case_sensitive = false;  // under CASE_INSENSITIVE, Java widens it to every cased letter
  bool single = false;          // body is one \p{..} (so it negates inside a class as \P{..})
};

// Java 17's CharPredicates under CASE_INSENSITIVE: the POSIX cased classes become ASCII letters,
// the Unicode ones every upper-, lower- and title-case letter.
Property CaseInsensitive(const std::string& name) {
  if (name == "Lower" || name == "Upper") return {"a-zA-Z"};
  if (name == "Lu" || name == "Ll" || name == "Lt") return {R"(\p{Lu}\p{Ll}\p{Lt})"};
  return {R"(\p{Lowercase}\p{Uppercase}\p{Lt})"};
}

// Java's \p{name} (POSIX classes are ASCII-only without UNICODE_CHARACTER_CLASS).
std::optional<Property> LookupProperty(std::string name) {
  static const std::map<std::string, Property> kTable = {
      {"Lower", {"a-z", true}},
      {"Upper", {"A-Z", true}},
      {"ASCII", {R"(\x00-\x7F)"}},
      {"Alpha", {"a-zA-Z"}},
      {"Digit", {"0-9"}},
      {"Alnum", {"a-zA-Z0-9"}},
      {"Punct", {R"(!-\/:-@\[-`{-~)"}},
      {"Graph", {R"(!-~)"}},
      {"Print", {R"(\x20-~)"}},
      {"Blank", {R"(\x20\t)"}},
      {"Cntrl", {R"(\x00-\x1F\x7F)"}},
      {"XDigit", {"0-9a-fA-F"}},
      {"Space", {R"(\x20\t\n\x0B\f\r)"}},
      {"javaLowerCase", {R"(\p{Lowercase})", true, true}},
      {"javaUpperCase", {R"(\p{Uppercase})", true, true}},
      {"javaWhitespace",
       {R"(\t-\r\x1C-\x20\x{1680}\x{2000}-\x{2006}\x{2008}-\x{200A}\x{2028}\x{2029}\x{205F}\x{3000})"}},
      {"javaDigit", {R"(\p{Nd})", false, true}},
      {"javaLetter", {R"(\p{L})", false, true}},
      {"javaLetterOrDigit", {R"(\p{L}\p{Nd})"}},
      {"javaAlphabetic", {R"(\p{Alphabetic})", false, true}},
      {"javaSpaceChar", {R"(\p{Z})", false, true}},
      {"IsAlphabetic", {R"(\p{Alphabetic})", false, true}},
      {"IsLetter", {R"(\p{L})", false, true}},
      {"IsDigit", {R"(\p{Nd})", false, true}},
      {"IsLowercase", {R"(\p{Lowercase})", true, true}},
      {"IsUppercase", {R"(\p{Uppercase})", true, true}},
      {"IsWhite_Space", {R"(\p{White_Space})", false, true}},
      {"IsWhiteSpace", {R"(\p{White_Space})", false, true}},
  };
  if (auto it = kTable.find(name); it != kTable.end()) return it->second;
  // General categories: L, Lu, ... also spelled IsL, gc=L, general_category=L.
  for (std::string_view prefix : {"Is", "gc=", "general_category="}) {
    if (name.rfind(prefix, 0) == 0 && name.size() > prefix.size() &&
        name.size() - prefix.size() <= 2) {
      name = name.substr(prefix.size());
      break;
    }
  }
  static const char* kCategories[] = {"L",  "Lu", "Ll", "Lt", "Lm", "Lo", "M",  "Mn", "Mc",
                                      "Me", "N",  "Nd", "Nl", "No", "P",  "Pc", "Pd", "Ps",
                                      "Pe", "Pi", "Pf", "Po", "S",  "Sm", "Sc", "Sk", "So",
                                      "Z",  "Zs", "Zl", "Zp", "Cc", "Cf", "Co"};
  for (const char* category : kCategories) {
    if (name == category) {
      const bool cased = name == "Lu" || name == "Ll" || name == "Lt";
      return Property{"\\p{" + name + "}", cased, true};
    }
  }
  return std::nullopt;
}

class Translator {
 public:
  Translator(std::u32string pattern, const RegexFlags& flags) : p_(std::move(pattern)) {
    flags_.push_back({flags.case_insensitive, flags.multiline, flags.dotall, flags.comments});
  }

  std::string Run() {
    while (pos_ < p_.size()) {
      if (SkipComments()) continue;
      const char32_t c = p_[pos_++];
      switch (c) {
        case '\\':
          Escape();
          break;
        case '[':
          Class();
          atom_ = true;
          break;
        case '(':
          Group();
          break;
        case ')': {
          if (flags_.size() == 1) throw Invalid{"Unmatched closing ')'"};
          flags_.pop_back();
          out_ += ')';
          const OpenGroup open = open_groups_.back();
          open_groups_.pop_back();
          closed_group_ = open;
          closed_group_end_ = out_.size();
          closed_group_captures_ = open.capturing || groups_ > open.groups_before;
          atom_ = true;
          break;
        }
        case '|':
          out_ += '|';
          atom_ = false;
          break;
        case '.':
          if (F().dotall) {
            out_ += "(?s:.)";
          } else {
            out_ += "[^";
            out_ += kTerminators;
            out_ += ']';
          }
          atom_ = true;
          break;
        case '^':
          if (F().multiline) {
            out_ += R"((?:(?!\z)(?:\A|(?<=[\n\x{85}\x{2028}\x{2029}])|(?<=\r)(?!\n))))";
          } else {
            out_ += R"((?:\A))";
          }
          Anchor();
          break;
        case '$':
          Dollar(F().multiline);
          break;
        case '*':
        case '+':
        case '?':
          Quantifier(std::string(1, static_cast<char>(c)));
          break;
        case '{':
          // Java's atom() stops at a '{' and leaves an empty atom for it: "{2}" at the start,
          // or after another quantifier, repeats the empty string.
          if (!atom_ && !anchor_) {
            out_ += "(?:)";
            atom_ = true;
          }
          Repetition();
          break;
        default:
          Literal(c);
      }
    }
    if (flags_.size() != 1) throw Invalid{"Unclosed group"};
    return out_;
  }

  size_t group_count() const { return groups_; }
  std::vector<std::pair<std::string, int>> names() const { return names_; }
  bool word_boundary() const { return word_boundary_; }
  bool position_sensitive() const { return position_sensitive_; }

 private:
  struct Mode {
    bool case_insensitive, multiline, dotall, comments;
  };
  Mode& F() { return flags_.back(); }

  bool SkipComments() {
    if (!F().comments) return false;
    if (IsCommentsModeSpace(p_[pos_])) {
      ++pos_;
      return true;
    }
    if (p_[pos_] == '#') {
      while (pos_ < p_.size() && !IsTerminator(p_[pos_])) ++pos_;
      return true;
    }
    return false;
  }

  // Java quantifies anchors too ("^*", "\\b+"): each is emitted as a group PCRE2 can repeat.
  void Anchor() { atom_ = true, anchor_ = true; }

  void Dollar(bool multiline) {
    // Not between "\r" and "\n"; before any terminator (multiline) or only before a final one.
    out_ += R"((?:(?!(?<=\r)\n))";
    out_ += multiline ? "(?=[" : R"((?=(?:\r\n|[)";
    out_ += kTerminators;
    out_ += multiline ? R"(]|\z)))" : R"(])?\z)))";
    Anchor();
  }

  void Quantifier(std::string q) {
    if (!atom_) {
      if (anchor_) throw Unsupported{"a quantifier on an anchor"};
      throw Invalid{"Dangling meta character '" + q + "'"};
    }
    // Java's Loop (a variable-length group under * + {n,m}) drops an iteration that matched
    // empty, with what it captured; PCRE2 keeps it. Such a group that captures is refused ("?"
    // is Java's Ques, which keeps it too).
    if (q != "?" && closed_group_end_ == out_.size() && closed_group_captures_ &&
        CanMatchEmpty(out_.substr(closed_group_.out_pos))) {
      throw Unsupported{"a repeated group that captures and can match the empty string"};
    }
    out_ += q;
    // Java peeks past comments-mode white space for the lazy/possessive mark.
    while (pos_ < p_.size() && SkipComments()) {
    }
    if (pos_ < p_.size() && (p_[pos_] == '?' || p_[pos_] == '+')) out_ += char(p_[pos_++]);
    atom_ = false;
    anchor_ = false;
  }

  void Repetition() {
    size_t i = pos_;
    auto number = [&]() -> std::optional<uint64_t> {
      const size_t b = i;
      uint64_t n = 0;
      while (i < p_.size() && p_[i] >= '0' && p_[i] <= '9') {
        n = n * 10 + (p_[i] - '0');
        if (n > 65535) throw Unsupported{"a repetition count above 65535"};
        ++i;
      }
      if (i == b) return std::nullopt;
      return n;
    };
    auto min = number();
    if (!min) throw Invalid{"Illegal repetition"};
    std::optional<uint64_t> max = min;
    bool open = false;
    if (i < p_.size() && p_[i] == ',') {
      ++i;
      max = number();
      open = !max;
    }
    if (i >= p_.size() || p_[i] != '}') throw Invalid{"Unclosed counted closure"};
    if (!open && *max < *min) throw Invalid{"Illegal repetition range"};
    pos_ = i + 1;
    std::string q = "{" + std::to_string(*min);
    if (open) q += ",";
    if (!open && *max != *min) q += "," + std::to_string(*max);
    Quantifier(q + "}");
  }

  void Literal(char32_t c) {
    if (F().case_insensitive && IsAsciiLetter(c)) {
      out_ += '[';
      out_ += static_cast<char>(c);
      out_ += static_cast<char>(ToggleCase(c));
      out_ += ']';
    } else if (c < 0x80 && !((c >= '0' && c <= '9') || IsAsciiLetter(c))) {
      out_ += HexDigitValue(c);
    } else {
      out_ += Encode(c);
    }
    atom_ = true;
    anchor_ = false;
  }

  static std::string Encode(char32_t c) {
    std::string s;
    if (c < 0x80) {
      s += static_cast<char>(c);
    } else if (c < 0x800) {
      s += static_cast<char>(0xC0 | (c >> 6));
      s += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      s += static_cast<char>(0xE0 | (c >> 12));
      s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      s += static_cast<char>(0xF0 | (c >> 18));
      s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (c & 0x3F));
    }
    return s;
  }

  uint32_t HexDigits(size_t count) {
    uint32_t v = 0;
    for (size_t k = 0; k < count; ++k) {
      if (pos_ >= p_.size() || !std::isxdigit(static_cast<int>(p_[pos_] < 128 ? p_[pos_] : 0)))
        throw Invalid{"Illegal hexadecimal escape sequence"};
      const char32_t d = p_[pos_++];
      v = v * 16 + (d <= '9' ? d - '0' : (d | 0x20) - 'a' + 10);
    }
    return v;
  }

  // A character escape's code point, or nullopt when the escape is not a single character.
  std::optional<char32_t> CharEscape(char32_t d) {
    switch (d) {
      case 't':
        return U'\t';
      case 'n':
        return U'\n';
      case 'r':
        return U'\r';
      case 'f':
        return U'\f';
      case 'a':
        return 7;
      case 'e':
        return 27;
      case 'c':
        if (pos_ >= p_.size()) throw Invalid{"Illegal control escape sequence"};
        return p_[pos_++] ^ 64;
      case '0': {
        if (pos_ >= p_.size() || p_[pos_] < '0' || p_[pos_] > '7')
          throw Invalid{"Illegal octal escape sequence"};
        uint32_t v = p_[pos_++] - '0';
        const int more = v <= 3 ? 2 : 1;
        for (int k = 0; k < more && pos_ < p_.size() && p_[pos_] >= '0' && p_[pos_] <= '7'; ++k)
          v = v * 8 + (p_[pos_++] - '0');
        return v;
      }
      case 'x': {
        uint32_t v;
        if (pos_ < p_.size() && p_[pos_] == '{') {
          ++pos_;
          const size_t b = pos_;
          v = 0;
          while (pos_ < p_.size() && p_[pos_] != '}') {
            v = v * 16 + HexDigits(1);
            if (v > 0x10FFFF) throw Invalid{"Hexadecimal codepoint is too big"};
          }
          if (pos_ >= p_.size() || pos_ == b) throw Invalid{"Unclosed hexadecimal escape sequence"};
          ++pos_;
        } else {
          v = HexDigits(2);
        }
        if (v >= 0xD800 && v <= 0xDFFF) throw Unsupported{"a surrogate code unit escape"};
        return v;
      }
      case 'u': {
        const uint32_t v = HexDigits(4);
        if (v >= 0xD800 && v <= 0xDFFF) throw Unsupported{"a surrogate code unit escape"};
        return v;
      }
      default:
        break;
    }
    if (d < 0x80 && (IsAsciiLetter(d) || (d >= '0' && d <= '9'))) return std::nullopt;
    return d;  // \. \\ \é ...: the character itself
  }

  std::string PropertyName() {
    if (pos_ >= p_.size()) throw Invalid{"Illegal character property"};
    std::string name;
    if (p_[pos_] == '{') {
      ++pos_;
      while (pos_ < p_.size() && p_[pos_] != '}') {
        if (p_[pos_] >= 0x80) throw Unsupported{"a non-ASCII property name"};
        name += static_cast<char>(p_[pos_++]);
      }
      if (pos_ >= p_.size()) throw Invalid{"Unclosed character family"};
      ++pos_;
    } else {
      if (p_[pos_] >= 0x80) throw Unsupported{"a non-ASCII property name"};
      name = static_cast<char>(p_[pos_++]);
    }
    return name;
  }

  Property ResolveProperty(const std::string& name) {
    auto prop = LookupProperty(name);
    if (!prop) throw Unsupported{"the character property \\p{" + name + "}"};
    if (prop->case_sensitive && F().case_insensitive) {
      std::string bare = name;
      for (std::string_view prefix : {"Is", "gc=", "general_category="}) {
        if (bare.rfind(prefix, 0) == 0 && bare.size() - prefix.size() == 2)
          bare = bare.substr(prefix.size());
      }
      return CaseInsensitive(bare);
    }
    return *prop;
  }

  void Escape() {
    if (pos_ >= p_.size()) throw Invalid{"Unexpected internal error"};
    const char32_t d = p_[pos_++];
    anchor_ = false;
    switch (d) {
      case 'd':
      case 'D':
      case 's':
      case 'S':
      case 'w':
      case 'W':
      case 'h':
      case 'H':
      case 'v':
      case 'V':
        out_ += '\\';
        out_ += static_cast<char>(d);
        atom_ = true;
        return;
      case 'R':  // Java 9+: not atomic, so "\R\n" matches "\r\n"
        out_ += R"((?:\r\n|[\n\x0B\f\r\x{85}\x{2028}\x{2029}]))";
        atom_ = true;
        return;
      case 'A':
        out_ += R"((?:\A))";
        Anchor();
        return;
      case 'z':
        out_ += R"((?:\z))";
        Anchor();
        return;
      case 'Z':
        Dollar(false);
        return;
      case 'b':
      case 'B': {
        if (pos_ < p_.size() && p_[pos_] == '{') throw Unsupported{"\\b{g}"};
        const std::string w = kWord;
        if (d == 'b') {
          out_ += "(?:(?<=" + w + ")(?!" + w + ")|(?<!" + w + ")(?=" + w + "))";
        } else {
          out_ += "(?:(?<=" + w + ")(?=" + w + ")|(?<!" + w + ")(?!" + w + "))";
        }
        word_boundary_ = true;
        position_sensitive_ = true;
        Anchor();
        return;
      }
      case 'G':
        throw Unsupported{"\\G"};
      case 'X':
        throw Unsupported{"\\X"};
      case 'N':
        throw Unsupported{"\\N{...}"};
      case 'E':
        throw Unsupported{"a \\E without \\Q"};
      case 'Q': {
        while (pos_ < p_.size()) {
          if (p_[pos_] == '\\' && pos_ + 1 < p_.size() && p_[pos_ + 1] == 'E') {
            pos_ += 2;
            return;
          }
          Literal(p_[pos_++]);
        }
        return;
      }
      case 'k': {
        if (pos_ >= p_.size() || p_[pos_] != '<') throw Invalid{"\\k is not followed by '<'"};
        ++pos_;
        std::string name;
        while (pos_ < p_.size() && p_[pos_] != '>') name += static_cast<char>(p_[pos_++]);
        if (pos_ >= p_.size()) throw Invalid{"named capturing group is missing trailing '>'"};
        ++pos_;
        const bool known = std::any_of(names_.begin(), names_.end(),
                                       [&](const auto& n) { return n.first == name; });
        if (!known) throw Invalid{"named capturing group <" + name + "> does not exist"};
        if (F().case_insensitive)
          throw Unsupported{"a back reference with case-insensitive matching"};
        out_ += "(?:\\k<" + name + ">)";
        atom_ = true;
        return;
      }
      case 'p':
      case 'P': {
        if (d == 'P') position_sensitive_ = true;
        const Property prop = ResolveProperty(PropertyName());
        out_ += (d == 'P' ? "[^" : "[") + prop.body + "]";
        atom_ = true;
        return;
      }
      default:
        break;
    }
    if (d >= '1' && d <= '9') {
      size_t ref = d - '0';
      while (pos_ < p_.size() && p_[pos_] >= '0' && p_[pos_] <= '9') {
        const size_t next = ref * 10 + (p_[pos_] - '0');
        if (next > groups_) break;
        ref = next;
        ++pos_;
      }
      if (ref > groups_) throw Unsupported{"a back reference to a group not yet opened"};
      if (F().case_insensitive)
        throw Unsupported{"a back reference with case-insensitive matching"};
      out_ += "(?:\\g{" + std::to_string(ref) + "})";
      atom_ = true;
      return;
    }
    const auto c = CharEscape(d);
    if (!c) throw Invalid{"Illegal/unsupported escape sequence"};
    Literal(*c);
  }

  void Group() {
    anchor_ = false;
    Mode mode = F();
    const size_t open_pos = out_.size();
    const size_t groups_before = groups_;
    bool capturing = false;
    // Java reads the character after '(' past comments-mode white space: "( ?:" is "(?:".
    while (pos_ < p_.size() && SkipComments()) {
    }
    if (pos_ < p_.size() && p_[pos_] == '?') {
      ++pos_;
      if (pos_ >= p_.size()) throw Invalid{"Unknown group type"};
      const char32_t k = p_[pos_];
      if (k == '=' || k == '!') position_sensitive_ = true;
      if (k == ':' || k == '=' || k == '!' || k == '>') {
        ++pos_;
        out_ += "(?";
        out_ += static_cast<char>(k);
      } else if (k == '<') {
        ++pos_;
        if (pos_ < p_.size() && (p_[pos_] == '=' || p_[pos_] == '!')) {
          position_sensitive_ = true;
          out_ += "(?<";
          out_ += static_cast<char>(p_[pos_++]);
        } else {
          std::string name;
          while (pos_ < p_.size() && p_[pos_] < 0x80 &&
                 (IsAsciiLetter(p_[pos_]) || (!name.empty() && std::isdigit(int(p_[pos_]))))) {
            name += static_cast<char>(p_[pos_++]);
          }
          if (name.empty() || pos_ >= p_.size() || p_[pos_] != '>')
            throw Invalid{"named capturing group is missing trailing '>'"};
          ++pos_;
          for (const auto& n : names_) {
            if (n.first == name)
              throw Invalid{"Named capturing group <" + name + "> is already defined"};
          }
          ++groups_;
          capturing = true;
          names_.emplace_back(name, static_cast<int>(groups_));
          out_ += "(?<" + name + ">";
        }
      } else {
        // Inline flags: (?imsx-imsx) for the rest of the group, or (?imsx-imsx:...).
        bool on = true;
        while (pos_ < p_.size() && p_[pos_] != ')' && p_[pos_] != ':') {
          const char32_t f = p_[pos_++];
          switch (f) {
            case '-':
              on = false;
              break;
            case 'i':
              mode.case_insensitive = on;
              break;
            case 'm':
              mode.multiline = on;
              break;
            case 's':
              mode.dotall = on;
              break;
            case 'x':
              mode.comments = on;
              break;
            case 'd':
            case 'u':
            case 'U':
              throw Unsupported{std::string("the inline flag (?") + static_cast<char>(f) + ")"};
            default:
              throw Invalid{"Unknown inline modifier"};
          }
        }
        if (pos_ >= p_.size()) throw Invalid{"Unknown inline modifier"};
        if (p_[pos_++] == ')') {
          F() = mode;
          atom_ = false;
          return;
        }
        out_ += "(?:";
      }
    } else {
      ++groups_;
      capturing = true;
      out_ += '(';
    }
    open_groups_.push_back({open_pos, groups_before, capturing});
    flags_.push_back(mode);
    atom_ = false;
  }

  // Whether a translated group can match "" (PCRE2's minimum length; unknown counts as yes).
  static bool CanMatchEmpty(const std::string& group) {
    int error = 0;
    PCRE2_SIZE offset = 0;
    pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(group.data()), group.size(),
                                     PCRE2_UTF, &error, &offset, nullptr);
    if (!code) return true;
    uint32_t min_length = 0;
    pcre2_pattern_info(code, PCRE2_INFO_MINLENGTH, &min_length);
    pcre2_code_free(code);
    return min_length == 0;
  }

  // [...] to a PCRE2 class with every member spelled \x{..} (no PCRE2 class syntax leaks in).
  void Class() {
    std::string body;
    bool negated = false;
    if (pos_ < p_.size() && p_[pos_] == '^') {
      negated = true;
      ++pos_;
    }
    char32_t previous = 0;  // the last single character, for a range
    bool has_previous = false;
    bool first = true;
    bool after_range = false;  // Java reads a '-' after a range as a literal: [a-c-e]
    auto add_char = [&](char32_t c) {
      body += HexDigitValue(c);
      if (F().case_insensitive && IsAsciiLetter(c)) body += HexDigitValue(ToggleCase(c));
    };
    while (true) {
      if (pos_ >= p_.size()) throw Invalid{"Unclosed character class"};
      if (F().comments && (IsCommentsModeSpace(p_[pos_]) || p_[pos_] == '#')) {
        SkipComments();
        continue;
      }
      const char32_t c = p_[pos_++];
      if (c == ']' && !first) break;  // first, it is a literal ']'
      const bool was_range = after_range;
      after_range = false;
      if (c == '[') throw Unsupported{"a nested character class (union)"};
      if (c == '&' && pos_ < p_.size() && p_[pos_] == '&')
        throw Unsupported{"character class intersection (&&)"};
      std::optional<char32_t> single;
      if (c == '\\') {
        if (pos_ >= p_.size()) throw Invalid{"Unclosed character class"};
        const char32_t d = p_[pos_++];
        if (d == 'd' || d == 'D' || d == 's' || d == 'S' || d == 'w' || d == 'W' || d == 'h' ||
            d == 'H' || d == 'v' || d == 'V') {
          body += '\\';
          body += static_cast<char>(d);
          has_previous = false;
          first = false;
          continue;
        }
        if (d == 'p' || d == 'P') {
          const Property prop = ResolveProperty(PropertyName());
          if (d == 'P') {
            if (!prop.single) throw Unsupported{"a negated POSIX property inside a class"};
            body += "\\P" + prop.body.substr(2);
          } else {
            body += prop.body;
          }
          has_previous = false;
          first = false;
          continue;
        }
        if (d == 'Q') {
          while (pos_ < p_.size() &&
                 !(p_[pos_] == '\\' && pos_ + 1 < p_.size() && p_[pos_ + 1] == 'E')) {
            add_char(p_[pos_++]);
          }
          if (pos_ < p_.size()) pos_ += 2;
          has_previous = false;
          first = false;
          continue;
        }
        const auto e = CharEscape(d);
        if (!e) throw Unsupported{"this escape inside a character class"};
        single = *e;
      } else if (c == '-' && !first && has_previous && pos_ < p_.size() && p_[pos_] != ']') {
        // a range previous-next
        char32_t hi = p_[pos_++];
        if (hi == '[') throw Unsupported{"a nested character class (union)"};
        if (hi == '\\') {
          if (pos_ >= p_.size()) throw Invalid{"Unclosed character class"};
          const auto e = CharEscape(p_[pos_++]);
          if (!e) throw Unsupported{"a class escape as a range end"};
          hi = *e;
        }
        const char32_t lo = previous;
        if (hi < lo) throw Invalid{"Illegal character range"};
        body += "-" + HexDigitValue(hi);
        if (F().case_insensitive) {
          for (char32_t l = 'A'; l <= 'z'; ++l) {
            if (IsAsciiLetter(l) && ToggleCase(l) >= lo && ToggleCase(l) <= hi)
              body += HexDigitValue(l);
          }
        }
        has_previous = false;
        first = false;
        after_range = true;
        continue;
      } else if (c == '-' && !first && !has_previous && !was_range && pos_ < p_.size() &&
                 p_[pos_] != ']') {
        throw Unsupported{"a '-' after a class escape or range"};
      } else {
        single = c;
      }
      // A single character, maybe the start of a range: its case twin is added after the range
      // is known, so "a-c" is not split by it.
      if (pos_ < p_.size() && p_[pos_] == '-' && pos_ + 1 < p_.size() && p_[pos_ + 1] != ']') {
        body += HexDigitValue(*single);
        previous = *single;
        has_previous = true;
      } else {
        add_char(*single);
        has_previous = false;
      }
      first = false;
    }
    if (body.empty()) throw Unsupported{"an empty character class"};
    if ((negated && body.find("\\p") != std::string::npos) ||
        body.find("\\P") != std::string::npos) {
      position_sensitive_ = true;
    }
    out_ += (negated ? "[^" : "[") + body + "]";
  }

  std::u32string p_;
  size_t pos_ = 0;
  std::string out_;
  std::vector<Mode> flags_;
  size_t groups_ = 0;
  std::vector<std::pair<std::string, int>> names_;
  struct OpenGroup {
    size_t out_pos = 0;        // where its translation starts in out_
    size_t groups_before = 0;  // capturing groups opened before it
    bool capturing = false;
  };
  std::vector<OpenGroup> open_groups_;
  OpenGroup closed_group_;  // the last group closed, and where its translation ends
  size_t closed_group_end_ = static_cast<size_t>(-1);
  bool closed_group_captures_ = false;
  bool atom_ = false;    // the last thing emitted can take a quantifier
  bool anchor_ = false;  // the last thing emitted was an anchor
  bool word_boundary_ = false;
  // Uses a construct that may hold where Java starts a match inside a surrogate pair
  // (lookaround, \b, \B, \P{..}, a property in a negated class).
  bool position_sensitive_ = false;
};

}  // namespace

RegexFlags RegexFlags::Parse(std::string_view flags) {
  RegexFlags f;
  for (char c : flags) {
    switch (c) {
      case 'r':
        f.regex = true;
        break;
      case 'i':
        f.case_insensitive = true;
        break;
      case 'm':
        f.multiline = true;
        break;
      case 's':
        f.dotall = true;
        break;
      case 'c':
        f.comments = true;
        break;
      case 'f':
        f.first_only = true;
        break;
      default:
        break;  // FreeMarker only logs a warning
    }
  }
  return f;
}

std::string_view RegexFlags::RegexOnlyFlag() const {
  if (multiline) return "m";
  if (dotall) return "s";
  if (comments) return "c";
  return "";
}

namespace {
// PCRE2 10.42's JIT with its start-of-match optimisations misses matches that need
// backtracking into an alternation followed by a repeat ("(?:ab|a)\\d*b" finds nothing in
// "ab"; the interpreter and PCRE2_NO_START_OPTIMIZE find it): the optimisations stay off.
pcre2_code* CompileCode(const std::string& pattern, uint32_t options, int* error,
                        PCRE2_SIZE* offset) {
  pcre2_code* code =
      pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                    PCRE2_UTF | PCRE2_NEVER_BACKSLASH_C | PCRE2_NO_START_OPTIMIZE | options, error,
                    offset, nullptr);
  if (code) pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);  // else the interpreter runs it
  return code;
}
}  // namespace

// The JIT runs no pattern with match-time PCRE2_ANCHORED/ENDANCHORED (the interpreter would):
// lookingAt() and matches() get their own anchored compilations, made on first use.
struct JavaRegex::Code {
  std::string translated;
  pcre2_code* code[3] = {nullptr, nullptr, nullptr};  // by Anchor
  std::once_flag once[2];
  ~Code() {
    for (pcre2_code* c : code) pcre2_code_free(c);
  }
  pcre2_code* Get(Anchor anchor) {
    const int i = static_cast<int>(anchor);
    if (i == 0) return code[0];
    std::call_once(once[i - 1], [&] {
      int error = 0;
      PCRE2_SIZE offset = 0;
      code[i] = CompileCode(i == 1 ? translated : "(?:" + translated + ")\\z", PCRE2_ANCHORED,
                            &error, &offset);
    });
    return code[i];
  }
};

JavaRegex::~JavaRegex() = default;

std::shared_ptr<const JavaRegex> JavaRegex::Compile(std::string_view pattern,
                                                    const RegexFlags& flags) {
  Translator translator(DecodeUtf8(pattern), flags);
  std::string translated;
  try {
    translated = translator.Run();
  } catch (const Invalid& e) {
    throw RegexError{false, e.message};
  } catch (const Unsupported& e) {
    throw RegexError{true, e.message};
  }
  std::shared_ptr<JavaRegex> regex(new JavaRegex());
  regex->translated_ = translated;
  regex->group_count_ = translator.group_count();
  regex->names_ = translator.names();
  regex->word_boundary_ = translator.word_boundary();
  int error = 0;
  PCRE2_SIZE offset = 0;
  regex->code_ = std::make_unique<Code>();
  regex->code_->translated = translated;
  regex->code_->code[0] = CompileCode(translated, 0, &error, &offset);
  if (!regex->code_->code[0]) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(error, message, sizeof message);
    // Valid Java the translation cannot express (e.g. a variable-length lookbehind).
    throw RegexError{true, std::string("a construct PCRE2 cannot compile (") +
                               reinterpret_cast<const char*>(message) + ")"};
  }
  // The minimum match length comes from the start-of-match study, so from a compilation with
  // the optimisations on (not used to match).
  uint32_t min_length = 0;
  if (pcre2_code* studied =
          pcre2_compile(reinterpret_cast<PCRE2_SPTR>(translated.data()), translated.size(),
                        PCRE2_UTF | PCRE2_NEVER_BACKSLASH_C, &error, &offset, nullptr)) {
    pcre2_pattern_info(studied, PCRE2_INFO_MINLENGTH, &min_length);
    pcre2_code_free(studied);
  }
  regex->surrogate_sensitive_ = translator.position_sensitive() || min_length == 0;
  return regex;
}

std::shared_ptr<const JavaRegex> JavaRegex::Cached(std::string_view pattern,
                                                   const RegexFlags& flags) {
  // Least recently used first out; 256 patterns bound the memory a render loop can pin.
  using Key = std::pair<std::string, std::tuple<bool, bool, bool, bool>>;
  static std::mutex mutex;
  static std::list<std::pair<Key, std::shared_ptr<const JavaRegex>>> order;
  static std::map<Key, decltype(order)::iterator> index;
  constexpr size_t kCapacity = 256;
  const std::tuple<bool, bool, bool, bool> bits{flags.case_insensitive, flags.multiline,
                                                flags.dotall, flags.comments};
  // A few recent patterns per thread: a render loop reuses one regex without the lock.
  struct Recent {
    std::string pattern;
    std::tuple<bool, bool, bool, bool> bits;
    std::shared_ptr<const JavaRegex> regex;
  };
  thread_local std::array<Recent, 4> recent;
  thread_local size_t next_slot = 0;
  for (const Recent& r : recent) {
    if (r.regex && r.bits == bits && r.pattern == pattern) return r.regex;
  }
  Key key{std::string(pattern), bits};
  auto remember = [&](std::shared_ptr<const JavaRegex> regex) {
    recent[next_slot] = Recent{key.first, bits, regex};
    next_slot = (next_slot + 1) % recent.size();
    return regex;
  };
  {
    std::lock_guard lock(mutex);
    if (auto it = index.find(key); it != index.end()) {
      order.splice(order.begin(), order, it->second);
      return remember(it->second->second);
    }
  }
  auto compiled = Compile(pattern, flags);  // throws: errors are not cached
  std::lock_guard lock(mutex);
  if (index.find(key) == index.end()) {
    order.emplace_front(key, compiled);
    index[key] = order.begin();
    if (order.size() > kCapacity) {
      index.erase(order.back().first);
      order.pop_back();
    }
  }
  return remember(compiled);
}

int JavaRegex::GroupNumber(std::string_view name) const {
  for (const auto& [n, number] : names_) {
    if (n == name) return number;
  }
  return -1;
}

void JavaRegex::CheckSubject(std::string_view subject, bool find) const {
  if (find && surrogate_sensitive_) {
    for (char c : subject) {
      if (static_cast<unsigned char>(c) >= 0xF0) {
        throw RegexError{true,
                         "a regex that may match inside a character beyond U+FFFF (Java "
                         "searches UTF-16 units, starting within surrogate pairs)"};
      }
    }
  }
  if (word_boundary_) {
    // Java's \b treats a non-spacing mark after a word character as part of the word.
    static const std::shared_ptr<const JavaRegex> kMark = [] {
      std::shared_ptr<JavaRegex> r(new JavaRegex());
      int error;
      PCRE2_SIZE offset;
      r->code_ = std::make_unique<Code>();
      r->code_->code[0] = CompileCode("\\p{Mn}", 0, &error, &offset);
      return r;
    }();
    pcre2_match_data* md = pcre2_match_data_create(1, nullptr);
    const int rc = pcre2_match(kMark->code_->code[0], reinterpret_cast<PCRE2_SPTR>(subject.data()),
                               subject.size(), 0, 0, md, nullptr);
    pcre2_match_data_free(md);
    if (rc >= 0) {
      throw RegexError{true, "\\b or \\B on a string with non-spacing marks"};
    }
  }
}

bool JavaRegex::Match(std::string_view subject, size_t start, Anchor anchor, uint32_t match_limit,
                      RegexMatch* match) const {
  struct Context {
    pcre2_match_context* ctx = pcre2_match_context_create(nullptr);
    ~Context() { pcre2_match_context_free(ctx); }
  };
  thread_local Context context;
  pcre2_set_match_limit(context.ctx, match_limit);
  pcre2_set_depth_limit(context.ctx, match_limit);
  pcre2_set_heap_limit(context.ctx, 64 * 1024);  // KiB: a backtracking interpreter's frames
  // One match block per thread, grown to the largest group count seen.
  struct MatchData {
    pcre2_match_data* md = nullptr;
    ~MatchData() { pcre2_match_data_free(md); }
  };
  thread_local MatchData data;
  if (!data.md || pcre2_get_ovector_count(data.md) < group_count_ + 1) {
    pcre2_match_data_free(data.md);
    data.md = pcre2_match_data_create(static_cast<uint32_t>(std::max<size_t>(group_count_ + 1, 16)),
                                      nullptr);
  }
  pcre2_match_data* md = data.md;
  pcre2_code* code = code_->Get(anchor);
  // Every search of a subject starts at 0 (validated there); later attempts skip the UTF-8 check.
  uint32_t options = start > 0 ? PCRE2_NO_UTF_CHECK : 0;
  if (!code) {  // no anchored compilation: anchor at match time
    code = code_->code[0];
    if (anchor != Anchor::kFind) options |= PCRE2_ANCHORED;
    if (anchor == Anchor::kWholeInput) options |= PCRE2_ENDANCHORED;
  }
  int rc = pcre2_match(code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), start,
                       options, md, context.ctx);
  if (rc == PCRE2_ERROR_JIT_STACKLIMIT) {  // the JIT's small stack: the interpreter uses the heap
    rc = pcre2_match(code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), start,
                     options | PCRE2_NO_JIT, md, context.ctx);
  }
  if (rc == PCRE2_ERROR_NOMATCH) return false;
  if (rc < 0) {
    if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
        rc == PCRE2_ERROR_JIT_STACKLIMIT || rc == PCRE2_ERROR_HEAPLIMIT) {
      throw RegexLimitError{match_limit};
    }
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(rc, message, sizeof message);
    throw RegexError{false, reinterpret_cast<const char*>(message)};
  }
  const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
  match->groups.assign(group_count_ + 1, {RegexMatch::npos, RegexMatch::npos});
  for (size_t g = 0; g <= group_count_; ++g) {
    if (ov[2 * g] != PCRE2_UNSET) match->groups[g] = {ov[2 * g], ov[2 * g + 1]};
  }
  return true;
}

}  // namespace dp::tmpl
