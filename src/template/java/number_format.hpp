#pragma once
// Number formatting as FreeMarker 2.3.31 does it with locale en_US: the "computer" format
// (interpolation and ?c) and java.text.DecimalFormat patterns for ?string("0.00").
#include <optional>
#include <string>
#include <string_view>

#include "template/java/decimal.hpp"

namespace dp::tmpl {

class NumberFormat {
 public:
  static std::string Computer(const Decimal& value) { return value.ToComputerString(); }
  // A DecimalFormat pattern ("0.00", "#,##0.###", "0%") or the names "number", "computer",
  // "percent". nullopt when the pattern is outside the supported subset.
  static std::optional<std::string> Format(const Decimal& value, std::string_view pattern);
};

}  // namespace dp::tmpl
