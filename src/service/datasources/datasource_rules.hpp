#pragma once
// The datasource save-time rules (datasources.md §3.3, §5.6, §9) and the small pure helpers
// the datasource service shares between its registry, catalog and probe halves.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/connectors/connector_config.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_code.hpp"
#include "datapipelines/util/json.hpp"

namespace dp::datasource_rules {

// One failed rule; every failure of a save is collected before refusing (§6.1).
struct RuleFailure {
  ErrorCode code;
  std::string field;
  std::string message;  // never carries a credential
};

// [a-z0-9_-]{1,63}, and not the reserved tempdb.
std::optional<RuleFailure> CheckName(std::string_view name);
// jdbc:<scheme>:… for the dialect, parsable, no userinfo, no refused or credential key.
// On success fills `config` (dialect, host, port, database, path, options).
std::vector<RuleFailure> CheckJdbcUrl(Dialect dialect, const std::string& url,
                                      ConnectorConfig& config);
// properties: only hikari/jdbc; hikari accepted by PoolSettings; jdbc a flat string map
// without refused/credential/server-managed keys. Fills config.pool and config.options.
std::vector<RuleFailure> CheckProperties(Dialect dialect, const Json& properties,
                                         ConnectorConfig& config);
// Trim, lowercase, drop blanks, dedupe; entries outside [a-z0-9_$#] are failures.
std::vector<std::string> NormalizeIncludeSchemas(const Json& value,
                                                 std::vector<RuleFailure>& failures);
// True when a driver property / URL key is refused for the dialect (§5.6).
bool IsRefusedKey(Dialect dialect, std::string_view key);

// The listed name closest to `target` (case-insensitive edit distance), when close enough.
std::optional<std::string> Nearest(const std::string& target,
                                   const std::vector<std::string>& candidates);

// The connector-side failure as the datasource tools report it (datasources.md §7A): a lost
// or refused connection is datasource_unreachable naming only the datasource (driver text
// stays off the wire — datasources_test shows it); everything else keeps its code with the
// password scrubbed from message and details.
DomainError Translate(const DomainError& error, const std::string& datasource,
                      const ConnectorConfig& config);

}  // namespace dp::datasource_rules
