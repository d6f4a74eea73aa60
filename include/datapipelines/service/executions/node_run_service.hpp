#pragma once
// Node runs (spec §6.2.20 pipelines_execute_node; pipeline-contract §13.4; 037 §A/E2): ONE
// pipeline node's rendered SQL run for real against its own datasource — a debug query, not an
// execution. No ancestors run, no tempdb exists, and nothing is recorded: no execution row, no
// SSE, no idempotency record. DQL returns at most 50 decoded rows; DML/DDL execute FOR REAL and
// report affected_rows. Every refusal is raised before anything runs.
#include <optional>
#include <string>

#include "datapipelines/calculators/calculator_context.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class AuditReader;
class DatasourceService;
class TemplateStore;
class PipelineService;
class TemplateService;

struct NodeRunServiceOptions {
  OrgSettings org;                 // the calculator environment's org settings (built-ins)
  int max_rows = 50;               // the DQL row cap, like datasources_preview_rows
  int node_timeout_seconds = 300;  // datapipelines.executor.node-timeout-seconds
};

struct NodeRunRequest {
  std::string pipeline_id;
  std::string node_id;
  std::optional<int> version;  // absent: the working version (DRAFT if one exists)
  Json parameters = Json::object();
  // The MCP surface applies the render-before-run rule (§6.2.3) to the node's pin.
  bool agent_surface = true;
};

class NodeRunService {
 public:
  NodeRunService(TemplateStore& template_store, AuditReader& audit_reader,
                 PipelineService& pipelines, TemplateService& templates,
                 DatasourceService& datasources, NodeRunServiceOptions options = {});

  // {node_id, node_type, datasource, version, status, sql, sampled_parameters?, elapsed_ms}
  // plus {columns, rows, row_count, truncated} (DQL) or {affected_rows} (DML/DDL).
  //
  // Refusals, in order: pipeline.execution.not_found (pipeline/version), pipeline.node.not_found
  // {node_id, version}; pipeline.node.standalone_execution_refused reason tempdb_source |
  // pipeline_node | calculator_node; pipeline.execution.template_unrendered (agent surface,
  // DRAFT); pipeline.node.template_not_found; pipeline.node.template_render_failed;
  // pipeline.execution.invalid_parameter_type naming every failure;
  // pipeline.node.sql_parameter_missing; datasource.not_found (invisible datasource);
  // pipeline.node.datasource_readonly (DML/DDL); then the run's own
  // pipeline.execution.datasource_unreachable / pipeline.node.query_execution_failed.
  Json Run(const Principal& principal, const NodeRunRequest& request);

 private:
  TemplateStore& template_store_;
  AuditReader& audit_reader_;
  PipelineService& pipelines_;
  TemplateService& templates_;
  DatasourceService& datasources_;
  NodeRunServiceOptions options_;
};

}  // namespace dp
