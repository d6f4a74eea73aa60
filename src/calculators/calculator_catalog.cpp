// The catalog table, defined once as data. docs/calculators.md mirrors it row for row and the
// drift test (tests/unit/calculators/calculator_doc_drift_test.cpp) holds the two together.
#include "datapipelines/calculators/calculator_catalog.hpp"

#include <string>

#include "calculators/civil_date.hpp"
#include "calculators/timestamp.hpp"

namespace dp {
namespace {

CalculatorInput Required(std::string name, std::string type, std::string description) {
  return CalculatorInput{std::move(name), std::move(type), false,
                         false,           nullptr,         std::move(description)};
}

CalculatorInput Optional(std::string name, std::string type, Json default_value,
                         std::string description) {
  return CalculatorInput{std::move(name), std::move(type),          true,
                         false,           std::move(default_value), std::move(description)};
}

CalculatorInput AsList(CalculatorInput input) {
  input.list = true;
  return input;
}

// Inputs several kinds share, declared once so every kind reads them alike.
CalculatorInput DateInput() { return Required("date", "DATE", "The date to compute from."); }
CalculatorInput PeriodUnitInput() {
  return Required("unit", "STRING", "The period: week, month, quarter or year.");
}
CalculatorInput ModeInput() {
  return Optional("mode", "STRING", "calendar",
                  "calendar or fiscal: whether quarter and year boundaries follow fiscal_start.");
}
CalculatorInput FiscalStartInput() {
  return Optional("fiscal_start", "STRING", "01-01",
                  "MM-DD, the fiscal year's first day (used when mode is fiscal).");
}
CalculatorInput WeekStartInput() {
  return Optional("week_start", "STRING", "monday", "monday or sunday: the day a week starts on.");
}

std::vector<CalculatorInput> PeriodInputs(std::vector<CalculatorInput> extra = {}) {
  std::vector<CalculatorInput> inputs = {DateInput(), PeriodUnitInput()};
  inputs.insert(inputs.end(), extra.begin(), extra.end());
  inputs.push_back(ModeInput());
  inputs.push_back(FiscalStartInput());
  inputs.push_back(WeekStartInput());
  return inputs;
}

std::vector<CalculatorOutput> WindowOutputs(std::string start, std::string end) {
  return {{"start", "DATE", std::move(start)}, {"end", "DATE", std::move(end)}};
}

const std::vector<std::string> kPeriodPhrases = {"this quarter", "month to date",
                                                 "the current week", "start of the fiscal year"};

std::vector<CalculatorKind> BuildCatalog() {
  std::vector<CalculatorKind> kinds;
  auto add = [&kinds](CalculatorKind kind) { kinds.push_back(std::move(kind)); };

  // --- §2.1 Calendar and time ---
  add({"quarter_of_year",
       "Quarter of year",
       "The calendar quarter (1-4) a date falls in.",
       {DateInput()},
       "INTEGER",
       {},
       {{"date", "2026-08-14"}},
       3,
       {"which quarter a date falls in", "what quarter is it"}});
  add({"fiscal_year",
       "Fiscal year",
       "The fiscal year a date falls in, named after the calendar year that fiscal year begins "
       "in (with a 04-06 start, 2026-01-15 belongs to fiscal year 2025).",
       {DateInput(), Required("fiscal_start", "STRING", "MM-DD, the fiscal year's first day.")},
       "INTEGER",
       {},
       {{"date", "2026-01-15"}, {"fiscal_start", "04-06"}},
       2025,
       {"which fiscal year a date falls in", "what fiscal year is it"}});
  add({"fiscal_quarter",
       "Fiscal quarter",
       "The quarter (1-4) of its fiscal year a date falls in.",
       {DateInput(), Required("fiscal_start", "STRING", "MM-DD, the fiscal year's first day.")},
       "INTEGER",
       {},
       {{"date", "2026-08-14"}, {"fiscal_start", "09-15"}},
       4,
       {"which fiscal quarter a date falls in", "what fiscal quarter is it"}});
  add({"period_start",
       "Period start",
       "The first day of the week, month, quarter or year that contains a date.",
       PeriodInputs(),
       "DATE",
       {},
       {{"date", "2026-08-14"}, {"unit", "quarter"}},
       "2026-07-01",
       kPeriodPhrases});
  add({"period_end",
       "Period end",
       "The last day of the week, month, quarter or year that contains a date.",
       PeriodInputs(),
       "DATE",
       {},
       {{"date", "2026-08-14"}, {"unit", "quarter"}},
       "2026-09-30",
       kPeriodPhrases});
  add({"prior_period",
       "Prior period start",
       "The first day of the period `offset` periods before the one containing a date: where a "
       "period-over-period comparison starts filtering.",
       PeriodInputs({Optional("offset", "INTEGER", 1, "How many periods back.")}),
       "DATE",
       {},
       {{"date", "2026-08-14"}, {"unit", "quarter"}, {"offset", 1}},
       "2026-04-01",
       {"last quarter", "previous month", "the quarter before last", "N periods ago"}});
  add({"period_bounds",
       "Period bounds",
       "The first and last day of the week, month, quarter or year that contains a date, as one "
       "node writing two keys through `context_keys` (period_start plus period_end is two nodes).",
       PeriodInputs(),
       "",
       WindowOutputs("The period's first day.", "The period's last day."),
       {{"date", "2026-08-14"}, {"unit", "quarter"}},
       {{"start", "2026-07-01"}, {"end", "2026-09-30"}},
       {"this quarter", "the current month", "month to date", "year to date", "this fiscal year"}});
  add({"trailing_periods",
       "Trailing periods",
       "The `count` complete periods just before the one containing a date: `start` is the first "
       "day of the period `count` back and `end` the last day of the period one back. `count` is "
       "at least 1.",
       PeriodInputs({Optional("count", "INTEGER", 1, "How many complete periods (at least 1).")}),
       "",
       WindowOutputs("The first day of the earliest period.",
                     "The last day of the most recent complete period."),
       {{"date", "2026-08-14"}, {"unit", "quarter"}, {"count", 1}},
       {{"start", "2026-04-01"}, {"end", "2026-06-30"}},
       {"last quarter", "previous month", "last week", "the last 4 quarters",
        "trailing twelve months", "the prior fiscal year"}});
  add({"date_trunc",
       "Truncate date",
       "A date moved back to the first day of its day, week, month, quarter or year.",
       {DateInput(), Required("unit", "STRING", "day, week, month, quarter or year."),
        WeekStartInput()},
       "DATE",
       {},
       {{"date", "2026-08-14"}, {"unit", "month"}},
       "2026-08-01",
       {"snap a date back to the start of its month", "floor a date to its week",
        "truncate a date"}});
  add({"iso_week",
       "ISO week",
       "The ISO-8601 week number (1-53) of a date.",
       {DateInput()},
       "INTEGER",
       {},
       {{"date", "2026-01-01"}},
       1,
       {"which ISO week a date falls in", "the ISO week number"}});
  add({"iso_year",
       "ISO week-based year",
       "The ISO-8601 week-based year of a date, which differs from the calendar year on the days "
       "around New Year; that is why it is a kind of its own.",
       {DateInput()},
       "INTEGER",
       {},
       {{"date", "2027-01-01"}},
       2026,
       {"which ISO week-based year a date falls in", "the ISO year"}});
  add({"day_of_week",
       "Day of week",
       "The day's position in its week (1-7), counted from `week_start`.",
       {DateInput(), WeekStartInput()},
       "INTEGER",
       {},
       {{"date", "2026-08-14"}, {"week_start", "monday"}},
       5,
       {"which day of the week a date is", "the day's position in the week"}});
  add({"days_in_month",
       "Days in month",
       "How many days the date's month has (28-31).",
       {DateInput()},
       "INTEGER",
       {},
       {{"date", "2028-02-10"}},
       29,
       {"how many days in the month", "the length of a month"}});
  add({"date_diff",
       "Date difference",
       "Whole units from one date to another, negative when `to` is before `from`. A partial "
       "unit is truncated, never rounded.",
       {Required("from", "DATE", "The earlier date (usually)."),
        Required("to", "DATE", "The later date (usually)."),
        Required("unit", "STRING", "day, week, month, quarter or year.")},
       "INTEGER",
       {},
       {{"from", "2026-01-01"}, {"to", "2026-08-14"}, {"unit", "month"}},
       7,
       {"days between", "how many months since"}});
  add({"add_days",
       "Add days",
       "A date moved by a whole number of calendar days; a negative number moves it back.",
       {DateInput(), Required("days", "INTEGER", "Calendar days to add (negative = earlier).")},
       "DATE",
       {},
       {{"date", "2026-08-14"}, {"days", -30}},
       "2026-07-15",
       {"N days later", "N days earlier", "days from now"}});
  add({"add_months",
       "Add months",
       "A date moved by whole months, clamped to the last day of the target month "
       "(2026-01-31 plus one month is 2026-02-28).",
       {DateInput(), Required("months", "INTEGER", "Months to add (negative = earlier).")},
       "DATE",
       {},
       {{"date", "2026-01-31"}, {"months", 1}},
       "2026-02-28",
       {"one month later", "a year ago"}});
  add({"add_business_days",
       "Add business days",
       "A date moved by working days, skipping weekend days and the listed holidays. A negative "
       "count moves backwards; the starting date itself never counts.",
       {DateInput(), Required("days", "INTEGER", "Working days to add (negative = earlier)."),
        AsList(Optional("weekend_days", "STRING", Json::array({"saturday", "sunday"}),
                        "Lowercase day names that are not working days.")),
        AsList(Optional("holidays", "DATE", Json::array(), "Dates that are not working days."))},
       "DATE",
       {},
       {{"date", "2026-08-14"}, {"days", 1}, {"holidays", Json::array({"2026-08-17"})}},
       "2026-08-18",
       {"business days later", "working days from now", "N working days earlier"}});
  add({"date_parse",
       "Parse date",
       "A date read from text with an explicit pattern in Java DateTimeFormatter grammar, for "
       "example dd/MM/yyyy, yyyyMMdd or MMM d, yyyy.",
       {Required("text", "STRING", "The text holding the date."),
        Required("format", "STRING", "A DateTimeFormatter pattern.")},
       "DATE",
       {},
       {{"text", "14/08/2026"}, {"format", "dd/MM/yyyy"}},
       "2026-08-14",
       {"read a date out of text", "parse a date string"}});
  add({"date_format",
       "Format date",
       "A date written as text with an explicit DateTimeFormatter pattern.",
       {DateInput(), Required("format", "STRING", "A DateTimeFormatter pattern.")},
       "STRING",
       {},
       {{"date", "2026-08-14"}, {"format", "yyyyMMdd"}},
       "20260814",
       {"render a date as text", "format a date"}});
  add({"tz_shift",
       "Shift time zone",
       "Reads a timestamp's wall-clock time in `from_zone` and re-reads that same clock face in "
       "`to_zone`, so the instant moves. For a timestamp stored under the wrong zone, not for "
       "display: a timestamp is already absolute. A reading in a daylight-saving gap moves "
       "forward by the gap; in an overlap the earlier offset wins.",
       {Required("timestamp", "TIMESTAMP", "The timestamp to re-read."),
        Required("from_zone", "STRING", "IANA zone the clock face was read in."),
        Required("to_zone", "STRING", "IANA zone the clock face really belongs to.")},
       "TIMESTAMP",
       {},
       {{"timestamp", "2026-06-01T12:00:00Z"}, {"from_zone", "UTC"}, {"to_zone", "Europe/Berlin"}},
       "2026-06-01T10:00:00Z",
       {"a timestamp stored under the wrong zone", "re-read a wall-clock time in another zone"}});

  // --- §2.2 Numeric ---
  add({"round",
       "Round",
       "A decimal rounded to a number of places under an explicit rounding mode (half_up by "
       "default).",
       {Required("value", "DECIMAL", "The number to round."),
        Optional("places", "INTEGER", 0, "Digits after the decimal point."),
        Optional("mode", "STRING", "half_up",
                 "half_up, half_even, half_down, floor, ceiling, up or down.")},
       "DECIMAL",
       {},
       {{"value", 2.345}, {"places", 2}},
       2.35,
       {"round a number to decimal places", "round to a whole number"}});
  add({"percent_change",
       "Percent change",
       "The change from `previous` to `current` in percent: (current - previous) / previous x "
       "100, rounded half_up. A zero `previous` is refused rather than answered with infinity.",
       {Required("current", "DECIMAL", "The new value."),
        Required("previous", "DECIMAL", "The value compared against; never zero."),
        Optional("places", "INTEGER", 2, "Digits after the decimal point.")},
       "DECIMAL",
       {},
       {{"current", 125}, {"previous", 100}, {"places", 2}},
       25.0,
       {"percent change", "how many percent up or down", "growth versus the previous value"}});

  // --- §2.3 Values ---
  add({"coalesce",
       "Coalesce",
       "The first of the values that is not null; null when all are.",
       {AsList(Required("values", "ANY", "The candidates, in order."))},
       "ANY",
       {},
       {{"values", Json::array({"$requested_region", "GLOBAL"})}},
       "GLOBAL",
       {"the first value that is not null", "fall back through candidates"}});
  add({"if_null",
       "If null",
       "The value, or `default` when the value is null: coalesce for exactly two candidates.",
       {Required("value", "ANY", "The value to test."),
        Required("default", "ANY", "What to use when the value is null.")},
       "ANY",
       {},
       {{"value", "$requested_region"}, {"default", "GLOBAL"}},
       "GLOBAL",
       {"the value or a default when it is null", "default if null"}});
  add({"map",
       "Map value",
       "Translates a value through a lookup written into the node: the `to` entry at the position "
       "where `from` matches the value, else `default`. Parallel arrays, so every element is "
       "typed like any other literal.",
       {Required("value", "ANY", "The value to translate."),
        AsList(Required("from", "ANY", "The values to match.")),
        AsList(Required("to", "ANY", "What each `from` entry translates to (same length).")),
        Optional("default", "ANY", nullptr, "The answer when nothing matches (null if absent).")},
       "ANY",
       {},
       {{"value", "GB"},
        {"from", Json::array({"GB", "US"})},
        {"to", Json::array({"United Kingdom", "United States"})}},
       "United Kingdom",
       {"translate a value through a lookup", "map these values to those"}});
  return kinds;
}

bool ScalarMatchesType(const Json& value, const std::string& type) {
  if (type == "ANY") return !value.is_array() && !value.is_object();
  if (type == "STRING") return value.is_string();
  if (type == "INTEGER") return value.is_number_integer();
  if (type == "DECIMAL") return value.is_number();
  if (type == "BOOLEAN") return value.is_boolean();
  if (type == "DATE") {
    return value.is_string() && calc::ParseIsoDate(value.get_ref<const std::string&>()).has_value();
  }
  if (type == "TIMESTAMP") {
    return value.is_string() &&
           calc::ParseTimestamp(value.get_ref<const std::string&>()).has_value();
  }
  return false;
}

}  // namespace

const CalculatorInput* CalculatorKind::FindInput(std::string_view name) const {
  for (const auto& input : inputs) {
    if (input.name == name) return &input;
  }
  return nullptr;
}

const CalculatorOutput* CalculatorKind::FindOutput(std::string_view name) const {
  for (const auto& output : outputs) {
    if (output.name == name) return &output;
  }
  return nullptr;
}

Json CalculatorKind::ToJson() const {
  Json input_list = Json::array();
  for (const auto& input : inputs) {
    Json entry = {{"name", input.name},
                  {"type", input.type},
                  {"required", !input.optional},
                  {"description", input.description}};
    if (input.list) entry["list"] = true;
    if (input.optional && !input.default_value.is_null()) entry["default"] = input.default_value;
    input_list.push_back(std::move(entry));
  }
  Json entry = {{"kind", kind},
                {"display_name", display_name},
                {"description", description},
                {"phrases", phrases},
                {"inputs", std::move(input_list)}};
  if (multi_output()) {
    entry["output"] = nullptr;
    Json output_list = Json::array();
    for (const auto& output : outputs) {
      output_list.push_back(
          {{"name", output.name}, {"type", output.type}, {"description", output.description}});
    }
    entry["outputs"] = std::move(output_list);
  } else {
    entry["output"] = output_type;
  }
  entry["example"] = {{"inputs", example_inputs}, {"output", example_output}};
  return entry;
}

std::span<const CalculatorKind> AllCalculators() {
  static const std::vector<CalculatorKind> kCatalog = BuildCatalog();
  return kCatalog;
}

const CalculatorKind* FindCalculator(std::string_view kind) {
  for (const auto& entry : AllCalculators()) {
    if (entry.kind == kind) return &entry;
  }
  return nullptr;
}

std::vector<std::string> CalculatorKindNames() {
  std::vector<std::string> names;
  for (const auto& entry : AllCalculators()) names.push_back(entry.kind);
  return names;
}

bool LiteralMatchesType(const Json& literal, const std::string& canonical_type, bool list) {
  if (!list) return ScalarMatchesType(literal, canonical_type);
  if (!literal.is_array()) return false;
  for (const auto& element : literal) {
    if (!ScalarMatchesType(element, canonical_type)) return false;
  }
  return true;
}

}  // namespace dp
