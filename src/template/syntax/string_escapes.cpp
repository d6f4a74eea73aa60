#include "template/syntax/string_escapes.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <vector>

#include "datapipelines/util/utf8.hpp"

namespace dp::tmpl {
namespace {

// Decodes one UTF-8 sequence at `i` (advancing it); malformed bytes decode as themselves.
uint32_t NextCodePoint(std::string_view s, size_t* i) {
  const unsigned char lead = static_cast<unsigned char>(s[*i]);
  size_t len = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  if (*i + len > s.size()) len = 1;
  uint32_t cp = len == 1 ? lead : lead & (0x7Fu >> len);
  for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[*i + k]) & 0x3Fu);
  *i += len;
  return cp;
}

char Hex(uint32_t d, bool upper) {
  return static_cast<char>(d < 10 ? '0' + d : (upper ? 'A' : 'a') + d - 10);
}

void AppendHex(std::string* out, uint32_t value, int digits, bool upper) {
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4)
    *out += Hex((value >> shift) & 0xF, upper);
}

const char* ControlEscape(uint32_t c) {
  switch (c) {
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\f':
      return "\\f";
    case '\b':
      return "\\b";
    case '\t':
      return "\\t";
    default:
      return nullptr;
  }
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool SafeInUrl(char c, bool keep_slash) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
         c == '!' || c == '~' || (c >= '\'' && c <= '*') || (keep_slash && c == '/');
}

}  // namespace

std::string JavaStringEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      if (const char* esc = ControlEscape(c)) {
        out += esc;
      } else {
        out += "\\u00";
        AppendHex(&out, c, 2, false);
      }
    } else {
      out += ch;
    }
  }
  return out;
}

std::string JsStringEscape(std::string_view s, bool json) {
  // Code points, so the neighbours of '<', '/' and '>' can be inspected.
  std::vector<uint32_t> cps;
  for (size_t i = 0; i < s.size();) cps.push_back(NextCodePoint(s, &i));
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < cps.size(); ++i) {
    const uint32_t c = cps[i];
    enum { kNone, kHex, kBackslash } escape = kNone;
    const char* named = nullptr;
    if (c <= 0x1F) {
      named = ControlEscape(c);
      if (!named) escape = kHex;
    } else if (c == '"' || c == '\\' || (c == '\'' && !json)) {
      escape = kBackslash;
    } else if (c == '/' && (i == 0 || cps[i - 1] == '<')) {
      escape = kBackslash;
    } else if (c == '>') {
      const bool dangerous = i == 0 || ((cps[i - 1] == ']' || cps[i - 1] == '-') &&
                                        (i == 1 || cps[i - 2] == cps[i - 1]));
      if (dangerous) escape = json ? kHex : kBackslash;
    } else if (c == '<') {
      if (i + 1 == cps.size() || cps[i + 1] == '!' || cps[i + 1] == '?') escape = kHex;
    } else if ((c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029) {
      escape = kHex;
    }
    if (named) {
      out += named;
    } else if (escape == kBackslash) {
      out += '\\';
      AppendUtf8(&out, c);
    } else if (escape == kHex) {
      if (!json && c < 0x100) {
        out += "\\x";
        AppendHex(&out, c, 2, true);
      } else {
        out += "\\u";
        AppendHex(&out, c, 4, true);
      }
    } else {
      AppendUtf8(&out, c);
    }
  }
  return out;
}

std::optional<std::string> UrlEscape(std::string_view s, std::string_view charset,
                                     bool keep_slash) {
  const std::string name = Lower(charset);
  const bool utf8 = name == "utf-8" || name == "utf8";
  const bool latin1 = name == "iso-8859-1" || name == "iso8859_1" || name == "latin1" ||
                      name == "iso_8859_1" || name == "8859_1";
  const bool ascii = name == "us-ascii" || name == "ascii";
  if (!utf8 && !latin1 && !ascii) return std::nullopt;
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (SafeInUrl(s[i], keep_slash)) {
      out += s[i++];
      continue;
    }
    const size_t begin = i;
    const uint32_t cp = NextCodePoint(s, &i);
    std::string bytes;
    if (utf8) {
      bytes.assign(s.substr(begin, i - begin));
    } else {
      // An unmappable character (a surrogate pair is one, as two '?') becomes '?'.
      const uint32_t limit = latin1 ? 0xFF : 0x7F;
      bytes.assign(cp > 0xFFFF ? 2 : 1, cp <= limit ? static_cast<char>(cp) : '?');
    }
    for (unsigned char b : bytes) {
      out += '%';
      out += Hex(b >> 4, true);
      out += Hex(b & 0xF, true);
    }
  }
  return out;
}

}  // namespace dp::tmpl
