#pragma once
// The §11.4 portability heuristics: values that name one environment (hosts, IPs, JDBC URLs,
// credentials, UUIDs, paths, bare environment names) have no place in a portable body.
#include <optional>
#include <string>
#include <string_view>

namespace dp {

// A scanned value longer than this cannot be a hostname/URL/UUID/credential and passes
// un-flagged (§12.2 crash-safety note); the scanners below are linear hand-written loops.
inline constexpr std::size_t kEnvScanMaxLength = 512;

// The name of the heuristic `value` trips ("jdbc_url", "host_port", "hostname", "ip_address",
// "uuid", "credential", "absolute_path", "environment_literal"), or nullopt.
std::optional<std::string> EnvSpecificPattern(std::string_view value);

}  // namespace dp
