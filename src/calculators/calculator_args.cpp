#include "calculators/calculator_args.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp::calc {
namespace {

const Json& NullJson() {
  static const Json kNull = nullptr;
  return kNull;
}

std::string Shown(const Json& value) {
  std::string text = value.dump();
  return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

}  // namespace

CalculatorArgs::CalculatorArgs(const CalculatorKind& kind, const Json& inputs)
    : kind_(kind), inputs_(inputs) {
  if (!inputs_.is_null() && !inputs_.is_object()) Fail("", "inputs must be a JSON object");
  if (inputs_.is_object()) {
    for (const auto& [name, value] : inputs_.items()) {
      if (!kind_.FindInput(name)) Fail(name, "not an input of " + kind_.kind);
    }
  }
  for (const auto& input : kind_.inputs) {
    const bool given = inputs_.is_object() && inputs_.contains(input.name);
    if (!input.optional && !given) Fail(input.name, "required input is missing");
  }
}

void CalculatorArgs::Fail(std::string_view input, const std::string& reason) const {
  std::string message = "calculator " + kind_.kind + " failed";
  if (!input.empty()) message += " on input '" + std::string(input) + "'";
  throw DomainError(errc::kNodeCalculatorFailed, message + ": " + reason,
                    Json{{"kind", kind_.kind}, {"input", std::string(input)}, {"reason", reason}});
}

const Json& CalculatorArgs::Value(std::string_view name) const {
  const CalculatorInput* input = kind_.FindInput(name);
  if (inputs_.is_object()) {
    auto it = inputs_.find(std::string(name));
    if (it != inputs_.end() && !(it->is_null() && input && input->optional)) return *it;
  }
  return input ? input->default_value : NullJson();
}

const Json& CalculatorArgs::NonNull(std::string_view name, std::string_view expected) const {
  const Json& value = Value(name);
  if (value.is_null()) Fail(name, "is null; expected " + std::string(expected));
  return value;
}

CivilDate CalculatorArgs::Date(std::string_view name) const {
  const Json& value = NonNull(name, "a DATE");
  std::optional<CivilDate> date;
  if (value.is_string()) date = ParseIsoDate(value.get_ref<const std::string&>());
  if (!date) Fail(name, "expected a DATE as \"YYYY-MM-DD\", got " + Shown(value));
  return *date;
}

Instant CalculatorArgs::Timestamp(std::string_view name) const {
  const Json& value = NonNull(name, "a TIMESTAMP");
  std::optional<Instant> instant;
  if (value.is_string()) instant = ParseTimestamp(value.get_ref<const std::string&>());
  if (!instant) {
    Fail(name, "expected a TIMESTAMP in ISO-8601 with Z or an offset, got " + Shown(value));
  }
  return *instant;
}

int64_t CalculatorArgs::Integer(std::string_view name) const {
  const Json& value = NonNull(name, "an INTEGER");
  if (value.is_number_unsigned() && value.get<uint64_t>() > INT64_MAX) {
    Fail(name, "integer out of range");
  }
  if (!value.is_number_integer()) Fail(name, "expected an INTEGER, got " + Shown(value));
  return value.get<int64_t>();
}

std::string CalculatorArgs::String(std::string_view name) const {
  const Json& value = NonNull(name, "a STRING");
  if (!value.is_string()) Fail(name, "expected a STRING, got " + Shown(value));
  return value.get<std::string>();
}

ExactDecimal CalculatorArgs::Decimal(std::string_view name) const {
  const Json& value = NonNull(name, "a DECIMAL");
  std::optional<ExactDecimal> decimal;
  if (value.is_number_integer()) {
    decimal = ExactDecimal::Parse(value.dump());
  } else if (value.is_number_float()) {
    decimal = ExactDecimal::FromDouble(value.get<double>());
  } else if (value.is_string()) {
    // A decimal carried as text keeps digits a JSON number (a double) could not.
    decimal = ExactDecimal::Parse(value.get_ref<const std::string&>());
  }
  if (!decimal) Fail(name, "expected a DECIMAL (a JSON number), got " + Shown(value));
  return *decimal;
}

const Json& CalculatorArgs::Array(std::string_view name) const {
  const Json& value = NonNull(name, "a JSON array");
  if (!value.is_array()) Fail(name, "expected a JSON array, got " + Shown(value));
  return value;
}

std::vector<CivilDate> CalculatorArgs::DateList(std::string_view name) const {
  std::vector<CivilDate> dates;
  for (const Json& element : Array(name)) {
    auto date =
        element.is_string() ? ParseIsoDate(element.get_ref<const std::string&>()) : std::nullopt;
    if (!date) Fail(name, "every element must be a DATE \"YYYY-MM-DD\", got " + Shown(element));
    dates.push_back(*date);
  }
  return dates;
}

std::vector<std::string> CalculatorArgs::StringList(std::string_view name) const {
  std::vector<std::string> strings;
  for (const Json& element : Array(name)) {
    if (!element.is_string()) Fail(name, "every element must be a STRING, got " + Shown(element));
    strings.push_back(element.get<std::string>());
  }
  return strings;
}

MonthDay CalculatorArgs::FiscalStart(std::string_view name) const {
  const std::string text = String(name);
  auto month_day = ParseMonthDay(text);
  if (!month_day) {
    Fail(name, "expected MM-DD naming a day the calendar has (e.g. 04-06), got \"" + text + "\"");
  }
  return *month_day;
}

int CalculatorArgs::WeekStart(std::string_view name) const {
  const std::string text = String(name);
  if (text == "monday") return 1;
  if (text == "sunday") return 7;
  Fail(name, "expected monday or sunday, got \"" + text + "\"");
}

PeriodUnit CalculatorArgs::Unit(std::string_view name, bool allow_day) const {
  const std::string text = String(name);
  auto unit = ParsePeriodUnit(text);
  if (!unit || (!allow_day && *unit == PeriodUnit::kDay)) {
    Fail(name, std::string("unknown unit \"") + text + "\"; expected " +
                   (allow_day ? "day, " : "") + "week, month, quarter or year");
  }
  return *unit;
}

Rounding CalculatorArgs::RoundingMode(std::string_view name) const {
  const std::string text = String(name);
  auto mode = ParseRounding(text);
  if (!mode) Fail(name, "unknown rounding mode \"" + text + "\"; expected " + RoundingNames());
  return *mode;
}

PeriodMath CalculatorArgs::Period() const {
  const PeriodUnit unit = Unit("unit", false);
  const std::string mode = String("mode");
  if (mode != "calendar" && mode != "fiscal") {
    Fail("mode", "expected calendar or fiscal, got \"" + mode + "\"");
  }
  PeriodCalendar calendar;
  calendar.fiscal = mode == "fiscal";
  calendar.fiscal_start = FiscalStart("fiscal_start");
  calendar.week_start = WeekStart("week_start");
  return PeriodMath(unit, calendar);
}

int WeekdayNumber(std::string_view name) {
  static constexpr std::string_view kNames[] = {"monday", "tuesday",  "wednesday", "thursday",
                                                "friday", "saturday", "sunday"};
  for (int i = 0; i < 7; ++i) {
    if (kNames[i] == name) return i + 1;
  }
  return 0;
}

Json DateValue(const CalculatorArgs& args, const CivilDate& date) {
  if (!IsWireRepresentable(date)) args.Fail("", "the resulting date is outside years 0000-9999");
  return FormatIsoDate(date);
}

Json DecimalValue(const ExactDecimal& value) { return value.ToDouble(); }

}  // namespace dp::calc
