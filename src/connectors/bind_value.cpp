#include "datapipelines/connectors/bind_value.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>

#include "datapipelines/connectors/wire/wire_encoder.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

[[noreturn]] void Mistyped(const std::string& name, CanonicalType type) {
  // The value itself is never echoed: it may be sensitive.
  throw DomainError(errc::kRequestInvalid,
                    "parameter '" + name + "' is not a valid " + std::string(ToString(type)),
                    Json{{"parameter", name}, {"type", std::string(ToString(type))}});
}

std::optional<int64_t> IntegerValue(const Json& v) {
  if (v.is_number_unsigned()) {
    if (v.get<uint64_t>() > uint64_t(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(v.get<uint64_t>());
  }
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (std::trunc(d) == d && std::fabs(d) < 9.2e18) return static_cast<int64_t>(d);
    return std::nullopt;
  }
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    int64_t number = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), number);
    if (ec == std::errc() && ptr == s.data() + s.size()) return number;
  }
  return std::nullopt;
}

std::string IntegerText(const std::string& name, const BindValue& bind) {
  auto number = IntegerValue(bind.value);
  // INTEGER is the int32 canonical type; BIGINTEGER the int64 one (type-system.md §3).
  bool fits = number && (bind.type == CanonicalType::kBigInteger ||
                         (*number >= INT32_MIN && *number <= INT32_MAX));
  if (!fits) Mistyped(name, bind.type);
  return std::to_string(*number);
}

std::string DecimalBindText(const std::string& name, const BindValue& bind) {
  const Json& v = bind.value;
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (!std::isfinite(d)) Mistyped(name, bind.type);
    // Shortest round-trip form: 0.1 binds as "0.1", not "0.10000000000000001". Exponent
    // forms are valid numeric literals for every dialect's parser.
    char buf[64];
    auto result = std::to_chars(buf, buf + sizeof buf, d);
    return std::string(buf, result.ptr);
  }
  if (v.is_string()) {
    auto text = WireEncoder::NormalizeDecimalText(v.get_ref<const std::string&>());
    if (text) return *text;
  }
  Mistyped(name, bind.type);
}

std::string TemporalText(const std::string& name, const BindValue& bind) {
  if (!bind.value.is_string()) Mistyped(name, bind.type);
  const auto& s = bind.value.get_ref<const std::string&>();
  std::optional<std::string> out;
  if (bind.type == CanonicalType::kDate) {
    if (s.size() == 10) out = WireEncoder::NormalizeDate(s);
  } else if (bind.type == CanonicalType::kTime) {
    out = WireEncoder::NormalizeTime(s);
  } else {
    out = WireEncoder::NormalizeTimestamp(s);
    // Drivers take "YYYY-MM-DD HH:MM:SS.ffffff" (UTC) most portably.
    if (out) {
      (*out)[10] = ' ';
      out->pop_back();
    }
  }
  if (!out) Mistyped(name, bind.type);
  return *out;
}

}  // namespace

std::optional<std::string> BindValue::DriverText(const std::string& name) const {
  if (value.is_null() || type == CanonicalType::kNull) return std::nullopt;
  switch (type) {
    case CanonicalType::kBoolean:
      // A JSON boolean or the wire strings the type system defines (type-system.md §3).
      if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
      if (value == "true" || value == "false") return value.get<std::string>();
      throw DomainError(errc::kRequestInvalid,
                        "parameter '" + name +
                            "' is not a valid BOOLEAN: give true or false (a JSON boolean or "
                            "the string \"true\"/\"false\")",
                        Json{{"parameter", name},
                             {"type", "BOOLEAN"},
                             {"accepted", Json::array({true, false, "true", "false"})}});
    case CanonicalType::kInteger:
    case CanonicalType::kBigInteger:
      return IntegerText(name, *this);
    case CanonicalType::kDecimal:
    case CanonicalType::kBigDecimal:
      return DecimalBindText(name, *this);
    case CanonicalType::kBinary:
      if (!value.is_string()) Mistyped(name, type);
      try {
        return Base64Decode(value.get_ref<const std::string&>());
      } catch (const std::invalid_argument&) {
        Mistyped(name, type);
      }
    case CanonicalType::kDate:
    case CanonicalType::kTime:
    case CanonicalType::kTimestamp:
      return TemporalText(name, *this);
    default:
      break;
  }
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number() || value.is_boolean()) return value.dump();
  Mistyped(name, type);
}

}  // namespace dp
