#include "datapipelines/pipeline/pipeline_structure_validator.hpp"

#include <array>
#include <set>
#include <string_view>
#include <utility>

#include "datapipelines/calculators/calculator_catalog.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/pipeline/parameter_coercion.hpp"
#include "pipeline/body_rules.hpp"
#include "pipeline/env_specific_value.hpp"
#include "pipeline/identifier_rules.hpp"
#include "pipeline/validation_paths.hpp"

namespace dp {
namespace {

using identifier_rules::IsContextKeyName;
using identifier_rules::IsReservedIdentifier;
using identifier_rules::IsTableIdentifier;
using pipeline_paths::Bounded;
using pipeline_paths::Index;
using pipeline_paths::Member;
using pipeline_paths::NodePath;
using pipeline_paths::Quoted;

// SQLITE is the default (H2, the spec's engine, runs as SQLite); DUCKDB is beyond the spec.
constexpr std::array<std::string_view, 3> kTempdbEngines = {"H2", "SQLITE", "DUCKDB"};
constexpr std::array<std::string_view, 3> kOutputTargets = {"tempdb", "caller", "datasource"};
constexpr std::array<std::string_view, 2> kOutputModes = {"replace", "append"};

template <std::size_t N>
bool OneOf(const std::string& value, const std::array<std::string_view, N>& allowed) {
  for (auto entry : allowed) {
    if (value == entry) return true;
  }
  return false;
}

template <std::size_t N>
Json ToJsonList(const std::array<std::string_view, N>& values) {
  Json list = Json::array();
  for (auto value : values) list.push_back(std::string(value));
  return list;
}

bool IsPathSegment(std::string_view segment) {
  if (segment.empty() || segment.size() > 64) return false;
  auto lower_or_digit = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!lower_or_digit(segment.front())) return false;
  for (char c : segment) {
    if (!lower_or_digit(c) && c != '_' && c != '.' && c != '-') return false;
  }
  return true;
}

// ---- §12.1 structure -------------------------------------------------------------------------

void CheckEnvSpecific(const std::string& value, const std::string& path, const std::string& field,
                      ValidationProblems& problems) {
  auto pattern = EnvSpecificPattern(value);
  if (!pattern) return;
  problems.Add(errc::kPipelineForbiddenEnvSpecificValue, path,
               path + " holds an environment-specific value (" + *pattern +
                   "); a portable body names datasources, never hosts, URLs, credentials, "
                   "UUIDs, paths or environments",
               {{"field", field}, {"value", Bounded(value)}, {"pattern", *pattern}});
}

void CheckNameInvalid(const std::string& name, const std::string& path,
                      ValidationProblems& problems) {
  auto reason = PipelineNameDefect(name);
  if (!reason) return;
  const std::string message =
      *reason == "folder_required"
          ? "pipeline name " + Quoted(name) + " needs a folder: use a path such as test/" +
                Bounded(name)
          : "pipeline name " + Quoted(name) +
                " must be 2-10 '/'-separated segments of [a-z0-9][a-z0-9_.-]{0,63}, at most "
                "200 characters";
  problems.Add(errc::kPipelineNameInvalid, path, message,
               {{"reason", *reason}, {"name", Bounded(name)}});
}

void CheckIdentifier(const std::string& value, const std::string& path, const char* what,
                     ValidationProblems& problems) {
  if (!IsTableIdentifier(value)) {
    problems.Add(errc::kPipelineInvalidIdentifier, path,
                 std::string(what) + " " + Quoted(value) + " must match [a-z0-9_]{1,63}",
                 {{"field", path}, {"value", Bounded(value)}});
  } else if (IsReservedIdentifier(value)) {
    problems.Add(
        errc::kPipelineReservedIdentifier, path,
        std::string(what) + " " + Quoted(value) + " is reserved (tempdb and the __...__ namespace)",
        {{"field", path}, {"value", value}});
  }
}

void ValidateTopLevel(const PipelineBody& body, ValidationProblems& problems) {
  if (body.schema_version != 1) {
    problems.Add(errc::kPipelineSchemaVersionUnsupported, "schema_version",
                 "schema_version " + std::to_string(body.schema_version) +
                     " is not supported; the only schema_version is 1",
                 {{"schema_version", body.schema_version}, {"supported", Json::array({1})}});
  }
  CheckNameInvalid(body.name, "name", problems);
}

// ---- §12.8 settings --------------------------------------------------------------------------

// All keys and values under settings (§11.4), walked iteratively and bounded.
void ScanSettings(const Json& settings, ValidationProblems& problems) {
  constexpr std::size_t kMaxVisited = 10000;
  std::vector<std::pair<const Json*, std::string>> pending = {{&settings, "settings"}};
  for (std::size_t visited = 0; !pending.empty() && visited < kMaxVisited; ++visited) {
    auto [value, path] = pending.back();
    pending.pop_back();
    if (value->is_string()) CheckEnvSpecific(value->get<std::string>(), path, "settings", problems);
    if (value->is_object()) {
      for (const auto& [key, child] : value->items()) {
        CheckEnvSpecific(key, Member(path, key), "settings", problems);
        pending.emplace_back(&child, Member(path, key));
      }
    } else if (value->is_array()) {
      for (std::size_t i = 0; i < value->size(); ++i)
        pending.emplace_back(&(*value)[i], Index(path, i));
    }
  }
}

void TempdbConfigInvalid(const std::string& path, const std::string& message,
                         ValidationProblems& problems) {
  problems.Add(errc::kPipelineTempdbConfigInvalid, path, message, {{"field", path}});
}

void ValidateTempdbConfig(const Json& config, ValidationProblems& problems) {
  const std::string path = "settings.tempdb.config";
  if (!config.is_object()) return TempdbConfigInvalid(path, path + " must be an object", problems);
  for (const auto& [key, value] : config.items()) {
    if (key != "max_memory_mb") {
      TempdbConfigInvalid(Member(path, key),
                          Quoted(key) + " is not a tempdb config key (only max_memory_mb)",
                          problems);
    } else if (!value.is_number_integer() || value.get<int64_t>() < 1) {
      TempdbConfigInvalid(Member(path, key), "max_memory_mb must be a positive integer", problems);
    }
  }
}

void ValidateSettings(const Json& settings, ValidationProblems& problems) {
  ScanSettings(settings, problems);
  if (!settings.is_object() || !settings.contains("tempdb")) return;
  const Json& tempdb = settings["tempdb"];
  if (!tempdb.is_object()) {
    return TempdbConfigInvalid("settings.tempdb", "settings.tempdb must be an object", problems);
  }
  for (const auto& [key, value] : tempdb.items()) {
    if (key == "engine") {
      const std::string engine = value.is_string() ? value.get<std::string>() : value.dump();
      if (!value.is_string() || !OneOf(engine, kTempdbEngines)) {
        problems.Add(errc::kPipelineTempdbEngineUnsupported, "settings.tempdb.engine",
                     "tempdb engine " + Quoted(engine) +
                         " is not supported (SQLITE — H2 is its alias — or DUCKDB: the "
                         "in-memory engines this server runs)",
                     {{"engine", Bounded(engine)}, {"supported", ToJsonList(kTempdbEngines)}});
      }
    } else if (key == "config") {
      ValidateTempdbConfig(value, problems);
    } else {
      TempdbConfigInvalid(Member("settings.tempdb", key),
                          Quoted(key) + " is not a settings.tempdb field (engine, config)",
                          problems);
    }
  }
}

// ---- §12.7 parameters ------------------------------------------------------------------------

void ValidateDecimalShape(const ParameterDecl& parameter, const std::string& path,
                          ValidationProblems& problems) {
  const bool is_decimal = parameter.type == "DECIMAL";
  const bool is_big = parameter.type == "BIGDECIMAL";
  const Json where = {{"parameter", Bounded(parameter.name)}, {"type", parameter.type}};
  if (!is_decimal && !is_big) {
    for (const char* field : {"precision", "scale"}) {
      const bool present =
          field[0] == 'p' ? parameter.precision.has_value() : parameter.scale.has_value();
      if (present && IsParameterType(parameter.type)) {
        problems.Add(errc::kRequestInvalid, Member(path, field),
                     std::string(field) + " applies only to DECIMAL and BIGDECIMAL parameters",
                     where);
      }
    }
    return;
  }
  if (is_decimal && !parameter.precision) {
    problems.Add(errc::kPipelineParameterPrecisionMissing, Member(path, "precision"),
                 "DECIMAL parameter " + Quoted(parameter.name) + " needs a precision (1-15)",
                 where);
  } else if (parameter.precision &&
             (*parameter.precision < 1 || (is_decimal && *parameter.precision > 15))) {
    problems.Add(errc::kPipelineParameterPrecisionMissing, Member(path, "precision"),
                 is_decimal ? "DECIMAL precision must be 1-15 (BIGDECIMAL beyond 15)"
                            : "BIGDECIMAL precision must be a positive integer",
                 where);
  }
  if (is_big && parameter.precision && !parameter.scale) {
    problems.Add(errc::kPipelineParameterScaleMissing, Member(path, "scale"),
                 "BIGDECIMAL parameter " + Quoted(parameter.name) +
                     " declares a precision and so needs a scale",
                 where);
  } else if (parameter.scale && parameter.precision && *parameter.scale > *parameter.precision) {
    problems.Add(errc::kPipelineParameterScaleMissing, Member(path, "scale"),
                 "scale must not exceed precision", where);
  }
}

void ValidateParameter(const ParameterDecl& parameter, ValidationProblems& problems) {
  const std::string path = Member("parameters", parameter.name);
  if (!IsContextKeyName(parameter.name)) {
    problems.Add(errc::kPipelineParameterNameInvalid, path,
                 "parameter name " + Quoted(parameter.name) + " must match [a-z_][a-z0-9_]{0,62}",
                 {{"parameter", Bounded(parameter.name)}});
  }
  if (!IsParameterType(parameter.type)) {
    problems.Add(errc::kPipelineParameterTypeInvalid, Member(path, "type"),
                 "parameter " + Quoted(parameter.name) + " has type " + Quoted(parameter.type) +
                     "; allowed: INTEGER, BIGINTEGER, DECIMAL, BIGDECIMAL, BOOLEAN, STRING, "
                     "BINARY, DATE, TIME, TIMESTAMP",
                 {{"parameter", Bounded(parameter.name)}, {"type", Bounded(parameter.type)}});
    return;
  }
  ValidateDecimalShape(parameter, path, problems);
  if (!parameter.default_value) return;
  if (parameter.required) {
    problems.Add(errc::kPipelineConflictingRequiredDefault, Member(path, "default"),
                 "parameter " + Quoted(parameter.name) +
                     " is required and has a default; drop one (a default only applies to an "
                     "optional parameter)",
                 {{"parameter", Bounded(parameter.name)}});
  } else if (auto failure = CoercionFailure(parameter, *parameter.default_value)) {
    problems.Add(
        errc::kPipelineDefaultTypeMismatch, Member(path, "default"),
        "default of " + parameter.type + " parameter " + Quoted(parameter.name) + " " + *failure,
        {{"parameter", Bounded(parameter.name)}, {"type", parameter.type}, {"reason", *failure}});
  }
}

// ---- §12.1/§12.4/§12.9 nodes -----------------------------------------------------------------

void ValidateNodeIds(const PipelineBody& body, ValidationProblems& problems) {
  std::unordered_map<std::string, std::size_t> first_index;
  for (std::size_t i = 0; i < body.nodes.size(); ++i) {
    const std::string& id = body.nodes[i].id;
    const std::string path = NodePath(i, "id");
    if (id.empty()) {
      problems.Add(errc::kRequestInvalid, path, "every node needs an id ([a-z0-9_]{1,63})");
      continue;
    }
    CheckEnvSpecific(id, path, "nodes[].id", problems);
    CheckIdentifier(id, path, "node id", problems);
    auto [it, inserted] = first_index.emplace(id, i);
    if (!inserted) {
      problems.Add(
          errc::kPipelineDuplicateNodeId, path,
          "node id " + Quoted(id) + " is already used by nodes[" + std::to_string(it->second) + "]",
          {{"node_id", Bounded(id)}, {"first_index", it->second}});
    }
  }
}

void ValidateTemplateRef(const PipelineNode& node, std::size_t i, ValidationProblems& problems) {
  if (!node.source || node.source->empty()) {
    problems.Add(errc::kRequestInvalid, NodePath(i, "source"),
                 node.type_name + " node " + Quoted(node.id) +
                     " needs a source (a datasource name or tempdb)",
                 {{"node", Bounded(node.id)}});
  }
  if (!node.template_ref) {
    problems.Add(errc::kRequestInvalid, NodePath(i, "template"),
                 node.type_name + " node " + Quoted(node.id) + " needs a template {id, version}",
                 {{"node", Bounded(node.id)}});
    return;
  }
  if (node.template_ref->id.empty()) {
    problems.Add(errc::kRequestInvalid, NodePath(i, "template.id"), "template.id is required",
                 {{"node", Bounded(node.id)}});
  }
  if (node.template_ref->version < 1) {
    problems.Add(errc::kRequestInvalid, NodePath(i, "template.version"),
                 "template.version must be a positive integer (pin a template version)",
                 {{"node", Bounded(node.id)}});
  }
}

void ValidatePipelineNode(const PipelineBody& body, const PipelineNode& node, std::size_t i,
                          ValidationProblems& problems) {
  const Json where = {{"node", Bounded(node.id)}};
  if (node.source) {
    problems.Add(errc::kPipelinePipelineNodeHasSource, NodePath(i, "source"),
                 "PIPELINE node " + Quoted(node.id) + " runs a child pipeline; drop source", where);
  }
  if (node.template_ref) {
    problems.Add(errc::kPipelinePipelineNodeHasTemplate, NodePath(i, "template"),
                 "PIPELINE node " + Quoted(node.id) + " runs a child pipeline; drop template",
                 where);
  }
  if (!node.child) {
    problems.Add(errc::kRequestInvalid, NodePath(i, "pipeline"),
                 "PIPELINE node " + Quoted(node.id) + " needs pipeline {name, version}", where);
    return;
  }
  CheckNameInvalid(node.child->name, NodePath(i, "pipeline.name"), problems);
  if (node.child->version < 1) {
    problems.Add(errc::kRequestInvalid, NodePath(i, "pipeline.version"),
                 "pipeline.version must be a positive integer (there is no \"latest\")", where);
  }
  if (!body.name.empty() && node.child->name == body.name) {
    problems.Add(errc::kPipelinePipelineSelfReference, NodePath(i, "pipeline.name"),
                 "PIPELINE node " + Quoted(node.id) + " references its own pipeline",
                 {{"node", Bounded(node.id)}, {"pipeline", Bounded(body.name)}});
  }
}

// Fields that belong to one node type only, refused elsewhere as a request shape error
// (calculator fields have their own code, in calculator_node_rules).
void ValidateForeignFields(const PipelineNode& node, std::size_t i, ValidationProblems& problems) {
  if (node.type != NodeType::kPipeline) {
    if (node.child) {
      problems.Add(errc::kRequestInvalid, NodePath(i, "pipeline"),
                   "only PIPELINE nodes carry a pipeline reference", {{"node", Bounded(node.id)}});
    }
    if (node.parameters) {
      problems.Add(errc::kRequestInvalid, NodePath(i, "parameters"),
                   "only PIPELINE nodes carry child parameter bindings",
                   {{"node", Bounded(node.id)}});
    }
  }
}

void ValidateOutputBlock(const PipelineNode& node, std::size_t i, ValidationProblems& problems) {
  const NodeOutput& output = *node.output;
  const Json where = {{"node", Bounded(node.id)}};
  if (!OneOf(output.target, kOutputTargets)) {
    problems.Add(errc::kPipelineOutputTargetInvalid, NodePath(i, "output.target"),
                 "output.target " + Quoted(output.target) + " must be tempdb, caller or datasource",
                 {{"node", Bounded(node.id)},
                  {"target", Bounded(output.target)},
                  {"allowed", ToJsonList(kOutputTargets)}});
    return;
  }
  if (output.target == "tempdb" && output.table.empty()) {
    problems.Add(errc::kPipelineOutputTableMissing, NodePath(i, "output.table"),
                 "output.target tempdb needs output.table", where);
  }
  if (output.target == "datasource") {
    if (output.datasource.empty()) {
      problems.Add(errc::kPipelineOutputDatasourceMissing, NodePath(i, "output.datasource"),
                   "output.target datasource needs output.datasource", where);
    }
    if (output.table.empty()) {
      problems.Add(errc::kPipelineOutputDatasourceMissing, NodePath(i, "output.table"),
                   "output.target datasource needs output.table", where);
    }
    if (!OneOf(output.mode, kOutputModes)) {
      problems.Add(errc::kPipelineOutputModeInvalid, NodePath(i, "output.mode"),
                   "output.mode must be replace or append (never defaulted: replace truncates "
                   "the target table)",
                   {{"node", Bounded(node.id)},
                    {"mode", Bounded(output.mode)},
                    {"allowed", ToJsonList(kOutputModes)}});
    }
    CheckEnvSpecific(output.datasource, NodePath(i, "output.datasource"),
                     "nodes[].output.datasource", problems);
  }
  if (!output.table.empty()) {
    CheckEnvSpecific(output.table, NodePath(i, "output.table"), "nodes[].output.table", problems);
    CheckIdentifier(output.table, NodePath(i, "output.table"), "output table", problems);
  }
}

void ValidateOutput(const PipelineNode& node, std::size_t i, ValidationProblems& problems) {
  if (!node.output) return;
  if (node.type == NodeType::kDml || node.type == NodeType::kDdl) {
    const bool caller = node.output->target == "caller";
    const ErrorCode code = caller                        ? errc::kPipelineNonDqlCallerTarget
                           : node.type == NodeType::kDml ? errc::kPipelineDmlHasOutput
                                                         : errc::kPipelineDdlHasOutput;
    problems.Add(code, NodePath(i, "output"),
                 node.type_name + " node " + Quoted(node.id) +
                     " must not have an output block: only DQL nodes have outputs",
                 {{"node", Bounded(node.id)}, {"type", node.type_name}});
    return;
  }
  if (node.type == NodeType::kDql || node.type == NodeType::kPipeline) {
    ValidateOutputBlock(node, i, problems);
  }
}

void ValidateTimeout(const PipelineNode& node, std::size_t i, int64_t ceiling,
                     ValidationProblems& problems) {
  if (!node.timeout_seconds) return;
  auto seconds = node.TimeoutSeconds();
  if (seconds && *seconds >= 1 && *seconds <= ceiling) return;
  problems.Add(
      errc::kPipelineNodeTimeoutInvalid, NodePath(i, "settings.timeout_seconds"),
      "settings.timeout_seconds of node " + Quoted(node.id) +
          " must be a positive integer no greater than " + std::to_string(ceiling) +
          " (refused, not clamped)",
      {{"node", Bounded(node.id)}, {"requested", *node.timeout_seconds}, {"ceiling", ceiling}});
}

void ValidateNode(const PipelineBody& body, const PipelineNode& node, std::size_t i,
                  const PipelineStructureValidator::Options& options,
                  ValidationProblems& problems) {
  if (!node.type) {
    problems.Add(errc::kPipelineTypeInvalid, NodePath(i, "type"),
                 "node type " + Quoted(node.type_name) +
                     " must be one of DQL, DML, DDL, PIPELINE, CALCULATOR",
                 {{"node", Bounded(node.id)},
                  {"type", Bounded(node.type_name)},
                  {"allowed", {"DQL", "DML", "DDL", "PIPELINE", "CALCULATOR"}}});
  }
  if (node.source)
    CheckEnvSpecific(*node.source, NodePath(i, "source"), "nodes[].source", problems);
  const bool is_sql =
      node.type == NodeType::kDql || node.type == NodeType::kDml || node.type == NodeType::kDdl;
  if (is_sql) ValidateTemplateRef(node, i, problems);
  if (node.type == NodeType::kPipeline) ValidatePipelineNode(body, node, i, problems);
  ValidateForeignFields(node, i, problems);
  ValidateOutput(node, i, problems);
  ValidateTimeout(node, i, options.node_timeout_max_seconds, problems);
}

// §10.1: tempdb tables share one namespace; write-back tables one per target datasource.
void ValidateOutputTables(const PipelineBody& body, ValidationProblems& problems) {
  std::map<std::pair<std::string, std::string>, std::size_t> owners;
  for (std::size_t i = 0; i < body.nodes.size(); ++i) {
    const PipelineNode& node = body.nodes[i];
    if (!node.output || node.output->table.empty()) continue;
    if (node.type != NodeType::kDql && node.type != NodeType::kPipeline) continue;
    const std::string& target = node.output->target;
    if (target != "tempdb" && target != "datasource") continue;
    const std::string space = target == "tempdb" ? "tempdb" : node.output->datasource;
    auto [it, inserted] = owners.emplace(std::make_pair(space, node.output->table), i);
    if (inserted) continue;
    problems.Add(errc::kPipelineDuplicateOutputTable, NodePath(i, "output.table"),
                 "output table " + Quoted(node.output->table) + " in " +
                     (target == "tempdb" ? std::string("tempdb") : "datasource " + Quoted(space)) +
                     " is already written by node " + Quoted(body.nodes[it->second].id),
                 {{"table", Bounded(node.output->table)},
                  {"namespace", Bounded(space)},
                  {"nodes", {Bounded(body.nodes[it->second].id), Bounded(node.id)}}});
  }
}

// §9.2: at most one node resolves to caller.
void ValidateCallerNodes(const PipelineBody& body, ValidationProblems& problems) {
  Json callers = Json::array();
  std::optional<std::size_t> second;
  for (std::size_t i = 0; i < body.nodes.size(); ++i) {
    if (body.nodes[i].EffectiveTarget() != "caller") continue;
    if (!callers.empty() && !second) second = i;
    callers.push_back(Bounded(body.nodes[i].id));
  }
  if (!second) return;
  const PipelineNode& node = body.nodes[*second];
  problems.Add(errc::kPipelineMultipleCallerNodes,
               node.output ? NodePath(*second, "output.target") : NodePath(*second),
               std::to_string(callers.size()) +
                   " nodes resolve to output.target caller (a DQL node without output is a "
                   "caller); at most one may — stage the others to tempdb",
               {{"nodes", callers}});
}

// ---- §12.2 DAG -------------------------------------------------------------------------------

void ValidateDag(const PipelineBody& body, const NodeGraph& graph,
                 const PipelineStructureValidator::Options& options, ValidationProblems& problems) {
  if (body.nodes.empty()) {
    problems.Add(errc::kPipelineEmpty, "nodes", "a pipeline needs at least one node");
    return;
  }
  for (std::size_t i = 0; i < body.nodes.size(); ++i) {
    const auto& depends_on = body.nodes[i].depends_on;
    for (std::size_t j = 0; j < depends_on.size(); ++j) {
      if (graph.IndexOf(depends_on[j])) continue;
      problems.Add(errc::kPipelineDanglingDependency, NodePath(i, Index("depends_on", j)),
                   "node " + Quoted(body.nodes[i].id) + " depends on " + Quoted(depends_on[j]) +
                       ", which is not a node of this pipeline",
                   {{"node", Bounded(body.nodes[i].id)}, {"depends_on", Bounded(depends_on[j])}});
    }
  }
  if (body.nodes.size() > options.max_nodes) return;  // reported by the caller; skip the walk
  if (auto cycle = graph.FindCycle()) {
    std::string text;
    for (const auto& id : *cycle) text += (text.empty() ? "" : " -> ") + Bounded(id);
    const std::size_t closing = *graph.IndexOf(cycle->front());
    Json ids = Json::array();
    for (const auto& id : *cycle) ids.push_back(Bounded(id));
    problems.Add(errc::kPipelineCycleDetected, NodePath(closing, "depends_on"),
                 "the dependency graph has a cycle: " + text, {{"cycle", ids}});
  }
}

}  // namespace

// ---- NodeGraph -------------------------------------------------------------------------------

NodeGraph::NodeGraph(const PipelineBody& body) {
  ids_.reserve(body.nodes.size());
  for (std::size_t i = 0; i < body.nodes.size(); ++i) {
    ids_.push_back(body.nodes[i].id);
    index_.emplace(body.nodes[i].id, i);
  }
  parents_.resize(body.nodes.size());
  for (std::size_t i = 0; i < body.nodes.size(); ++i) {
    for (const auto& parent : body.nodes[i].depends_on) {
      if (auto at = IndexOf(parent)) parents_[i].push_back(*at);
    }
  }
}

std::optional<std::size_t> NodeGraph::IndexOf(const std::string& node_id) const {
  auto it = index_.find(node_id);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

const std::vector<bool>& NodeGraph::UpstreamOf(std::size_t reader) const {
  auto cached = upstream_.find(reader);
  if (cached != upstream_.end()) return cached->second;
  std::vector<bool> seen(ids_.size(), false);
  std::vector<std::size_t> pending = parents_[reader];
  while (!pending.empty()) {
    const std::size_t at = pending.back();
    pending.pop_back();
    if (seen[at]) continue;
    seen[at] = true;
    for (std::size_t parent : parents_[at]) {
      if (!seen[parent]) pending.push_back(parent);
    }
  }
  return upstream_.emplace(reader, std::move(seen)).first->second;
}

bool NodeGraph::DependsOn(std::size_t reader, std::size_t producer) const {
  if (reader >= ids_.size() || producer >= ids_.size()) return false;
  return UpstreamOf(reader)[producer];
}

std::optional<std::vector<std::string>> NodeGraph::FindCycle() const {
  enum class Mark { kUnseen, kOnPath, kDone };
  std::vector<Mark> marks(ids_.size(), Mark::kUnseen);
  // Iterative DFS: each frame is (node, next parent to visit); the frames ARE the current path.
  std::vector<std::pair<std::size_t, std::size_t>> path;
  for (std::size_t root = 0; root < ids_.size(); ++root) {
    if (marks[root] != Mark::kUnseen) continue;
    path.emplace_back(root, 0);
    marks[root] = Mark::kOnPath;
    while (!path.empty()) {
      auto& [node, next] = path.back();
      if (next == parents_[node].size()) {
        marks[node] = Mark::kDone;
        path.pop_back();
        continue;
      }
      const std::size_t parent = parents_[node][next++];
      if (marks[parent] == Mark::kUnseen) {
        marks[parent] = Mark::kOnPath;
        path.emplace_back(parent, 0);
      } else if (marks[parent] == Mark::kOnPath) {
        std::vector<std::string> cycle;
        std::size_t start = 0;
        while (path[start].first != parent) ++start;
        for (std::size_t k = start; k < path.size(); ++k) cycle.push_back(ids_[path[k].first]);
        cycle.push_back(ids_[parent]);
        return cycle;
      }
    }
  }
  return std::nullopt;
}

// ---- free helpers ----------------------------------------------------------------------------

std::optional<std::string> PipelineNameDefect(const std::string& name) {
  std::vector<std::string_view> segments;
  std::string_view rest = name;
  while (true) {
    const std::size_t slash = rest.find('/');
    segments.push_back(rest.substr(0, slash));
    if (slash == std::string_view::npos || segments.size() > 10) break;
    rest.remove_prefix(slash + 1);
  }
  bool segments_ok = true;
  for (auto segment : segments) segments_ok = segments_ok && IsPathSegment(segment);
  if (segments_ok && segments.size() == 1) return "folder_required";
  if (!segments_ok || segments.size() > 10 || name.size() > 200) return "grammar";
  return std::nullopt;
}

std::map<std::string, std::string> CalculatorKeyTypes(const PipelineBody& body) {
  std::map<std::string, std::string> types;
  for (const auto& node : body.nodes) {
    if (node.type != NodeType::kCalculator) continue;
    const CalculatorKind* kind = node.kind ? FindCalculator(*node.kind) : nullptr;
    if (node.context_key) {
      const bool single = kind != nullptr && !kind->multi_output();
      types.emplace(*node.context_key, single ? kind->output_type : "ANY");
    }
    if (node.context_keys) {
      for (const auto& [output_name, key] : *node.context_keys) {
        const CalculatorOutput* output = kind ? kind->FindOutput(output_name) : nullptr;
        types.emplace(key, output ? output->type : "ANY");
      }
    }
  }
  return types;
}

Json DerivedParameters(const PipelineBody& body) {
  const auto types = CalculatorKeyTypes(body);
  Json derived = Json::object();
  for (const auto& node : body.nodes) {
    if (node.type != NodeType::kCalculator) continue;
    for (const auto& key : node.WrittenContextKeys()) {
      auto type = types.find(key);
      if (derived.contains(key) || type == types.end()) continue;
      derived[key] = {{"type", type->second}, {"required", false}, {"derived", true}};
    }
  }
  return derived;
}

bool IsUpstream(const PipelineBody& body, const std::string& reader_id,
                const std::string& producer_id) {
  NodeGraph graph(body);
  auto reader = graph.IndexOf(reader_id);
  auto producer = graph.IndexOf(producer_id);
  return reader && producer && graph.DependsOn(*reader, *producer);
}

const PipelineNode* CalculatorKeyProducer(const PipelineBody& body, const std::string& key) {
  for (const auto& node : body.nodes) {
    if (node.type != NodeType::kCalculator) continue;
    for (const auto& written : node.WrittenContextKeys()) {
      if (written == key) return &node;
    }
  }
  return nullptr;
}

std::optional<Json> RawDatePairDoor(const PipelineBody& body) {
  Json dates = Json::array();
  for (const auto& parameter : body.parameters) {
    const std::string& name = parameter.name;
    const bool period_name = name == "year" || name == "quarter" || name == "month" ||
                             (name.size() > 5 && name.substr(name.size() - 5) == "_year");
    if (parameter.type == "INTEGER" && period_name) return std::nullopt;
    if (parameter.type == "DATE") dates.push_back(name);
  }
  if (dates.size() < 2) return std::nullopt;
  for (const auto& node : body.nodes) {
    const CalculatorKind* kind =
        node.type == NodeType::kCalculator && node.kind ? FindCalculator(*node.kind) : nullptr;
    if (kind == nullptr) continue;
    if (kind->output_type == "DATE") return std::nullopt;
    for (const auto& output : kind->outputs) {
      if (output.type == "DATE") return std::nullopt;
    }
  }
  return Json{{"parameters", dates}};
}

// ---- the validator ---------------------------------------------------------------------------

void PipelineStructureValidator::Validate(const PipelineBody& body, const Options& options,
                                          ValidationProblems& problems) {
  ValidateTopLevel(body, problems);
  ValidateSettings(body.settings, problems);
  for (const auto& parameter : body.parameters) ValidateParameter(parameter, problems);
  if (body.nodes.size() > options.max_nodes) {
    problems.Add(errc::kPipelineTooLarge, "nodes",
                 "a pipeline holds at most " + std::to_string(options.max_nodes) +
                     " nodes; this "
                     "one has " +
                     std::to_string(body.nodes.size()),
                 {{"count", body.nodes.size()}, {"max", options.max_nodes}});
  }
  ValidateNodeIds(body, problems);
  for (std::size_t i = 0; i < body.nodes.size(); ++i) {
    ValidateNode(body, body.nodes[i], i, options, problems);
  }
  ValidateOutputTables(body, problems);
  ValidateCallerNodes(body, problems);
  const NodeGraph graph(body);
  ValidateDag(body, graph, options, problems);
  ValidateCalculatorNodes(body, graph, problems);
  ValidateReleaseChecks(body, options.max_checks, problems);
}

}  // namespace dp
