// The kinds whose grammar is contract: DateTimeFormatter patterns and IANA zones.
#include "calculators/calculator_kinds.hpp"
#include "calculators/date_pattern.hpp"
#include "calculators/time_zone.hpp"

namespace dp::calc {
namespace {

DatePattern CompiledFormat(const CalculatorArgs& args) {
  try {
    return DatePattern::Compile(args.String("format"));
  } catch (const DatePatternError& error) {
    args.Fail("format", std::string("the pattern does not compile: ") + error.what());
  }
}

std::shared_ptr<const TimeZone> Zone(const CalculatorArgs& args, std::string_view input) {
  const std::string name = args.String(input);
  if (TimeZone::LooksLikeFixedOffset(name)) {
    args.Fail(input,
              "\"" + name + "\" is a fixed offset, not an IANA zone id (e.g. Europe/Berlin)");
  }
  auto zone = TimeZone::Find(name);
  if (!zone) args.Fail(input, "unknown time zone \"" + name + "\"; expected an IANA zone id");
  return zone;
}

Json DateParse(const CalculatorArgs& args) {
  const DatePattern pattern = CompiledFormat(args);
  try {
    return DateValue(args, pattern.Parse(args.String("text")));
  } catch (const DatePatternError& error) {
    args.Fail("text", error.what());
  }
}

Json DateFormat(const CalculatorArgs& args) {
  const DatePattern pattern = CompiledFormat(args);
  return pattern.Format(args.Date("date"));
}

Json TzShift(const CalculatorArgs& args) {
  const Instant instant = args.Timestamp("timestamp");
  const auto from_zone = Zone(args, "from_zone");
  const auto to_zone = Zone(args, "to_zone");
  // The clock face as read in from_zone, then the instant that clock face denotes in to_zone.
  const int64_t wall_clock = instant.epoch_seconds + from_zone->OffsetAt(instant.epoch_seconds);
  return FormatTimestamp(Instant{to_zone->LocalToUtc(wall_clock), instant.nanos});
}

}  // namespace

void AddDateTextCalculators(CalculatorTable& table) {
  table.emplace("date_parse", DateParse);
  table.emplace("date_format", DateFormat);
  table.emplace("tz_shift", TzShift);
}

}  // namespace dp::calc
