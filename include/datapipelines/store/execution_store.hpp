#pragma once
// The execution store port (metadata-db §4.6, §4.7, §4.20, §8.3; migration 0005): execution
// history, its durable event log, the instance liveness the crash sweep reads, and the release
// check runs. A port of its own rather than more methods on MetadataStore. No business rule
// lives here — the executor and the services decide what a write means. The adapters have no
// transactions, so every state change is one statement guarded by the state it expects
// (compare-and-swap).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/util/json.hpp"

namespace dp {

class MetadataStore;

// One execution of one pipeline version. Inserted RUNNING at launch, then finished exactly once.
struct ExecutionRecord {
  std::string id;  // uuid
  std::string workspace_id;
  std::string pipeline_id;
  std::string pipeline_name;
  int pipeline_version = 0;
  std::string version_status;  // "DRAFT" | "RELEASED": the version that ran, at launch
  std::string status;          // "RUNNING" | "SUCCESS" | "FAILED" | "ABORTED"
  std::string triggered_by;    // user id (the owner for ownership checks)
  std::string key_id;          // "" for a session
  std::string via;             // "mcp" | "rest" | "pipeline_node"
  std::string correlation_id;
  std::string instance_id;          // the server instance running it
  std::string parent_execution_id;  // PIPELINE-node child executions; "" otherwise
  std::string parent_node_id;
  // The family's top ancestor (rest-api §10.2: never null). "" at insert derives it: the
  // parent's root for a child, the execution's own id for a root.
  std::string root_execution_id;
  std::string idempotency_key;  // REST Idempotency-Key; "" when none
  std::string request_hash;     // sha256 of the execute request body, for the key
  // The request's parameters at insert; the resolved Context at finish (metadata-db §4.6).
  Json parameters = Json::object();
  Json node_stats = Json::array();
  Json error;   // null, or the failure record
  Json result;  // null, or {result_key, schema, total_rows, ttl_seconds, expires_at_ms}
  std::string abort_reason;
  int64_t started_at_ms = 0;
  int64_t finished_at_ms = 0;  // 0 while RUNNING
};

// A history page, newest first (started_at desc, then id desc so equal starts page stably).
struct ExecutionQuery {
  // Every member has an initializer so designated initializers may name any subset.
  std::string workspace_id = "";  // "" = every workspace (operator reads)
  std::optional<std::string> pipeline_id = std::nullopt;
  std::optional<std::string> status = std::nullopt;
  std::optional<std::string> triggered_by = std::nullopt;
  int limit = 50;
  int offset = 0;
  // rest-api §10.1's started_after / started_before, both exclusive.
  std::optional<int64_t> started_after_ms = std::nullopt;
  std::optional<int64_t> started_before_ms = std::nullopt;
};

// One durable event (rest-api §6.4); seq is monotonic per execution, starting at 1.
struct ExecutionEvent {
  std::string execution_id;
  int64_t seq = 0;
  std::string type;  // "execution_started", "node_started", …
  Json data = Json::object();
  int64_t at_ms = 0;
};

// One run of one declared release check against one version number (metadata-db §4.20).
struct CheckRunRecord {
  std::string id;  // uuid
  std::string pipeline_id;
  int version = 0;
  std::string check_id;
  std::string name;
  Json expected;        // the declared expectation, as it was when run
  Json observed;        // null on an error verdict, else {"value": …} | {"rows": n}
  std::string verdict;  // "pass" | "fail" | "error"
  std::string message;  // the reason for a fail / error; "" otherwise
  std::string run_by;   // the actor; "" when none
  std::string via;      // "mcp" | "rest" | "ui" | "release"
  int64_t ran_at_ms = 0;
  Json parameters = Json::object();  // the BOUND parameters; {} when binding failed
  std::string correlation_id;
  int64_t duration_ms = 0;
};

class ExecutionStore {
 public:
  virtual ~ExecutionStore() = default;

  // Inserts the execution as RUNNING whatever `execution.status` says: the terminal state
  // only ever arrives through Finish, so every terminal write passes its guard.
  // DuplicateKeyError when the id exists.
  virtual void Insert(const ExecutionRecord& execution) = 0;
  // RUNNING → terminal only (compare-and-swap on status = RUNNING): writes status, parameters,
  // node_stats, error, result, abort_reason, finished_at. false when it was no longer RUNNING.
  // std::invalid_argument when the status is not terminal or finished_at_ms is 0.
  virtual bool Finish(const ExecutionRecord& execution) = 0;
  // Progress while RUNNING (metadata-db §8.3): a write that loses the race with Finish is
  // dropped, so a late snapshot never overwrites the final stats.
  virtual void UpdateNodeStats(const std::string& id, const Json& node_stats) = 0;
  virtual std::optional<ExecutionRecord> Find(const std::string& id) = 0;
  virtual std::vector<ExecutionRecord> List(const ExecutionQuery& query) = 0;
  // The total for pagination, ignoring limit/offset.
  virtual int64_t Count(const ExecutionQuery& query) = 0;
  // The newest execution the user started in the workspace with `key`, at or after
  // `not_before_ms` (the key's replay window).
  virtual std::optional<ExecutionRecord> FindByIdempotencyKey(const std::string& workspace_id,
                                                              const std::string& user_id,
                                                              const std::string& key,
                                                              int64_t not_before_ms) = 0;

  // Instance liveness for the crash sweep (upsert of the instance's latest beat).
  virtual void Heartbeat(const std::string& instance_id, int64_t at_ms) = 0;
  // Marks ABORTED (abort_reason = reason, error = {code: pipeline.execution.instance_lost,
  // message}, finished_at = at_ms) every RUNNING execution whose instance has no heartbeat at
  // or after stale_before_ms (or none at all), excluding `live_instance_id`; returns how many.
  // Used at start and periodically; idempotent and safe from several instances at once.
  virtual int64_t AbortOrphans(const std::string& live_instance_id, int64_t stale_before_ms,
                               const std::string& reason, int64_t at_ms) = 0;

  // This instance's RUNNING executions started before `started_before_ms`: the live instance
  // compares them with what it really runs, to close the ones it lost track of.
  virtual std::vector<std::string> RunningOf(const std::string& instance_id,
                                             int64_t started_before_ms) = 0;
  // Marks one RUNNING execution ABORTED as AbortOrphans does; false when no longer RUNNING.
  virtual bool AbortLost(const std::string& id, const std::string& reason, int64_t at_ms) = 0;

  // Cancellation across instances: any instance records the request on the RUNNING row; the
  // instance running it polls its own rows and interrupts them. false when not RUNNING.
  virtual bool RequestCancel(const std::string& id, const std::string& reason) = 0;
  // {execution id, reason} of this instance's RUNNING executions with a cancel requested.
  virtual std::vector<std::pair<std::string, std::string>> CancelRequests(
      const std::string& instance_id) = 0;

  // The append-only event log (rest-api §6.4 events), for replay. DuplicateKeyError when the
  // execution already has an event with this seq.
  virtual void AppendEvent(const ExecutionEvent& event) = 0;
  // Ascending by seq.
  virtual std::vector<ExecutionEvent> ListEvents(const std::string& execution_id) = 0;

  // Check runs (release checks, pipelines_run_checks): append-only rows.
  virtual void AppendCheckRun(const CheckRunRecord& run) = 0;
  // The latest run per check_id of the version (ran_at, then id, breaks ties), by check_id.
  virtual std::vector<CheckRunRecord> LatestCheckRuns(const std::string& pipeline_id,
                                                      int version) = 0;
};

// The SQL adapter over the metadata store's own connection (SQLite or PostgreSQL).
std::unique_ptr<ExecutionStore> OpenExecutionStore(MetadataStore& metadata);

}  // namespace dp
