#pragma once
// Release checks (pipeline-contract §3.3, §12.12, §13.17; spec §6.2.42; rest-api §5.10, §5.16):
// the server runs a version's checks[] NOW against their own datasources through a bounded,
// read-only probe (one statement admitted by SqlStatementClassifier, a row cap and a timeout),
// bound with the pipeline's declared parameters — defaults filled the execute way, an optional
// override object, undeclared keys ignored, and NO calculator Context. Every run persists one
// pipeline_check_runs row per check BEFORE returning; `observed` exists only on those rows.
//
// Verdicts: pass | fail | error. error = no verdict could be formed (datasource unresolvable or
// unreachable, statement refused or timed out, a shape the expectation cannot compare, the
// parameters did not bind) — the reason in `message`, never silently a fail.
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class AuditLog;
class DatasourceService;
class ExecutionStore;
class PipelineService;

struct CheckRunServiceOptions {
  int timeout_seconds = 30;  // per check statement (sql_probe's ceiling)
  int max_rows = 10000;      // a `rows` check counts at most this many (+1 to see "more")
};

struct CheckRunRequest {
  std::string pipeline_id;
  std::optional<int> version;  // absent: the working version (draft, else latest released)
  Json parameters = Json::object();
  std::string via = "rest";  // "mcp" | "rest" | "ui"
  std::string correlation_id;
};

class CheckRunService {
 public:
  CheckRunService(ExecutionStore& executions, AuditLog& audit, PipelineService& pipelines,
                  DatasourceService& datasources, CheckRunServiceOptions options = {});

  // pipelines_run_checks / POST …/checks/run (scope execute): {version, runs: [{check_id, name,
  // expected, observed, verdict, message, ran_at}]}. pipeline.execution.not_found for an unknown
  // pipeline or version (never clamped).
  Json Run(const Principal& principal, const CheckRunRequest& request);

  // GET …/checks (scope read): {pipeline_id, version, checks: [{check_id, name, datasource, sql,
  // expected, latest_run: {…run…} | null}]}.
  Json Latest(const Principal& principal, const std::string& pipeline_id, int version);

  // The release gate's run (via = release): no access check of its own — Release authorized the
  // caller. `body` is the stored draft body. Returns the runs array (the Run shape's `runs`).
  Json RunForRelease(const Principal& principal, const std::string& pipeline_id, int version,
                     const Json& body, const std::string& correlation_id = "");

  // The `pipeline.version.released` audit row (enums §15): pipeline_id, pipeline_name, version,
  // via (session | api_key), plus checks_overridden and override_reason when the gate was
  // overridden.
  void RecordRelease(const Principal& principal, const std::string& pipeline_id,
                     const std::string& pipeline_name, int version,
                     const std::vector<std::string>& checks_overridden,
                     const std::optional<std::string>& override_reason,
                     const std::string& correlation_id = "");

 private:
  Json RunBody(const Principal& principal, const std::string& pipeline_id, int version,
               const Json& body, const Json& parameters, const std::string& via,
               const std::string& correlation_id);

  ExecutionStore& executions_;
  AuditLog& audit_;
  PipelineService& pipelines_;
  DatasourceService& datasources_;
  CheckRunServiceOptions options_;
};

}  // namespace dp
