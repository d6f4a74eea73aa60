#pragma once
// The Context keys every pipeline can reference without declaring anything (calculators.md §1):
// the deployment's org_* values (datapipelines.org.*) and the platform keys.
#include <cstdint>
#include <string>
#include <vector>

#include "datapipelines/util/json.hpp"

namespace dp {

// datapipelines.org.* (configuration §3.21).
struct OrgSettings {
  std::string currency_name = "Dollar";
  std::string currency_symbol = "$";
  std::string fiscal_start_date = "01-01";  // MM-DD
  std::string week_start = "monday";        // monday | sunday
  std::string timezone = "UTC";             // IANA zone id
};

struct ContextKeyInfo {
  std::string name;  // "org_currency_name", "current_date", ...
  std::string type;  // canonical type name
  std::string description;
};

// org_* keys first, then current_date, current_timestamp, execution_id.
const std::vector<ContextKeyInfo>& OrgContextKeys();
const std::vector<ContextKeyInfo>& PlatformContextKeys();
// The type of an org or platform key; "" when `name` is neither.
std::string BuiltInContextKeyType(const std::string& name);

// What an evaluation may read besides its inputs: the clock and the org settings.
struct CalculatorEnvironment {
  int64_t now_ms = 0;  // the execution's start instant (epoch ms, UTC)
  OrgSettings org;
};

// The org and platform tier values of one execution, in wire form
// (current_date "YYYY-MM-DD" in org.timezone; current_timestamp ISO-8601 UTC with Z).
Json BuiltInContextValues(const CalculatorEnvironment& env, const std::string& execution_id);

// Every defect in `org` (configuration §7, "Organisation"), each naming its property — empty
// when the settings are valid. All are reported together: a wrong one is a wrong number in
// every report. fiscal_start_date is MM-DD and a day the calendar has (month names refused
// with a message naming MM-DD), week_start monday|sunday, timezone an IANA zone id (not a
// fixed offset), currency name and symbol non-blank.
std::vector<std::string> OrgSettingsViolations(const OrgSettings& org);

// `date` ("YYYY-MM-DD") as it is in `zone` at epoch millisecond `now_ms`. Throws
// std::invalid_argument for a zone that is not an IANA id.
std::string CurrentDateIn(const std::string& zone, int64_t now_ms);

}  // namespace dp
