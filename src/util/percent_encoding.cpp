#include "datapipelines/util/percent_encoding.hpp"

namespace dp {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes into `out`; false at the first malformed escape when `strict`.
bool Decode(std::string_view text, bool strict, std::string& out) {
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    int high = text[i] == '%' && i + 2 < text.size() ? HexValue(text[i + 1]) : -1;
    int low = high >= 0 ? HexValue(text[i + 2]) : -1;
    if (low >= 0) {
      out += static_cast<char>(high * 16 + low);
      i += 2;
    } else if (text[i] == '%' && strict) {
      return false;
    } else {
      out += text[i];
    }
  }
  return true;
}

}  // namespace

std::optional<std::string> PercentDecode(std::string_view text) {
  std::string out;
  if (!Decode(text, true, out)) return std::nullopt;
  return out;
}

std::string PercentDecodeLenient(std::string_view text) {
  std::string out;
  Decode(text, false, out);
  return out;
}

std::string PercentEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved) {
      out.push_back(static_cast<char>(c));
    } else {
      out += {'%', kHex[c >> 4], kHex[c & 15]};
    }
  }
  return out;
}

}  // namespace dp
