#include "template/java/text_case.hpp"

#include "datapipelines/util/utf8.hpp"
#include "template/java/utf16_text.hpp"

#include <cstdint>
#include <vector>

namespace dp::tmpl {
namespace {

std::vector<uint32_t> Decode(std::string_view s) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    if (i + len > s.size()) len = 1;
    uint32_t cp = len == 1 ? c : c & (0x7F >> len);
    for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out.push_back(cp);
    i += len;
  }
  return out;
}

bool InPairRange(uint32_t cp) {
  // U+0130/U+0131 (dotted I, dotless i) are not a case pair.
  return (cp >= 0x100 && cp <= 0x12F) || (cp >= 0x132 && cp <= 0x137) ||
         (cp >= 0x14A && cp <= 0x177);
}
bool InOddPairRange(uint32_t cp) {
  return (cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E);
}

uint32_t ToUpper(uint32_t cp) {
  if (cp >= 'a' && cp <= 'z') return cp - 32;
  if (cp < 0x80) return cp;
  if (cp >= 0xE0 && cp <= 0xFE && cp != 0xF7) return cp - 32;
  if (cp == 0xFF) return 0x178;
  if (cp == 0xB5) return 0x39C;
  if (InPairRange(cp)) return cp & ~1u;
  if (InOddPairRange(cp)) return (cp % 2 == 0) ? cp - 1 : cp;
  if (cp == 0x131) return 'I';
  if (cp == 0x17F) return 'S';
  if (cp >= 0x3B1 && cp <= 0x3C9 && cp != 0x3C2) return cp - 32;
  if (cp == 0x3C2) return 0x3A3;
  if (cp >= 0x430 && cp <= 0x44F) return cp - 32;
  if (cp >= 0x450 && cp <= 0x45F) return cp - 80;
  return cp;
}

uint32_t ToLower(uint32_t cp) {
  if (cp >= 'A' && cp <= 'Z') return cp + 32;
  if (cp < 0x80) return cp;
  if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) return cp + 32;
  if (cp == 0x178) return 0xFF;
  if (cp == 0x130) return 'i';  // Character.toLowerCase; String.toLowerCase adds U+0307
  if (InPairRange(cp)) return cp | 1u;
  if (InOddPairRange(cp)) return (cp % 2 == 1) ? cp + 1 : cp;
  if (cp >= 0x391 && cp <= 0x3A9 && cp != 0x3A2) return cp + 32;
  if (cp >= 0x410 && cp <= 0x42F) return cp + 32;
  if (cp >= 0x400 && cp <= 0x40F) return cp + 80;
  return cp;
}

void AppendUpper(uint32_t cp, std::string* out) {
  if (cp == 0xDF) {  // ß upper-cases to "SS" in Java
    *out += "SS";
    return;
  }
  AppendUtf8(out, ToUpper(cp));
}

// ?cap_first skips Character.isWhitespace; ?capitalize splits words at " \t\r\n" only
// (StringUtil.capitalize's StringTokenizer).
bool IsWordSeparator(uint32_t cp) { return cp == ' ' || cp == '\t' || cp == '\r' || cp == '\n'; }

bool IsAscii(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// ASCII-only text (identifiers, SQL keywords): no decoding, no per-character appends.
std::string AsciiCase(std::string_view text, bool upper) {
  std::string out(text);
  for (char& c : out) {
    if (upper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
    if (!upper && c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return out;
}

}  // namespace

std::string TextCase::Upper(std::string_view text) {
  if (IsAscii(text)) return AsciiCase(text, true);
  std::string out;
  for (uint32_t cp : Decode(text)) AppendUpper(cp, &out);
  return out;
}

std::string TextCase::Lower(std::string_view text) {
  if (IsAscii(text)) return AsciiCase(text, false);
  std::string out;
  for (uint32_t cp : Decode(text)) {
    if (cp == 0x130) {  // String.toLowerCase: "i" + COMBINING DOT ABOVE
      out += "i\xCC\x87";
      continue;
    }
    AppendUtf8(&out, ToLower(cp));
  }
  return out;
}

std::string TextCase::ChangeFirst(std::string_view text, bool upper) {
  if (IsAscii(text)) {  // one byte changes, the rest is copied as it is
    std::string out(text);
    for (char& c : out) {
      if (IsJavaWhitespace(static_cast<unsigned char>(c))) continue;
      c = static_cast<char>(upper ? ToUpper(static_cast<unsigned char>(c))
                                  : ToLower(static_cast<unsigned char>(c)));
      break;
    }
    return out;
  }
  std::string out;
  bool done = false;
  for (uint32_t cp : Decode(text)) {
    if (!done && !IsJavaWhitespace(cp)) {
      // Title case: ß stays a single character here.
      AppendUtf8(&out, upper ? (cp == 0xDF ? cp : ToUpper(cp)) : ToLower(cp));
      done = true;
    } else {
      AppendUtf8(&out, cp);
    }
  }
  return out;
}

std::string TextCase::Capitalize(std::string_view text) {
  std::string out;
  bool word_start = true;
  for (uint32_t cp : Decode(text)) {
    if (IsWordSeparator(cp)) {
      word_start = true;
      AppendUtf8(&out, cp);
    } else if (word_start) {
      AppendUtf8(&out, cp == 0xDF ? cp : ToUpper(cp));
      word_start = false;
    } else {
      AppendUtf8(&out, ToLower(cp));
    }
  }
  return out;
}

}  // namespace dp::tmpl
