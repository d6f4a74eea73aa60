#include "datapipelines/config/config.hpp"

#include "datapipelines/net/loopback_address.hpp"
#include "datapipelines/util/ip_network.hpp"
#include "datapipelines/util/mailbox.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <functional>

extern char** environ;

namespace dp {
namespace {

struct KeyBinding {
  ConfigKey key;
  std::function<void(Config&, const std::vector<std::string>&)> set_list;
  std::function<void(Config&, const std::string&)> set_scalar;
  // A list of mappings (the OIDC providers): read whole from YAML.
  std::function<void(Config&, const YAML::Node&)> set_node = nullptr;
};

constexpr std::string_view kOidcProvidersPath = "datapipelines.auth.oidc.providers";

// One provider's field by its YAML name; false when there is no such field.
bool SetProviderField(OidcProviderSettings& provider, std::string_view field,
                      const std::string& value) {
  if (field == "name") {
    provider.name = value;
  } else if (field == "client-id") {
    provider.client_id = value;
  } else if (field == "client-secret") {
    provider.client_secret = value;
  } else if (field == "issuer-uri") {
    provider.issuer_uri = value;
  } else if (field == "display-name") {
    provider.display_name = value;
  } else {
    return false;
  }
  return true;
}

void SetOidcProviders(Config& config, const YAML::Node& node) {
  if (!node.IsSequence()) {
    throw ConfigError("invalid value for '" + std::string(kOidcProvidersPath) +
                      "': expected a list of providers");
  }
  config.oidc_providers.clear();
  for (const auto& item : node) {
    if (!item.IsMap()) {
      throw ConfigError("invalid value for '" + std::string(kOidcProvidersPath) +
                        "': each provider is a mapping");
    }
    OidcProviderSettings provider;
    for (const auto& field : item) {
      const std::string name = field.first.as<std::string>();
      if (!field.second.IsScalar() ||
          !SetProviderField(provider, name, field.second.as<std::string>())) {
        throw ConfigError("unknown or invalid field '" + name + "' of an OIDC provider in '" +
                          std::string(kOidcProvidersPath) + "'");
      }
    }
    config.oidc_providers.push_back(std::move(provider));
  }
}

// DATAPIPELINES_AUTH_OIDC_PROVIDERS_<index>_<FIELD> (a secret kept out of the file, or a
// whole provider from the environment): the index addresses the list, growing it as needed.
void ApplyOidcProviderEnv(Config& config, const std::map<std::string, std::string>& env) {
  const std::string prefix = "DATAPIPELINES_AUTH_OIDC_PROVIDERS_";
  for (auto it = env.lower_bound(prefix); it != env.end() && it->first.rfind(prefix, 0) == 0;
       ++it) {
    std::string_view rest = std::string_view(it->first).substr(prefix.size());
    const auto underscore = rest.find('_');
    std::size_t index = 0;
    auto [end, ec] =
        std::from_chars(rest.data(), rest.data() + std::min(underscore, rest.size()), index);
    std::string field(underscore == std::string_view::npos ? "" : rest.substr(underscore + 1));
    std::transform(field.begin(), field.end(), field.begin(), [](unsigned char c) {
      return c == '_' ? '-' : static_cast<char>(std::tolower(c));
    });
    if (ec != std::errc() || end != rest.data() + underscore || index > 63) {
      throw ConfigError("invalid environment variable '" + it->first +
                        "': expected DATAPIPELINES_AUTH_OIDC_PROVIDERS_<index>_<field>");
    }
    if (config.oidc_providers.size() <= index) config.oidc_providers.resize(index + 1);
    if (!SetProviderField(config.oidc_providers[index], field, it->second)) {
      throw ConfigError("invalid environment variable '" + it->first + "': unknown field");
    }
  }
}

// Names that are not a provider's: the users' provider column holds them for other origins.
bool IsReservedProviderName(std::string_view name) {
  return name == "system" || name == "bootstrap" || name == "local";
}

// The base URL links are built from: an origin, never a request's.
void ValidateBaseUrl(const std::string& base) {
  if ((base.rfind("https://", 0) != 0 && base.rfind("http://", 0) != 0) || base.back() == '/') {
    throw ConfigError(
        "invalid value for 'datapipelines.auth.base-url': expected the external origin, "
        "scheme and host (and port), no trailing slash");
  }
}

void ValidateOidc(const Config& config) {
  std::vector<std::string_view> names;
  for (const auto& provider : config.oidc_providers) {
    const std::string which =
        "OIDC provider '" + provider.name + "' in '" + std::string(kOidcProvidersPath) + "'";
    if (provider.name.empty() || provider.client_id.empty() || provider.client_secret.empty() ||
        provider.issuer_uri.empty()) {
      throw ConfigError(which + ": name, client-id, client-secret and issuer-uri are required");
    }
    const bool name_ok = std::all_of(provider.name.begin(), provider.name.end(), [](char c) {
      return std::islower(static_cast<unsigned char>(c)) ||
             std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '_';
    });
    if (!name_ok || IsReservedProviderName(provider.name)) {
      throw ConfigError(which +
                        ": the name must be lowercase letters, digits, - or _, and not "
                        "system, bootstrap or local");
    }
    if (std::find(names.begin(), names.end(), provider.name) != names.end()) {
      throw ConfigError(which + ": configured twice");
    }
    names.push_back(provider.name);
    if (provider.issuer_uri.rfind("https://", 0) != 0 &&
        provider.issuer_uri.rfind("http://", 0) != 0) {
      throw ConfigError(which + ": issuer-uri must be an http(s) URL");
    }
  }
  if (!config.oidc_providers.empty()) {
    const std::string& base = config.auth_base_url;
    if (base.empty()) {
      throw ConfigError(
          "'datapipelines.auth.base-url' is required when an OIDC provider is configured: "
          "redirect URIs are built from it, never from request headers");
    }
    ValidateBaseUrl(base);
  }
}

// Mail is on exactly when host and from are set; every half-configured shape is refused at
// start naming the key, and no message ever carries a value (the password least of all).
void ValidateMail(const Config& config) {
  if (!config.mail_ops_to.empty() && config.mail_host.empty()) {
    throw ConfigError(
        "'datapipelines.mail.ops-to' is set but 'datapipelines.mail.host' is not: the New user "
        "notice would have no server to go through");
  }
  if (config.mail_host.empty() != config.mail_from.empty()) {
    throw ConfigError(
        std::string("'") +
        (config.mail_host.empty() ? "datapipelines.mail.host" : "datapipelines.mail.from") +
        "' is missing: mail needs both datapipelines.mail.host and "
        "datapipelines.mail.from");
  }
  if (!config.MailEnabled()) return;
  if (config.auth_base_url.empty()) {
    throw ConfigError(
        "'datapipelines.auth.base-url' is required when mail is on (datapipelines.mail.host "
        "and datapipelines.mail.from): the welcome mail's sign-in link is built from it");
  }
  ValidateBaseUrl(config.auth_base_url);
  if (!ParseMailbox(config.mail_from)) {
    throw ConfigError(
        "invalid value for 'datapipelines.mail.from': expected an address or "
        "Display Name <address>");
  }
  if (!config.mail_reply_to.empty() && !ParseMailbox(config.mail_reply_to)) {
    throw ConfigError(
        "invalid value for 'datapipelines.mail.reply-to': expected an address or "
        "Display Name <address>");
  }
  for (const std::string& recipient : config.mail_ops_to) {
    if (!IsMailAddress(recipient)) {
      throw ConfigError(
          "invalid value for 'datapipelines.mail.ops-to': expected addresses separated by "
          "commas");
    }
  }
  if (!config.mail_username.empty() && config.mail_password.empty()) {
    throw ConfigError(
        "'datapipelines.mail.password' is missing: datapipelines.mail.username is set");
  }
  if (config.mail_message_stream.find_first_of("\r\n") != std::string::npos) {
    throw ConfigError("invalid value for 'datapipelines.mail.message-stream': one line expected");
  }
}

// Password sign-in and its seed (auth.md §5A.2): the seed is the first admin's only, so it needs
// the admin's e-mail and password sign-in on, and exactly one of its two forms. No message
// carries a value.
void ValidateLocalAccounts(const Config& config) {
  const bool seed = !config.auth_local_bootstrap_password.empty() ||
                    !config.auth_local_bootstrap_password_hash.empty();
  if (!config.auth_local_bootstrap_password.empty() &&
      !config.auth_local_bootstrap_password_hash.empty()) {
    throw ConfigError(
        "'datapipelines.auth.local.bootstrap-password' and "
        "'datapipelines.auth.local.bootstrap-password-hash' are both set: set one");
  }
  if (seed && !config.LocalAccountsEnabled()) {
    throw ConfigError(
        "'datapipelines.auth.local.bootstrap-password' (or -hash) is set but "
        "'datapipelines.auth.local.enabled' is not true: nobody could sign in with it");
  }
  if (seed && config.bootstrap_admin_email.empty()) {
    throw ConfigError(
        "'datapipelines.auth.local.bootstrap-password' (or -hash) is set but "
        "'datapipelines.auth.bootstrap-admin-email' is not: it seeds that account");
  }
  if (!config.auth_local_bootstrap_password_hash.empty() &&
      config.auth_local_bootstrap_password_hash.rfind("$argon2id$", 0) != 0) {
    throw ConfigError(
        "invalid value for 'datapipelines.auth.local.bootstrap-password-hash': expected an "
        "Argon2id hash ($argon2id$…), as `datapipelines hash-password` prints");
  }
  if (!config.LocalAccountsEnabled() && config.oidc_providers.empty()) {
    throw ConfigError(
        "'datapipelines.auth.local.enabled' is false and no OIDC provider is configured "
        "(datapipelines.auth.oidc.providers): nobody could sign in");
  }
}

int ParseInt(const ConfigKey& key, const std::string& value, int64_t min, int64_t max) {
  int64_t parsed = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), parsed);
  if (ec != std::errc() || end != value.data() + value.size() || parsed < min || parsed > max) {
    throw ConfigError("invalid value for '" + std::string(key.path) +
                      "': expected an integer in [" + std::to_string(min) + ", " +
                      std::to_string(max) + "]");
  }
  return static_cast<int>(parsed);
}

bool ParseBool(const ConfigKey& key, const std::string& value) {
  if (value == "true") return true;
  if (value == "false") return false;
  throw ConfigError("invalid value for '" + std::string(key.path) + "': expected true or false");
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  for (char c : text + ",") {
    if (c == ',') {
      auto first = item.find_first_not_of(" \t");
      auto last = item.find_last_not_of(" \t");
      if (first != std::string::npos) out.push_back(item.substr(first, last - first + 1));
      item.clear();
    } else {
      item.push_back(c);
    }
  }
  return out;
}

#define DP_INT_KEY(path, field, min, max, desc)                                  \
  KeyBinding {                                                                   \
    ConfigKey{path, "int", desc}, nullptr, [](Config& c, const std::string& v) { \
      c.field = ParseInt(ConfigKey{path, "int", ""}, v, min, max);               \
    }                                                                            \
  }
#define DP_STRING_KEY(path, field, desc)                                                           \
  KeyBinding {                                                                                     \
    ConfigKey{path, "string", desc}, nullptr, [](Config& c, const std::string& v) { c.field = v; } \
  }
#define DP_BOOL_KEY(path, field, desc)                                            \
  KeyBinding {                                                                    \
    ConfigKey{path, "bool", desc}, nullptr, [](Config& c, const std::string& v) { \
      c.field = ParseBool(ConfigKey{path, "bool", ""}, v);                        \
    }                                                                             \
  }
#define DP_LIST_KEY(path, field, desc)                                             \
  KeyBinding {                                                                     \
    ConfigKey{path, "list", desc},                                                 \
        [](Config& c, const std::vector<std::string>& v) { c.field = v; }, nullptr \
  }

const std::vector<KeyBinding>& Bindings() {
  static const std::vector<KeyBinding> kBindings = {
      DP_STRING_KEY("datapipelines.org.currency.name", org.currency_name,
                    "The currency amounts are reported in. Context key org_currency_name."),
      DP_STRING_KEY("datapipelines.org.currency.symbol", org.currency_symbol,
                    "Rendered beside amounts. Context key org_currency_symbol."),
      DP_STRING_KEY("datapipelines.org.fiscal-start-date", org.fiscal_start_date,
                    "MM-DD, the fiscal year's first day. Context key org_fiscal_start_date."),
      DP_STRING_KEY("datapipelines.org.week-start", org.week_start,
                    "monday or sunday. Context key org_week_start."),
      DP_STRING_KEY("datapipelines.org.timezone", org.timezone,
                    "IANA zone id current_date is evaluated in. Context key org_timezone."),
      DP_STRING_KEY("server.address", server_address, "Listen address (loopback by default)."),
      DP_INT_KEY("server.port", server_port, 0, 65535, "HTTP port."),
      DP_STRING_KEY("server.tls.certificate-file", tls_certificate_file,
                    "PEM certificate chain; with private-key-file, the port serves TLS only."),
      DP_STRING_KEY("server.tls.private-key-file", tls_private_key_file,
                    "PEM private key of the certificate (reloaded with it on SIGHUP)."),
      DP_BOOL_KEY("server.tls.terminated-upstream", tls_terminated_upstream,
                  "A reverse proxy terminates TLS: allows a non-loopback bind without TLS."),
      DP_INT_KEY("datapipelines.http.io-threads", io_threads, 1, 64,
                 "Threads running the HTTP I/O event loop."),
      DP_INT_KEY("datapipelines.http.blocking-threads", blocking_threads, 1, 512,
                 "Threads for blocking work (database drivers, Argon2, rendering)."),
      DP_INT_KEY("datapipelines.http.max-body-bytes", max_body_bytes, 1024, 1 << 30,
                 "Largest accepted request body; larger requests get 413."),
      DP_INT_KEY("datapipelines.http.max-header-bytes", max_header_bytes, 1024, 1 << 20,
                 "Largest accepted request header block; larger requests get 431."),
      DP_INT_KEY("datapipelines.http.max-json-depth", max_json_depth, 2, 1024,
                 "Deepest JSON nesting accepted in a request body; deeper is refused unparsed."),
      DP_INT_KEY("datapipelines.http.max-connections", max_connections, 1, 1000000,
                 "Open connections the server keeps at once; more are answered 503 and closed."),
      DP_INT_KEY("datapipelines.http.max-connections-per-client", max_connections_per_client, 1,
                 1000000, "Open connections one client address may keep (503 beyond)."),
      DP_INT_KEY("datapipelines.http.max-body-bytes-in-flight", max_body_bytes_in_flight, 1024,
                 1 << 30, "Request body bytes buffered across all connections at once (503)."),
      DP_INT_KEY("datapipelines.http.max-login-body-bytes", max_login_body_bytes, 256, 1 << 20,
                 "Largest accepted POST /api/v1/auth/login body (413 beyond)."),
      DP_INT_KEY("datapipelines.http.idle-timeout-seconds", idle_timeout_seconds, 1, 3600,
                 "A keep-alive connection idle this long is closed."),
      DP_INT_KEY("datapipelines.http.write-timeout-seconds", write_timeout_seconds, 1, 3600,
                 "A response write that cannot complete this long closes the connection."),
      DP_INT_KEY("datapipelines.http.sse-keep-alive-seconds", sse_keep_alive_seconds, 1, 3600,
                 "An idle SSE response gets a keep-alive comment this often."),
      DP_INT_KEY("datapipelines.http.refusal-drain-seconds", refusal_drain_seconds, 0, 60,
                 "After a refusal, how long the unread upload is drained before close."),
      DP_INT_KEY("datapipelines.shutdown.grace-seconds", shutdown_grace_seconds, 0, 3600,
                 "On SIGTERM, how long in-flight requests may run before exit."),
      DP_LIST_KEY("datapipelines.http.allowed-hosts", allowed_hosts,
                  "Host header values accepted besides loopback (DNS-rebinding protection)."),
      DP_LIST_KEY("datapipelines.http.allowed-origins", allowed_origins,
                  "Origin header values accepted; a present Origin not listed gets 403."),
      DP_BOOL_KEY("datapipelines.metrics.enabled", metrics_enabled,
                  "Serve GET /metrics (Prometheus text format)."),
      DP_STRING_KEY("datapipelines.metrics.token", metrics_token,
                    "Bearer token /metrics requires; empty = loopback clients only."),
      DP_STRING_KEY("datapipelines.data-dir", data_dir,
                    "Directory for embedded state (the SQLite metadata file)."),
      DP_STRING_KEY(
          "datapipelines.metadata.url", metadata_url,
          "Metadata store: sqlite:<path> or postgresql://… (default: sqlite in data-dir)."),
      DP_STRING_KEY("datapipelines.results.url", results_url,
                    "Result store: memory[:<max-bytes>] or redis://…"),
      DP_INT_KEY("datapipelines.results.sweep-interval-seconds", results_sweep_interval_seconds, 1,
                 3600, "How often the in-memory result store drops expired results, idle or not."),
      DP_STRING_KEY("datapipelines.rate-limit.url", rate_limit_url,
                    "Rate-limit counters: memory or redis://… (shared by all instances)."),
      DP_STRING_KEY("datapipelines.db.encryption-key", encryption_key,
                    "AES-256-GCM key for datasource credentials: base64 of 32 bytes."),
      DP_STRING_KEY("datapipelines.bootstrap.datasources-file", bootstrap_datasources_file,
                    "YAML/JSON file of datasources created at start when absent."),
      DP_STRING_KEY("datapipelines.connectors.duckdb.extension-directory",
                    duckdb_extension_directory,
                    "Folder of DuckDB extensions (httpfs, iceberg) for s3:// and iceberg lake "
                    "tables; empty = none, such tables are refused."),
      DP_INT_KEY("datapipelines.connectors.duckdb.threads", duckdb_threads, 0, 1024,
                 "Worker threads of each DUCKDB/LAKE datasource's engine; 0 = one per core."),
      DP_INT_KEY("datapipelines.connectors.duckdb.memory-limit-mb", duckdb_memory_limit_mb, 0,
                 1 << 30,
                 "Memory limit of each DUCKDB/LAKE datasource's engine in MiB; 0 = DuckDB's "
                 "default (80% of RAM)."),
      DP_INT_KEY("datapipelines.datasources.max-cell-bytes", datasources_max_cell_bytes, 16,
                 1 << 30,
                 "Longest cell a sql_probe or preview returns; longer is cut and counted."),
      DP_INT_KEY("datapipelines.datasources.max-payload-bytes", datasources_max_payload_bytes, 1024,
                 1 << 30,
                 "Encoded rows of one sql_probe or preview; rows past it are not returned."),
      DP_INT_KEY("datapipelines.limits.expensive-calls-per-user", max_expensive_per_user, 1, 10000,
                 "sql_probe, preview and render calls one user may run at once."),
      DP_INT_KEY("datapipelines.limits.expensive-wait-ms", expensive_wait_ms, 0, 600000,
                 "How long a call waits for a free slot before 429."),
      DP_INT_KEY("datapipelines.templates.cache-size", template_cache_size, 0, 1000000,
                 "Parsed template versions kept in memory (LRU; 0 = parse on every render)."),
      DP_INT_KEY("datapipelines.templates.max-body-chars", template_max_body_chars, 1, 16777216,
                 "Longest template body accepted at save; longer is a syntax_error."),
      DP_INT_KEY("datapipelines.templates.render-timeout-ms", template_render_timeout_ms, 0,
                 3600000, "Wall-clock limit of one template render (0 = none)."),
      DP_INT_KEY("datapipelines.templates.render-max-memory-mb", template_render_max_memory_mb, 1,
                 65536, "Peak memory of the values one template render holds."),
      DP_INT_KEY("datapipelines.templates.render-max-number-digits",
                 template_render_max_number_digits, 1, 10000,
                 "Most digits an arithmetic result of a render may have (number_too_large)."),
      DP_INT_KEY("datapipelines.executor.node-timeout-max-seconds",
                 executor_node_timeout_max_seconds, 1, 86400,
                 "Ceiling for a node's settings.timeout_seconds; a larger value is refused."),
      DP_INT_KEY("datapipelines.executor.execution-timeout-seconds",
                 executor_execution_timeout_seconds, 1, 86400,
                 "Wall-clock bound of one execution; past it the execution is aborted."),
      DP_INT_KEY("datapipelines.executor.node-timeout-seconds", executor_node_timeout_seconds, 1,
                 86400, "A node's deadline unless its settings.timeout_seconds says otherwise."),
      DP_INT_KEY("datapipelines.executor.max-parallel-nodes", executor_max_parallel_nodes, 1, 64,
                 "Independent nodes of one execution run at once, at most this many."),
      DP_INT_KEY("datapipelines.executor.max-concurrent-executions-per-user",
                 executor_max_concurrent_per_user, 1, 10000,
                 "Root executions one user may have running at once (429 beyond)."),
      DP_INT_KEY("datapipelines.executor.max-concurrent-executions-per-instance",
                 executor_max_concurrent_per_instance, 1, 100000,
                 "Root executions this instance runs at once, all users together (429 beyond)."),
      DP_INT_KEY("datapipelines.executor.heartbeat-seconds", executor_heartbeat_seconds, 1, 3600,
                 "How often an instance proves it is alive to the crash sweep."),
      DP_INT_KEY("datapipelines.staging.max-memory-mb", staging_max_memory_mb, 1, 1048576,
                 "Memory ceiling of one execution's tempdb; settings may only lower it."),
      DP_STRING_KEY("datapipelines.executions.error-detail", executions_error_detail,
                    "full | structured: structured drops exception and sql from failures."),
      DP_INT_KEY("datapipelines.result.ttl-default-seconds", result_ttl_default_seconds, 1, 86400,
                 "How long a caller result is kept when the execute call names no TTL."),
      DP_INT_KEY("datapipelines.result.ttl-min-seconds", result_ttl_min_seconds, 1, 86400,
                 "Lower clamp of a requested result TTL."),
      DP_INT_KEY("datapipelines.result.ttl-max-seconds", result_ttl_max_seconds, 1, 604800,
                 "Upper clamp of a requested result TTL."),
      DP_INT_KEY("datapipelines.result.page-size-rows", result_page_size_rows, 1, 1000000,
                 "Rows inline in an execute result and the default result page."),
      DP_INT_KEY("datapipelines.result.page-max-rows", result_page_max_rows, 1, 10000000,
                 "Largest result page a caller may ask for."),
      DP_INT_KEY("datapipelines.result.max-size-bytes", result_max_size_bytes, 1024, 2147483647,
                 "Largest encoded caller result; a larger one fails with result.too_large."),
      DP_INT_KEY("datapipelines.endpoints.timeout-default-seconds",
                 endpoints_timeout_default_seconds, 1, 86400,
                 "A published endpoint's timeout when endpoints_create names none."),
      DP_INT_KEY("datapipelines.endpoints.timeout-min-seconds", endpoints_timeout_min_seconds, 1,
                 86400, "Lower clamp of a published endpoint's timeout_seconds."),
      DP_INT_KEY("datapipelines.endpoints.timeout-max-seconds", endpoints_timeout_max_seconds, 1,
                 86400, "Upper clamp of a published endpoint's timeout_seconds (202 past it)."),
      DP_INT_KEY("datapipelines.idempotency.ttl-seconds", idempotency_ttl_seconds, 1, 2592000,
                 "How long an execute Idempotency-Key returns its original execution."),
      DP_INT_KEY("datapipelines.sse.disconnect-grace-seconds", sse_disconnect_grace_seconds, 0,
                 3600, "A streaming REST execute whose client is gone this long is cancelled."),
      DP_INT_KEY("datapipelines.pipelines.max-composition-depth", pipelines_max_composition_depth,
                 1, 50, "Deepest chain of PIPELINE nodes a saved pipeline may compose."),
      DP_INT_KEY("datapipelines.audit.queue-capacity", audit_queue_capacity, 0, 10000000,
                 "Audit rows waiting for the writer thread (0: written inside the request)."),
      DP_INT_KEY("datapipelines.auth.api-keys.cache-ttl-seconds", api_key_cache_ttl_seconds, 0,
                 3600, "Cache TTL for validated API keys, owner liveness and issuer role."),
      DP_INT_KEY("datapipelines.auth.api-keys.verifications-per-key-per-minute",
                 api_key_verifications_per_key_per_minute, 1, 1000000,
                 "Argon2 verifications of one API key id per minute (429 beyond)."),
      DP_INT_KEY("datapipelines.auth.api-keys.verifications-per-address-per-minute",
                 api_key_verifications_per_address_per_minute, 1, 1000000,
                 "Argon2 verifications of API keys for one client address per minute."),
      DP_INT_KEY("datapipelines.auth.session.ttl-hours", session_ttl_hours, 1, 720,
                 "Lifetime of a dp_session login cookie."),
      DP_STRING_KEY("datapipelines.auth.base-url", auth_base_url,
                    "External origin (scheme://host[:port]) OIDC redirect URIs are built from."),
      KeyBinding{ConfigKey{kOidcProvidersPath, "providers",
                           "OpenID providers people sign in through: name, client-id, "
                           "client-secret, issuer-uri, display-name each."},
                 nullptr, nullptr, SetOidcProviders},
      DP_LIST_KEY("datapipelines.auth.allowlist.domains", auth_allowlist_domains,
                  "E-mail domains whose people may sign in through OIDC; empty: any."),
      DP_STRING_KEY("datapipelines.auth.bootstrap-admin-email", bootstrap_admin_email,
                    "The person made super admin when their account is first created."),
      DP_LIST_KEY("datapipelines.auth.trusted-proxies", trusted_proxies,
                  "Proxies (addresses or CIDRs) whose X-Forwarded-For names the client."),
      DP_INT_KEY("datapipelines.auth.rate-limit.login-per-minute", login_per_minute, 1, 1000000,
                 "Login attempts one client address may make per minute (429 beyond)."),
      KeyBinding{ConfigKey{"datapipelines.auth.local.enabled", "bool",
                           "Password sign-in; unset: on exactly when no OIDC provider is set."},
                 nullptr,
                 [](Config& c, const std::string& v) {
                   c.auth_local_enabled =
                       ParseBool(ConfigKey{"datapipelines.auth.local.enabled", "bool", ""}, v);
                 }},
      DP_STRING_KEY("datapipelines.auth.local.bootstrap-password", auth_local_bootstrap_password,
                    "The first admin's one-time password, seeded once (never printed)."),
      DP_STRING_KEY("datapipelines.auth.local.bootstrap-password-hash",
                    auth_local_bootstrap_password_hash,
                    "The same as an Argon2id hash (datapipelines hash-password)."),
      DP_INT_KEY("datapipelines.auth.local.lockout.max-failures", login_lockout_max_failures, 1,
                 1000, "Consecutive failed logins that lock an account."),
      DP_INT_KEY("datapipelines.auth.local.lockout.duration-minutes", login_lockout_minutes, 1,
                 10080, "How long a locked account refuses every login."),
      DP_STRING_KEY("datapipelines.mail.host", mail_host,
                    "SMTP server the notices are sent through; empty: mail off."),
      DP_INT_KEY("datapipelines.mail.port", mail_port, 1, 65535,
                 "SMTP port (587, the submission port)."),
      DP_STRING_KEY("datapipelines.mail.username", mail_username,
                    "SMTP user; empty: the server takes no credentials."),
      DP_STRING_KEY("datapipelines.mail.password", mail_password,
                    "SMTP password (never logged or printed)."),
      DP_BOOL_KEY("datapipelines.mail.starttls", mail_starttls,
                  "Require STARTTLS: a server that does not offer it is refused."),
      DP_STRING_KEY("datapipelines.mail.from", mail_from,
                    "Sender, an address or Display Name <address>; with host, mail is on."),
      DP_STRING_KEY("datapipelines.mail.reply-to", mail_reply_to,
                    "Reply-To of every message, the person users write to; empty: from."),
      DP_LIST_KEY("datapipelines.mail.ops-to", mail_ops_to,
                  "Recipients of the New user notice (comma list); empty: none."),
      DP_STRING_KEY("datapipelines.mail.message-stream", mail_message_stream,
                    "X-PM-Message-Stream header added to every message when set."),
      DP_INT_KEY("datapipelines.rate-limit.requests-per-second", requests_per_second, 1, 1000000,
                 "Per-user requests per second (REST and MCP together)."),
      DP_INT_KEY("datapipelines.rate-limit.requests-per-minute", requests_per_minute, 1, 100000000,
                 "Per-user requests per minute (REST and MCP together)."),
      DP_STRING_KEY("datapipelines.observability.logging.format", log_format,
                    "Log format: console or json."),
      DP_STRING_KEY("datapipelines.observability.logging.level", log_level,
                    "Log level: trace, debug, info, warn, error."),
  };
  return kBindings;
}

const KeyBinding* FindBinding(std::string_view path) {
  for (const auto& binding : Bindings()) {
    if (binding.key.path == path) return &binding;
  }
  return nullptr;
}

void Apply(Config& config, const KeyBinding& binding, const YAML::Node& node) {
  if (binding.set_node) {
    binding.set_node(config, node);
    return;
  }
  if (binding.set_list) {
    std::vector<std::string> items;
    if (node.IsSequence()) {
      for (const auto& item : node) items.push_back(item.as<std::string>());
    } else if (node.IsScalar()) {
      items = SplitList(node.as<std::string>());
    } else if (!node.IsNull()) {
      throw ConfigError("invalid value for '" + std::string(binding.key.path) +
                        "': expected a list");
    }
    binding.set_list(config, items);
    return;
  }
  if (!node.IsScalar()) {
    throw ConfigError("invalid value for '" + std::string(binding.key.path) +
                      "': expected a scalar");
  }
  binding.set_scalar(config, node.as<std::string>());
}

// Walks the YAML tree; every leaf must be a declared key.
void ApplyYaml(Config& config, const YAML::Node& node, const std::string& prefix) {
  if (!node.IsMap()) {
    throw ConfigError(prefix.empty() ? "config file must be a YAML mapping"
                                     : "invalid value for '" + prefix + "': expected a mapping");
  }
  for (const auto& entry : node) {
    std::string path = prefix.empty() ? entry.first.as<std::string>()
                                      : prefix + "." + entry.first.as<std::string>();
    if (const KeyBinding* binding = FindBinding(path)) {
      Apply(config, *binding, entry.second);
    } else if (entry.second.IsMap()) {
      ApplyYaml(config, entry.second, path);
    } else {
      throw ConfigError("unknown configuration key '" + path + "'");
    }
  }
}

void Validate(const Config& config) {
  // The org checks report together: each value is in every Context (configuration §7).
  if (const auto org = OrgSettingsViolations(config.org); !org.empty()) {
    std::string message = "invalid organisation settings:";
    for (const auto& violation : org) message += "\n  " + violation;
    throw ConfigError(message);
  }
  if (config.executions_error_detail != "full" && config.executions_error_detail != "structured") {
    throw ConfigError(
        "invalid value for 'datapipelines.executions.error-detail': expected full or structured");
  }
  if (config.result_ttl_min_seconds > config.result_ttl_max_seconds) {
    throw ConfigError("'datapipelines.result.ttl-min-seconds' exceeds ttl-max-seconds");
  }
  if (config.endpoints_timeout_min_seconds > config.endpoints_timeout_max_seconds) {
    throw ConfigError("'datapipelines.endpoints.timeout-min-seconds' exceeds timeout-max-seconds");
  }
  if (config.endpoints_timeout_default_seconds < config.endpoints_timeout_min_seconds ||
      config.endpoints_timeout_default_seconds > config.endpoints_timeout_max_seconds) {
    throw ConfigError(
        "'datapipelines.endpoints.timeout-default-seconds' is outside timeout-min/max-seconds");
  }
  if (config.log_format != "console" && config.log_format != "json") {
    throw ConfigError(
        "invalid value for 'datapipelines.observability.logging.format': expected console or json");
  }
  static constexpr std::array kLevels = {"trace", "debug", "info", "warn", "error"};
  if (std::find(kLevels.begin(), kLevels.end(), config.log_level) == kLevels.end()) {
    throw ConfigError("invalid value for 'datapipelines.observability.logging.level'");
  }
  if (config.tls_certificate_file.empty() != config.tls_private_key_file.empty()) {
    throw ConfigError(std::string("'") +
                      (config.tls_certificate_file.empty() ? "server.tls.certificate-file"
                                                           : "server.tls.private-key-file") +
                      "' is missing: TLS needs both the certificate and its private key");
  }
  // All MCP traffic over TLS (spec §13): a server reachable beyond this host serves TLS itself
  // or says that a proxy in front of it does.
  if (!IsLoopbackAddress(config.server_address) && !config.ServesTls() &&
      !config.tls_terminated_upstream) {
    throw ConfigError("'server.address' " + config.server_address +
                      " is not loopback and TLS is off: set server.tls.certificate-file and "
                      "server.tls.private-key-file, or server.tls.terminated-upstream: true when "
                      "a reverse proxy terminates TLS");
  }
  if (config.data_dir.empty()) {
    throw ConfigError("invalid value for 'datapipelines.data-dir': must not be empty");
  }
  const std::string& results = config.results_url;
  if (!(results.empty() || results.rfind("memory", 0) == 0 || results.rfind("redis://", 0) == 0)) {
    throw ConfigError("invalid value for 'datapipelines.results.url': expected memory or redis://");
  }
  ValidateOidc(config);
  ValidateMail(config);
  ValidateLocalAccounts(config);
  for (const std::string& proxy : config.trusted_proxies) {
    if (!IpNetwork::Parse(proxy)) {
      throw ConfigError("invalid value for 'datapipelines.auth.trusted-proxies': '" + proxy +
                        "' is not an IP address or CIDR");
    }
  }
  const std::string& limits = config.rate_limit_url;
  if (!(limits.empty() || limits == "memory" || limits.rfind("redis://", 0) == 0)) {
    throw ConfigError(
        "invalid value for 'datapipelines.rate-limit.url': expected memory or redis://");
  }
}

}  // namespace

std::string Config::EffectiveMetadataUrl() const {
  return metadata_url.empty() ? "sqlite:" + data_dir + "/metadata.db" : metadata_url;
}

bool Config::ServesTls() const { return !tls_certificate_file.empty(); }

bool Config::IsProductionMode() const { return EffectiveMetadataUrl().rfind("postgres", 0) == 0; }

std::span<const ConfigKey> ConfigKeys() {
  static const std::vector<ConfigKey> kKeys = [] {
    std::vector<ConfigKey> keys;
    for (const auto& binding : Bindings()) keys.push_back(binding.key);
    return keys;
  }();
  return kKeys;
}

std::string EnvVarForKey(std::string_view path) {
  std::string out;
  for (char c : path) {
    out.push_back(c == '.' || c == '-'
                      ? '_'
                      : static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  }
  return out;
}

Config LoadConfig(const std::string& yaml_path, const std::map<std::string, std::string>& env) {
  Config config;
  if (!yaml_path.empty()) {
    YAML::Node root;
    try {
      root = YAML::LoadFile(yaml_path);
    } catch (const YAML::Exception& e) {
      throw ConfigError("cannot read config file '" + yaml_path + "': " + e.msg);
    }
    if (!root.IsNull()) {
      try {
        ApplyYaml(config, root, "");
      } catch (const YAML::Exception& e) {
        throw ConfigError("invalid config file '" + yaml_path + "': " + e.msg);
      }
    }
  }
  for (const auto& binding : Bindings()) {
    auto it = env.find(EnvVarForKey(binding.key.path));
    if (it == env.end() || binding.set_node) continue;
    if (binding.set_list) {
      binding.set_list(config, SplitList(it->second));
    } else {
      binding.set_scalar(config, it->second);
    }
  }
  ApplyOidcProviderEnv(config, env);
  Validate(config);
  return config;
}

std::map<std::string, std::string> ProcessEnvironment() {
  std::map<std::string, std::string> env;
  for (char** entry = environ; entry && *entry; ++entry) {
    std::string_view text(*entry);
    auto eq = text.find('=');
    if (eq != std::string_view::npos) env.emplace(text.substr(0, eq), text.substr(eq + 1));
  }
  return env;
}

}  // namespace dp
