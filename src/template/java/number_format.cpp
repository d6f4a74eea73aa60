#include "template/java/number_format.hpp"

namespace dp::tmpl {
namespace {

struct Pattern {
  std::string prefix;
  std::string suffix;
  int min_int = 1;
  int min_frac = 0;
  int max_frac = 0;
  int grouping = 0;  // 0: no grouping
  bool percent = false;
};

std::optional<Pattern> ParsePattern(std::string_view text) {
  // Only the positive subpattern matters; the negative one defaults to "-" + positive.
  const size_t semicolon = text.find(';');
  if (semicolon != std::string_view::npos) text = text.substr(0, semicolon);
  // Quoting, exponents and the currency sign are outside the supported subset.
  if (text.find("\xC2\xA4") != std::string_view::npos) return std::nullopt;
  Pattern p;
  size_t i = 0;
  auto is_num = [](char c) { return c == '#' || c == '0' || c == ',' || c == '.'; };
  while (i < text.size() && !is_num(text[i])) {
    if (text[i] == '\'' || text[i] == 'E') return std::nullopt;
    p.prefix += text[i++];
  }
  int zeros = 0;
  int since_group = -1;
  bool in_fraction = false;
  for (; i < text.size() && is_num(text[i]); ++i) {
    const char c = text[i];
    if (c == '.') {
      if (in_fraction) return std::nullopt;
      in_fraction = true;
    } else if (c == ',') {
      if (in_fraction) return std::nullopt;
      since_group = 0;
    } else if (in_fraction) {
      if (c == '0') {
        if (p.max_frac != p.min_frac) return std::nullopt;
        ++p.min_frac;
      }
      ++p.max_frac;
    } else {
      if (c == '0') ++zeros;
      if (since_group >= 0) ++since_group;
    }
  }
  p.min_int = zeros;
  // java.text.DecimalFormat turns "#.##" (no '0' anywhere) into "0.##".
  if (zeros == 0 && p.min_frac == 0 && in_fraction) p.min_int = 1;
  p.grouping = since_group > 0 ? since_group : 0;
  for (; i < text.size(); ++i) {
    if (text[i] == '\'' || is_num(text[i]) || text[i] == 'E') return std::nullopt;
    if (text[i] == '%') p.percent = true;
    p.suffix += text[i];
  }
  if (p.prefix.find('%') != std::string::npos) p.percent = true;
  return p;
}

std::string Group(const std::string& digits, int size) {
  if (size <= 0) return digits;
  std::string out;
  const int n = static_cast<int>(digits.size());
  for (int i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % size == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

std::optional<std::string> NumberFormat::Format(const Decimal& value, std::string_view pattern) {
  if (pattern == "computer" || pattern == "c") return Computer(value);
  if (pattern == "number") pattern = "#,##0.###";
  if (pattern == "percent") pattern = "#,##0%";
  if (pattern == "currency") pattern = "$#,##0.00";  // en_US: "¤#,##0.00" with ¤ = "$"
  auto parsed = ParsePattern(pattern);
  if (!parsed) return std::nullopt;
  Decimal scaled = parsed->percent ? value * Decimal::FromInt(100) : value;
  std::string int_part, frac_part;
  bool negative = false;
  scaled.Digits(parsed->max_frac, parsed->min_frac, RoundingMode::kHalfEven, &int_part, &frac_part,
                &negative);
  if (int_part == "0" && parsed->min_int == 0) int_part.clear();
  while (static_cast<int>(int_part.size()) < parsed->min_int) int_part.insert(0, "0");
  std::string body = Group(int_part, parsed->grouping);
  if (!frac_part.empty()) body += "." + frac_part;
  if (body.empty()) body = "0";
  return (negative ? "-" : "") + parsed->prefix + body + parsed->suffix;
}

}  // namespace dp::tmpl
