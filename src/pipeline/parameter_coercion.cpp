#include "datapipelines/pipeline/parameter_coercion.hpp"

#include <array>
#include <cctype>
#include <cstdint>
#include <functional>
#include <limits>
#include <string_view>

#include "datapipelines/pipeline/pipeline_structure_validator.hpp"

#include "datapipelines/util/ascii.hpp"

namespace dp {
namespace {

using Failure = std::optional<std::string>;

int DigitsValue(std::string_view text) {
  int value = 0;
  for (char c : text) value = value * 10 + (c - '0');
  return value;
}

// A plain decimal "[+-]digits[.digits]" split into its integer and fraction digit strings.
struct DecimalDigits {
  std::string integer;
  std::string fraction;
};

std::optional<DecimalDigits> SplitPlainDecimal(std::string_view text) {
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) text.remove_prefix(1);
  const size_t point = text.find('.');
  DecimalDigits digits;
  digits.integer = std::string(text.substr(0, point));
  if (!AsciiAllDigits(digits.integer)) return std::nullopt;
  if (point != std::string_view::npos) {
    digits.fraction = std::string(text.substr(point + 1));
    if (!AsciiAllDigits(digits.fraction)) return std::nullopt;
  }
  return digits;
}

// A JSON number's shortest round-trip text, exponent expanded into plain digits.
std::optional<DecimalDigits> NumberDigits(const Json& number) {
  std::string text = number.dump();
  const size_t exponent_at = text.find_first_of("eE");
  int exponent = 0;
  if (exponent_at != std::string::npos) {
    exponent = std::stoi(text.substr(exponent_at + 1));
    text.resize(exponent_at);
  }
  auto digits = SplitPlainDecimal(text);
  if (!digits) return std::nullopt;
  std::string all = digits->integer + digits->fraction;
  long point = static_cast<long>(digits->integer.size()) + exponent;
  if (point < 0) {
    all.insert(0, static_cast<size_t>(-point), '0');
    point = 0;
  }
  if (point > static_cast<long>(all.size()))
    all.append(static_cast<size_t>(point) - all.size(), '0');
  return DecimalDigits{all.substr(0, point), all.substr(point)};
}

Failure CheckPrecisionScale(DecimalDigits digits, std::optional<int> precision,
                            std::optional<int> scale) {
  while (!digits.fraction.empty() && digits.fraction.back() == '0') digits.fraction.pop_back();
  const size_t first_significant = digits.integer.find_first_not_of('0');
  const size_t integer_digits =
      first_significant == std::string::npos ? 0 : digits.integer.size() - first_significant;
  if (scale && static_cast<int>(digits.fraction.size()) > *scale) {
    return "has more than " + std::to_string(*scale) + " fractional digits (scale " +
           std::to_string(*scale) + ")";
  }
  if (precision && scale && static_cast<int>(integer_digits) > *precision - *scale) {
    return "has more than " + std::to_string(*precision - *scale) + " integer digits (precision " +
           std::to_string(*precision) + ", scale " + std::to_string(*scale) + ")";
  }
  // Precision without scale is an approximate numeric (type-system §3.4): any double is one,
  // so there is no digit count to enforce.
  return std::nullopt;
}

bool IsLeapYear(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

bool IsRealDate(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  if (!AsciiAllDigits(text.substr(0, 4)) || !AsciiAllDigits(text.substr(5, 2)) ||
      !AsciiAllDigits(text.substr(8, 2))) {
    return false;
  }
  const int year = DigitsValue(text.substr(0, 4));
  const int month = DigitsValue(text.substr(5, 2));
  const int day = DigitsValue(text.substr(8, 2));
  static constexpr std::array<int, 12> kDaysInMonth = {31, 28, 31, 30, 31, 30,
                                                       31, 31, 30, 31, 30, 31};
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const int days = kDaysInMonth[month - 1] + (month == 2 && IsLeapYear(year) ? 1 : 0);
  return day <= days;
}

// "HH:MM:SS[.f{1,6}]"
bool IsTimeOfDay(std::string_view text) {
  if (text.size() < 8 || text[2] != ':' || text[5] != ':') return false;
  for (size_t at : {0, 3, 6}) {
    if (!AsciiAllDigits(text.substr(at, 2))) return false;
  }
  if (DigitsValue(text.substr(0, 2)) > 23 || DigitsValue(text.substr(3, 2)) > 59 ||
      DigitsValue(text.substr(6, 2)) > 59) {
    return false;
  }
  if (text.size() == 8) return true;
  const std::string_view fraction = text.substr(9);
  return text[8] == '.' && fraction.size() <= 6 && AsciiAllDigits(fraction);
}

// "Z" or "+HH:MM" / "-HH:MM".
bool IsOffset(std::string_view text) {
  if (text == "Z") return true;
  if (text.size() != 6 || (text[0] != '+' && text[0] != '-') || text[3] != ':') return false;
  return AsciiAllDigits(text.substr(1, 2)) && AsciiAllDigits(text.substr(4, 2)) &&
         DigitsValue(text.substr(1, 2)) <= 18 && DigitsValue(text.substr(4, 2)) <= 59;
}

bool IsTimestampWithOffset(std::string_view text) {
  if (text.size() < 20 || text[10] != 'T' || !IsRealDate(text.substr(0, 10))) return false;
  const std::string_view rest = text.substr(11);
  const size_t offset_at = rest.find_first_of("Z+-");
  if (offset_at == std::string_view::npos) return false;
  return IsTimeOfDay(rest.substr(0, offset_at)) && IsOffset(rest.substr(offset_at));
}

bool IsBase64Char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/';
}

bool IsPaddedBase64(std::string_view text) {
  if (text.size() % 4 != 0) return false;
  size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') {
    ++padding;
  }
  for (size_t i = 0; i < text.size() - padding; ++i) {
    if (!IsBase64Char(text[i])) return false;
  }
  return true;
}

bool IsInt64Text(std::string_view text) {
  const bool negative = !text.empty() && text.front() == '-';
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) text.remove_prefix(1);
  if (!AsciiAllDigits(text)) return false;
  while (text.size() > 1 && text.front() == '0') text.remove_prefix(1);
  const std::string_view limit = negative ? "9223372036854775808" : "9223372036854775807";
  return text.size() < limit.size() || (text.size() == limit.size() && text <= limit);
}

Failure Expect(bool ok, const char* what) {
  if (ok) return std::nullopt;
  return std::string("must be ") + what;
}

Failure IntegerFailure(const Json& value) {
  if (!value.is_number_integer()) return "must be a JSON integer (INTEGER is a number on the wire)";
  const bool in_range =
      value.is_number_unsigned()
          ? value.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int32_t>::max())
          : value.get<int64_t>() >= std::numeric_limits<int32_t>::min() &&
                value.get<int64_t>() <= std::numeric_limits<int32_t>::max();
  return Expect(in_range, "within the 32-bit INTEGER range (use BIGINTEGER beyond it)");
}

Failure DecimalFailure(const Json& value, std::optional<int> precision, std::optional<int> scale) {
  if (!value.is_number()) return "must be a JSON number (DECIMAL is a number on the wire)";
  auto digits = NumberDigits(value);
  if (!digits) return "must be a plain decimal number";
  return CheckPrecisionScale(*digits, precision, scale);
}

Failure BigDecimalFailure(const Json& value, std::optional<int> precision,
                          std::optional<int> scale) {
  if (!value.is_string()) {
    return "must be a JSON string holding a plain decimal (BIGDECIMAL is a string on the wire)";
  }
  auto digits = SplitPlainDecimal(value.get<std::string>());
  if (!digits) return "must be a plain decimal string such as \"12345.60\" (no exponent)";
  return CheckPrecisionScale(*digits, precision, scale);
}

Failure StringShapeFailure(const Json& value, const std::function<bool(std::string_view)>& shape,
                           const char* what) {
  if (!value.is_string()) return std::string("must be a JSON string: ") + what;
  return Expect(shape(value.get_ref<const std::string&>()), what);
}

}  // namespace

bool IsParameterType(const std::string& type) {
  static constexpr std::array<std::string_view, 10> kTypes = {
      "INTEGER", "BIGINTEGER", "DECIMAL", "BIGDECIMAL", "BOOLEAN",
      "STRING",  "BINARY",     "DATE",    "TIME",       "TIMESTAMP"};
  for (auto known : kTypes) {
    if (type == known) return true;
  }
  return false;
}

std::optional<std::string> TypeCoercionFailure(const std::string& type, const Json& value,
                                               std::optional<int> precision,
                                               std::optional<int> scale) {
  if (value.is_null()) return "must not be null";
  if (type == "ANY") return Expect(!value.is_object() && !value.is_array(), "a JSON scalar");
  if (type == "INTEGER") return IntegerFailure(value);
  if (type == "DECIMAL") return DecimalFailure(value, precision, scale);
  if (type == "BIGDECIMAL") return BigDecimalFailure(value, precision, scale);
  if (type == "BOOLEAN") return Expect(value.is_boolean(), "a JSON boolean");
  if (type == "STRING") return Expect(value.is_string(), "a JSON string");
  if (type == "BIGINTEGER") {
    return StringShapeFailure(value, IsInt64Text,
                              "a string of digits within the 64-bit range, e.g. \"123\"");
  }
  if (type == "BINARY") {
    return StringShapeFailure(value, IsPaddedBase64, "padded standard base64 (RFC 4648 §4)");
  }
  if (type == "DATE") return StringShapeFailure(value, IsRealDate, "a real date as YYYY-MM-DD");
  if (type == "TIME") {
    return StringShapeFailure(value, IsTimeOfDay, "a time as HH:MM:SS[.ffffff] (1-6 digits)");
  }
  if (type == "TIMESTAMP") {
    return StringShapeFailure(value, IsTimestampWithOffset,
                              "an ISO-8601 timestamp with Z or an explicit offset, e.g. "
                              "\"2026-08-05T19:30:00Z\"");
  }
  return "has an unknown type '" + type + "'";
}

std::optional<std::string> CoercionFailure(const ParameterDecl& parameter, const Json& value) {
  return TypeCoercionFailure(parameter.type, value, parameter.precision, parameter.scale);
}

Json SampleValue(const std::string& type) {
  if (type == "INTEGER") return 1;
  if (type == "BIGINTEGER") return "1";
  if (type == "DECIMAL") return 1;
  if (type == "BIGDECIMAL") return "1";
  if (type == "BOOLEAN") return true;
  if (type == "BINARY") return "AA==";
  if (type == "DATE") return "2026-01-01";
  if (type == "TIME") return "00:00:00";
  if (type == "TIMESTAMP") return "2026-01-01T00:00:00Z";
  return "sample";
}

Json SampleValue(const ParameterDecl& parameter) {
  if (parameter.type == "BIGDECIMAL" && parameter.scale && *parameter.scale > 0) {
    return "1." + std::string(static_cast<size_t>(*parameter.scale), '0');
  }
  return SampleValue(parameter.type);
}

Json DryRenderContext(const PipelineBody& body) {
  Json context = Json::object();
  for (const auto& parameter : body.parameters) {
    context[parameter.name] =
        parameter.default_value ? *parameter.default_value : SampleValue(parameter);
  }
  for (const auto& [key, type] : CalculatorKeyTypes(body)) {
    if (!context.contains(key)) context[key] = SampleValue(type);
  }
  return context;
}

}  // namespace dp
