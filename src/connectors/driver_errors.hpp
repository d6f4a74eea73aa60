#pragma once
// Translating driver failures to the catalogued DomainErrors, with credentials scrubbed
// and driver text bounded.
#include <string>
#include <string_view>

#include "datapipelines/connectors/connector_config.hpp"
#include "datapipelines/domain/domain_error.hpp"

namespace dp::driver_errors {

// Replaces every occurrence of `secret` (when non-empty) with "***" and trims to 500 chars.
std::string Scrub(std::string_view message, const std::string& secret);

// pipeline.execution.datasource_unreachable naming the datasource safely.
DomainError Unreachable(const ConnectorConfig& config, std::string_view driver_message);

// Classifies a refused statement: permission → datasource.table_forbidden, connection loss
// (SQLSTATE class 08) → datasource_unreachable, else pipeline.node.query_execution_failed.
DomainError StatementFailed(const ConnectorConfig& config, std::string_view sqlstate,
                            int vendor_code, std::string_view driver_message);

// query_execution_failed with details.reason "timeout" / "cancelled".
DomainError TimedOut(int timeout_ms);
DomainError Cancelled();

}  // namespace dp::driver_errors
