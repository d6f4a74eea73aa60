#include "datapipelines/calculators/calculator_context.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "calculators/civil_date.hpp"
#include "calculators/time_zone.hpp"
#include "calculators/timestamp.hpp"

namespace dp {
namespace {

bool IsBlank(const std::string& text) {
  return std::all_of(text.begin(), text.end(),
                     [](unsigned char c) { return std::isspace(c) != 0; });
}

std::string FiscalStartViolation(const std::string& value) {
  if (calc::ParseMonthDay(value)) return "";
  const bool has_letters =
      std::any_of(value.begin(), value.end(), [](unsigned char c) { return std::isalpha(c) != 0; });
  if (has_letters) {
    return "datapipelines.org.fiscal-start-date: month names are not accepted; write the day as "
           "MM-DD (e.g. 09-15), got '" +
           value + "'";
  }
  return "datapipelines.org.fiscal-start-date: expected MM-DD naming a day the calendar has "
         "(02-29 is allowed), got '" +
         value + "'";
}

}  // namespace

const std::vector<ContextKeyInfo>& OrgContextKeys() {
  static const std::vector<ContextKeyInfo> kKeys = {
      {"org_currency_name", "STRING", "The deployment's currency name."},
      {"org_currency_symbol", "STRING", "The deployment's currency symbol."},
      {"org_fiscal_start_date", "STRING", "MM-DD: the fiscal year's first day."},
      {"org_week_start", "STRING", "monday or sunday."},
      {"org_timezone", "STRING", "The deployment's IANA zone id."},
  };
  return kKeys;
}

const std::vector<ContextKeyInfo>& PlatformContextKeys() {
  static const std::vector<ContextKeyInfo> kKeys = {
      {"current_date", "DATE", "Today in org_timezone, fixed at execution start."},
      {"current_timestamp", "TIMESTAMP", "The execution's start instant."},
      {"execution_id", "STRING", "This execution's id."},
  };
  return kKeys;
}

std::string BuiltInContextKeyType(const std::string& name) {
  for (const auto* keys : {&OrgContextKeys(), &PlatformContextKeys()}) {
    for (const auto& key : *keys) {
      if (key.name == name) return key.type;
    }
  }
  return "";
}

std::string CurrentDateIn(const std::string& zone_name, int64_t now_ms) {
  auto zone = calc::TimeZone::Find(zone_name);
  if (!zone) throw std::invalid_argument("not an IANA time zone: " + zone_name);
  const int64_t utc_seconds = calc::FloorDiv(now_ms, 1000);
  const int64_t local_seconds = utc_seconds + zone->OffsetAt(utc_seconds);
  return calc::FormatIsoDate(calc::CivilFromDays(calc::FloorDiv(local_seconds, 86400)));
}

Json BuiltInContextValues(const CalculatorEnvironment& env, const std::string& execution_id) {
  const int64_t seconds = calc::FloorDiv(env.now_ms, 1000);
  const auto nanos = static_cast<int32_t>((env.now_ms - seconds * 1000) * 1'000'000);
  return Json{{"org_currency_name", env.org.currency_name},
              {"org_currency_symbol", env.org.currency_symbol},
              {"org_fiscal_start_date", env.org.fiscal_start_date},
              {"org_week_start", env.org.week_start},
              {"org_timezone", env.org.timezone},
              {"current_date", CurrentDateIn(env.org.timezone, env.now_ms)},
              {"current_timestamp", calc::FormatTimestamp(calc::Instant{seconds, nanos})},
              {"execution_id", execution_id}};
}

std::vector<std::string> OrgSettingsViolations(const OrgSettings& org) {
  std::vector<std::string> violations;
  if (std::string fiscal = FiscalStartViolation(org.fiscal_start_date); !fiscal.empty()) {
    violations.push_back(std::move(fiscal));
  }
  if (org.week_start != "monday" && org.week_start != "sunday") {
    violations.push_back("datapipelines.org.week-start: expected monday or sunday, got '" +
                         org.week_start + "'");
  }
  if (calc::TimeZone::LooksLikeFixedOffset(org.timezone)) {
    violations.push_back("datapipelines.org.timezone: '" + org.timezone +
                         "' is a fixed offset, not an IANA zone id (e.g. Europe/Berlin)");
  } else if (!calc::TimeZone::Find(org.timezone)) {
    violations.push_back("datapipelines.org.timezone: '" + org.timezone +
                         "' is not an IANA zone id (e.g. Europe/Berlin, UTC)");
  }
  if (IsBlank(org.currency_name)) {
    violations.push_back("datapipelines.org.currency.name: must not be blank");
  }
  if (IsBlank(org.currency_symbol)) {
    violations.push_back("datapipelines.org.currency.symbol: must not be blank");
  }
  return violations;
}

}  // namespace dp
