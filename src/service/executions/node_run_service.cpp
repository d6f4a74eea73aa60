#include "datapipelines/service/executions/node_run_service.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <set>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/connectors/dialect.hpp"
#include "datapipelines/connectors/named_parameters.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/executor/execution_context.hpp"
#include "datapipelines/pipeline/parameter_coercion.hpp"
#include "datapipelines/pipeline/pipeline_body_parser.hpp"
#include "datapipelines/pipeline/pipeline_structure_validator.hpp"
#include "datapipelines/pipeline/validation_problems.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/service/pipelines/pipeline_service.hpp"
#include "datapipelines/service/templates/template_service.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/crypto.hpp"
#include "datapipelines/util/steady_now.hpp"
#include "render_before_run.hpp"
#include "service/datasources/datasource_rules.hpp"

namespace dp {
namespace {

using Clock = std::chrono::steady_clock;

DomainError Refused(const std::string& node_id, const std::string& reason,
                    const std::string& message) {
  return DomainError(errc::kNodeStandaloneExecutionRefused, message,
                     Json{{"node_id", node_id}, {"reason", reason}});
}

// A supplied calculator key is typed by its kind's output; ANY takes any JSON scalar.
std::optional<std::string> CalculatorKeyFailure(const std::string& type, const Json& value) {
  if (type == "ANY") {
    if (value.is_object() || value.is_array()) return "a calculator key takes a scalar value";
    return std::nullopt;
  }
  return TypeCoercionFailure(type, value);
}

// The parameters a node run binds: the supplied ones that coerce, defaults, and a sample for
// every unsupplied required parameter and every unsupplied calculator key (no ancestor runs,
// so no calculator computes its key). Failures are collected, not thrown: the render comes
// first in the refusal order (§6.2.20), so an invalid value is replaced by a sample meanwhile.
struct NodeRunInputs {
  Json effective = Json::object();
  Json failures = Json::array();
  std::vector<std::string> sampled_parameters;  // required parameters given a sample
  std::set<std::string> sampled_keys;           // calculator keys given a sample
};

NodeRunInputs ResolveInputs(const PipelineBody& body, const Json& supplied_in) {
  const Json supplied = supplied_in.is_object() ? supplied_in : Json::object();
  NodeRunInputs out;
  auto fail = [&](const std::string& name, const std::string& reason) {
    out.failures.push_back({{"parameter", name}, {"reason", reason}});
  };
  for (const ParameterDecl& p : body.parameters) {
    auto it = supplied.find(p.name);
    if (it != supplied.end() && !it->is_null()) {
      if (auto failure = CoercionFailure(p, *it)) {
        fail(p.name, *failure);
        out.effective[p.name] = p.default_value ? *p.default_value : SampleValue(p);
      } else {
        out.effective[p.name] = *it;
      }
    } else if (!p.default_value && p.required) {
      out.effective[p.name] = SampleValue(p);
      out.sampled_parameters.push_back(p.name);
    }
    // Otherwise the Context fills it the execute way: the default, or NULL when optional.
  }
  const auto calculator_keys = CalculatorKeyTypes(body);
  for (const auto& [key, type] : calculator_keys) {
    auto it = supplied.find(key);
    if (it != supplied.end() && !it->is_null()) {
      if (auto failure = CalculatorKeyFailure(type, *it)) {
        fail(key, *failure);
        out.effective[key] = SampleValue(type);
      } else {
        out.effective[key] = *it;
      }
    } else {
      out.effective[key] = SampleValue(type);
      out.sampled_keys.insert(key);
    }
  }
  for (auto it = supplied.begin(); it != supplied.end(); ++it) {
    if (it.value().is_null() || body.FindParameter(it.key()) || calculator_keys.count(it.key())) {
      continue;
    }
    fail(it.key(), "not a declared parameter or a calculator key of this pipeline");
  }
  return out;
}

}  // namespace

NodeRunService::NodeRunService(TemplateStore& template_store, AuditReader& audit_reader,
                               PipelineService& pipelines, TemplateService& templates,
                               DatasourceService& datasources, NodeRunServiceOptions options)
    : template_store_(template_store),
      audit_reader_(audit_reader),
      pipelines_(pipelines),
      templates_(templates),
      datasources_(datasources),
      options_(std::move(options)) {}

Json NodeRunService::Run(const Principal& principal, const NodeRunRequest& request) {
  const Clock::time_point start = Clock::now();
  EnforceAccess(principal, Operation::kPipelinesExecuteNode);
  auto runnable =
      pipelines_.ResolveForExecution(principal.workspace_id, request.pipeline_id, request.version);
  ValidationProblems ignored;  // stored bodies were validated when they were saved
  const PipelineBody body = PipelineBodyParser::Parse(runnable.version.body, ignored);
  const int version = runnable.version.version;

  // ---- the node, and whether it has standalone SQL at all
  const PipelineNode* node = body.FindNode(request.node_id);
  if (!node) {
    throw DomainError(errc::kNodeNotFound,
                      "Version " + std::to_string(version) + " of '" + runnable.entity.name +
                          "' has no node '" + request.node_id + "'.",
                      Json{{"node_id", request.node_id}, {"version", version}});
  }
  const NodeType type = node->type.value_or(NodeType::kDql);
  const std::string source_name = node->source.value_or("");
  if (type != NodeType::kPipeline && type != NodeType::kCalculator &&
      source_name == DatasourceService::kTempdb) {
    throw Refused(node->id, "tempdb_source",
                  "Node '" + node->id +
                      "' reads tempdb, which exists only inside a full "
                      "execution: run the pipeline with pipelines_execute.");
  }
  if (type == NodeType::kPipeline) {
    throw Refused(node->id, "pipeline_node",
                  "Node '" + node->id +
                      "' runs a child pipeline, not SQL: run the child "
                      "pipeline (or this one) with pipelines_execute.");
  }
  if (type == NodeType::kCalculator) {
    throw Refused(node->id, "calculator_node",
                  "Node '" + node->id +
                      "' evaluates a calculator, not SQL: evaluate its kind "
                      "with the calculators tools, or run the pipeline with pipelines_execute.");
  }
  if (!node->template_ref) {
    throw DomainError(errc::kNodeTemplateNotFound, "Node '" + node->id + "' pins no template.",
                      Json{{"node_id", node->id}});
  }

  // ---- render before you run (MCP only), on this node's pin
  if (request.agent_surface) {
    RequireRenderedTemplates(template_store_, audit_reader_, principal, runnable.version.body,
                             runnable.version.status, node->id);
  }

  // The datasource is resolved now for its dialect; an invisible one is reported in its turn.
  std::optional<DatasourceService::ExecutionTarget> target;
  std::exception_ptr unresolved;
  try {
    target = datasources_.ResolveForExecution(principal.workspace_id, source_name);
  } catch (const DomainError&) {
    unresolved = std::current_exception();
  }

  // ---- render, parameters, binds
  NodeRunInputs inputs = ResolveInputs(body, request.parameters);
  CalculatorEnvironment environment{NowMs(), options_.org};
  ExecutionContext context =
      ExecutionContext::Resolve(body, inputs.effective, environment, NewUuid());
  const std::string sql =
      templates_.RenderPinned(principal.workspace_id, node->template_ref->id,
                              static_cast<int>(node->template_ref->version), context.RenderModel());
  if (!inputs.failures.empty()) {
    throw DomainError(errc::kExecutionInvalidParameterType,
                      "Parameters do not match their declared types.",
                      Json{{"failures", inputs.failures}});
  }
  const Dialect dialect =
      target ? ParseDialect(target->dialect).value_or(Dialect::kSqlite) : Dialect::kSqlite;
  const std::vector<std::string> names = NamedParameters::Parse(sql, dialect).DistinctNames();
  BindMap binds = context.Binds(names);
  std::vector<std::string> sampled = inputs.sampled_parameters;
  for (const auto& name : names) {
    if (inputs.sampled_keys.count(name)) sampled.push_back(name);
  }

  // ---- the datasource: visible, and writable for a write-shaped node
  if (unresolved) {
    try {
      std::rethrow_exception(unresolved);
    } catch (const DomainError& error) {
      if (error.code() != errc::kNodeDatasourceNotFound) throw;
      throw DomainError(errc::kDatasourceNotFound,
                        "No datasource '" + source_name + "' is visible to this workspace.",
                        Json{{"datasource", source_name}, {"node_id", node->id}});
    }
  }
  const bool writes = type == NodeType::kDml || type == NodeType::kDdl;
  if (writes && target->readonly) {
    throw DomainError(
        errc::kNodeDatasourceReadonly,
        "Datasource '" + target->name + "' is readonly; node '" + node->id + "' writes to it.",
        Json{{"node", node->id},
             {"datasource", target->name},
             {"shape", type == NodeType::kDml ? "dml_source" : "ddl_source"}});
  }

  // ---- the run
  QueryOptions query;
  const int64_t timeout_seconds = node->TimeoutSeconds().value_or(options_.node_timeout_seconds);
  query.timeout_ms = static_cast<int>(std::min<int64_t>(timeout_seconds, INT32_MAX / 1000) * 1000);
  if (!writes) query.max_rows = options_.max_rows;
  Json out{{"node_id", node->id}, {"node_type", ToString(type)},       {"datasource", target->name},
           {"version", version},  {"status", runnable.version.status}, {"sql", sql}};
  if (!sampled.empty()) out["sampled_parameters"] = sampled;
  Json rows = Json::array();
  QueryResult result;
  try {
    auto lease = target->connector->Acquire();
    if (writes) {
      result = lease->Query(sql, binds, query, [](const RowView&) { return true; });
    } else {
      result = lease->Query(sql, binds, query, [&rows](const RowView& row) {
        rows.push_back(row.ToWireObject());
        return true;
      });
    }
  } catch (const DomainError& error) {
    throw datasource_rules::Translate(error, target->name, target->connector->config());
  }
  if (writes) {
    out["affected_rows"] = std::max<int64_t>(result.affected_rows, 0);
  } else {
    Json columns = Json::array();
    for (const auto& column : result.columns) {
      Json descriptor = column.ToDescriptor();
      columns.push_back({{"name", descriptor["name"]}, {"type", descriptor["type"]}});
    }
    out["columns"] = std::move(columns);
    out["row_count"] = rows.size();
    out["rows"] = std::move(rows);
    out["truncated"] = result.truncated;
  }
  out["elapsed_ms"] = MillisSince(start);
  return out;
}

}  // namespace dp
