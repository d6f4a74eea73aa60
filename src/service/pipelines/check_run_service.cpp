#include "datapipelines/service/pipelines/check_run_service.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/connectors/dialect.hpp"
#include "datapipelines/connectors/named_parameters.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/domain/sql_statement_classifier.hpp"
#include "datapipelines/pipeline/parameter_coercion.hpp"
#include "datapipelines/pipeline/pipeline_body_parser.hpp"
#include "datapipelines/pipeline/validation_problems.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/service/pipelines/pipeline_service.hpp"
#include "datapipelines/store/execution_store.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/crypto.hpp"
#include "datapipelines/util/steady_now.hpp"
#include "service/datasources/datasource_rules.hpp"

namespace dp {
namespace {

using Clock = std::chrono::steady_clock;

// The declared parameters bound the execute way: a supplied value that coerces, else the
// default, else NULL for an optional one. Undeclared supplied keys are ignored; the calculator
// Context does not exist for a check. A parameter that cannot bind is named with its reason.
struct CheckParameters {
  Json bound = Json::object();                 // wire values, the row's parameters_json
  std::map<std::string, BindValue> binds;      // typed, by name
  std::map<std::string, std::string> unbound;  // name -> why it did not bind
};

CheckParameters BindParameters(const PipelineBody& body, const Json& supplied_in) {
  const Json supplied = supplied_in.is_object() ? supplied_in : Json::object();
  CheckParameters out;
  for (const ParameterDecl& p : body.parameters) {
    Json value;
    auto it = supplied.find(p.name);
    if (it != supplied.end() && !it->is_null()) {
      if (auto failure = CoercionFailure(p, *it)) {
        out.unbound[p.name] = *failure;
        continue;
      }
      value = *it;
    } else if (p.default_value) {
      value = *p.default_value;
    } else if (p.required) {
      out.unbound[p.name] = "required, without a default, and not supplied";
      continue;
    }
    out.bound[p.name] = value;
    BindValue bind;
    bind.type = ParseCanonicalType(p.type).value_or(CanonicalType::kString);
    bind.value = value;
    out.binds[p.name] = std::move(bind);
  }
  return out;
}

// A JSON number, or a numeric string (BIGDECIMAL/BIGINTEGER wire form), as a long double.
std::optional<long double> NumberOf(const Json& value) {
  if (value.is_number()) return value.get<long double>();
  if (!value.is_string()) return std::nullopt;
  const std::string& text = value.get_ref<const std::string&>();
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  long double n = std::strtold(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(n)) return std::nullopt;
  return n;
}

// The cell as the observed text: {"value": "<wire cell>"} (metadata-db §4.20).
Json CellText(const Json& wire) {
  if (wire.is_null()) return nullptr;
  if (wire.is_string()) return wire;
  return wire.dump();
}

std::string Shown(const Json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// The expectation as serialized on the wire: its non-null members only.
Json ExpectedJson(const Json& expected) {
  Json out = Json::object();
  if (!expected.is_object()) return out;
  for (auto it = expected.begin(); it != expected.end(); ++it) {
    if (!it.value().is_null()) out[it.key()] = it.value();
  }
  return out;
}

struct Verdict {
  Json observed;  // null, {"value": …} or {"rows": n}
  std::string verdict;
  std::string message;
};

Verdict Error(std::string message, Json observed = nullptr) {
  return Verdict{std::move(observed), "error", std::move(message)};
}

Json RunJson(const CheckRunRecord& r) {
  Json observed;
  if (r.observed.is_object()) {
    if (r.observed.contains("rows")) {
      observed = r.observed["rows"];
    } else if (r.observed.contains("value")) {
      observed = r.observed["value"];
    }
  }
  return Json{{"check_id", r.check_id},
              {"name", r.name},
              {"expected", r.expected},
              {"observed", observed},
              {"verdict", r.verdict},
              {"message", r.message.empty() ? Json() : Json(r.message)},
              {"ran_at", r.ran_at_ms ? Json(FormatIso8601Ms(r.ran_at_ms)) : Json()}};
}

class CheckEvaluator {
 public:
  CheckEvaluator(DatasourceService& datasources, const CheckRunServiceOptions& options,
                 const std::string& workspace_id, const CheckParameters& parameters)
      : datasources_(datasources),
        options_(options),
        workspace_id_(workspace_id),
        parameters_(parameters) {}

  // `bind_failed` reports whether the parameters did not bind (the row then stores {}).
  Verdict Evaluate(const PipelineCheck& check, bool& bind_failed) {
    bind_failed = false;
    SqlStatementVerdict admitted = SqlStatementClassifier::Classify(check.sql);
    if (!admitted.admitted) {
      return Error("The statement was refused by the read-only probe: " + admitted.reason);
    }
    DatasourceService::ExecutionTarget target;
    try {
      target = datasources_.ResolveForExecution(workspace_id_, check.datasource);
    } catch (const DomainError& error) {
      return Error("Datasource '" + check.datasource +
                   "' could not be resolved: " + std::string(error.what()));
    }
    const Dialect dialect = ParseDialect(target.dialect).value_or(Dialect::kSqlite);
    BindMap binds;
    std::string unbound;
    for (const auto& name : NamedParameters::Parse(check.sql, dialect).DistinctNames()) {
      auto it = parameters_.binds.find(name);
      if (it != parameters_.binds.end()) {
        binds[name] = it->second;
        continue;
      }
      auto why = parameters_.unbound.find(name);
      unbound +=
          (unbound.empty() ? ":" : "; :") + name + " " +
          (why != parameters_.unbound.end() ? "did not bind (" + why->second + ")"
                                            : std::string("is not a declared pipeline parameter"));
    }
    if (!unbound.empty()) {
      bind_failed = true;
      return Error("The parameters did not bind: " + unbound + ".");
    }
    const std::string kind = check.expected.value("kind", "");
    int64_t expected_rows = 0;
    QueryOptions query;
    query.timeout_ms = options_.timeout_seconds * 1000;
    if (kind == "rows") {
      auto rows = NumberOf(check.expected.value("rows", Json()));
      if (!rows) return Error("The expectation carries no row count to compare.");
      expected_rows = static_cast<int64_t>(*rows);
      query.max_rows = std::min<int64_t>(expected_rows, options_.max_rows) + 1;
    } else if (kind == "value" || kind == "range") {
      query.max_rows = 2;  // one row is the only comparable shape; a second is the proof of two
    } else {
      return Error("The expectation kind '" + kind + "' is not value, range or rows.");
    }
    int64_t row_count = 0;
    Json cell;
    QueryResult result;
    try {
      auto lease = target.connector->Acquire();
      result = lease->Query(check.sql, binds, query, [&](const RowView& row) {
        if (row_count == 0 && row.size() > 0) cell = row.Wire(0);
        ++row_count;
        return true;
      });
    } catch (const DomainError& raw) {
      DomainError error = datasource_rules::Translate(raw, target.name, target.connector->config());
      const Json& details = error.details();
      if (details.is_object() && details.value("reason", std::string()) == "timeout") {
        return Error("The statement outlived its " + std::to_string(options_.timeout_seconds) +
                     " s timeout and was stopped.");
      }
      return Error(std::string(error.code().code) + ": " + error.what());
    }
    if (kind == "rows") return CompareRows(row_count, expected_rows, result.truncated);
    if (result.columns.size() != 1) {
      return Error("The statement returned " + std::to_string(result.columns.size()) +
                   " columns; a " + kind + " check compares exactly one row of one column.");
    }
    if (row_count == 0) {
      return Error("The statement returned no row; a " + kind +
                   " check compares exactly one row of one column.");
    }
    if (row_count > 1) {
      return Error("The statement returned more than one row; a " + kind +
                   " check compares exactly one row of one column.");
    }
    Json observed{{"value", CellText(cell)}};
    auto number = NumberOf(cell);
    if (!number) {
      return Error(cell.is_null() ? "The statement returned NULL, which is not a number."
                                  : "The observed value '" + Shown(cell) + "' is not a number.",
                   observed);
    }
    return kind == "value" ? CompareValue(*number, check.expected, observed)
                           : CompareRange(*number, check.expected, observed);
  }

 private:
  static Verdict CompareRows(int64_t count, int64_t expected, bool truncated) {
    Json observed{{"rows", count}};
    if (!truncated && count == expected) return Verdict{observed, "pass", ""};
    std::string seen = truncated ? "more than " + std::to_string(count - 1) : std::to_string(count);
    return Verdict{observed, "fail",
                   "The statement returned " + seen + " rows; expected exactly " +
                       std::to_string(expected) + "."};
  }

  static Verdict CompareValue(long double observed_number, const Json& expected, Json observed) {
    auto value = NumberOf(expected.value("value", Json()));
    if (!value) return Error("The expectation carries no numeric value.", observed);
    auto tolerance = NumberOf(expected.value("tolerance", Json(0))).value_or(0);
    const long double delta = std::fabs(observed_number - *value);
    if (delta <= tolerance) return Verdict{observed, "pass", ""};
    return Verdict{observed, "fail",
                   "Observed " + Shown(observed["value"]) + ", expected " +
                       Shown(expected["value"]) + " within tolerance " +
                       Shown(expected.value("tolerance", Json(0))) + "."};
  }

  static Verdict CompareRange(long double observed_number, const Json& expected, Json observed) {
    auto min = NumberOf(expected.value("min", Json()));
    auto max = NumberOf(expected.value("max", Json()));
    if (!min || !max) return Error("The expectation carries no numeric min..max.", observed);
    if (observed_number >= *min && observed_number <= *max) return Verdict{observed, "pass", ""};
    return Verdict{observed, "fail",
                   "Observed " + Shown(observed["value"]) + ", outside the range " +
                       Shown(expected["min"]) + ".." + Shown(expected["max"]) + " (inclusive)."};
  }

  DatasourceService& datasources_;
  const CheckRunServiceOptions& options_;
  const std::string& workspace_id_;
  const CheckParameters& parameters_;
};

}  // namespace

CheckRunService::CheckRunService(ExecutionStore& executions, AuditLog& audit,
                                 PipelineService& pipelines, DatasourceService& datasources,
                                 CheckRunServiceOptions options)
    : executions_(executions),
      audit_(audit),
      pipelines_(pipelines),
      datasources_(datasources),
      options_(std::move(options)) {}

Json CheckRunService::Run(const Principal& principal, const CheckRunRequest& request) {
  EnforceAccess(principal, Operation::kPipelinesRunChecks);
  auto runnable =
      pipelines_.ResolveForExecution(principal.workspace_id, request.pipeline_id, request.version);
  Json runs =
      RunBody(principal, runnable.entity.id, runnable.version.version, runnable.version.body,
              request.parameters, request.via, request.correlation_id);
  return Json{{"version", runnable.version.version}, {"runs", std::move(runs)}};
}

Json CheckRunService::RunForRelease(const Principal& principal, const std::string& pipeline_id,
                                    int version, const Json& body,
                                    const std::string& correlation_id) {
  return RunBody(principal, pipeline_id, version, body, Json::object(), "release", correlation_id);
}

Json CheckRunService::RunBody(const Principal& principal, const std::string& pipeline_id,
                              int version, const Json& stored_body, const Json& parameters,
                              const std::string& via, const std::string& correlation_id) {
  ValidationProblems ignored;  // stored bodies were validated when they were saved
  const PipelineBody body = PipelineBodyParser::Parse(stored_body, ignored);
  const CheckParameters bound = BindParameters(body, parameters);
  CheckEvaluator evaluator(datasources_, options_, principal.workspace_id, bound);
  Json runs = Json::array();
  for (const PipelineCheck& check : body.checks) {
    const Clock::time_point start = Clock::now();
    const int64_t ran_at = NowMs();
    bool bind_failed = false;
    Verdict verdict;
    try {
      verdict = evaluator.Evaluate(check, bind_failed);
    } catch (const DomainError& error) {
      verdict = Error(std::string(error.code().code) + ": " + error.what());
    }
    CheckRunRecord record;
    record.id = NewUuid();
    record.pipeline_id = pipeline_id;
    record.version = version;
    record.check_id = check.id;
    record.name = check.name;
    record.expected = ExpectedJson(check.expected);
    record.observed = verdict.observed;
    record.verdict = verdict.verdict;
    record.message = verdict.message;
    record.run_by = principal.user_id;
    record.via = via;
    record.ran_at_ms = ran_at;
    record.parameters = bind_failed ? Json::object() : bound.bound;
    record.correlation_id = correlation_id;
    record.duration_ms = MillisSince(start);
    executions_.AppendCheckRun(record);  // persisted before the outcome is returned
    runs.push_back(RunJson(record));
  }
  return runs;
}

Json CheckRunService::Latest(const Principal& principal, const std::string& pipeline_id,
                             int version) {
  EnforceAccess(principal, Operation::kPipelinesLatestChecks);
  auto runnable = pipelines_.ResolveForExecution(principal.workspace_id, pipeline_id, version);
  ValidationProblems ignored;
  const PipelineBody body = PipelineBodyParser::Parse(runnable.version.body, ignored);
  std::map<std::string, CheckRunRecord> latest;
  for (auto& run : executions_.LatestCheckRuns(runnable.entity.id, runnable.version.version)) {
    latest[run.check_id] = run;
  }
  Json checks = Json::array();
  for (const PipelineCheck& check : body.checks) {
    auto it = latest.find(check.id);
    checks.push_back({{"check_id", check.id},
                      {"name", check.name},
                      {"datasource", check.datasource},
                      {"sql", check.sql},
                      {"expected", ExpectedJson(check.expected)},
                      {"latest_run", it == latest.end() ? Json() : RunJson(it->second)}});
  }
  return Json{{"pipeline_id", runnable.entity.id},
              {"version", runnable.version.version},
              {"checks", std::move(checks)}};
}

void CheckRunService::RecordRelease(const Principal& principal, const std::string& pipeline_id,
                                    const std::string& pipeline_name, int version,
                                    const std::vector<std::string>& checks_overridden,
                                    const std::optional<std::string>& override_reason,
                                    const std::string& correlation_id) {
  AuditEvent event;
  event.event = "pipeline.version.released";
  event.user_id = principal.user_id;
  event.key_id = principal.key_id;
  event.workspace_id = principal.workspace_id;
  event.correlation_id = correlation_id;
  event.details = {{"pipeline_id", pipeline_id},
                   {"pipeline_name", pipeline_name},
                   {"version", version},
                   {"via", principal.key_id.empty() ? "session" : "api_key"}};
  if (!checks_overridden.empty()) {
    event.details["checks_overridden"] = checks_overridden;
    event.details["override_reason"] = override_reason.value_or("");
  }
  audit_.Record(std::move(event));
}

}  // namespace dp
