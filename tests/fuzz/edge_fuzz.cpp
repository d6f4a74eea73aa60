// libFuzzer targets for the server's edge (issue 9), one binary per target, selected at
// compile time with -DDP_EDGE_TARGET=<n>:
//   1 request bodies: the depth and NUL scans agree with the parser, ParseJsonBody never
//     throws, and every parsed object is validated against every tool's input schema;
//     the REST path / query / cookie parsing of the same bytes;
//   2 the SQL statement classifier: any text classifies, a refusal names a reason;
//   3 the connector URL parser and the jdbc_url credential rules: a URL the rules accept for
//     any dialect carries no credential-shaped component, decoded or not.
// Built and run by tests/fuzz/run_edge_fuzz.sh (ASan + UBSan), registered by cmake/fuzz.cmake
// as integration.edge_fuzz. Any crash, leak, abort or timeout fails the test.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "datapipelines/domain/domain_error.hpp"

#if DP_EDGE_TARGET == 1
#include "datapipelines/mcp/json_schema_validator.hpp"
#include "datapipelines/mcp/tool_definition.hpp"
#include "datapipelines/net/http_message.hpp"
#include "datapipelines/rest/rest_support.hpp"
#include "datapipelines/util/json_body.hpp"
#include "datapipelines/util/utf8.hpp"
#elif DP_EDGE_TARGET == 2
#include "datapipelines/domain/sql_statement_classifier.hpp"
#elif DP_EDGE_TARGET == 3
#include <algorithm>
#include <cctype>

#include "datapipelines/connectors/connector_config.hpp"
#include "datapipelines/util/ascii.hpp"
#include "service/datasources/datasource_rules.hpp"
#endif

namespace {

[[noreturn]] void Violated(const char* what) {
  __builtin_printf("edge_fuzz invariant violated: %s\n", what);
  std::abort();
}

#if DP_EDGE_TARGET == 1
const std::vector<dp::JsonSchemaValidator>& Validators() {
  static const std::vector<dp::JsonSchemaValidator> validators = [] {
    std::vector<dp::JsonSchemaValidator> out;
    for (const auto& tool : dp::AllToolDefinitions()) {
      out.emplace_back(dp::Json::parse(tool.input_schema_json));
    }
    return out;
  }();
  return validators;
}

void Target(std::string_view text) {
  constexpr int kDepth = 64;
  dp::JsonBody body = dp::ParseJsonBody(text, kDepth);
  if (body.fault == dp::JsonBodyFault::kNone || body.fault == dp::JsonBodyFault::kNulCharacter) {
    if (body.value.is_discarded()) Violated("a parsed body is discarded");
    // What the scan admitted really is at most kDepth deep.
    std::string dumped = body.value.dump(-1, ' ', false, dp::Json::error_handler_t::replace);
    if (dp::JsonNestingDepth(dumped, kDepth) > kDepth) Violated("depth scan admitted too deep");
    if (body.value.is_object()) {
      for (const auto& validator : Validators()) (void)validator.Validate(body.value);
    }
  }
  (void)dp::IsValidUtf8(text);
  dp::HttpHeaders headers;
  headers.Add("Cookie", std::string(text));
  (void)dp::CookieValue(headers, "dp_session");
  try {
    (void)dp::QueryParam(text, "name");
  } catch (const dp::DomainError&) {
  }
  try {
    auto segments = dp::PathSegmentsBelow(text, "/api/v1/datasources");
    if (segments) {
      for (const auto& s : *segments) {
        if (!dp::IsValidUtf8(s) || s.find('\0') != std::string::npos) {
          Violated("a path segment escaped the UTF-8/NUL check");
        }
      }
    }
  } catch (const dp::DomainError&) {
  }
}
#elif DP_EDGE_TARGET == 2
void Target(std::string_view text) {
  dp::SqlStatementVerdict verdict = dp::SqlStatementClassifier::Classify(text);
  if (!verdict.admitted && verdict.reason.empty()) Violated("a refusal without a reason");
}
#elif DP_EDGE_TARGET == 3
std::string Decoded(std::string_view in) {
  std::string out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '%' && i + 2 < in.size() && std::isxdigit(static_cast<unsigned char>(in[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(in[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(in.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(in[i]);
    }
  }
  return out;
}

bool CredentialName(const std::string& lower) {
  return lower.find("password") != std::string::npos || lower.find("passwd") != std::string::npos ||
         lower.find("secret") != std::string::npos ||
         (lower.size() >= 3 && lower.compare(lower.size() - 3, 3, "pwd") == 0);
}

// Every name=… in the URL: the text before a parameter's first '=' back to a delimiter, decoded,
// lowercased.
bool CarriesCredential(std::string_view url) {
  for (std::size_t eq = url.find('='); eq != std::string_view::npos; eq = url.find('=', eq + 1)) {
    std::size_t start = url.find_last_of("?&;#(),/:", eq == 0 ? 0 : eq - 1);
    start = start == std::string_view::npos ? 0 : start + 1;
    // Only the first '=' of a parameter ends its name; a later one is part of its value.
    if (start > eq || url.substr(start, eq - start).find('=') != std::string_view::npos) continue;
    std::string name = dp::AsciiLower(Decoded(url.substr(start, eq - start)));
    name.erase(0, name.find_first_not_of(" \t"));
    if (CredentialName(name)) return true;
  }
  return false;
}

void Target(std::string_view text) {
  const std::string url(text);
  try {
    (void)dp::ConnectorConfig::FromUrl(url);
  } catch (const dp::DomainError&) {
  }
  for (dp::Dialect dialect : {dp::Dialect::kPostgres, dp::Dialect::kMysql, dp::Dialect::kSqlite}) {
    dp::ConnectorConfig config;
    std::vector<dp::datasource_rules::RuleFailure> failures;
    try {
      failures = dp::datasource_rules::CheckJdbcUrl(dialect, url, config);
    } catch (const dp::DomainError&) {
      continue;
    }
    if (failures.empty() && CarriesCredential(url)) {
      Violated("an accepted jdbc_url carries a credential");
    }
  }
}
#endif

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Target(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
