#include "template/java/utf16_text.hpp"

#include <algorithm>

#include "datapipelines/util/utf8.hpp"

namespace dp::tmpl {
namespace {

size_t SequenceLength(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

}  // namespace

int64_t Utf16Length(std::string_view s) {
  int64_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) == 0x80) continue;
    n += c >= 0xF0 ? 2 : 1;
  }
  return n;
}

std::string Utf16Substring(std::string_view s, int64_t from, int64_t to) {
  std::string out;
  int64_t unit = 0;
  for (size_t i = 0; i < s.size() && unit < to;) {
    const size_t len = std::min(SequenceLength(static_cast<unsigned char>(s[i])), s.size() - i);
    if (len == 4) {  // a surrogate pair: units `unit` and `unit + 1`
      const bool high = unit >= from;
      const bool low = unit + 1 < to;
      if (high && low) {
        out.append(s.substr(i, len));
      } else if (high || (low && unit + 1 >= from)) {
        out += '?';
      }
      unit += 2;
    } else {
      if (unit >= from) out.append(s.substr(i, len));
      ++unit;
    }
    i += len;
  }
  return out;
}

bool IsJavaWhitespace(uint32_t cp) {
  return cp == ' ' || (cp >= '\t' && cp <= '\r') || (cp >= 0x1C && cp <= 0x1F) || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x2006) || (cp >= 0x2008 && cp <= 0x200A) || cp == 0x2028 ||
         cp == 0x2029 || cp == 0x205F || cp == 0x3000;
}

bool HasNonJavaWhitespace(std::string_view s) {
  for (char16_t unit : ToUtf16(s)) {
    if (!IsJavaWhitespace(unit)) return true;
  }
  return false;
}

std::u16string ToUtf16(std::string_view s) {
  std::u16string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const unsigned char lead = static_cast<unsigned char>(s[i]);
    const size_t len = std::min(SequenceLength(lead), s.size() - i);
    uint32_t cp = len == 1 ? lead : lead & (0x7Fu >> len);
    for (size_t k = 1; k < len; ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3Fu);
    if (cp > 0xFFFF) {
      cp -= 0x10000;
      out += static_cast<char16_t>(0xD800 + (cp >> 10));
      out += static_cast<char16_t>(0xDC00 + (cp & 0x3FF));
    } else {
      out += static_cast<char16_t>(cp);
    }
    i += len;
  }
  return out;
}

std::string FromUtf16(std::u16string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    uint32_t cp = s[i];
    if (cp >= 0xD800 && cp <= 0xDFFF) {
      const bool pair = cp < 0xDC00 && i + 1 < s.size() && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF;
      if (!pair) {
        out += '?';
        continue;
      }
      cp = 0x10000 + ((cp - 0xD800) << 10) + (s[++i] - 0xDC00);
    }
    AppendUtf8(&out, cp);
  }
  return out;
}

}  // namespace dp::tmpl
