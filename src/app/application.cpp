#include "datapipelines/app/application.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <csignal>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "datapipelines/app/systemd_notifier.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/executor/tempdb.hpp"
#include "datapipelines/health/readiness_probe.hpp"
#include "datapipelines/http/http_client.hpp"
#include "datapipelines/http/http_server.hpp"
#include "datapipelines/lake/lake_table_service.hpp"
#include "datapipelines/lake/lake_table_store.hpp"
#include "datapipelines/limits/rate_limiter.hpp"
#include "datapipelines/mail/mail_notifier.hpp"
#include "datapipelines/mcp/mcp_http_endpoint.hpp"
#include "datapipelines/mcp/mcp_server.hpp"
#include "datapipelines/mcp/resources/datasource_resources.hpp"
#include "datapipelines/mcp/resources/execution_resources.hpp"
#include "datapipelines/mcp/resources/pipeline_resources.hpp"
#include "datapipelines/mcp/resources/template_resources.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/mcp/tools/calculator_tools.hpp"
#include "datapipelines/mcp/tools/datasource_tools.hpp"
#include "datapipelines/mcp/tools/debug_tools.hpp"
#include "datapipelines/mcp/tools/docs_tools.hpp"
#include "datapipelines/mcp/tools/endpoint_tools.hpp"
#include "datapipelines/mcp/tools/execution_tools.hpp"
#include "datapipelines/mcp/tools/lake_tools.hpp"
#include "datapipelines/mcp/tools/pipeline_tools.hpp"
#include "datapipelines/mcp/tools/semantics_tools.hpp"
#include "datapipelines/mcp/tools/template_tools.hpp"
#include "datapipelines/metrics/metrics_endpoint.hpp"
#include "datapipelines/metrics/server_metrics.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/rest/datasource_routes.hpp"
#include "datapipelines/rest/endpoint_routes.hpp"
#include "datapipelines/rest/execution_routes.hpp"
#include "datapipelines/rest/lake_routes.hpp"
#include "datapipelines/rest/pipeline_routes.hpp"
#include "datapipelines/rest/published_endpoint_handler.hpp"
#include "datapipelines/rest/rest_api.hpp"
#include "datapipelines/rest/template_routes.hpp"
#include "datapipelines/rest/workspace_routes.hpp"
#include "datapipelines/results/result_store.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/datasources/datasource_explorer.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/docs/skill_docs.hpp"
#include "datapipelines/service/endpoints/endpoint_service.hpp"
#include "datapipelines/service/executions/execution_service.hpp"
#include "datapipelines/service/executions/node_run_service.hpp"
#include "datapipelines/service/identity/account_service.hpp"
#include "datapipelines/service/identity/auth_service.hpp"
#include "datapipelines/service/identity/local_admin_seed.hpp"
#include "datapipelines/service/identity/oidc/oidc_sign_in.hpp"
#include "datapipelines/service/identity/request_authenticator.hpp"
#include "datapipelines/service/identity/workspace_admin_service.hpp"
#include "datapipelines/service/identity/workspace_service.hpp"
#include "datapipelines/service/pipelines/check_run_service.hpp"
#include "datapipelines/service/pipelines/pipeline_service.hpp"
#include "datapipelines/service/semantics/semantics_service.hpp"
#include "datapipelines/service/templates/template_service.hpp"
#include "datapipelines/store/audit_reader.hpp"
#include "datapipelines/store/audit_write_queue.hpp"
#include "datapipelines/store/endpoint_store.hpp"
#include "datapipelines/store/execution_store.hpp"
#include "datapipelines/store/learned_fact_store.hpp"
#include "datapipelines/store/mail_send_store.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/oidc_login_request_store.hpp"
#include "datapipelines/store/pipeline_store.hpp"
#include "datapipelines/ui/ui_app.hpp"

namespace dp {

std::string_view ServerVersion() { return DP_VERSION; }

namespace {

// The bare body probes read (rest-api.md §11.1, docs/rest.md): no envelope, no dependency.
HttpResponse Health(const HttpRequest&) {
  HttpResponse response;
  response.body = Json{{"status", "UP"}, {"version", std::string(ServerVersion())}}.dump();
  return response;
}

HttpServerOptions ServerOptions(const Config& config) {
  HttpServerOptions options;
  options.address = config.server_address;
  options.port = config.server_port;
  options.io_threads = config.io_threads;
  options.blocking_threads = config.blocking_threads;
  options.max_body_bytes = config.max_body_bytes;
  options.max_header_bytes = config.max_header_bytes;
  options.max_json_depth = config.max_json_depth;
  options.max_connections = config.max_connections;
  options.trusted_proxies = config.trusted_proxies;
  options.max_connections_per_client = config.max_connections_per_client;
  options.max_body_bytes_in_flight = config.max_body_bytes_in_flight;
  options.body_limit_by_path["/api/v1/auth/login"] = config.max_login_body_bytes;
  options.body_limit_by_path["/ui/login"] = config.max_login_body_bytes;
  options.idle_timeout = std::chrono::seconds(config.idle_timeout_seconds);
  options.tls_certificate_file = config.tls_certificate_file;
  options.tls_private_key_file = config.tls_private_key_file;
  options.write_timeout = std::chrono::seconds(config.write_timeout_seconds);
  options.sse_keep_alive = std::chrono::seconds(config.sse_keep_alive_seconds);
  options.refusal_drain = std::chrono::seconds(config.refusal_drain_seconds);
  options.shutdown_grace = std::chrono::seconds(config.shutdown_grace_seconds);
  return options;
}

DatasourceExplorerOptions ExplorerOptions(const Config& config, UserConcurrency* expensive) {
  DatasourceExplorerOptions options;
  options.max_cell_bytes = static_cast<std::size_t>(config.datasources_max_cell_bytes);
  options.max_payload_bytes = static_cast<std::size_t>(config.datasources_max_payload_bytes);
  options.expensive = expensive;
  return options;
}

DatasourceServiceOptions DatasourceOptions(const Config& config) {
  DatasourceServiceOptions options;
  options.duckdb_extension_directory = config.duckdb_extension_directory;
  options.duckdb_threads = config.duckdb_threads;
  options.duckdb_memory_limit_mb = config.duckdb_memory_limit_mb;
  return options;
}

PipelineServiceOptions PipelineOptions(const Config& config) {
  PipelineServiceOptions options;
  options.node_timeout_max_seconds = config.executor_node_timeout_max_seconds;
  options.max_composition_depth = config.pipelines_max_composition_depth;
  options.org = config.org;
  return options;
}

ExecutionServiceOptions ExecutionOptions(const Config& config) {
  ExecutionServiceOptions options;
  options.executor.max_parallel_nodes = static_cast<size_t>(config.executor_max_parallel_nodes);
  options.executor.node_timeout_seconds = config.executor_node_timeout_seconds;
  options.executor.execution_timeout_seconds = config.executor_execution_timeout_seconds;
  options.executor.result_max_bytes = config.result_max_size_bytes;
  options.executor.tempdb_max_memory_bytes = int64_t{config.staging_max_memory_mb} * 1024 * 1024;
  options.executor.structured_errors = config.executions_error_detail == "structured";
  options.org = config.org;
  options.ttl_default_seconds = config.result_ttl_default_seconds;
  options.ttl_min_seconds = config.result_ttl_min_seconds;
  options.ttl_max_seconds = config.result_ttl_max_seconds;
  options.page_size_rows = config.result_page_size_rows;
  options.page_max_rows = config.result_page_max_rows;
  options.max_concurrent_per_user = config.executor_max_concurrent_per_user;
  options.max_concurrent_per_instance = config.executor_max_concurrent_per_instance;
  options.max_composition_depth = config.pipelines_max_composition_depth;
  options.heartbeat_seconds = config.executor_heartbeat_seconds;
  options.idempotency_ttl_seconds = config.idempotency_ttl_seconds;
  options.disconnect_grace_seconds = config.sse_disconnect_grace_seconds;
  return options;
}

// %j: the message as the body of a JSON string, so JSON log lines stay parseable.
class JsonEscapedMessage : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    std::string escaped = Json(std::string(msg.payload.data(), msg.payload.size())).dump();
    dest.append(escaped.data() + 1, escaped.data() + escaped.size() - 1);
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<JsonEscapedMessage>();
  }
};

void LogAccess(const HttpRequest& request, int status, double millis) {
  spdlog::info("correlation_id={} method={} path={} status={} elapsed_ms={:.2f}",
               request.correlation_id, request.method, request.path, status, millis);
}

}  // namespace

struct Application::Impl {
  Config config;
  // Declared first: the services' callbacks record into it until they are gone.
  ServerMetrics metrics{ServerVersion()};
  // Readiness, stopping and watchdog for a Type=notify unit; inert outside systemd.
  SystemdNotifier systemd = SystemdNotifier::FromEnvironment(
      [environment = ProcessEnvironment()](const std::string& name) -> std::optional<std::string> {
        auto it = environment.find(name);
        return it == environment.end() ? std::nullopt : std::optional<std::string>(it->second);
      },
      static_cast<long>(::getpid()));
  // Per-user permits of the expensive calls (probe, preview, render), declared before the
  // services that hold a pointer to it.
  UserConcurrency expensive{config.max_expensive_per_user, config.expensive_wait_ms};
  std::unique_ptr<MetadataStore> store;
  std::unique_ptr<ResultStore> results;
  std::unique_ptr<RateLimiter> limiter;
  // Before the audit log: destroyed after it, so the log's last rows are still written.
  std::unique_ptr<AuditWriteQueue> audit_queue;
  std::unique_ptr<AuditLog> audit;
  std::unique_ptr<MailSendStore> mail_sends;
  std::unique_ptr<MailNotifier> mail;
  std::unique_ptr<AuthService> auth;
  std::unique_ptr<RequestAuthenticator> authenticator;
  std::unique_ptr<DatasourceService> datasources;
  std::unique_ptr<DatasourceExplorer> explorer;
  std::unique_ptr<TemplateService> templates;
  std::unique_ptr<PipelineStore> pipeline_store;
  std::unique_ptr<AuditReader> audit_reader;
  std::unique_ptr<ExecutionStore> execution_store;
  std::unique_ptr<ExecutionService> executions;
  std::unique_ptr<NodeRunService> node_runs;
  std::unique_ptr<CheckRunService> check_runs;
  std::unique_ptr<PipelineService> pipelines;
  // The template service's view of the pipelines that pin templates (built after it).
  PinSourcePort pipeline_pins{[this]() -> TemplatePinSource* { return pipelines.get(); }};
  std::unique_ptr<LearnedFactStore> fact_store;
  std::unique_ptr<SemanticsService> semantics;
  // After the execution service: destroyed first, it joins serves still running past a 202.
  std::unique_ptr<EndpointStore> endpoint_store;
  std::unique_ptr<EndpointService> endpoints;
  std::unique_ptr<PublishedEndpointHandler> published;
  std::unique_ptr<LakeTableStore> lake_store;
  std::unique_ptr<LakeTableService> lake;
  ToolCatalog catalog;
  std::string cursor_signing_key;
  std::unique_ptr<McpServer> mcp;
  std::unique_ptr<McpHttpEndpoint> mcp_endpoint;
  std::unique_ptr<MetricsEndpoint> metrics_endpoint;
  std::unique_ptr<RestApi> rest;
  std::unique_ptr<WorkspaceAdminService> workspace_admin;
  std::unique_ptr<WorkspaceService> workspace_service;
  std::unique_ptr<AccountService> account;
  std::unique_ptr<OidcLoginRequestStore> oidc_requests;
  std::unique_ptr<OidcSignIn> oidc;  // null: no OpenID provider configured
  std::unique_ptr<UiApp> ui;
  std::unique_ptr<HttpServer> server;
  ReadinessProbe readiness;

  explicit Impl(Config c) : config(std::move(c)) {
    OpenStores();
    WireMail();
    WireIdentity();
    SeedLocalAdminFromConfig();
    WireRestAndDocs();
    // Domain services: each binds its MCP tools and mounts its REST resource in its own step.
    WireTemplates();
    WireDatasources();
    WireLake();
    BindDatasourceSurfaces();
    WirePipelines();
    WireSemantics();
    WireExecutions();
    WireNodeRunsAndChecks();
    WireEndpoints();
    WireMcp();
    WireUi();
    WireServer();
  }

  // The metadata store (migrated), the result store, the shared limits and the audit log.
  void OpenStores() {
    std::filesystem::create_directories(config.data_dir);
    store = OpenMetadataStore(config.EffectiveMetadataUrl());
    int version = store->Migrate();
    spdlog::info("metadata store: {} (schema version {})", store->BackendName(), version);
    results = OpenResultStore(config.results_url,
                              std::chrono::seconds(config.results_sweep_interval_seconds));
    spdlog::info("result store: {}", results->BackendName());
    limiter = OpenRateLimiter(config.rate_limit_url, RateLimitPolicy{config.requests_per_second,
                                                                     config.requests_per_minute});
    if (config.audit_queue_capacity > 0) {
      audit_queue = std::make_unique<AuditWriteQueue>(
          store->Audit(),
          AuditWriteQueue::Options{static_cast<std::size_t>(config.audit_queue_capacity)});
    }
    audit = std::make_unique<AuditLog>(store->Audit(), audit_queue.get());
  }

  // [mail] the welcome, password-reset and New user notices (auth.md §5A.8), claimed in the
  // metadata store and audited through the audit log.
  void WireMail() {
    mail_sends = OpenMailSendStore(*store);
    mail = std::make_unique<MailNotifier>(
        MailSettings::FromConfig(config), *mail_sends,
        [this](AuditEvent event) { audit->Record(std::move(event)); });
    if (mail->enabled()) {
      spdlog::info("mail: on, through {}:{} (STARTTLS {})", config.mail_host, config.mail_port,
                   config.mail_starttls ? "required" : "off");
    } else {
      spdlog::info("mail: off (datapipelines.mail.host and from are not set)");
    }
  }

  // Who is calling: accounts, sessions, keys and the per-request authenticator.
  void WireIdentity() {
    AuthOptions auth_options;
    auth_options.cache_ttl = std::chrono::seconds(config.api_key_cache_ttl_seconds);
    auth_options.argon2_per_key_per_minute = config.api_key_verifications_per_key_per_minute;
    auth_options.argon2_per_address_per_minute =
        config.api_key_verifications_per_address_per_minute;
    auth_options.session_ttl = std::chrono::hours(config.session_ttl_hours);
    auth_options.login_throttle.per_address_per_minute = config.login_per_minute;
    auth_options.login_throttle.max_failures = config.login_lockout_max_failures;
    auth_options.login_throttle.lock_ms = int64_t{config.login_lockout_minutes} * 60 * 1000;
    auth_options.throttle_store = OpenThrottleStore(config.rate_limit_url);
    auth_options.local_accounts_enabled = config.LocalAccountsEnabled();
    auth_options.mail = mail.get();
    auth = std::make_unique<AuthService>(store->Users(), store->Workspaces(), store->Credentials(),
                                         *audit, auth_options);
    authenticator = std::make_unique<RequestAuthenticator>(auth->authentication(), *limiter,
                                                           store->Workspaces());
  }

  // The first admin's one-time password from configuration (auth.md §5A.2): seeded once, and
  // every start says when it is still unchanged or when the configured address is not the one
  // that was seeded. Never the password.
  void SeedLocalAdminFromConfig() {
    if (config.auth_local_bootstrap_password.empty() &&
        config.auth_local_bootstrap_password_hash.empty()) {
      return;
    }
    LocalAdminSeedResult seeded =
        SeedLocalAdmin(auth->records(), LocalAdminSeed{config.bootstrap_admin_email,
                                                       config.auth_local_bootstrap_password,
                                                       config.auth_local_bootstrap_password_hash});
    switch (seeded.outcome) {
      case LocalAdminSeedOutcome::kSeeded:
        spdlog::info("event=auth.local.bootstrap_seeded email={}", config.bootstrap_admin_email);
        [[fallthrough]];
      case LocalAdminSeedOutcome::kPending:
        spdlog::warn(
            "event=auth.local.one_time_credential_pending email={} (sign in and choose a "
            "password: the configured one is one-time)",
            config.bootstrap_admin_email);
        break;
      case LocalAdminSeedOutcome::kEmailMismatch:
        spdlog::warn(
            "event=auth.local.bootstrap_mismatch configured={} seeded={} (the seed fires once: "
            "sign in as the seeded address and add the other from Admin)",
            config.bootstrap_admin_email, seeded.seeded_email);
        break;
      case LocalAdminSeedOutcome::kSettled:
        break;
    }
  }

  // The REST API every domain mounts its resources on, and the agent manual's tools.
  void WireRestAndDocs() {
    const SkillDocs& docs = BuiltInSkillDocs();
    BindDocsTools(catalog, docs);
    rest = std::make_unique<RestApi>(
        *auth, *authenticator, docs,
        RestApiOptions{config.session_ttl_hours, /*secure_cookies=*/config.ClientsUseHttps()},
        [this] { return endpoints.get(); });
    workspace_service = std::make_unique<WorkspaceService>(
        auth->records(), auth->accounts(), auth->authentication(), config.auth_allowlist_domains);
    rest->Mount("/api/v1/workspaces", WorkspaceRoutes(*workspace_service));
    rest->Mount("/api/v1/auth/users", UserRoutes(*workspace_service));
  }

  void WireTemplates() {
    TemplateServiceOptions template_options;
    template_options.cache_size = static_cast<size_t>(config.template_cache_size);
    template_options.max_body_chars = static_cast<size_t>(config.template_max_body_chars);
    template_options.render.timeout_ms = config.template_render_timeout_ms;
    template_options.expensive = &expensive;
    template_options.render.max_memory_bytes =
        static_cast<size_t>(config.template_render_max_memory_mb) * 1024 * 1024;
    template_options.render.max_number_digits = config.template_render_max_number_digits;
    // Pipelines pin templates: the pipeline service is the template service's pin source.
    templates =
        std::make_unique<TemplateService>(store->Templates(), &pipeline_pins, template_options);
    BindTemplateTools(catalog, *templates);
    rest->Mount("/api/v1/templates", TemplateRoutes(*templates));
  }

  // [datasources] the registry, its pools and the explorer over them
  void WireDatasources() {
    SecretBox secrets =
        SecretBox::FromConfigOrKeyFile(config.encryption_key, config.data_dir + "/encryption.key",
                                       /*may_generate=*/!config.IsProductionMode());
    // resources/list cursors are signed with a sub-key of the shared encryption key, so a
    // cursor one instance issued pages on every other instance of the deployment (§7.3).
    cursor_signing_key = secrets.DeriveKey("mcp.resources.cursor");
    // The services built after the registry, reached once they exist.
    DatasourceServicePorts ports;
    ports.users_of = [this](const std::string& name) {
      return pipelines ? pipelines->PipelinesUsingDatasource(name) : std::vector<std::string>{};
    };
    ports.lake_tables = [this](const std::string& name) {
      return lake ? lake->TablesOf(name) : std::vector<LakeTable>{};
    };
    ports.fact_enricher = [this]() -> LearnedFactsEnricher* { return semantics.get(); };
    datasources = std::make_unique<DatasourceService>(store->Datasources(), store->Workspaces(),
                                                      *audit, std::move(secrets),
                                                      DatasourceOptions(config), std::move(ports));
    explorer =
        std::make_unique<DatasourceExplorer>(*datasources, ExplorerOptions(config, &expensive));
  }

  // [lake] the dp-lake registry: a LAKE datasource's tables are its rows (spec §6.2.29–31);
  // the bootstrap file's datasources (and their lake manifests) are registered after it.
  void WireLake() {
    lake_store = OpenLakeTableStore(*store);
    lake = std::make_unique<LakeTableService>(*lake_store, *datasources, *audit);
    BindLakeTools(catalog, *lake);
    rest->Mount("/api/v1/datasources", LakeRoutes(*lake));
    if (!config.bootstrap_datasources_file.empty()) {
      auto import_manifest = [this](const std::string& name, const std::string& url) {
        Json result = lake->ImportAsOperator(name, url);
        if (result.value("registered_count", 0) > 0) {
          spdlog::info("bootstrap: {} lake table(s) imported into {}",
                       result["registered_count"].get<int>(), name);
        }
      };
      for (const auto& name :
           datasources->BootstrapFromFile(config.bootstrap_datasources_file, import_manifest)) {
        spdlog::info("bootstrap: datasource {} registered", name);
      }
    }
  }

  void BindDatasourceSurfaces() {
    BindDatasourceTools(catalog, *datasources, *explorer);
    rest->Mount("/api/v1/datasources", DatasourceRoutes(*datasources, *explorer));
  }

  // [pipelines] pin templates and datasources, and evaluate the calculator catalog
  void WirePipelines() {
    pipeline_store = OpenPipelineStore(*store);
    audit_reader = OpenAuditReader(*store, audit_queue.get());
    PipelineServicePorts ports;
    ports.endpoints_of = [this](const std::string& pipeline_id) {
      return endpoints ? endpoints->PathsOfPipeline(pipeline_id) : std::vector<std::string>{};
    };
    ports.check_runner = [this] { return check_runs.get(); };
    pipelines = std::make_unique<PipelineService>(
        store->Templates(), store->Datasources(), *pipeline_store, *templates, explorer.get(),
        audit_reader.get(), PipelineOptions(config), std::move(ports));
    BindPipelineTools(catalog, *pipelines);
    BindCalculatorTools(catalog, config.org);
  }

  // [semantics] learned facts, served inline on the datasource reads (spec §6.2.18a)
  void WireSemantics() {
    fact_store = OpenLearnedFactStore(*store);
    semantics = std::make_unique<SemanticsService>(*fact_store, *datasources, *explorer,
                                                   *pipeline_store, *audit);
    BindSemanticsTools(catalog, *semantics);
  }

  // [executions] run pipeline versions through the executor and serve their results
  void WireExecutions() {
    execution_store = OpenExecutionStore(*store);
    ExecutionServiceOptions execution_options = ExecutionOptions(config);
    execution_options.on_finished = [this](const ExecutionRecord& record,
                                           const PipelineBody& body) {
      RecordExecution(record, body);
    };
    executions = std::make_unique<ExecutionService>(*store, *execution_store, *results, *audit,
                                                    *audit_reader, *pipelines, *templates,
                                                    *datasources, std::move(execution_options));
    executions->Start();
    BindExecutionTools(catalog, *executions);
  }

  // [node runs and release checks] one node for real; the server-run checks gating release
  void WireNodeRunsAndChecks() {
    NodeRunServiceOptions node_run_options;
    node_run_options.org = config.org;
    node_run_options.node_timeout_seconds = config.executor_node_timeout_seconds;
    node_runs = std::make_unique<NodeRunService>(store->Templates(), *audit_reader, *pipelines,
                                                 *templates, *datasources, node_run_options);
    check_runs =
        std::make_unique<CheckRunService>(*execution_store, *audit, *pipelines, *datasources);
    BindDebugTools(catalog, *node_runs, *check_runs);
    rest->Mount("/api/v1/pipelines", PipelineRoutes(*pipelines, *executions, *check_runs));
    rest->Mount("/api/v1/executions", ExecutionRoutes(*executions));
  }

  // [endpoints] released, side-effect-free pipelines served as GET /api/x/… (REST API §19)
  void WireEndpoints() {
    endpoint_store = OpenEndpointStore(*store);
    EndpointServiceOptions endpoint_options;
    endpoint_options.timeout_default_seconds = config.endpoints_timeout_default_seconds;
    endpoint_options.timeout_min_seconds = config.endpoints_timeout_min_seconds;
    endpoint_options.timeout_max_seconds = config.endpoints_timeout_max_seconds;
    endpoints = std::make_unique<EndpointService>(*endpoint_store, *pipelines, *executions,
                                                  auth->keys(), *audit, endpoint_options);
    BindEndpointTools(catalog, *endpoints);
    rest->Mount("/api/v1/endpoints", EndpointRoutes(*endpoints));
    published = std::make_unique<PublishedEndpointHandler>(*authenticator, *endpoints);
  }

  // The MCP server over the catalog every domain bound its tools into, and its resources.
  void WireMcp() {
    auto observe_tool_call = [this](std::string_view tool, std::string_view outcome,
                                    double elapsed_ms) {
      metrics.OnToolCall(tool, outcome, elapsed_ms / 1000);
    };
    mcp = std::make_unique<McpServer>(catalog, *audit, BuiltInSkillDocs(),
                                      std::string(ServerVersion()), cursor_signing_key,
                                      std::move(observe_tool_call));
    // [resources] entity kinds of spec §7.1, after the services they read exist.
    mcp->AddResourceProvider(std::make_unique<PipelineResources>(*pipelines));
    mcp->AddResourceProvider(std::make_unique<TemplateResources>(*templates));
    mcp->AddResourceProvider(std::make_unique<ExecutionResources>(*executions));
    mcp->AddResourceProvider(std::make_unique<DatasourceResources>(*datasources));
    mcp_endpoint = std::make_unique<McpHttpEndpoint>(*mcp, *authenticator);
    metrics_endpoint = std::make_unique<MetricsEndpoint>(metrics, config.metrics_token);
    AddGaugeCollectors();
  }

  // [ui] the pages for the human verbs, over the same services (issue 17)
  void WireUi() {
    workspace_admin =
        std::make_unique<WorkspaceAdminService>(auth->accounts(), workspace_service.get());
    account = std::make_unique<AccountService>(auth->accounts());
    if (!config.oidc_providers.empty()) {
      // Discovery documents, key sets and tokens are small: a larger answer is not one.
      constexpr std::size_t kMaxProviderAnswerBytes = 1 << 20;
      oidc_requests = OpenOidcLoginRequestStore(*store);
      oidc = std::make_unique<OidcSignIn>(
          config.oidc_providers,
          OidcSignInOptions{config.auth_base_url, config.auth_allowlist_domains,
                            config.bootstrap_admin_email, mail.get()},
          auth->records(), auth->authentication(), *oidc_requests,
          MakeHttpFetch(kMaxProviderAnswerBytes, /*io_timeout=*/std::chrono::seconds(10)));
    }
    ui = std::make_unique<UiApp>(
        UiServices{*auth, *authenticator, *pipelines, *templates, *datasources, *executions,
                   *check_runs, *workspace_admin, *account, oidc.get()},
        UiOptions{config.session_ttl_hours,
                  /*secure_cookies=*/config.ClientsUseHttps()});
  }

  // The HTTP server: its options, header-time admission, the router and the access log.
  void WireServer() {
    HttpServerOptions server_options = ServerOptions(config);
    // Running executions end ABORTED with a recorded reason instead of outliving the grace.
    server_options.on_shutdown = [this] {
      systemd.Notify("STOPPING=1");
      executions->Stop();
    };
    server_options.on_serving = [this] { systemd.Notify("READY=1"); };
    if (auto interval = systemd.WatchdogPingInterval()) {
      server_options.heartbeat_interval = *interval;
      server_options.heartbeat = [this] { systemd.Notify("WATCHDOG=1"); };
    }
    // Authenticate on the headers before a body is read (issue 9): a request with no valid
    // credential never makes the server buffer its body. Login is the one unauthenticated
    // body (capped by max-login-body-bytes).
    server_options.admit_headers = [this](const HttpRequest& head) -> std::optional<HttpResponse> {
      std::optional<CredentialPolicy> policy = AdmissionPolicy(head);
      if (!policy) return std::nullopt;
      try {
        authenticator->Identify(RequestCredentials::FromHeaders(head.headers), head.remote_ip,
                                *policy, head.path);
        return std::nullopt;
      } catch (const DomainError& refusal) {
        return ErrorEnvelope(refusal, head.correlation_id);
      } catch (const std::exception& e) {
        spdlog::error("correlation_id={} admission failed: {}", head.correlation_id, e.what());
        return std::nullopt;  // the request proper reports it
      }
    };
    server_options.admit_headers_inline = [this](const HttpRequest& head) {
      std::optional<CredentialPolicy> policy = AdmissionPolicy(head);
      return policy &&
             authenticator->IdentifyCached(RequestCredentials::FromHeaders(head.headers), *policy)
                 .has_value();
    };
    readiness = MakeReadinessProbe();
    server = std::make_unique<HttpServer>(
        std::move(server_options), RequestPolicy(config.allowed_hosts, config.allowed_origins),
        BuildRouter(), [this](const HttpRequest& request, int status, double millis) {
          LogAccess(request, status, millis);
          metrics.OnHttpRequest(request.method, request.path, status, millis / 1000);
        });
  }

  Router BuildRouter() {
    Router router;
    router.Add("GET", "/healthz", Health, RouteExecution::kInline);
    router.Add("GET", "/readyz", [this](const HttpRequest& request) { return Ready(request); });
    if (config.metrics_enabled) {
      router.Add("GET", "/metrics",
                 [this](const HttpRequest& r) { return metrics_endpoint->Handle(r); });
    }
    router.Add(
        "POST", "/mcp", [this](const HttpRequest& r) { return mcp_endpoint->Handle(r); },
        [this](const HttpRequest& r) { return mcp_endpoint->TryHandleInline(r); });
    router.Add("*", "/api/v1/*", [this](const HttpRequest& r) { return rest->HandleApi(r); });
    router.Add("*", "/api/x/*", [this](const HttpRequest& r) { return published->Handle(r); });
    auto skill = [this](const HttpRequest& r) { return rest->HandleSkill(r); };
    router.Add("GET", "/skill.md", skill, RouteExecution::kInline);
    router.Add("GET", "/skill/*", skill, RouteExecution::kInline);
    auto page = [this](const HttpRequest& r) { return ui->Handle(r); };
    router.Add(
        "GET", "/ui/static/*", [this](const HttpRequest& r) { return ui->HandleStatic(r); },
        RouteExecution::kInline);
    router.Add("GET", "/", page);
    // The two legs of a sign-in through an OpenID provider (auth.md §5.4).
    router.Add("GET", "/oauth2/authorization/*", page);
    router.Add("GET", "/login/oauth2/code/*", page);
    router.Add("GET", "/ui", page);
    router.Add("GET", "/ui/*", page);
    router.Add("POST", "/ui/*", page);
    return router;
  }

  // Node and execution counters from a finished execution's record (its node_stats).
  void RecordExecution(const ExecutionRecord& record, const PipelineBody& body) {
    std::map<std::string, bool> staged;
    for (const auto& node : body.nodes) staged[node.id] = node.EffectiveTarget() == "tempdb";
    for (const Json& node : record.node_stats) {
      if (!node.is_object()) continue;
      const std::string id = node.value("node_id", "");
      metrics.OnNodeFinished(node.value("type", "unknown"), node.value("status", "unknown"),
                             node.value("rows_out", int64_t{0}), staged[id]);
    }
    const double seconds = static_cast<double>(record.finished_at_ms - record.started_at_ms) / 1000;
    const int64_t rows =
        record.result.is_object() ? record.result.value("total_rows", int64_t{0}) : 0;
    metrics.OnExecutionFinished(record.status, seconds, rows);
  }

  // Gauges read at scrape time: pools, running executions, the result store, audit failures.
  void AddGaugeCollectors() {
    metrics.Registry().AddGaugeCollector([this](std::vector<GaugeSample>& out) {
      auto pools = datasources->PoolUsages();
      // One sample per pool and reading: the reading's name, help, value and type.
      struct PoolReading {
        const char* name;
        const char* help;
        double (*value)(const PoolUsage&);
        const char* type;
      };
      static constexpr PoolReading kReadings[] = {
          {"datapipelines_datasource_pool_open", "Open pooled connections (idle + leased).",
           [](const PoolUsage& p) { return double(p.open); }, "gauge"},
          {"datapipelines_datasource_pool_idle", "Idle pooled connections.",
           [](const PoolUsage& p) { return double(p.idle); }, "gauge"},
          {"datapipelines_datasource_pool_pending", "Callers waiting for a pooled connection.",
           [](const PoolUsage& p) { return double(p.waiting); }, "gauge"},
          {"datapipelines_datasource_pool_max", "The pool's maximum size.",
           [](const PoolUsage& p) { return double(p.max); }, "gauge"},
          {"datapipelines_datasource_pool_timeout_total",
           "Pool acquisitions that gave up (pool exhausted).",
           [](const PoolUsage& p) { return double(p.timeouts); }, "counter"}};
      for (const PoolReading& reading : kReadings) {
        for (const PoolUsage& pool : pools) {
          out.push_back({reading.name,
                         reading.help,
                         {{"datasource_name", pool.datasource}},
                         reading.value(pool),
                         reading.type});
        }
      }
      out.push_back({"datapipelines_executions_concurrent",
                     "Executions running on this instance.",
                     {},
                     static_cast<double>(executions->RunningCount())});
      if (auto usage = results->CurrentUsage()) {
        out.push_back({"datapipelines_result_store_bytes",
                       "Bytes held by the result store.",
                       {{"backend", results->BackendName()}},
                       static_cast<double>(usage->bytes)});
        out.push_back({"datapipelines_result_store_results",
                       "Results held by the result store.",
                       {{"backend", results->BackendName()}},
                       static_cast<double>(usage->results)});
      }
      out.push_back({"datapipelines_audit_write_failures_total",
                     "Audit rows the metadata store refused (each also logged).",
                     {},
                     static_cast<double>(audit->WriteFailures()),
                     "counter"});
      out.push_back({"datapipelines_audit_dropped_total",
                     "Audit rows dropped because the write queue was full (logged once a second).",
                     {},
                     static_cast<double>(audit->Dropped()),
                     "counter"});
    });
  }

  // Which credential a request with a body must show before its body is read; nullopt: none
  // is checked at admission (the login, the UI's own forms, the endpoint's first answer).
  static std::optional<CredentialPolicy> AdmissionPolicy(const HttpRequest& head) {
    if (head.path == "/mcp") {
      // The endpoint's own first answer (an unsupported revision) keeps its precedence.
      auto version = head.headers.Get("MCP-Protocol-Version");
      if (version && !IsSupportedProtocolVersion(*version)) return std::nullopt;
      return CredentialPolicy::kApiKeyOnly;
    }
    if (head.path.rfind("/api/v1/", 0) == 0 && head.path != "/api/v1/auth/login") {
      return CredentialPolicy::kApiKeyOrSession;
    }
    if (head.path == "/api/x" || head.path.rfind("/api/x/", 0) == 0) {
      return CredentialPolicy::kPublishedEndpoint;
    }
    return std::nullopt;
  }

  // What /readyz asks: every store a request may need, and that a staging tempdb opens.
  ReadinessProbe MakeReadinessProbe() {
    ReadinessProbe probe;
    probe.Add("metadata", [this] { return store->Ping(); });
    probe.Add("results", [this] { return results->Ping(); });
    probe.Add("rate_limiter", [this] { return limiter->Ping(); });
    probe.Add("tempdb", [] {
      Tempdb tempdb(TempdbOptions{.max_memory_bytes = 1024 * 1024});
      return true;
    });
    return probe;
  }

  HttpResponse Ready(const HttpRequest& request) {
    ReadinessProbe::Report report = readiness.Run();
    return SuccessEnvelope(std::move(report.body), request.correlation_id,
                           report.ready ? 200 : 503);
  }
};

Application::Application(Config config) : impl_(std::make_unique<Impl>(std::move(config))) {
  // A peer that closed its socket (a restarted Redis or database, a client gone) is an error on
  // that one connection, never a signal that ends the server: hiredis and the drivers write
  // with plain write(2).
  std::signal(SIGPIPE, SIG_IGN);
}
Application::~Application() = default;

void Application::Listen() { impl_->server->Listen(); }
int Application::BoundPort() const { return impl_->server->BoundPort(); }
void Application::Run() { impl_->server->Run(/*handle_signals=*/true); }
void Application::Shutdown() { impl_->server->Shutdown(); }
AuthService& Application::Auth() { return *impl_->auth; }
MailNotifier& Application::Mail() { return *impl_->mail; }
MetadataStore& Application::Store() { return *impl_->store; }
const ToolCatalog& Application::Catalog() const { return impl_->catalog; }
const McpServer& Application::Mcp() const { return *impl_->mcp; }
McpServer& Application::Mcp() { return *impl_->mcp; }
RestApi& Application::Rest() { return *impl_->rest; }

void ConfigureLogging(const Config& config) {
  auto logger = spdlog::stderr_logger_mt("datapipelines");
  if (config.log_format == "json") {
    auto formatter = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
    formatter->add_flag<JsonEscapedMessage>('j').set_pattern(
        R"({"ts":"%Y-%m-%dT%H:%M:%S.%eZ","level":"%l","logger":"%n","message":"%j"})");
    logger->set_formatter(std::move(formatter));
  } else {
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%eZ %l %v", spdlog::pattern_time_type::utc);
  }
  logger->set_level(spdlog::level::from_str(config.log_level));
  // Flushing every line costs a syscall per request; warnings flush at once, the rest each second.
  logger->flush_on(spdlog::level::warn);
  spdlog::set_default_logger(logger);
  spdlog::flush_every(std::chrono::seconds(1));
}

}  // namespace dp
