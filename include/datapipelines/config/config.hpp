#pragma once
// Server configuration: YAML file + environment overrides (configuration.md §1 derivation:
// `datapipelines.a.b-c` ↔ DATAPIPELINES_A_B_C, `server.port` ↔ SERVER_PORT).
// Every key is declared once in ConfigKeys(); docs and the example file are checked
// against that table by tests.
#include <cstdint>
#include <map>
#include <span>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/calculators/calculator_context.hpp"

namespace dp {

// One OpenID provider people sign in through (auth.md §5.1): the registration name is used in
// its URLs and stored as the users' provider.
struct OidcProviderSettings {
  std::string name;
  std::string client_id;
  std::string client_secret;
  std::string issuer_uri;
  std::string display_name;
};

struct Config {
  // server / http
  std::string server_address = "127.0.0.1";
  int server_port = 8080;
  std::string tls_certificate_file;  // both set = the port serves TLS only
  std::string tls_private_key_file;
  bool tls_terminated_upstream = false;
  bool metrics_enabled = true;
  std::string metrics_token;  // empty: /metrics answers loopback clients only  // a proxy
                              // terminates TLS (non-loopback bind allowed)
  int io_threads = 2;
  int blocking_threads = 16;
  int64_t max_body_bytes = 1 << 20;
  int64_t max_header_bytes = 16 * 1024;
  int max_json_depth = 64;
  int max_connections = 4096;
  int max_connections_per_client = 256;
  int64_t max_body_bytes_in_flight = 64 << 20;
  int64_t max_login_body_bytes = 8192;
  int idle_timeout_seconds = 60;
  int write_timeout_seconds = 30;
  int sse_keep_alive_seconds = 15;
  int refusal_drain_seconds = 2;
  int shutdown_grace_seconds = 20;
  std::vector<std::string> allowed_hosts;    // in addition to loopback names
  std::vector<std::string> allowed_origins;  // exact origins, e.g. https://app.example.com
  // storage
  std::string data_dir = ".data";
  std::string metadata_url;  // empty = sqlite:<data_dir>/metadata.db
  std::string results_url = "memory";
  int results_sweep_interval_seconds = 10;  // how often the memory store drops expired results
  std::string rate_limit_url = "memory";
  // datasources (datasources.md §7.1, §8A)
  std::string encryption_key;              // base64 of 32 bytes; "" = embedded key file
  std::string bootstrap_datasources_file;  // "" = none
  std::string duckdb_extension_directory;  // "" = none: s3:// and iceberg lake tables refused
  int duckdb_threads = 0;                  // DUCKDB/LAKE engine worker threads; 0 = one per core
  int duckdb_memory_limit_mb = 0;          // DUCKDB/LAKE engine memory limit; 0 = DuckDB's 80%
  int64_t datasources_max_cell_bytes = 64 * 1024;
  int64_t datasources_max_payload_bytes = 4 * 1024 * 1024;
  // templates (configuration §3.9)
  int template_cache_size = 500;
  int template_max_body_chars = 262144;
  int template_render_timeout_ms = 5000;
  int template_render_max_memory_mb = 256;
  int template_render_max_number_digits = 10000;
  // per-user concurrency of expensive calls (probe, preview, render)
  int max_expensive_per_user = 4;
  int expensive_wait_ms = 2000;
  // pipelines (configuration §3.2, pipeline-contract §4.11, §12.9)
  int executor_node_timeout_max_seconds = 900;
  int pipelines_max_composition_depth = 5;
  // the executor and results (configuration §3.2, §3.3, §3.11)
  int executor_execution_timeout_seconds = 600;
  int executor_node_timeout_seconds = 300;
  int executor_max_parallel_nodes = 4;
  int executor_max_concurrent_per_user = 10;
  int executor_max_concurrent_per_instance = 100;
  int executor_heartbeat_seconds = 15;
  int staging_max_memory_mb = 1024;
  std::string executions_error_detail = "full";  // full | structured
  int result_ttl_default_seconds = 300;
  int result_ttl_min_seconds = 60;
  int result_ttl_max_seconds = 3600;
  int result_page_size_rows = 1000;
  int result_page_max_rows = 100000;
  int endpoints_timeout_default_seconds = 30;  // published endpoints (REST API §19.2)
  int endpoints_timeout_min_seconds = 1;
  int endpoints_timeout_max_seconds = 300;
  int result_max_size_bytes = 104857600;
  int idempotency_ttl_seconds = 86400;
  int sse_disconnect_grace_seconds = 30;
  // audit: rows waiting for the writer thread; 0 writes each row inside the request
  int audit_queue_capacity = 10000;
  // auth
  int api_key_cache_ttl_seconds = 60;
  int api_key_verifications_per_key_per_minute = 30;
  int api_key_verifications_per_address_per_minute = 120;
  int session_ttl_hours = 8;
  // Single sign-on (auth.md §4–§5): the external origin redirect URIs are built from, the
  // providers, the e-mail domains allowed to sign in (empty: any), the first admin's e-mail.
  std::string auth_base_url;
  std::vector<OidcProviderSettings> oidc_providers;
  std::vector<std::string> auth_allowlist_domains;
  std::string bootstrap_admin_email;
  std::vector<std::string> trusted_proxies;  // CIDRs whose X-Forwarded-For names the client
  int login_per_minute = 10;
  int login_lockout_max_failures = 5;
  int login_lockout_minutes = 15;
  // Password sign-in (auth.md §5A): unset = on exactly when no OIDC provider is configured, so
  // a bare server is usable with no identity provider and a single-sign-on deployment admits
  // passwords only when it says so. The bootstrap password seeds the first admin's one-time
  // password, once (the hash form keeps the password out of the file); never printed.
  std::optional<bool> auth_local_enabled;
  std::string auth_local_bootstrap_password;
  std::string auth_local_bootstrap_password_hash;
  bool LocalAccountsEnabled() const { return auth_local_enabled.value_or(oidc_providers.empty()); }
  // Outbound mail (configuration §3.27): on exactly when host and from are both set — there
  // is no flag that could disagree with them. The password is never printed by anything.
  std::string mail_host;
  int mail_port = 587;  // the submission port
  std::string mail_username;
  std::string mail_password;
  bool mail_starttls = true;             // required, not opportunistic
  std::string mail_from;                 // an address or `Display Name <address>`
  std::string mail_reply_to;             // empty: from
  std::vector<std::string> mail_ops_to;  // the "New user" notice's recipients; empty: none
  std::string mail_message_stream;       // X-PM-Message-Stream on every message when set
  // rate limiting
  int requests_per_second = 100;
  int requests_per_minute = 1000;
  // observability
  std::string log_format = "console";  // console | json
  std::string log_level = "info";
  // organisation (configuration §3.21): enters every execution Context as org_*
  OrgSettings org;

  // The effective metadata URL (the embedded default when unset).
  std::string EffectiveMetadataUrl() const;
  // Production mode = a PostgreSQL metadata store (several instances, real secrets): no
  // generated key files, every secret must be configured.
  bool IsProductionMode() const;
  bool ServesTls() const;
  // Clients reach the server over HTTPS (native TLS or a terminating proxy): cookies are Secure.
  bool ClientsUseHttps() const { return ServesTls() || tls_terminated_upstream; }
  // Mail is configured: the notices are sent instead of skipped.
  bool MailEnabled() const { return !mail_host.empty() && !mail_from.empty(); }
};

// One declared configuration key.
struct ConfigKey {
  std::string_view path;         // YAML path, e.g. "datapipelines.http.max-body-bytes"
  std::string_view kind;         // "string" | "int" | "list"
  std::string_view description;  // one line, for docs
};

std::span<const ConfigKey> ConfigKeys();
// "datapipelines.http.max-body-bytes" → "DATAPIPELINES_HTTP_MAX_BODY_BYTES".
std::string EnvVarForKey(std::string_view path);

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Loads defaults, then the YAML file (when path is non-empty), then environment overrides,
// then validates. Throws ConfigError naming the offending key.
Config LoadConfig(const std::string& yaml_path, const std::map<std::string, std::string>& env);
// The process environment as a map (for LoadConfig).
std::map<std::string, std::string> ProcessEnvironment();

}  // namespace dp
