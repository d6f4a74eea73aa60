#pragma once
// java.util.regex semantics on PCRE2: a Java pattern (as FreeMarker 2.3.31's regex built-ins
// compile it) is translated to a PCRE2 pattern that matches the same strings, or refused when
// the two dialects cannot be made to agree (class intersection, \G, Unicode case folding...).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dp::tmpl {

// FreeMarker's flags string ("r", "i", "m", "s", "c", "f"; other letters are ignored).
struct RegexFlags {
  bool regex = false;             // r
  bool case_insensitive = false;  // i (ASCII only in a regex: Pattern.CASE_INSENSITIVE)
  bool multiline = false;         // m
  bool dotall = false;            // s
  bool comments = false;          // c
  bool first_only = false;        // f
  static RegexFlags Parse(std::string_view flags);
  // The first of m, s, c that is set ("" when none): the flags only a regex may carry.
  std::string_view RegexOnlyFlag() const;
  bool operator==(const RegexFlags&) const = default;
};

// Why a pattern cannot be compiled: Java itself rejects it (a render error, as FreeMarker
// reports it), or it is valid Java the engine refuses (unsupported_construct).
struct RegexError {
  bool unsupported = false;
  std::string message;
};

// Byte offsets into the subject; npos for a group that did not take part in the match.
struct RegexMatch {
  static constexpr size_t npos = static_cast<size_t>(-1);
  std::vector<std::pair<size_t, size_t>> groups;  // [0] is the whole match
  size_t begin() const { return groups[0].first; }
  size_t end() const { return groups[0].second; }
};

// A regex ran out of its backtracking budget (PCRE2's match limit).
struct RegexLimitError {
  uint32_t match_limit = 0;
};

class JavaRegex {
 public:
  enum class Anchor { kFind, kLookingAt, kWholeInput };
  // Throws RegexError.
  static std::shared_ptr<const JavaRegex> Compile(std::string_view pattern,
                                                  const RegexFlags& flags);
  // Compile() through a bounded process-wide cache keyed by pattern and flags (for regexes
  // computed at render time; literal ones are compiled once at parse time).
  static std::shared_ptr<const JavaRegex> Cached(std::string_view pattern, const RegexFlags& flags);
  ~JavaRegex();
  JavaRegex(const JavaRegex&) = delete;
  JavaRegex& operator=(const JavaRegex&) = delete;

  // Throws RegexError (unsupported) when this subject would reveal a difference from Java: a
  // \b next to a non-spacing mark, a match Java could start inside a surrogate pair.
  // `find`: the subject is searched (Matcher.find), not only matched from its start.
  void CheckSubject(std::string_view subject, bool find) const;
  // One match attempt from byte offset `start` (a character boundary; the first attempt on a
  // subject is at 0, where its UTF-8 is checked). Throws RegexLimitError.
  bool Match(std::string_view subject, size_t start, Anchor anchor, uint32_t match_limit,
             RegexMatch* match) const;
  size_t group_count() const { return group_count_; }
  // The group of a (?<name>...) group, or -1.
  int GroupNumber(std::string_view name) const;
  const std::string& translated() const { return translated_; }

 private:
  JavaRegex() = default;
  struct Code;
  std::unique_ptr<Code> code_;
  size_t group_count_ = 0;
  std::vector<std::pair<std::string, int>> names_;
  std::string translated_;
  bool word_boundary_ = false;  // uses \b or \B (Java's differ next to combining marks)
  // May match the empty string or hold inside a surrogate pair, where Java's find() also
  // tries to start.
  bool surrogate_sensitive_ = false;
};

}  // namespace dp::tmpl
