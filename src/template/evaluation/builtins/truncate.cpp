#include "template/evaluation/builtins/truncate.hpp"

#include <cmath>

#include "template/java/utf16_text.hpp"

namespace dp::tmpl {
namespace {

constexpr std::string_view kDefaultTerminator = "[...]";
constexpr double kWordBoundaryMinLength = 0.75;

bool IsJavaWhitespaceUnit(char16_t c) {  // Character.isWhitespace
  return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1C && c <= 0x1F) || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x2006) || (c >= 0x2008 && c <= 0x200A) || c == 0x2028 ||
         c == 0x2029 || c == 0x205F || c == 0x3000;
}
bool IsDot(char16_t c) { return c == '.' || c == 0x2026; }

int64_t SkipTrailingWs(const std::u16string& s, int64_t last) {
  while (last >= 0 && IsJavaWhitespaceUnit(s[last])) --last;
  return last;
}

bool IsWordEnd(const std::u16string& s, int64_t last) {
  return last + 1 >= static_cast<int64_t>(s.size()) || IsJavaWhitespaceUnit(s[last + 1]);
}

// Word-boundary truncation: the kept prefix's last index, or -1 when no word end qualifies. The
// ASCII instance puts a space before the terminator there, so dots are never removed here.
int64_t WordBoundaryCut(const std::u16string& s, int64_t max_length, int64_t term_length,
                        TruncateMode mode, int64_t cb_last) {
  const int64_t word_term_length = term_length + 1;
  const int64_t min_idx =
      mode == TruncateMode::kAuto
          ? std::max<int64_t>(static_cast<int64_t>(std::ceil(max_length * kWordBoundaryMinLength)) -
                                  word_term_length - 1,
                              0)
          : 0;
  int64_t last = std::min(max_length - word_term_length - 1, cb_last);
  bool following_ws =
      static_cast<int64_t>(s.size()) > last + 1 ? IsJavaWhitespaceUnit(s[last + 1]) : true;
  for (; last >= min_idx; --last) {
    const bool current_ws = IsJavaWhitespaceUnit(s[last]);
    if (!current_ws && following_ws) return last;
    following_ws = current_ws;
  }
  return -1;
}

}  // namespace

std::string Truncate(std::string_view text, int64_t max_length,
                     std::optional<std::string_view> terminator,
                     std::optional<int64_t> terminator_length, TruncateMode mode) {
  const std::u16string s = ToUtf16(text);
  if (static_cast<int64_t>(s.size()) <= max_length) return std::string(text);
  const std::string_view term = terminator.value_or(kDefaultTerminator);
  const int64_t term_length = terminator_length.value_or(Utf16Length(term));
  const bool removes_dots =
      terminator && (term.substr(0, 1) == "." || term.substr(0, 3) == "\xE2\x80\xA6");
  const int64_t cb_initial = max_length - term_length - 1;
  int64_t cb_last = SkipTrailingWs(s, cb_initial);
  if (cb_last < 0) return std::string(term);
  if (mode != TruncateMode::kCharBoundary) {
    const int64_t wb_last = WordBoundaryCut(s, max_length, term_length, mode, cb_last);
    if (wb_last >= 0) return FromUtf16(s.substr(0, wb_last + 1)) + " " + std::string(term);
    if (mode == TruncateMode::kWordBoundary) return std::string(term);
  }
  // Character boundary: a cut right after a word gets the space, so it may move one back.
  if (cb_last == cb_initial && IsWordEnd(s, cb_last)) {
    if (--cb_last < 0) return std::string(term);
  }
  bool skipped_dots;
  do {
    skipped_dots = false;
    cb_last = SkipTrailingWs(s, cb_last);
    if (cb_last < 0) return std::string(term);
    if (IsDot(s[cb_last]) && !IsWordEnd(s, cb_last) && removes_dots) {
      while (cb_last >= 0 && IsDot(s[cb_last])) --cb_last;
      if (cb_last < 0) return std::string(term);
      skipped_dots = true;
    }
  } while (skipped_dots);
  std::string out = FromUtf16(s.substr(0, cb_last + 1));
  if (IsWordEnd(s, cb_last)) out += ' ';
  return out + std::string(term);
}

}  // namespace dp::tmpl
