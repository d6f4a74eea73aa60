#include "template/syntax/whitespace_compressor.hpp"

#include <cstdint>

namespace dp::tmpl {
namespace {

// Java's Character.isWhitespace over UTF-8: the ASCII controls and spaces, plus the Unicode
// space separators (no-break spaces excluded). Returns the sequence's length, 0 if not one.
size_t WhitespaceLength(std::string_view s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1C && c <= 0x1F)) return 1;
  if (c < 0xE1 || c > 0xE3 || i + 2 >= s.size()) return 0;
  const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
  const unsigned char c2 = static_cast<unsigned char>(s[i + 2]);
  const uint32_t cp = ((c & 0x0Fu) << 12) | ((c1 & 0x3Fu) << 6) | (c2 & 0x3Fu);
  const bool space = cp == 0x1680 || (cp >= 0x2000 && cp <= 0x2006) ||
                     (cp >= 0x2008 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 ||
                     cp == 0x205F || cp == 0x3000;
  return space ? 3 : 0;
}

enum class Break { kAtBeginning, kNone, kSawCr, kCr, kCrLf, kLf };

}  // namespace

std::string CompressWhitespace(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  Break state = Break::kAtBeginning;
  bool in_whitespace = true;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (const size_t ws = WhitespaceLength(text, i)) {
      in_whitespace = true;
      // The run keeps its first line break only.
      if (state == Break::kNone) {
        if (c == '\r') state = Break::kSawCr;
        if (c == '\n') state = Break::kLf;
      } else if (state == Break::kSawCr) {
        state = c == '\n' ? Break::kCrLf : Break::kCr;
      }
      i += ws;
      continue;
    }
    if (in_whitespace) {
      in_whitespace = false;
      switch (state) {
        case Break::kSawCr:
        case Break::kCr:
          out += '\r';
          break;
        case Break::kCrLf:
          out += "\r\n";
          break;
        case Break::kLf:
          out += '\n';
          break;
        case Break::kNone:
          out += ' ';
          break;
        case Break::kAtBeginning:
          break;
      }
      state = Break::kNone;
    }
    out += c;
    ++i;
  }
  return out;
}

}  // namespace dp::tmpl
