#include "template/utf16_text.hpp"

#include <algorithm>

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

}  // namespace dp::tmpl
