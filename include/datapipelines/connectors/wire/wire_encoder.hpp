#pragma once
// Canonical → JSON wire encoding (type-system.md §3.5). Drivers hand over the value's text
// (binary as raw bytes); the encoder fixes the exact bytes clients receive.
#include <optional>
#include <string>
#include <string_view>

#include "datapipelines/connectors/type_mapping.hpp"
#include "datapipelines/connectors/wire/wire_scalar.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class WireEncoder {
 public:
  // nullopt (SQL NULL) → null for every type. A value that does not parse as its declared
  // type degrades to its text as a JSON string rather than failing the read (§8.2 spirit).
  static Json Encode(const TypeMapping& mapping, std::optional<std::string_view> text);
  // The same decision without allocating: normalized text (timestamps, base64, ...) is built in
  // `scratch`, which the caller reuses across cells; the result is valid until its next use.
  static WireScalar Scalar(const TypeMapping& mapping, std::optional<std::string_view> text,
                           std::string& scratch);

  // "YYYY-MM-DD[ T]HH:MM:SS[.f…][Z|±HH[:MM[:SS]]]" → "YYYY-MM-DDTHH:MM:SS.ffffffZ" in UTC
  // (zone-less input is taken as UTC, §8.4; digits past microseconds are truncated).
  static std::optional<std::string> NormalizeTimestamp(std::string_view text);
  // "HH:MM:SS[.f…][±zone]" → "HH:MM:SS.ffffff" (zone dropped, §5.1 timetz).
  static std::optional<std::string> NormalizeTime(std::string_view text);
  // "YYYY-MM-DD[…]" → "YYYY-MM-DD".
  static std::optional<std::string> NormalizeDate(std::string_view text);
  // Plain decimal text (no exponent) for BIGINTEGER/BIGDECIMAL; nullopt when not numeric.
  static std::optional<std::string> NormalizeDecimalText(std::string_view text);
};

}  // namespace dp
