#pragma once
// The subset of Java's DateTimeFormatter pattern grammar that applies to a DATE (calculators
// §2.1 — the grammar is contract): y u (year), M L (month: number, MMM short, MMMM full),
// d (day of month), D (day of year), E (day name), Q q (quarter), G (era), '...' quoted
// literal text ('' is a quote) and any non-letter character as itself. English names.
// Time-of-day and localized-week letters are refused: a DATE has no such fields.
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "calculators/civil_date.hpp"

namespace dp::calc {

// A pattern that does not compile, or text that does not match one; what() says why.
class DatePatternError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class DatePattern {
 public:
  // Throws DatePatternError when the pattern does not compile.
  static DatePattern Compile(std::string_view pattern);

  std::string Format(const CivilDate& date) const;
  // Throws DatePatternError when `text` does not match or names no single real date.
  CivilDate Parse(std::string_view text) const;

 private:
  struct Element {
    char letter = 0;  // 0 = literal text
    int count = 0;
    std::string literal;
    bool IsNumeric() const;
    int MinWidth() const;
    int MaxWidth() const;
  };
  std::vector<Element> elements_;
};

}  // namespace dp::calc
