#include "datapipelines/service/executions/execution_service.hpp"

#include <charconv>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <condition_variable>
#include <limits>
#include <map>
#include <optional>
#include <thread>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/executor/execution_cancellation.hpp"
#include "datapipelines/executor/execution_context.hpp"
#include "datapipelines/executor/execution_environment.hpp"
#include "datapipelines/pipeline/pipeline_body_parser.hpp"
#include "datapipelines/pipeline/validation_problems.hpp"
#include "datapipelines/results/result_store.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/service/pipelines/pipeline_service.hpp"
#include "datapipelines/service/templates/template_service.hpp"
#include "datapipelines/store/audit_reader.hpp"
#include "datapipelines/store/execution_store.hpp"
#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/crypto.hpp"
#include "render_before_run.hpp"
#include "result_encoding.hpp"

namespace dp {
namespace {

constexpr const char* kRunning = "RUNNING";

// A terminal failure as the error the caller sees: the record's code and message, the record
// itself attached (spec §6.3), so no second call is needed to diagnose it.
DomainError FailureError(const ExecutionRecord& record) {
  const Json& e = record.error;
  std::string code_text = e.value("code", std::string(errc::kExecutionAborted.code));
  ErrorCode code = errc::kExecutionAborted;
  for (const ErrorCode& known : errc::All()) {
    if (known.code == code_text) code = known;
  }
  Json extra = e;
  extra.erase("code");
  extra.erase("message");
  Json details = extra.contains("details") ? extra["details"] : Json();
  extra.erase("details");
  extra["execution_id"] = record.id;
  extra["status"] = record.status;
  extra["node_stats"] = record.node_stats;
  DomainError error(code, e.value("message", "The execution did not succeed."), std::move(details));
  error.WithRecord(std::move(extra));
  return error;
}

// The append-only event log of one execution (rest-api §6.4), numbered in emission order.
class EventLog {
 public:
  using Listener = std::function<void(int64_t seq, const std::string& type, const Json& data)>;
  EventLog(ExecutionStore& store, std::string execution_id, std::string correlation_id,
           Listener listener)
      : store_(store),
        id_(std::move(execution_id)),
        correlation_id_(std::move(correlation_id)),
        listener_(std::move(listener)) {}

  void Append(const std::string& type, Json data) noexcept {
    try {
      data["correlation_id"] = correlation_id_;
      std::lock_guard lock(mutex_);
      ++seq_;
      if (listener_) listener_(seq_, type, data);
      store_.AppendEvent(ExecutionEvent{id_, seq_, type, std::move(data), NowMs()});
    } catch (const std::exception& error) {
      // The log is for replay; losing an event must not fail the execution.
      spdlog::warn("correlation_id={} execution {}: event {} not recorded: {}", correlation_id_,
                   id_, type, error.what());
    }
  }

 private:
  ExecutionStore& store_;
  std::string id_;
  std::string correlation_id_;
  Listener listener_;
  std::mutex mutex_;
  int64_t seq_ = 0;
};

// rest-api §6.8: a streaming caller that disconnects cancels its execution once the grace
// period passes (there is no resumption).
class DisconnectWatch {
 public:
  DisconnectWatch(std::function<bool()> gone, std::shared_ptr<ExecutionCancellation> cancellation,
                  std::chrono::seconds grace) {
    if (!gone) return;
    thread_ = std::thread([this, gone = std::move(gone), cancellation, grace] {
      std::unique_lock lock(mutex_);
      std::optional<std::chrono::steady_clock::time_point> since;
      while (!cv_.wait_for(lock, std::chrono::milliseconds(250), [this] { return done_; })) {
        if (!gone()) continue;
        if (!since) since = std::chrono::steady_clock::now();
        if (std::chrono::steady_clock::now() - *since >= grace) {
          cancellation->Abort({AbortKind::kCancelled,
                               "The client's event stream disconnected and did not return."});
          return;
        }
      }
    });
  }
  ~DisconnectWatch() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

void AppendTerminalEvents(EventLog& events, const ExecutionRecord& record,
                          const ExecutionOutcome& outcome) {
  Json base{{"execution_id", record.id},
            {"status", record.status},
            {"duration_ms", record.finished_at_ms - record.started_at_ms},
            {"node_stats", record.node_stats}};
  if (record.result.is_object()) {
    events.Append("data_ready", {{"execution_id", record.id},
                                 {"schema", record.result["schema"].value("schema", Json::array())},
                                 {"total_rows", record.result["total_rows"]},
                                 {"result_url", ExecutionService::ResultUrl(record.id)},
                                 {"ttl_seconds", record.result["ttl_seconds"]}});
  }
  if (outcome.status == "SUCCESS") {
    events.Append("pipeline_completed", std::move(base));
  } else if (outcome.status == "FAILED") {
    base["error"] = record.error;
    events.Append("pipeline_failed", std::move(base));
  } else {
    base["reason"] = record.abort_reason;
    events.Append("execution_aborted", std::move(base));
  }
}

}  // namespace

// The executor's port onto the services, bound to one execution family's workspace.
class ExecutionService::Environment : public ExecutionEnvironment {
 public:
  Environment(ExecutionService& service, const Principal& principal, ExecutionRecord& record,
              int depth)
      : service_(service), principal_(principal), record_(record), depth_(depth) {}

  std::string Render(const TemplateRef& ref, const Json& model) override {
    return service_.templates_.RenderPinned(principal_.workspace_id, ref.id,
                                            static_cast<int>(ref.version), model);
  }

  ExecutionSource Source(const std::string& name) override {
    auto target = service_.datasources_.ResolveForExecution(principal_.workspace_id, name);
    return ExecutionSource{target.name, target.dialect, target.readonly, target.connector};
  }

  ChildRun RunChild(const PipelineNode& node, const Json& parameters, RowSink* sink,
                    ExecutionCancellation& parent) override {
    if (depth_ + 1 > service_.options_.max_composition_depth) {
      throw DomainError(
          errc::kNodeCompositionDepthExceeded,
          "Pipelines compose deeper than datapipelines.pipelines."
          "max-composition-depth at run time.",
          Json{{"node", node.id}, {"max_depth", service_.options_.max_composition_depth}});
    }
    auto child = service_.pipelines_.ResolveChild(principal_.workspace_id, node.child->name,
                                                  static_cast<int>(node.child->version));
    ExecutionRecord record;
    record.id = NewUuid();
    record.workspace_id = principal_.workspace_id;
    record.pipeline_id = child.entity.id;
    record.pipeline_name = child.entity.name;
    record.pipeline_version = child.version.version;
    record.version_status = child.version.status;
    record.triggered_by = principal_.user_id;
    record.key_id = principal_.key_id;
    record.via = "pipeline_node";
    record.correlation_id = record_.correlation_id;
    record.parent_execution_id = record_.id;
    record.parent_node_id = node.id;
    record.root_execution_id =
        record_.root_execution_id.empty() ? record_.id : record_.root_execution_id;
    auto cancellation = std::make_shared<ExecutionCancellation>();
    parent.Link(cancellation);
    ExecutionOutcome outcome;
    try {
      outcome = service_.RunRecorded(principal_, record, child.version.body, parameters,
                                     cancellation, std::chrono::seconds(60), sink, depth_ + 1);
    } catch (...) {
      parent.Unlink(cancellation);
      throw;
    }
    parent.Unlink(cancellation);
    if (outcome.status != "SUCCESS") {
      throw DomainError(errc::kNodeChildExecutionFailed,
                        "Child pipeline " + child.entity.name + " v" +
                            std::to_string(child.version.version) + " ended " + outcome.status +
                            ": " + outcome.error.value("message", ""),
                        Json{{"child_execution_id", record.id},
                             {"child_code", outcome.error.value("code", "")},
                             {"node", node.id}});
    }
    return ChildRun{record.id, 0};
  }

 private:
  ExecutionService& service_;
  const Principal& principal_;
  ExecutionRecord& record_;
  int depth_;
};

ExecutionService::ExecutionService(MetadataStore& metadata, ExecutionStore& executions,
                                   ResultStore& results, AuditLog& audit, AuditReader& audit_reader,
                                   PipelineService& pipelines, TemplateService& templates,
                                   DatasourceService& datasources, ExecutionServiceOptions options)
    : metadata_(metadata),
      executions_(executions),
      results_(results),
      audit_(audit),
      audit_reader_(audit_reader),
      pipelines_(pipelines),
      templates_(templates),
      datasources_(datasources),
      options_(std::move(options)),
      instance_id_(NewUuid()) {}

ExecutionService::~ExecutionService() { Stop(); }

ExecutionListQuery ExecutionListQuery::FromJson(const Json& arguments, ListWindowRules window,
                                                StartedBounds bounds) {
  ExecutionListQuery query;
  query.pipeline_id = OptionalStringField(arguments, "pipeline_id");
  query.status = OptionalStringField(arguments, "status");
  if (bounds == StartedBounds::kRead) {
    if (auto after = OptionalStringField(arguments, "started_after")) {
      query.started_after_ms = ParseTimeBound(*after, "started_after");
    }
    if (auto before = OptionalStringField(arguments, "started_before")) {
      query.started_before_ms = ParseTimeBound(*before, "started_before");
    }
  }
  query.window = ListWindow::FromJson(arguments, window);
  return query;
}

int64_t ExecutionListQuery::ParseTimeBound(std::string_view text, std::string_view field) {
  std::string whole(text);
  int64_t millis = 0;
  // "…:SS.fffZ": the fraction is the records' own spelling (FormatIso8601Ms); 1 to 3 digits.
  if (size_t dot = whole.find('.'); dot != std::string::npos && whole.ends_with('Z')) {
    std::string fraction = whole.substr(dot + 1, whole.size() - dot - 2);
    bool digits =
        !fraction.empty() && fraction.size() <= 3 &&
        std::all_of(fraction.begin(), fraction.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits) {
      fraction.resize(3, '0');
      millis = std::stoi(fraction);
      whole = whole.substr(0, dot) + "Z";
    }
  }
  std::optional<int64_t> seconds = ParseIso8601Utc(whole);
  if (!seconds) {
    throw DomainError(errc::kRequestInvalid,
                      "'" + std::string(field) +
                          "' must be an ISO-8601 UTC timestamp such as 2026-12-01T09:30:00Z.",
                      Json{{"field", std::string(field)}});
  }
  return *seconds + millis;
}

int ExecutionService::ParseResultTtlHeader(std::string_view text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw DomainError(errc::kRequestInvalid,
                      "'DP-Result-TTL-Seconds' must be an integer number of seconds.",
                      Json{{"field", "DP-Result-TTL-Seconds"}});
  }
  return value;
}

std::chrono::seconds ExecutionService::EffectiveTtl(std::optional<int> requested) const {
  int ttl = requested.value_or(options_.ttl_default_seconds);
  return std::chrono::seconds(std::clamp(ttl, options_.ttl_min_seconds, options_.ttl_max_seconds));
}

// ---- execute

void ExecutionService::RequireRenderedTemplates(const Principal& principal, const Json& body,
                                                const std::string& version_status) {
  // Render before you run (spec §6.2.3): the shared rule, over every node of the body.
  dp::RequireRenderedTemplates(metadata_.Templates(), audit_reader_, principal, body,
                               version_status);
}

Json ExecutionService::Execute(const Principal& principal, const ExecuteRequest& request) {
  if (request.surface != ExecutionSurface::kEndpoint) {
    EnforceAccess(principal, Operation::kPipelinesExecute);
  }
  auto runnable =
      pipelines_.ResolveForExecution(principal.workspace_id, request.pipeline_id, request.version);
  if (request.surface == ExecutionSurface::kAgent) {
    RequireRenderedTemplates(principal, runnable.version.body, runnable.version.status);
  }
  ExecutionRecord record;
  record.id = request.execution_id.empty() ? NewUuid() : request.execution_id;
  record.workspace_id = principal.workspace_id;
  record.pipeline_id = runnable.entity.id;
  record.pipeline_name = runnable.entity.name;
  record.pipeline_version = runnable.version.version;
  record.version_status = runnable.version.status;
  record.triggered_by = principal.user_id;
  record.key_id = principal.key_id;
  record.via = request.surface == ExecutionSurface::kAgent      ? "mcp"
               : request.surface == ExecutionSurface::kEndpoint ? "endpoint"
                                                                : "rest";
  record.correlation_id = request.correlation_id;
  if (!request.idempotency_key.empty()) {
    // A retry with the same key returns the same execution (rest-api §3.5); the same key with a
    // different request is refused rather than silently attached.
    record.idempotency_key = request.idempotency_key;
    record.request_hash = Sha256Hex(Json{
        {"pipeline_id", request.pipeline_id},
        {"version", request.version ? Json(*request.version) : Json()},
        {"parameters",
         request.parameters}}.dump());
    if (auto earlier = executions_.FindByIdempotencyKey(
            principal.workspace_id, principal.user_id, request.idempotency_key,
            NowMs() - int64_t{options_.idempotency_ttl_seconds} * 1000)) {
      if (earlier->request_hash != record.request_hash) {
        throw DomainError(errc::kIdempotencyKeyReused,
                          "This Idempotency-Key was used for a different request.",
                          Json{{"execution_id", earlier->id}});
      }
      return Outcome(*earlier);
    }
  }
  {
    std::lock_guard lock(running_mutex_);
    // Refused before anything is recorded: a call that never ran leaves no execution behind.
    auto found = running_per_user_.find(principal.user_id);
    if (found != running_per_user_.end() && found->second >= options_.max_concurrent_per_user) {
      throw DomainError(errc::kExecutionConcurrencyLimit,
                        "Too many executions of yours are running; wait for one to finish.",
                        Json{{"limit", options_.max_concurrent_per_user}, {"scope", "user"}});
    }
    if (running_total_ >= options_.max_concurrent_per_instance) {
      throw DomainError(
          errc::kExecutionConcurrencyLimit,
          "This instance is running as many executions as it admits; retry shortly.",
          Json{{"limit", options_.max_concurrent_per_instance}, {"scope", "instance"}});
    }
    ++running_per_user_[principal.user_id];
    ++running_total_;
  }
  struct SlotRelease {
    ExecutionService& s;
    std::string user;
    ~SlotRelease() {
      std::lock_guard lock(s.running_mutex_);
      --s.running_total_;
      if (--s.running_per_user_[user] <= 0) s.running_per_user_.erase(user);
    }
  } slot{*this, principal.user_id};
  auto cancellation = std::make_shared<ExecutionCancellation>();
  const auto ttl = EffectiveTtl(request.ttl_seconds);
  RunRecorded(principal, record, runnable.version.body, request.parameters, cancellation, ttl,
              nullptr, 1, &request);
  return Outcome(record, request.page_rows);
}

// What an execute call answers for a finished (or, on an idempotent retry, running) record.
Json ExecutionService::Outcome(const ExecutionRecord& record, std::optional<int> page_rows) {
  if (record.status == kRunning) return Projection(record);
  if (record.status != "SUCCESS") throw FailureError(record);
  Json out{{"execution_id", record.id},
           {"pipeline_id", record.pipeline_id},
           {"pipeline_name", record.pipeline_name},
           {"version", record.pipeline_version},
           {"version_status", record.version_status},
           {"status", record.status},
           {"duration_ms", record.finished_at_ms - record.started_at_ms},
           {"node_stats", record.node_stats},
           {"warnings", Json::array()}};
  if (record.result.is_object()) {
    const std::string key = record.result.value("result_key", "");
    const int64_t rows =
        std::clamp<int64_t>(page_rows.value_or(options_.page_size_rows), 1, options_.page_max_rows);
    auto page = results_.GetPage(key, 0, rows);
    if (!page) {
      throw DomainError(errc::kResultStorageUnavailable,
                        "The caller result vanished before it could be returned.",
                        Json{{"execution_id", record.id}});
    }
    AppendPage(out, *page, 0, rows);
    out["result_url"] = ExecutionService::ResultUrl(record.id);
    out["expires_at"] = FormatIso8601Ms(record.result.value("expires_at_ms", int64_t{0}));
    out["ttl_seconds"] = record.result.value("ttl_seconds", 0);
  }
  return out;
}

ExecutionOutcome ExecutionService::RunRecorded(
    const Principal& principal, ExecutionRecord& record, const Json& stored_body,
    const Json& parameters, const std::shared_ptr<ExecutionCancellation>& cancellation,
    std::chrono::seconds ttl, RowSink* direct_sink, int depth, const ExecuteRequest* root_request) {
  PipelineBody body = PipelineBodyParser::ParseStored(stored_body);
  CalculatorEnvironment calculators{NowMs(), options_.org};
  // Refused before the record exists: a call that never ran leaves no execution behind.
  ExecutionContext context = ExecutionContext::Resolve(body, parameters, calculators, record.id);
  record.instance_id = instance_id_;
  record.parameters = parameters.is_object() ? parameters : Json::object();
  record.started_at_ms = calculators.now_ms;
  if (record.via == "mcp") {
    // Written BEFORE the run, and before the record: the same-credential rule of
    // executions_cancel reads it (§14), and a client that sees the execution RUNNING (a second
    // client polling executions_list) must find it there when it cancels.
    AuditEvent launched;
    launched.event = "mcp.execution.launched";
    launched.user_id = principal.user_id;
    launched.key_id = principal.key_id;
    launched.workspace_id = principal.workspace_id;
    launched.correlation_id = record.correlation_id;
    launched.details = {{"tool", "pipelines_execute"},
                        {"target",
                         {{"pipeline_id", record.pipeline_id},
                          {"execution_id", record.id},
                          {"version", record.pipeline_version}}}};
    audit_.Record(launched);
  }
  executions_.Insert(record);
  {
    std::lock_guard lock(running_mutex_);
    running_[record.id] = cancellation;
  }
  EventLog events(executions_, record.id, record.correlation_id,
                  root_request ? root_request->on_event : nullptr);
  DisconnectWatch watch(root_request ? root_request->caller_gone : nullptr, cancellation,
                        std::chrono::seconds(options_.disconnect_grace_seconds));
  events.Append("execution_started", {{"execution_id", record.id},
                                      {"pipeline_id", record.pipeline_id},
                                      {"pipeline_version", record.pipeline_version},
                                      {"started_at", FormatIso8601Ms(record.started_at_ms)},
                                      {"parameters", record.parameters}});
  ExecutionOutcome outcome;
  try {
    Environment environment(*this, principal, record, depth);
    PipelineExecutor executor(environment, results_, options_.executor);
    RunRequest run;
    run.execution_id = record.id;
    run.correlation_id = record.correlation_id;
    run.result_ttl = ttl;
    run.direct_sink = direct_sink;
    run.calculators = calculators;
    run.on_event = [&events](const std::string& type, Json data) {
      events.Append(type, std::move(data));
    };
    if (root_request && root_request->on_progress) {
      run.on_node_finished = [&progress = root_request->on_progress](
                                 const std::string& node, const std::string& status,
                                 int64_t finished, int64_t total) {
        progress(finished, total, "node " + node + ": " + status);
      };
    }
    outcome = executor.Run(body, context, *cancellation, run);
  } catch (const std::exception& error) {
    // The executor records node failures itself; reaching here is its own fault.
    spdlog::error("correlation_id={} execution {} failed outside its nodes: {}",
                  record.correlation_id, record.id, error.what());
    outcome.status = "FAILED";
    outcome.error = {{"code", std::string(errc::kExecutionAborted.code)},
                     {"message", "The executor failed unexpectedly."},
                     {"correlation_id", record.correlation_id},
                     {"execution_id", record.id}};
  }
  record.status = outcome.status;
  record.parameters = context.Snapshot();
  record.node_stats = outcome.node_stats;
  record.error = outcome.error;
  record.abort_reason = outcome.abort_reason;
  record.finished_at_ms = NowMs();
  if (outcome.caller) {
    record.result = {{"result_key", outcome.caller->key},
                     {"schema", outcome.caller->schema},
                     {"total_rows", outcome.caller->total_rows},
                     {"ttl_seconds", ttl.count()},
                     {"expires_at_ms", record.finished_at_ms + ttl.count() * 1000}};
  }
  AppendTerminalEvents(events, record, outcome);
  // Still counted as running until its final state is written or handed to the retries, so
  // the sweep of lost executions never closes it in between.
  const bool recorded = RecordTerminal(record);
  {
    std::lock_guard lock(running_mutex_);
    running_.erase(record.id);
  }
  if (options_.on_finished) options_.on_finished(record, body);
  if (!recorded) {
    throw DomainError(
        errc::kMetadataUnavailable,
        "The execution finished " + record.status +
            ", but the metadata store did not take its final state yet; the "
            "server keeps writing it. Read the execution again shortly.",
        Json{{"execution_id", record.id}, {"status", record.status}, {"retry_after_seconds", 5}});
  }
  return outcome;
}

bool ExecutionService::RecordTerminal(ExecutionRecord& record) {
  constexpr int kTriesNow = 3;
  for (int attempt = 1;; ++attempt) {
    try {
      if (!executions_.Finish(record)) {
        // Swept as orphaned meanwhile (a stalled heartbeat): the stored terminal state stands.
        if (auto stored = executions_.Find(record.id)) record = *stored;
      }
      return true;
    } catch (const std::exception& error) {
      if (attempt == kTriesNow) {
        spdlog::warn(
            "correlation_id={} execution {}: final state {} not recorded, retrying every "
            "second: {}",
            record.correlation_id, record.id, record.status, error.what());
        std::lock_guard lock(pending_mutex_);
        pending_terminal_.insert_or_assign(record.id, record);
        return false;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200 * attempt));
  }
}

void ExecutionService::RetryPendingTerminals() {
  std::map<std::string, ExecutionRecord> pending;
  {
    std::lock_guard lock(pending_mutex_);
    if (pending_terminal_.empty()) return;
    pending = pending_terminal_;
  }
  for (const auto& [id, record] : pending) {
    try {
      executions_.Finish(record);  // false: a sweep closed it; either way it is no longer ours
    } catch (const std::exception&) {
      return;  // the store still refuses: the next second tries again
    }
    std::lock_guard lock(pending_mutex_);
    pending_terminal_.erase(id);
    spdlog::info("correlation_id={} execution {}: final state {} recorded", record.correlation_id,
                 id, record.status);
  }
}

void ExecutionService::AbortLostExecutions(int64_t now) {
  const int64_t started_before = now - options_.heartbeat_seconds * 1000LL;
  for (const std::string& id : executions_.RunningOf(instance_id_, started_before)) {
    {
      std::scoped_lock lock(running_mutex_, pending_mutex_);
      if (running_.count(id) || pending_terminal_.count(id)) continue;
    }
    if (executions_.AbortLost(id, "The server lost track of the execution.", now)) {
      spdlog::warn("executions: {} was RUNNING on this instance without running: marked ABORTED",
                   id);
    }
  }
}

int ExecutionService::RunningCount() {
  std::lock_guard lock(running_mutex_);
  return static_cast<int>(running_.size());
}

// ---- reads

ExecutionRecord ExecutionService::Visible(const Principal& principal,
                                          const std::string& execution_id, bool for_result) {
  auto record = executions_.Find(execution_id);
  // Ownership before anything else: another user's execution reads exactly like none. An
  // endpoint key reads only what it started itself, proved by its endpoint.served row (auth.md
  // §7.7) — the owner would make two endpoint keys of one person interchangeable.
  const bool visible = record && record->workspace_id == principal.workspace_id &&
                       (principal.kind == KeyKind::kEndpoint
                            ? audit_reader_.ServedBy(principal.key_id, record->id)
                            : (record->triggered_by == principal.user_id || principal.super_admin ||
                               HoldsWorkspaceAdmin(principal)));
  if (!visible) {
    Json details{{"execution_id", execution_id}};
    if (for_result) {
      throw DomainError(errc::kResultExecutionNotFound, "No execution '" + execution_id + "'.",
                        std::move(details));
    }
    throw DomainError(errc::kExecutionNotFound, "No execution '" + execution_id + "'.",
                      std::move(details));
  }
  return *record;
}

Json ExecutionService::Projection(const ExecutionRecord& r) const {
  Json out{{"execution_id", r.id},
           {"pipeline_id", r.pipeline_id},
           {"pipeline_name", r.pipeline_name},
           {"version", r.pipeline_version},
           {"version_status", r.version_status},
           {"status", r.status},
           {"triggered_by", r.triggered_by},
           {"via", r.via},
           {"correlation_id", r.correlation_id},
           {"started_at", IsoOrNull(r.started_at_ms)},
           {"finished_at", IsoOrNull(r.finished_at_ms)},
           {"duration_ms", r.finished_at_ms ? r.finished_at_ms - r.started_at_ms : 0},
           {"parameters", r.parameters},
           {"node_stats", r.node_stats}};
  if (!r.parent_execution_id.empty()) {
    out["parent_execution_id"] = r.parent_execution_id;
    out["parent_node_id"] = r.parent_node_id;
  }
  if (!r.error.is_null()) {
    out["error"] = r.error;
    if (r.error.contains("failed_node_id")) out["failed_node_id"] = r.error["failed_node_id"];
  }
  if (!r.abort_reason.empty()) out["abort_reason"] = r.abort_reason;
  if (r.result.is_object()) {
    out["result"] = {{"total_rows", r.result.value("total_rows", int64_t{0})},
                     {"result_url", ExecutionService::ResultUrl(r.id)},
                     {"ttl_seconds", r.result.value("ttl_seconds", 0)},
                     {"expires_at", FormatIso8601Ms(r.result.value("expires_at_ms", int64_t{0}))}};
  }
  return out;
}

Json ExecutionService::Get(const Principal& principal, const std::string& execution_id) {
  EnforceAccess(principal, Operation::kExecutionsGet);
  return Projection(Visible(principal, execution_id, false));
}

Json ExecutionService::List(const Principal& principal, const ExecutionListQuery& query) {
  EnforceAccess(principal, Operation::kExecutionsList);
  ExecutionQuery q;
  q.workspace_id = principal.workspace_id;
  q.pipeline_id = query.pipeline_id;
  q.status = query.status;
  q.started_after_ms = query.started_after_ms;
  q.started_before_ms = query.started_before_ms;
  if (!principal.super_admin && !HoldsWorkspaceAdmin(principal))
    q.triggered_by = principal.user_id;
  q.limit = std::clamp(query.window.limit, 1, ListWindow::kMaxLimit);
  q.offset = std::max(0, query.window.offset);
  Json items = Json::array();
  for (const auto& r : executions_.List(q)) {
    Json row = Projection(r);
    row.erase("parameters");
    row.erase("node_stats");
    items.push_back(std::move(row));
  }
  int64_t total = executions_.Count(q);
  return Json{{"items", std::move(items)},
              {"total", total},
              {"has_more", q.offset + static_cast<int64_t>(q.limit) < total}};
}

Json ExecutionService::ListForResources(const Principal& principal) {
  EnforceAccess(principal, Operation::kExecutionsList);
  ExecutionQuery q;
  q.workspace_id = principal.workspace_id;
  if (!principal.super_admin && !HoldsWorkspaceAdmin(principal))
    q.triggered_by = principal.user_id;
  q.started_after_ms = NowMs() - int64_t{kResourceWindowHours} * 3600 * 1000;
  q.limit = 200;
  std::map<std::string, Json> by_id;  // pages may overlap when runs start meanwhile
  for (;; q.offset += q.limit) {
    auto records = executions_.List(q);
    for (const auto& r : records) {
      Json row = Projection(r);
      row.erase("parameters");
      row.erase("node_stats");
      by_id.emplace(r.id, std::move(row));
    }
    if (static_cast<int>(records.size()) < q.limit) break;
  }
  Json items = Json::array();
  for (auto& [id, row] : by_id) items.push_back(std::move(row));
  return items;
}

Json ExecutionService::Events(const Principal& principal, const std::string& execution_id) {
  EnforceAccess(principal, Operation::kExecutionsEvents);
  ExecutionRecord r = Visible(principal, execution_id, false);
  Json out = Json::array();
  for (const auto& e : executions_.ListEvents(r.id)) {
    out.push_back(
        {{"seq", e.seq}, {"type", e.type}, {"data", e.data}, {"at", FormatIso8601Ms(e.at_ms)}});
  }
  return out;
}

std::string ExecutionService::EventsText(const Principal& principal,
                                         const std::string& execution_id) {
  std::string text;
  for (const Json& e : Events(principal, execution_id)) {
    text += "id: " + std::to_string(e["seq"].get<int64_t>()) + "\n";
    text += "event: " + e["type"].get<std::string>() + "\n";
    text += "data: " + e["data"].dump() + "\n\n";
  }
  return text;
}

Json ExecutionService::GetResult(const Principal& principal, const std::string& execution_id,
                                 int64_t offset, std::optional<int64_t> limit,
                                 const std::string& format, bool uncapped) {
  EnforceAccess(principal, Operation::kExecutionsGetResult);
  if (format != "json" && format != "csv" && format != "arrow") {
    throw DomainError(errc::kResultFormatUnsupported, "format is json, csv or arrow.",
                      Json{{"format", format}, {"supported", {"json", "csv", "arrow"}}});
  }
  ExecutionRecord r = Visible(principal, execution_id, true);
  if (r.status == kRunning) {
    throw DomainError(errc::kResultExecutionIncomplete,
                      "The execution is still running; poll executions_get.",
                      Json{{"execution_id", r.id}, {"status", r.status}});
  }
  if (r.status != "SUCCESS") {
    throw DomainError(errc::kResultExecutionFailed,
                      "The execution ended " + r.status +
                          "; there is no result. Read its "
                          "failure with executions_get.",
                      Json{{"execution_id", r.id}, {"status", r.status}});
  }
  if (!r.result.is_object()) {
    throw DomainError(errc::kResultExecutionNotFound,
                      "The execution has no caller node, so it has no result rows.",
                      Json{{"execution_id", r.id}, {"reason", "no_caller_node"}});
  }
  const int64_t page_limit =
      std::clamp<int64_t>(limit.value_or(options_.page_size_rows), 1, options_.page_max_rows);
  const std::string key = r.result.value("result_key", "");
  const std::string expires_at = FormatIso8601Ms(r.result.value("expires_at_ms", int64_t{0}));
  if (format == "json") {
    auto page = results_.GetPage(key, std::max<int64_t>(offset, 0), page_limit);
    if (!page) ThrowExpired(r.id, expires_at);
    Json out{{"execution_id", r.id}};
    AppendPage(out, *page, std::max<int64_t>(offset, 0), page_limit);
    out["expires_at"] = expires_at;
    return out;
  }
  // csv and arrow are the whole result in one payload (rest-api §7.5).
  auto all = results_.GetPage(key, 0, std::numeric_limits<int64_t>::max());
  if (!all) ThrowExpired(r.id, expires_at);
  return EncodedResult(r.id, *all, format, expires_at, ExecutionService::ResultUrl(r.id),
                       uncapped ? std::numeric_limits<int64_t>::max() : options_.inline_cap_bytes);
}

// ---- cancel

Json ExecutionService::Cancel(const Principal& principal, const std::string& execution_id,
                              ExecutionSurface surface) {
  EnforceAccess(principal, Operation::kExecutionsCancel);
  ExecutionRecord r = Visible(principal, execution_id, false);
  if (r.status != kRunning) {
    throw DomainError(errc::kExecutionNotRunning,
                      "The execution is not running; it ended " + r.status + ".",
                      Json{{"execution_id", r.id}, {"status", r.status}});
  }
  if (surface == ExecutionSurface::kAgent) {
    if (r.via != "mcp") {
      throw DomainError(errc::kScopeInsufficient,
                        "This execution was not started over MCP; cancel it over REST "
                        "(DELETE /api/v1/executions/{id}) or in the UI.",
                        Json{{"reason", "started_outside_mcp"}, {"via", r.via}});
    }
    if (!audit_reader_.LaunchedBy(principal.key_id, r.correlation_id)) {
      throw DomainError(errc::kScopeInsufficient,
                        "Only the API key whose MCP call started this execution may cancel it "
                        "over MCP.",
                        Json{{"reason", "different_credential"}});
    }
  }
  std::shared_ptr<ExecutionCancellation> cancellation;
  {
    std::lock_guard lock(running_mutex_);
    auto it = running_.find(r.id);
    if (it != running_.end()) cancellation = it->second;
  }
  if (cancellation) {
    cancellation->Abort(
        {AbortKind::kCancelled,
         "Cancelled by " + (principal.email.empty() ? principal.user_id : principal.email) + "."});
  } else if (!executions_.RequestCancel(
                 r.id, "Cancelled by " +
                           (principal.email.empty() ? principal.user_id : principal.email) + ".")) {
    // Another instance runs it: the flag on the row reaches that instance within a second.
    throw DomainError(errc::kExecutionNotRunning, "The execution is no longer running.",
                      Json{{"execution_id", r.id}});
  }
  return Json{{"execution_id", r.id}, {"status", "cancellation_requested"}};
}

// ---- lifecycle

void ExecutionService::Start() {
  const int64_t now = NowMs();
  executions_.Heartbeat(instance_id_, now);
  // An embedded (SQLite) metadata file belongs to one process: whatever is RUNNING at start was
  // left by a process that died. A shared PostgreSQL store waits for the heartbeat to go stale.
  const int64_t stale_before =
      metadata_.BackendName() == "sqlite" ? now + 1 : now - 3LL * options_.heartbeat_seconds * 1000;
  int64_t swept =
      executions_.AbortOrphans(instance_id_, stale_before, "The instance running it stopped.", now);
  if (swept > 0)
    spdlog::warn("executions: {} left RUNNING by a stopped instance marked ABORTED", swept);
  heartbeat_ = std::thread([this] { HeartbeatLoop(); });
}

void ExecutionService::HeartbeatLoop() {
  // Every second: cancels requested through another instance; every heartbeat interval: the
  // heartbeat and the sweep of dead instances' executions.
  std::unique_lock lock(heartbeat_mutex_);
  int64_t ticks = 0;
  while (!heartbeat_cv_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; })) {
    lock.unlock();
    RetryPendingTerminals();
    try {
      ApplyRemoteCancels();
      if (++ticks % options_.heartbeat_seconds == 0) {
        const int64_t now = NowMs();
        executions_.Heartbeat(instance_id_, now);
        executions_.AbortOrphans(instance_id_, now - 3LL * options_.heartbeat_seconds * 1000,
                                 "The instance running it stopped.", now);
        AbortLostExecutions(now);
      }
    } catch (const std::exception& error) {
      spdlog::warn("executions: heartbeat failed: {}", error.what());
    }
    lock.lock();
  }
}

void ExecutionService::ApplyRemoteCancels() {
  {
    std::lock_guard lock(running_mutex_);
    if (running_.empty()) return;  // nothing of ours can be cancelled: skip the query
  }
  for (const auto& [id, reason] : executions_.CancelRequests(instance_id_)) {
    std::shared_ptr<ExecutionCancellation> cancellation;
    {
      std::lock_guard lock(running_mutex_);
      auto it = running_.find(id);
      if (it != running_.end()) cancellation = it->second;
    }
    if (cancellation) cancellation->Abort({AbortKind::kCancelled, reason});
  }
}

void ExecutionService::Stop() {
  {
    std::lock_guard lock(heartbeat_mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  heartbeat_cv_.notify_all();
  if (heartbeat_.joinable()) heartbeat_.join();
  RetryPendingTerminals();  // a last chance for final states still waiting on the store
  std::lock_guard lock(running_mutex_);
  for (auto& [id, cancellation] : running_) {
    cancellation->Abort({AbortKind::kShutdown, "The server shut down during the execution."});
  }
}

std::string ExecutionService::ResultUrl(const std::string& execution_id) {
  return "/api/v1/executions/" + execution_id + "/result";
}

}  // namespace dp
