#pragma once
// Executions (spec §6.2.3, §6.2.13–15, §6.2.35; rest-api §7, §10; dag-executor): running a
// pipeline version through the executor, recording the execution, serving its result pages and
// cancelling it. The only place these rules live: the MCP tools and the REST routes translate.
//
// An execution runs on the calling (blocking-pool) thread; its independent nodes fan out on the
// executor's own threads. Every execution is recorded RUNNING before its first node and ends
// SUCCESS, FAILED (with the failure record) or ABORTED (with its reason) — an instance that dies
// mid-run leaves RUNNING rows the next start (or a live instance's sweep) marks ABORTED.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "datapipelines/calculators/calculator_context.hpp"
#include "datapipelines/executor/pipeline_executor.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/service/list_window.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class AuditLog;
class AuditReader;
class DatasourceService;
class ExecutionCancellation;
class ExecutionStore;
class MetadataStore;
class PipelineService;
class ResultStore;
class RowSink;
class TemplateService;
struct ExecutionRecord;
struct PipelineNode;

struct ExecutionServiceOptions {
  ExecutorOptions executor;
  OrgSettings org;
  int ttl_default_seconds = 300;
  int ttl_min_seconds = 60;
  int ttl_max_seconds = 3600;
  int page_size_rows = 1000;
  int page_max_rows = 100000;
  int max_concurrent_per_user = 10;
  int max_concurrent_per_instance = 100;  // root executions of this instance, all users
  int max_composition_depth = 5;
  int heartbeat_seconds = 15;
  int idempotency_ttl_seconds = 86400;     // datapipelines.idempotency.ttl-seconds
  int disconnect_grace_seconds = 30;       // datapipelines.sse.disconnect-grace-seconds
  int64_t inline_cap_bytes = 1024 * 1024;  // executions_get_result's inline payload cap
  // Told of every execution that reached a terminal state, with the body it ran (metrics).
  // Runs on the execution's thread; must not block.
  std::function<void(const ExecutionRecord& record, const PipelineBody& body)> on_finished;
};

// kEndpoint: a published endpoint's serve (REST API §19.4) — authorised by EndpointService's
// binding walk rather than the key's scope (an endpoint key carries none), recorded with
// via "endpoint"; only EndpointService passes it.
enum class ExecutionSurface { kAgent, kHuman, kEndpoint };

struct ExecuteRequest {
  std::string pipeline_id;
  std::optional<int> version;
  Json parameters = Json::object();
  ExecutionSurface surface = ExecutionSurface::kAgent;
  std::string correlation_id;
  std::optional<int> ttl_seconds;  // DP-Result-TTL-Seconds (ParseResultTtlHeader)
  // Progress as nodes finish (MCP notifications/progress): finished, total, a message.
  std::function<void(int64_t, int64_t, const std::string&)> on_progress = nullptr;
  // Every event of the execution's log as it is recorded (the REST event stream).
  std::function<void(int64_t seq, const std::string& type, const Json& data)> on_event = nullptr;
  // True while the streaming caller is gone (REST SSE disconnect, rest-api §6.8).
  std::function<bool()> caller_gone = nullptr;
  std::string idempotency_key;  // REST Idempotency-Key
  // The id to record the execution under (a caller that must name it before the run ends:
  // the endpoint's 202); empty = a fresh one.
  std::string execution_id;
  std::optional<int> page_rows;  // DP-Result-Page-Rows, clamped to 1..page-max-rows
};

// One listing request for every surface (REST §10.1, the UI's history, executions_list).
struct ExecutionListQuery {
  std::optional<std::string> pipeline_id;
  std::optional<std::string> status;
  // rest-api §10.1's started_after / started_before (exclusive), epoch ms; applied by the
  // store's query, so total and paging count only the matching rows.
  std::optional<int64_t> started_after_ms;
  std::optional<int64_t> started_before_ms;
  ListWindow window;

  // Whether a surface has the started_after / started_before filters (executions_list has not:
  // they are ignored there, as `offset` is).
  enum class StartedBounds { kRead, kIgnored };
  // {pipeline_id?, status?, started_after?, started_before?, limit?, offset?} as both surfaces
  // pass them; the window as `window` says.
  static ExecutionListQuery FromJson(const Json& arguments, ListWindowRules window = {},
                                     StartedBounds bounds = StartedBounds::kRead);

  // A started_after / started_before value: ISO-8601 UTC, "2026-12-01T09:30:00Z" with optional
  // milliseconds ("…:00.250Z"), else request.validation.invalid naming `field`.
  static int64_t ParseTimeBound(std::string_view text, std::string_view field);
};

class ExecutionService {
 public:
  // Where an execution's result pages are read over REST (the caller result's `result_url`).
  static std::string ResultUrl(const std::string& execution_id);

  ExecutionService(MetadataStore& metadata, ExecutionStore& executions, ResultStore& results,
                   AuditLog& audit, AuditReader& audit_reader, PipelineService& pipelines,
                   TemplateService& templates, DatasourceService& datasources,
                   ExecutionServiceOptions options);
  ~ExecutionService();

  // Runs to a terminal state. Success: the data_ready-shaped result. Failure: a DomainError
  // carrying the whole failure record (spec §6.3).
  Json Execute(const Principal& principal, const ExecuteRequest& request);
  // The DP-Result-TTL-Seconds header of an execute call, REST or MCP alike: an integer
  // (clamped later by configuration), else request.validation.invalid naming the header.
  static int ParseResultTtlHeader(std::string_view text);
  Json Get(const Principal& principal, const std::string& execution_id);
  Json List(const Principal& principal, const ExecutionListQuery& query);
  // What resources/list enumerates (spec §7.3): every execution this principal may read
  // (ownership as List) that started within the last kResourceWindowHours, by id. Older ones
  // are not listed but stay readable by URI while their record exists.
  static constexpr int kResourceWindowHours = 24;
  Json ListForResources(const Principal& principal);
  // The recorded event log, in order: [{seq, type, data, at}] (rest-api §10.3 replay).
  Json Events(const Principal& principal, const std::string& execution_id);
  // The same log as SSE text (event: type / data: json), for the …/events resource.
  std::string EventsText(const Principal& principal, const std::string& execution_id);
  // `uncapped` (the REST cursor) inlines csv/arrow of any size; the agent surface points at
  // the cursor past the inline cap instead.
  Json GetResult(const Principal& principal, const std::string& execution_id, int64_t offset,
                 std::optional<int64_t> limit, const std::string& format, bool uncapped = false);
  // {execution_id, status: "cancellation_requested"}; the agent surface adds the
  // same-credential rule of spec §6.2.35.
  Json Cancel(const Principal& principal, const std::string& execution_id,
              ExecutionSurface surface);

  // Marks executions of dead instances ABORTED and starts this instance's heartbeat.
  void Start();
  // Aborts every running execution (shutdown) and stops the heartbeat.
  void Stop();
  // Executions this instance is running now (metrics).
  int RunningCount();
  const std::string& instance_id() const { return instance_id_; }

 private:
  class Environment;
  friend class Environment;
  struct Run;

  ExecutionRecord Visible(const Principal& principal, const std::string& execution_id,
                          bool for_result);
  void RequireRenderedTemplates(const Principal& principal, const Json& body,
                                const std::string& version_status);
  ExecutionOutcome RunRecorded(const Principal& principal, ExecutionRecord& record,
                               const Json& body, const Json& parameters,
                               const std::shared_ptr<ExecutionCancellation>& cancellation,
                               std::chrono::seconds ttl, RowSink* direct_sink, int depth,
                               const ExecuteRequest* root_request = nullptr);
  Json Projection(const ExecutionRecord& record) const;
  Json Outcome(const ExecutionRecord& record, std::optional<int> page_rows = std::nullopt);
  std::chrono::seconds EffectiveTtl(std::optional<int> requested) const;

 public:
  // The TTL a request asking for `requested` seconds gets (the §7.4 clamp).
  int EffectiveTtlSeconds(std::optional<int> requested) const {
    return static_cast<int>(EffectiveTtl(requested).count());
  }

 private:
  void HeartbeatLoop();
  void ApplyRemoteCancels();
  // Writes an execution's final state; false when the store refused it a few times (it is then
  // retried every second until taken). Reloads `record` when a sweep closed it meanwhile.
  bool RecordTerminal(ExecutionRecord& record);
  void RetryPendingTerminals();
  // Closes this instance's RUNNING rows that it neither runs nor still has to write.
  void AbortLostExecutions(int64_t now);

  MetadataStore& metadata_;
  ExecutionStore& executions_;
  ResultStore& results_;
  AuditLog& audit_;
  AuditReader& audit_reader_;
  PipelineService& pipelines_;
  TemplateService& templates_;
  DatasourceService& datasources_;
  ExecutionServiceOptions options_;
  std::string instance_id_;

  std::mutex running_mutex_;
  std::map<std::string, std::shared_ptr<ExecutionCancellation>> running_;
  std::map<std::string, int> running_per_user_;
  int running_total_ = 0;  // root executions holding a slot (under running_mutex_)

  // Final states the store did not take yet (a full disk, an outage), by execution id: written
  // again every second, and never swept as lost meanwhile.
  std::mutex pending_mutex_;
  std::map<std::string, ExecutionRecord> pending_terminal_;
  std::mutex heartbeat_mutex_;
  std::condition_variable heartbeat_cv_;
  bool stopping_ = false;
  std::thread heartbeat_;
};

}  // namespace dp
