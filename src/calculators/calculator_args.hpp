#pragma once
// One evaluation's inputs, read and validated by declared type. Every failure names the kind,
// the input at fault and the reason (calculators §3), as pipeline.node.calculator_failed.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "calculators/calendar_period.hpp"
#include "calculators/civil_date.hpp"
#include "calculators/exact_decimal.hpp"
#include "calculators/timestamp.hpp"
#include "datapipelines/calculators/calculator_catalog.hpp"
#include "datapipelines/util/json.hpp"

namespace dp::calc {

class CalculatorArgs {
 public:
  // Refuses an input name the kind does not declare and a missing required input.
  CalculatorArgs(const CalculatorKind& kind, const Json& inputs);

  [[noreturn]] void Fail(std::string_view input, const std::string& reason) const;
  const std::string& kind_name() const { return kind_.kind; }

  // The given value, else the declared default (null when there is none). An explicit null
  // for an optional input means "absent".
  const Json& Value(std::string_view name) const;

  CivilDate Date(std::string_view name) const;
  Instant Timestamp(std::string_view name) const;
  int64_t Integer(std::string_view name) const;
  std::string String(std::string_view name) const;
  ExactDecimal Decimal(std::string_view name) const;
  // A JSON array (for list inputs); each element is checked by the typed list readers.
  const Json& Array(std::string_view name) const;
  std::vector<CivilDate> DateList(std::string_view name) const;
  std::vector<std::string> StringList(std::string_view name) const;

  MonthDay FiscalStart(std::string_view name) const;
  int WeekStart(std::string_view name) const;  // ISO day number (1 Monday, 7 Sunday)
  PeriodUnit Unit(std::string_view name, bool allow_day) const;
  Rounding RoundingMode(std::string_view name) const;
  // unit + mode + fiscal_start + week_start, as the period kinds read them.
  PeriodMath Period() const;

 private:
  const Json& NonNull(std::string_view name, std::string_view expected) const;

  const CalculatorKind& kind_;
  const Json& inputs_;
};

// Weekday names ("monday" ... "sunday") to ISO day numbers; 0 when unknown.
int WeekdayNumber(std::string_view name);
// Output helpers in wire form.
Json DateValue(const CalculatorArgs& args, const CivilDate& date);
Json DecimalValue(const ExactDecimal& value);

}  // namespace dp::calc
