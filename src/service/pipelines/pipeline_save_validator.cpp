#include "pipeline_save_validator.hpp"

#include <deque>
#include <set>

#include "datapipelines/calculators/calculator_catalog.hpp"
#include "datapipelines/calculators/calculator_context.hpp"
#include "datapipelines/connectors/dialect.hpp"
#include "datapipelines/connectors/named_parameters.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/pipeline/parameter_coercion.hpp"
#include "datapipelines/pipeline/pipeline_body_parser.hpp"
#include "datapipelines/pipeline/pipeline_structure_validator.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/templates/template_service.hpp"
#include "pipeline_projection.hpp"

namespace dp {
namespace {

// The engine tempdb runs: a private in-memory SQLite database per execution. Templates a
// tempdb-source node pins are written in its dialect.
constexpr std::string_view kTempdbDialect = "SQLITE";

std::string NodePath(size_t index) { return "nodes[" + std::to_string(index) + "]"; }

bool IsSqlNode(const PipelineNode& node) {
  return node.type == NodeType::kDql || node.type == NodeType::kDml || node.type == NodeType::kDdl;
}

// A child body as stored (it validated when it was saved).
bool HasCallerNode(const PipelineBody& body) {
  for (const auto& node : body.nodes) {
    if (node.EffectiveTarget() == "caller") return true;
  }
  return false;
}

// "${name}" → "name"; anything else → nullopt (a literal).
std::optional<std::string> Reference(const Json& value) {
  if (!value.is_string()) return std::nullopt;
  const std::string& text = value.get_ref<const std::string&>();
  if (text.size() < 4 || text.rfind("${", 0) != 0 || text.back() != '}') return std::nullopt;
  return text.substr(2, text.size() - 3);
}

// The type a key of the parent's Context carries, "" when nothing provides it.
std::string ParentKeyType(const PipelineBody& parent, const std::string& key) {
  if (const ParameterDecl* p = parent.FindParameter(key)) return p->type;
  auto calc = CalculatorKeyTypes(parent);
  if (auto it = calc.find(key); it != calc.end()) return it->second;
  return BuiltInContextKeyType(key);
}

}  // namespace

PipelineSaveValidator::PipelineSaveValidator(TemplateStore& template_store,
                                             DatasourceStore& datasource_store,
                                             PipelineStore& pipelines, TemplateService& templates,
                                             const PipelineServiceOptions& options,
                                             const Principal& principal)
    : template_store_(template_store),
      datasource_store_(datasource_store),
      pipelines_(pipelines),
      templates_(templates),
      options_(options),
      principal_(principal) {}

void PipelineSaveValidator::Validate(const PipelineBody& body, ValidationProblems& problems) {
  const Json render_context = DryRenderContext(body);
  for (size_t i = 0; i < body.nodes.size(); ++i) {
    const PipelineNode& node = body.nodes[i];
    if (IsSqlNode(node)) {
      CheckNodeDatasources(body, i, problems);
      CheckNodeTemplate(body, i, render_context, problems);
    } else if (node.type == NodeType::kPipeline) {
      CheckChildNode(body, i, problems);
    }
  }
  CheckCompositionDepth(body, problems);
  CheckCheckDatasources(body, problems);
}

const DatasourceRecord* PipelineSaveValidator::Visible(const std::string& name) {
  auto it = datasources_.find(name);
  if (it == datasources_.end()) {
    std::optional<DatasourceRecord> record = datasource_store_.FindDatasource(name);
    // Not granted and nonexistent are one answer (D-R7).
    if (record && (record->is_deleted ||
                   !datasource_store_.IsDatasourceGranted(name, principal_.workspace_id))) {
      record.reset();
    }
    it = datasources_.emplace(name, std::move(record)).first;
  }
  return it->second ? &*it->second : nullptr;
}

void PipelineSaveValidator::CheckNodeDatasources(const PipelineBody& body, size_t index,
                                                 ValidationProblems& problems) {
  const PipelineNode& node = body.nodes[index];
  auto check = [&](const std::string& name, const std::string& path, const char* write_shape) {
    if (name.empty() || name == DatasourceService::kTempdb) return;
    const DatasourceRecord* ds = Visible(name);
    if (!ds) {
      problems.Add(errc::kPipelineUnknownDatasource, path,
                   "No datasource '" + name + "' is visible to this workspace.",
                   Json{{"node", node.id}, {"datasource", name}});
    } else if (write_shape && ds->readonly) {
      problems.Add(
          errc::kPipelineDatasourceReadonly, path,
          "Datasource '" + name + "' is readonly; node '" + node.id + "' would write to it.",
          Json{{"node", node.id}, {"datasource", name}, {"shape", write_shape}});
    }
  };
  const char* source_shape = node.type == NodeType::kDml   ? "dml_source"
                             : node.type == NodeType::kDdl ? "ddl_source"
                                                           : nullptr;
  check(node.source.value_or(""), NodePath(index) + ".source", source_shape);
  if (node.output && node.output->target == "datasource") {
    check(node.output->datasource, NodePath(index) + ".output.datasource", "output_target");
  }
}

void PipelineSaveValidator::CheckNodeTemplate(const PipelineBody& body, size_t index,
                                              const Json& render_context,
                                              ValidationProblems& problems) {
  const PipelineNode& node = body.nodes[index];
  if (!node.template_ref) return;
  const TemplateRef& ref = *node.template_ref;
  const std::string path = NodePath(index) + ".template";
  Json where{{"node", node.id}, {"template_id", ref.id}, {"version", ref.version}};
  auto entity = template_store_.FindTemplate(principal_.workspace_id, ref.id);
  if (!entity || entity->is_deleted) {
    problems.Add(errc::kPipelineTemplateNotFound, path + ".id",
                 "No template '" + ref.id + "' in this workspace.", where);
    return;
  }
  auto version = template_store_.FindTemplateVersion(principal_.workspace_id, ref.id,
                                                     static_cast<int>(ref.version));
  if (!version || version->status == "DISCARDED") {
    problems.Add(errc::kPipelineTemplateVersionNotFound, path + ".version",
                 "Template '" + ref.id + "' has no version " + std::to_string(ref.version) + ".",
                 where);
    return;
  }
  if (version->type != "sql") {
    where["template_type"] = version->type;
    problems.Add(errc::kPipelineTemplateTypeMismatch, path + ".id",
                 "Node '" + node.id + "' runs SQL; '" + ref.id + "' is an html template.", where);
    return;
  }
  const std::string source = node.source.value_or("");
  // tempdb speaks its engine's dialect: SQLite by default, DuckDB under
  // settings.tempdb.engine: DUCKDB.
  const bool duck_tempdb = body.settings.is_object() && body.settings.contains("tempdb") &&
                           body.settings["tempdb"].is_object() &&
                           body.settings["tempdb"].value("engine", "") == "DUCKDB";
  std::string expected = duck_tempdb ? "DUCKDB" : std::string(kTempdbDialect);
  if (source != DatasourceService::kTempdb) {
    const DatasourceRecord* ds = Visible(source);
    if (!ds) return;  // reported by CheckNodeDatasources
    expected = ds->dialect;
  }
  if (version->dialect != expected) {
    where["template_dialect"] = version->dialect;
    where["source_dialect"] = expected;
    problems.Add(errc::kPipelineTemplateDialectMismatch, path + ".id",
                 "Template '" + ref.id + "' is written in " + version->dialect + " but node '" +
                     node.id + "' runs on " +
                     (source == DatasourceService::kTempdb
                          ? (duck_tempdb ? "tempdb (an in-memory DuckDB database)"
                                         : "tempdb (an in-memory SQLite database)")
                          : "'" + source + "'") +
                     ", which speaks " + expected + ".",
                 where);
    return;
  }
  std::string rendered;
  try {
    rendered = templates_.Render(principal_, ref.id, static_cast<int>(ref.version),
                                 render_context)["rendered"];
  } catch (const DomainError& error) {
    Json details = where;
    if (error.details().is_object()) details.update(error.details());
    bool undeclared = error.details().value("reason", "") == "undefined_variable";
    problems.Add(undeclared ? errc::kPipelineTemplateParameterUndeclared
                            : errc::kPipelineTemplateRenderFailed,
                 path, error.what(), std::move(details));
    return;
  }
  CheckBinds(body, index, rendered, expected, problems);
}

void PipelineSaveValidator::CheckBinds(const PipelineBody& body, size_t index,
                                       const std::string& rendered, const std::string& dialect,
                                       ValidationProblems& problems) {
  const PipelineNode& node = body.nodes[index];
  auto parsed_dialect = ParseDialect(dialect);
  NamedParameters binds =
      NamedParameters::Parse(rendered, parsed_dialect.value_or(Dialect::kSqlite));
  std::map<std::string, std::string> producers;  // calculator key -> writing node
  for (const auto& other : body.nodes) {
    for (const auto& key : other.WrittenContextKeys()) producers[key] = other.id;
  }
  for (const std::string& name : binds.DistinctNames()) {
    if (body.FindParameter(name)) continue;
    if (auto it = producers.find(name); it != producers.end()) {
      if (!IsUpstream(body, node.id, it->second)) {
        problems.Add(errc::kPipelineCalculatorInputUnordered, NodePath(index) + ".depends_on",
                     "Node '" + node.id + "' binds :" + name + ", which node '" + it->second +
                         "' writes; add '" + it->second + "' to its depends_on.",
                     Json{{"node", node.id}, {"key", name}, {"producer", it->second}});
      }
      continue;
    }
    if (!BuiltInContextKeyType(name).empty()) continue;
    problems.Add(errc::kPipelineTemplateParameterUndeclared, NodePath(index) + ".template",
                 "The SQL of node '" + node.id + "' binds :" + name +
                     ", which is neither a declared parameter, a calculator key nor a "
                     "platform/org key. Declare it in parameters.",
                 Json{{"node", node.id}, {"parameter", name}, {"reason", "bind_undeclared"}});
  }
}

void PipelineSaveValidator::CheckChildNode(const PipelineBody& body, size_t index,
                                           ValidationProblems& problems) {
  const PipelineNode& node = body.nodes[index];
  if (!node.child) return;
  const ChildPipelineRef& ref = *node.child;
  const std::string path = NodePath(index) + ".pipeline";
  Json where{{"node", node.id}, {"pipeline", ref.name}, {"version", ref.version}};
  auto child = pipelines_.FindPipelineByName(principal_.workspace_id, ref.name);
  if (!child) {
    problems.Add(errc::kPipelinePipelineNotFound, path + ".name",
                 "No pipeline '" + ref.name + "' in this workspace.", where);
    return;
  }
  auto versions = pipelines_.ListPipelineVersions(child->id);
  bool any_live = false;
  const PipelineVersionRecord* pinned = nullptr;
  for (const auto& v : versions) {
    if (v.status != "DISCARDED") any_live = true;
    if (v.version == ref.version) pinned = &v;
  }
  if (!any_live) {
    problems.Add(errc::kPipelinePipelineReferenceDeleted, path + ".name",
                 "Pipeline '" + ref.name + "' is discarded; new references are refused.", where);
    return;
  }
  if (!pinned) {
    problems.Add(errc::kPipelinePipelineVersionNotFound, path + ".version",
                 "Pipeline '" + ref.name + "' has no version " + std::to_string(ref.version) + ".",
                 where);
    return;
  }
  if (pinned->status != "RELEASED") {
    where["status"] = pinned->status;
    problems.Add(errc::kPipelinePipelineReferenceNotReleased, path + ".version",
                 "A PIPELINE node pins released versions only; " + ref.name + " v" +
                     std::to_string(ref.version) + " is " + pinned->status + ".",
                 where);
    return;
  }
  PipelineBody child_body = PipelineBodyParser::ParseStored(pinned->body);
  auto child_calc = CalculatorKeyTypes(child_body);
  const Json supplied =
      node.parameters && node.parameters->is_object() ? *node.parameters : Json::object();
  for (auto it = supplied.begin(); it != supplied.end(); ++it) {
    const std::string key_path = NodePath(index) + ".parameters." + it.key();
    const ParameterDecl* decl = child_body.FindParameter(it.key());
    auto calc = child_calc.find(it.key());
    if (!decl && calc == child_calc.end()) {
      problems.Add(errc::kPipelinePipelineParameterUnknown, key_path,
                   "Child pipeline '" + ref.name + "' declares no input '" + it.key() + "'.",
                   Json{{"node", node.id}, {"parameter", it.key()}});
      continue;
    }
    const std::string target = decl ? decl->type : calc->second;
    std::string mismatch;
    if (auto reference = Reference(it.value())) {
      std::string source = ParentKeyType(body, *reference);
      if (source.empty()) {
        mismatch = "'${" + *reference + "}' names nothing in this pipeline's Context";
      } else if (source != target && source != "ANY" && target != "ANY") {
        mismatch = "'${" + *reference + "}' is " + source + ", the child expects " + target;
      }
    } else if (decl) {
      if (auto failure = CoercionFailure(*decl, it.value())) mismatch = *failure;
    } else if (target != "ANY" && !LiteralMatchesType(it.value(), target, false)) {
      mismatch = "the literal is not a " + target;
    }
    if (!mismatch.empty()) {
      problems.Add(errc::kPipelinePipelineParameterTypeMismatch, key_path,
                   "Input '" + it.key() + "' of child '" + ref.name + "': " + mismatch + ".",
                   Json{{"node", node.id}, {"parameter", it.key()}, {"expected_type", target}});
    }
  }
  for (const auto& decl : child_body.parameters) {
    if (decl.required && !decl.default_value && !supplied.contains(decl.name)) {
      problems.Add(errc::kPipelinePipelineParameterUnmapped, NodePath(index) + ".parameters",
                   "Child pipeline '" + ref.name + "' requires '" + decl.name + "'.",
                   Json{{"node", node.id}, {"parameter", decl.name}});
    }
  }
  if (node.output && !HasCallerNode(child_body)) {
    problems.Add(errc::kPipelinePipelineOutputOnSideeffectChild, NodePath(index) + ".output",
                 "Child pipeline '" + ref.name +
                     "' has no caller node, so this node has no "
                     "result to route; remove its output block.",
                 where);
  }
}

void PipelineSaveValidator::CheckCompositionDepth(const PipelineBody& body,
                                                  ValidationProblems& problems) {
  // Breadth-first over pinned children (iterative: a deep chain cannot exhaust the stack).
  struct Pending {
    std::string name;
    int version;
    int depth;
  };
  std::deque<Pending> queue;
  for (const auto& node : body.nodes) {
    if (node.child) {
      // Depth counts pipelines, the saved one being 1 (pipeline-contract §8.5): the same unit
      // the executor's run-time backstop counts, so what saves also runs.
      queue.push_back({node.child->name, static_cast<int>(node.child->version), 2});
    }
  }
  std::set<std::pair<std::string, int>> seen;
  while (!queue.empty()) {
    Pending next = queue.front();
    queue.pop_front();
    if (next.depth > options_.max_composition_depth) {
      problems.Add(errc::kPipelineCompositionTooDeep, "nodes",
                   "Pipelines compose deeper than " +
                       std::to_string(options_.max_composition_depth) + " levels.",
                   Json{{"max_depth", options_.max_composition_depth}, {"via", next.name}});
      return;
    }
    if (next.name == body.name) {
      problems.Add(
          errc::kPipelinePipelineSelfReference, "nodes",
          "The composition of '" + body.name + "' reaches itself through '" + next.name + "'.",
          Json{{"pipeline", body.name}});
      return;
    }
    if (!seen.insert({next.name, next.version}).second) continue;
    auto child = pipelines_.FindPipelineByName(principal_.workspace_id, next.name);
    if (!child) continue;
    for (const auto& v : pipelines_.ListPipelineVersions(child->id)) {
      if (v.version != next.version) continue;
      for (const auto& node : PipelineBodyParser::ParseStored(v.body).nodes) {
        if (node.child) {
          queue.push_back(
              {node.child->name, static_cast<int>(node.child->version), next.depth + 1});
        }
      }
    }
  }
}

void PipelineSaveValidator::CheckCheckDatasources(const PipelineBody& body,
                                                  ValidationProblems& problems) {
  for (size_t i = 0; i < body.checks.size(); ++i) {
    const PipelineCheck& check = body.checks[i];
    if (check.datasource.empty() || check.datasource == DatasourceService::kTempdb)
      continue;  // structural
    if (!Visible(check.datasource)) {
      problems.Add(errc::kPipelineCheckInvalid, "checks[" + std::to_string(i) + "].datasource",
                   "No datasource '" + check.datasource + "' is visible to this workspace.",
                   Json{{"check", check.id}, {"datasource", check.datasource}});
    }
  }
}

void CheckDoor(const PipelineBody& body, bool door_acknowledged, ValidationProblems& problems) {
  if (door_acknowledged) return;
  std::optional<Json> door = RawDatePairDoor(body);
  if (!door) return;
  Json details = *door;
  details["alternatives"] = Json::array(
      {"an INTEGER period parameter (year, quarter, month, fiscal_year)",
       "one anchor DATE parameter with a period_bounds or trailing_periods CALCULATOR node"});
  problems.Add(errc::kPipelineDoorUnacknowledged, "parameters",
               "Two raw DATE parameters and no period: prefer a period parameter or an anchor "
               "date with a window calculator. Pass door_acknowledged: true only when the "
               "question truly fixes two dates.",
               std::move(details));
}

}  // namespace dp
