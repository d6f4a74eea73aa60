#include "datapipelines/executor/node_runner.hpp"

#include "datapipelines/calculators/calculator_catalog.hpp"
#include "datapipelines/calculators/calculator_evaluator.hpp"
#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/connectors/dialect.hpp"
#include "datapipelines/connectors/named_parameters.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/executor/buffered_rows.hpp"
#include "datapipelines/executor/node_deadline.hpp"
#include "datapipelines/executor/tempdb_sink.hpp"
#include "datapipelines/executor/writeback_sink.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

constexpr std::string_view kTempdb = "tempdb";
constexpr const char* kTempdbDialect = "SQLITE";

// A token held for the node's statements, released whatever the outcome.
class TokenScope {
 public:
  explicit TokenScope(ExecutionCancellation& cancellation)
      : cancellation_(cancellation), token_(cancellation.NodeToken()) {}
  ~TokenScope() { cancellation_.Release(token_); }
  CancelToken* get() const { return token_.get(); }

 private:
  ExecutionCancellation& cancellation_;
  std::shared_ptr<CancelToken> token_;
};

// A statement its driver cancelled at the datasource's query timeout says so (§13.4): too slow
// for the budget wants another fix than wrong SQL.
DomainError AsQueryTimeout(const DomainError& error, int64_t elapsed_ms) {
  Json details = error.details().is_object() ? error.details() : Json::object();
  details["timeout_seconds"] = details.value("timeout_ms", int64_t{0}) / 1000;
  details["elapsed_ms"] = elapsed_ms;
  return DomainError(errc::kNodeQueryTimeout, error.what(), std::move(details));
}

bool IsDriverTimeout(const DomainError& error) {
  return error.code() == errc::kNodeQueryFailed && error.details().is_object() &&
         error.details().value("reason", "") == "timeout";
}

bool WritesTo(const PipelineNode& node) {
  return node.type == NodeType::kDml || node.type == NodeType::kDdl;
}

// A `$name` calculator input is a reference to a Context key; anything else is a literal.
Json ResolveInputs(const Json& inputs, const ExecutionContext& context) {
  Json resolved = Json::object();
  for (auto it = inputs.begin(); it != inputs.end(); ++it) {
    const Json& value = it.value();
    if (value.is_string() && value.get_ref<const std::string&>().size() > 1 &&
        value.get_ref<const std::string&>()[0] == '$') {
      resolved[it.key()] = context.Value(value.get_ref<const std::string&>().substr(1));
    } else if (value.is_array()) {
      Json items = Json::array();
      for (const Json& item : value) {
        items.push_back(ResolveInputs(Json{{"v", item}}, context)["v"]);
      }
      resolved[it.key()] = std::move(items);
    } else {
      resolved[it.key()] = value;
    }
  }
  return resolved;
}

// "${key}" → the parent's Context value; a literal passes through (pipeline-contract §4.9).
Json ResolveChildParameters(const Json& parameters, const ExecutionContext& context) {
  Json resolved = Json::object();
  if (!parameters.is_object()) return resolved;
  for (auto it = parameters.begin(); it != parameters.end(); ++it) {
    const Json& value = it.value();
    const std::string* text = value.is_string() ? &value.get_ref<const std::string&>() : nullptr;
    if (text && text->size() > 3 && text->rfind("${", 0) == 0 && text->back() == '}') {
      resolved[it.key()] = context.Value(text->substr(2, text->size() - 3));
    } else {
      resolved[it.key()] = value;
    }
  }
  return resolved;
}

}  // namespace

NodeRunner::NodeRunner(ExecutionEnvironment& environment, ExecutionContext& context, Tempdb& tempdb,
                       RowSink& caller, ExecutionCancellation& cancellation,
                       const NodeRunnerOptions& options)
    : environment_(environment),
      context_(context),
      tempdb_(tempdb),
      caller_(caller),
      cancellation_(cancellation),
      options_(options) {}

NodeResult NodeRunner::Run(const PipelineNode& node, NodeTrace& trace) {
  cancellation_.ThrowIfAborted();
  switch (node.type.value_or(NodeType::kDql)) {
    case NodeType::kCalculator:
      return RunCalculator(node);
    case NodeType::kPipeline:
      return RunChild(node);
    default:
      return RunSql(node, trace);
  }
}

int64_t NodeRunner::TimeoutSeconds(const PipelineNode& node) const {
  return node.TimeoutSeconds().value_or(options_.node_timeout_seconds);
}

RowSink* NodeRunner::SinkFor(const PipelineNode& node, std::unique_ptr<RowSink>& owned,
                             CancelToken* cancel) {
  const std::string target = node.EffectiveTarget();
  if (target == "caller") return &caller_;
  if (target == "tempdb") {
    owned = std::make_unique<TempdbSink>(tempdb_, node.output->table);
  } else if (target == "datasource") {
    ExecutionSource to = environment_.Source(node.output->datasource);
    if (to.readonly) {
      throw DomainError(
          errc::kNodeDatasourceReadonly,
          "Datasource '" + to.name + "' is readonly; node '" + node.id + "' writes back to it.",
          Json{{"node", node.id}, {"datasource", to.name}, {"shape", "output_target"}});
    }
    owned = std::make_unique<WritebackSink>(to.connector, to.name, node.output->table,
                                            node.output->mode, cancel);
  } else {
    owned = std::make_unique<DiscardingSink>();
  }
  return owned.get();
}

NodeResult NodeRunner::RunSql(const PipelineNode& node, NodeTrace& trace) {
  TokenScope token(cancellation_);
  NodeDeadline deadline(token.get(), TimeoutSeconds(node));
  try {
    return RunStatement(node, trace, *token.get(), deadline);
  } catch (const DomainError& error) {
    if (deadline.fired()) throw deadline.Error(node.id);
    if (IsDriverTimeout(error)) throw AsQueryTimeout(error, deadline.elapsed_ms());
    throw;
  } catch (const std::exception&) {
    if (deadline.fired()) throw deadline.Error(node.id);
    throw;
  }
}

NodeResult NodeRunner::RunStatement(const PipelineNode& node, NodeTrace& trace, CancelToken& token,
                                    NodeDeadline& deadline) {
  const std::string source_name = node.source.value_or("");
  const bool on_tempdb = source_name == kTempdb;
  trace.datasource = source_name;
  trace.template_id = node.template_ref->id;
  trace.template_version = node.template_ref->version;
  ExecutionSource source;
  if (on_tempdb) {
    trace.dialect = kTempdbDialect;
  } else {
    source = environment_.Source(source_name);
    trace.dialect = source.dialect;
    if (WritesTo(node) && source.readonly) {
      throw DomainError(
          errc::kNodeDatasourceReadonly,
          "Datasource '" + source_name + "' is readonly; node '" + node.id + "' writes to it.",
          Json{{"node", node.id},
               {"datasource", source_name},
               {"shape", node.type == NodeType::kDml ? "dml_source" : "ddl_source"}});
    }
  }
  trace.sql = environment_.Render(*node.template_ref, context_.RenderModel());
  Dialect dialect = ParseDialect(trace.dialect).value_or(Dialect::kSqlite);
  BindMap binds = context_.Binds(NamedParameters::Parse(trace.sql, dialect).DistinctNames());
  NodeResult result;
  result.stats["sql_hash"] = Sha256Hex(trace.sql);
  deadline.Enter("query");
  QueryOptions options;
  options.cancel = &token;  // the statement timeout is the datasource's own
  if (node.type != NodeType::kDql) {
    if (on_tempdb) {
      result.rows_out = tempdb_.Execute(trace.sql, binds);
    } else {
      QueryResult done =
          source.connector->Query(trace.sql, binds, options, [](const RowView&) { return true; });
      result.rows_out = std::max<int64_t>(done.affected_rows, 0);
    }
    return result;
  }
  std::unique_ptr<RowSink> owned;
  RowSink* sink = SinkFor(node, owned, &token);
  auto on_columns = [sink](const std::vector<ColumnSchema>& columns) { sink->Begin(columns); };
  auto on_row = [sink](const RowView& row) {
    sink->Append(row);
    return true;
  };
  if (on_tempdb && node.EffectiveTarget() == "tempdb") {
    // tempdb → tempdb: the staging lock is not reentrant, so the rows are read first and staged
    // after the statement has finished.
    BufferedRows buffered;
    tempdb_.Query(trace.sql, binds, options, buffered.RowCallback(), buffered.ColumnsCallback());
    deadline.Enter("materialize");
    buffered.ReplayInto(*sink);
  } else if (on_tempdb) {
    tempdb_.Query(trace.sql, binds, options, on_row, on_columns);
  } else {
    source.connector->Query(trace.sql, binds, options, on_row, on_columns);
  }
  deadline.Enter("materialize");
  result.rows_out = sink->Finish();
  return result;
}

NodeResult NodeRunner::RunCalculator(const PipelineNode& node) {
  const CalculatorKind* kind = FindCalculator(node.kind.value_or(""));
  NodeResult result;
  const auto keys = node.WrittenContextKeys();
  if (context_.SuppliedByCaller(node.id)) {
    result.stats["provided_by"] = "caller";
  } else {
    Json value;
    try {
      value =
          EvaluateCalculator(*kind, ResolveInputs(node.inputs.value_or(Json::object()), context_),
                             options_.calculators);
    } catch (const DomainError& error) {
      Json details = error.details().is_object() ? error.details() : Json::object();
      details["node"] = node.id;
      throw DomainError(error.code(), error.what(), std::move(details));
    }
    if (!kind->multi_output()) {
      context_.Write(*node.context_key, value, kind->output_type);
    } else {
      for (const auto& [output, key] : *node.context_keys) {
        context_.Write(key, value[output], kind->FindOutput(output)->type);
      }
    }
  }
  if (!kind->multi_output()) {
    result.stats["context_key"] = *node.context_key;
    result.stats["context_value"] = context_.Value(*node.context_key);
  } else {
    Json values = Json::object();
    for (const auto& key : keys) values[key] = context_.Value(key);
    result.stats["context_values"] = std::move(values);
  }
  return result;
}

NodeResult NodeRunner::RunChild(const PipelineNode& node) {
  TokenScope token(cancellation_);
  std::unique_ptr<RowSink> owned;
  RowSink* sink = node.output ? SinkFor(node, owned, token.get()) : nullptr;
  DiscardingSink drain;
  ChildRun child = environment_.RunChild(
      node, ResolveChildParameters(node.parameters.value_or(Json::object()), context_),
      sink ? sink : &drain, cancellation_);
  NodeResult result;
  result.rows_out = sink ? sink->Finish() : 0;
  result.stats["child_execution_id"] = child.execution_id;
  return result;
}

}  // namespace dp
