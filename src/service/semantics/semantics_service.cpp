// SemanticsService: semantics_record / _list / _retire and the learned-fact blocks on the
// datasource reads (MCP spec §6.2.37–39, §6.2.18a). Validation runs in the order §6.2.37 lists,
// each step a catalogued refusal before anything is written.
#include "datapipelines/service/semantics/semantics_service.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

#include "datapipelines/connectors/dialect.hpp"
#include "datapipelines/connectors/named_parameters.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/domain/sql_statement_classifier.hpp"
#include "datapipelines/semantics/drift_check.hpp"
#include "datapipelines/semantics/fact_kind.hpp"
#include "datapipelines/semantics/fact_text_check.hpp"
#include "datapipelines/semantics/schema_fingerprint.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/datasources/datasource_explorer.hpp"
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/store/pipeline_store.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

constexpr std::size_t kFactMin = 8;
constexpr std::size_t kFactMax = 1000;
constexpr std::size_t kSummaryMax = 300;

std::size_t CodePoints(const std::string& text) {
  std::size_t count = 0;
  for (unsigned char c : text) count += (c & 0xC0) != 0x80;
  return count;
}

// At most `max` code points, cut on a character boundary, "…" marking the cut.
std::string Clip(const std::string& text, std::size_t max) {
  if (CodePoints(text) <= max) return text;
  std::size_t kept = 0, i = 0;
  for (; i < text.size(); ++i) {
    bool starts = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    if (starts && ++kept > max - 1) break;
  }
  return text.substr(0, i) + "\xE2\x80\xA6";
}

[[noreturn]] void FactInvalid(const std::string& message, const std::string& field) {
  throw DomainError(errc::kSemanticsFactInvalid, message, Json{{"field", field}});
}

DomainError FactNotFound(const std::string& id) {
  return DomainError(errc::kSemanticsNotFound,
                     "No learned fact '" + id + "' is visible to this workspace.",
                     Json{{"id", id}});
}

bool VisibleTo(const LearnedFactRecord& fact, const Principal& reader) {
  return fact.scope == "DATASOURCE" ||
         (!reader.workspace_id.empty() && fact.workspace_id == reader.workspace_id);
}

bool IsRuleKind(const std::string& kind) { return ScopeOfKind(kind) == FactScope::kWorkspace; }

// "YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM)" → epoch ms.
std::optional<int64_t> ParseInstant(const std::string& text) {
  int year, month, day, hour, minute, second, consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &year, &month, &day, &hour, &minute,
                  &second, &consumed) != 6) {
    return std::nullopt;
  }
  std::size_t i = static_cast<std::size_t>(consumed);
  int64_t millis = 0;
  if (i < text.size() && text[i] == '.') {
    int digits = 0;
    for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      if (digits++ < 3) millis = millis * 10 + (text[i] - '0');
    }
    if (digits == 0) return std::nullopt;
    for (; digits < 3; ++digits) millis *= 10;
  }
  int64_t offset_minutes = 0;
  std::string zone = text.substr(i);
  if (zone != "Z" && zone != "z") {
    int oh, om;
    if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') ||
        std::sscanf(zone.c_str() + 1, "%2d:%2d", &oh, &om) != 2) {
      return std::nullopt;
    }
    offset_minutes = (zone[0] == '+' ? 1 : -1) * (oh * 60 + om);
  }
  char base[32];
  std::snprintf(base, sizeof base, "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day, hour, minute,
                second);
  auto at = ParseIso8601Utc(base);
  if (!at) return std::nullopt;
  return *at + millis - offset_minutes * 60 * 1000;
}

// The probe's first rows as "col=value, col=value | …", clipped to the summary cap.
std::string SummaryOf(const Json& probe) {
  std::vector<std::string> names;
  for (const auto& column : probe.value("columns", Json::array())) {
    names.push_back(column.value("name", ""));
  }
  std::string out;
  for (const auto& row : probe.value("rows", Json::array())) {
    std::string line;
    for (const auto& name : names) {
      const Json& value = row.contains(name) ? row[name] : Json();
      std::string text = value.is_null()     ? "NULL"
                         : value.is_string() ? value.get<std::string>()
                                             : value.dump();
      line += (line.empty() ? "" : ", ") + name + "=" + text;
    }
    out += (out.empty() ? "" : " | ") + line;
  }
  if (out.empty()) out = "(no rows)";
  return Clip(out, kSummaryMax);
}

// Two live facts of one kind on the same (non-empty) refs: both are served conflict: true.
std::set<std::string> ConflictingIds(const std::vector<LearnedFactRecord>& facts) {
  std::map<std::string, std::vector<std::string>> groups;
  for (const auto& fact : facts) {
    if (fact.retired_at_ms != 0 || fact.refs.empty()) continue;
    groups[fact.kind + "\n" + fact.refs.dump()].push_back(fact.id);
  }
  std::set<std::string> out;
  for (const auto& [key, ids] : groups) {
    if (ids.size() > 1) out.insert(ids.begin(), ids.end());
  }
  return out;
}

}  // namespace

// Renders facts for one reader: provenance stops at the reader's visibility (D-S9).
class SemanticsService::View {
 public:
  View(const Principal& reader, PipelineStore& pipelines, std::set<std::string> conflicts)
      : reader_(reader), pipelines_(pipelines), conflicts_(std::move(conflicts)) {}

  // The §6.2.18a block.
  Json Summary(const LearnedFactRecord& fact) {
    Json out{{"id", fact.id},
             {"scope", fact.scope},
             {"kind", fact.kind},
             {"fact", fact.fact},
             {"trust", fact.trust}};
    if (!fact.drift.empty()) out["drift"] = fact.drift;
    if (!fact.evidence_summary.empty()) out["evidence_summary"] = fact.evidence_summary;
    out["recorded_via"] = fact.recorded_via;
    out["recorded_at"] = FormatIso8601Ms(fact.recorded_at_ms);
    out["from_this_workspace"] = fact.recorded_in == reader_.workspace_id;
    if (auto pipeline = SourcePipeline(fact.source_pipeline_id)) out["source_pipeline"] = *pipeline;
    if (conflicts_.count(fact.id)) out["conflict"] = true;
    return out;
  }

  // The FULL shape of semantics_record / semantics_list.
  Json Full(const LearnedFactRecord& fact) {
    Json out = Summary(fact);
    out["datasource"] = fact.datasource;
    out["refs"] = fact.refs;
    if (!fact.evidence_sql.empty()) out["evidence_sql"] = fact.evidence_sql;
    out["recorded_by"] = fact.recorded_by;
    if (fact.source_version > 0) out["source_version"] = fact.source_version;
    if (!fact.supersedes.empty()) out["supersedes"] = fact.supersedes;
    if (fact.retired_at_ms != 0) {
      out["retired_at"] = FormatIso8601Ms(fact.retired_at_ms);
      out["retired_reason"] = fact.retired_reason;
    }
    return out;
  }

 private:
  std::optional<Json> SourcePipeline(const std::string& id) {
    if (id.empty() || reader_.workspace_id.empty()) return std::nullopt;
    auto it = pipelines_cache_.find(id);
    if (it == pipelines_cache_.end()) {
      std::optional<Json> link;
      // The same findById(workspace, id) predicate every pipeline read uses.
      if (auto pipeline = pipelines_.FindPipeline(reader_.workspace_id, id)) {
        link = Json{{"id", pipeline->id}, {"name", pipeline->name}};
      }
      it = pipelines_cache_.emplace(id, std::move(link)).first;
    }
    return it->second;
  }

  const Principal& reader_;
  PipelineStore& pipelines_;
  std::set<std::string> conflicts_;
  std::map<std::string, std::optional<Json>> pipelines_cache_;
};

RecordFactRequest RecordFactRequest::FromJson(const Json& args) {
  RecordFactRequest request;
  request.scope = OptionalStringField(args, "scope").value_or("");
  request.datasource = OptionalStringField(args, "datasource").value_or("");
  request.kind = OptionalStringField(args, "kind").value_or("");
  request.fact = OptionalStringField(args, "fact").value_or("");
  if (auto it = args.find("refs"); it != args.end() && it->is_array()) {
    for (const auto& ref : *it) request.refs.push_back(FactRef::FromJson(ref));
  }
  request.evidence_sql = OptionalStringField(args, "evidence_sql").value_or("");
  request.evidence_summary = OptionalStringField(args, "evidence_summary").value_or("");
  request.source_pipeline_id = OptionalStringField(args, "source_pipeline_id").value_or("");
  request.source_version = OptionalIntField(args, "source_version").value_or(0);
  request.supersedes = OptionalStringField(args, "supersedes").value_or("");
  return request;
}

ListFactsRequest ListFactsRequest::FromJson(const Json& args) {
  ListFactsRequest request;
  request.datasource = OptionalStringField(args, "datasource").value_or("");
  request.table = OptionalStringField(args, "table").value_or("");
  request.scope = OptionalStringField(args, "scope").value_or("");
  if (auto it = args.find("include_retired"); it != args.end() && it->is_boolean()) {
    request.include_retired = it->get<bool>();
  }
  if (auto since = OptionalStringField(args, "since")) {
    request.since_ms = ParseInstant(*since);
    if (!request.since_ms) {
      throw DomainError(errc::kRequestInvalid,
                        "'since' must be an ISO-8601 instant such as 2026-09-11T10:15:00Z.",
                        Json{{"field", "since"}});
    }
  }
  return request;
}

SemanticsService::SemanticsService(LearnedFactStore& facts, DatasourceService& datasources,
                                   DatasourceExplorer& explorer, PipelineStore& pipelines,
                                   AuditLog& audit, SemanticsServiceOptions options)
    : facts_(facts),
      datasources_(datasources),
      explorer_(explorer),
      pipelines_(pipelines),
      audit_(audit),
      options_(options) {}

Json SemanticsService::Record(const Principal& principal, const RecordFactRequest& request) {
  EnforceAccess(principal, Operation::kSemanticsRecord);
  // 1. kind in the closed list AND of the requested scope.
  auto kind_scope = ScopeOfKind(request.kind);
  auto scope = ParseFactScope(request.scope);
  if (!kind_scope || !scope || *kind_scope != *scope) {
    std::string message = !kind_scope ? "'" + request.kind + "' is not a learned-fact kind."
                                      : "'" + request.kind + "' is a " +
                                            std::string(ToString(*kind_scope)) + " kind, not a " +
                                            request.scope + " one.";
    throw DomainError(errc::kSemanticsKindInvalid, message,
                      Json{{"kind", request.kind}, {"scope", request.scope}});
  }
  // 2. the fact window, refs on a DATASOURCE kind, the summary cap.
  std::size_t length = CodePoints(request.fact);
  if (length < kFactMin || length > kFactMax) {
    FactInvalid("'fact' must be 8 to 1000 characters (it has " + std::to_string(length) + ").",
                "fact");
  }
  if (*scope == FactScope::kDatasource && request.refs.empty()) {
    FactInvalid("A DATASOURCE fact names at least one table or column in 'refs'.", "refs");
  }
  if (CodePoints(request.evidence_summary) > kSummaryMax) {
    FactInvalid("'evidence_summary' is capped at 300 characters.", "evidence_summary");
  }
  // The §5.3 gate (D-S8): an ungranted datasource is not-found before anything runs.
  std::string dialect = datasources_.RequireGrantedDialect(principal, request.datasource);
  bool schemaless = dialect == "SQLITE";
  // 3. every ref resolves against the LIVE schema: one column read per referenced table, which
  //    is also that table's fingerprint.
  DatasourceExplorer::LiveCatalog catalog = explorer_.ReadCatalog(principal, request.datasource);
  std::vector<FactRef> refs;
  for (FactRef ref : request.refs) {
    if (schemaless && ref.schema == "main") ref.schema.clear();
    if (ref.schema.empty() && !schemaless) ref.schema = catalog.current_schema;
    refs.push_back(std::move(ref));
  }
  SchemaFingerprint fingerprint;
  std::map<std::string, std::vector<ColumnSchema>> read;  // table key → columns
  auto read_table = [&](const FactRef& ref) -> const std::vector<ColumnSchema>* {
    auto it = read.find(ref.TableKey());
    if (it != read.end()) return &it->second;
    auto columns = ref.table.empty() ? std::nullopt
                                     : explorer_.ReadTableColumns(principal, request.datasource,
                                                                  ref.schema, ref.table);
    if (!columns) return nullptr;
    fingerprint.Set(ref.TableKey(), SchemaFingerprint::TableDigest(*columns));
    return &read.emplace(ref.TableKey(), std::move(*columns)).first->second;
  };
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const FactRef& ref = refs[i];
    const auto* columns = read_table(ref);
    bool resolves = columns && (ref.column.empty() || std::any_of(columns->begin(), columns->end(),
                                                                  [&](const ColumnSchema& c) {
                                                                    return c.name == ref.column;
                                                                  }));
    if (!resolves) {
      std::string what = columns ? "column '" + ref.column + "' of table '" + ref.TableKey() + "'"
                                 : "table '" + ref.TableKey() + "'";
      throw DomainError(errc::kSemanticsRefUnresolved,
                        "refs[" + std::to_string(i) + "] does not resolve: " + what +
                            " is not in the live schema of '" + request.datasource +
                            "' (datasources_get_tables / _get_columns list what is).",
                        Json{{"ref", request.refs[i].ToJson()}, {"index", i}});
    }
  }
  // 4. the text agrees with the refs: an exact catalog table is added, a near miss refused.
  std::vector<std::string> texts{request.fact};
  if (!request.evidence_summary.empty()) texts.push_back(request.evidence_summary);
  TextRefsVerdict agreement =
      FactTextCheck::Check(texts, catalog.tables, refs, catalog.current_schema);
  if (agreement.mismatch_token) {
    const TableInfo& nearest = *agreement.suggestion;
    std::string qualified =
        nearest.schema.empty() ? nearest.name : nearest.schema + "." + nearest.name;
    throw DomainError(
        errc::kSemanticsRefMismatch,
        "The text names '" + *agreement.mismatch_token + "', which is not a table of '" +
            request.datasource + "' — did you mean '" + qualified +
            "'? Name the table exactly (it is then added to refs) or rephrase.",
        Json{
            {"token", *agreement.mismatch_token},
            {"suggestion", nearest.name},
            {"namespace", nearest.schema.empty() ? Json::array() : Json::array({nearest.schema})}});
  }
  for (const FactRef& added : agreement.added) {
    read_table(added);
    refs.push_back(added);
  }
  refs = NormaliseRefs(std::move(refs));

  LearnedFactRecord fact;
  fact.id = NewUuid();
  fact.scope = request.scope;
  if (*scope == FactScope::kWorkspace) fact.workspace_id = principal.workspace_id;
  fact.datasource = request.datasource;
  fact.kind = request.kind;
  fact.fact = request.fact;
  fact.refs = RefsToJson(refs);
  fact.fingerprint = fingerprint.ToString();
  fact.recorded_by = principal.user_id;
  fact.recorded_via = request.via;
  fact.recorded_in = principal.workspace_id;
  // 5. no identical live fact.
  if (auto existing = facts_.FindLiveDuplicate(fact)) {
    throw DomainError(errc::kSemanticsDuplicate,
                      "An identical live fact is already recorded; supersede it or leave it.",
                      Json{{"existing_id", *existing}});
  }
  // 6. evidence runs ONCE through the sql_probe path; observed with it, asserted without (a
  //    WORKSPACE rule is a choice a person confirms, never observed).
  fact.trust = std::string(trust::kAsserted);
  if (!request.evidence_sql.empty()) {
    Json probe = RunEvidence(principal, request.datasource, dialect, request.evidence_sql);
    fact.evidence_sql = request.evidence_sql;
    fact.evidence_summary =
        request.evidence_summary.empty() ? SummaryOf(probe) : request.evidence_summary;
    if (*scope == FactScope::kDatasource) fact.trust = std::string(trust::kObserved);
  } else {
    fact.evidence_summary = request.evidence_summary;
  }
  // 7. the source pipeline and the superseded fact, both answered not-found when invisible.
  if (!request.source_pipeline_id.empty()) {
    if (!pipelines_.FindPipeline(principal.workspace_id, request.source_pipeline_id)) {
      throw DomainError(errc::kPipelineNotFound,
                        "No pipeline '" + request.source_pipeline_id + "' in this workspace.",
                        Json{{"id", request.source_pipeline_id}});
    }
    fact.source_pipeline_id = request.source_pipeline_id;
    fact.source_version = request.source_version;
  }
  std::optional<LearnedFactRecord> superseded;
  if (!request.supersedes.empty()) {
    superseded = facts_.Find(request.supersedes);
    if (!superseded || !VisibleTo(*superseded, principal) ||
        superseded->datasource != request.datasource) {
      throw FactNotFound(request.supersedes);
    }
    // Superseding retires: what another workspace established needs its admin (§6.2.39).
    if (superseded->scope == "DATASOURCE" && superseded->recorded_in != principal.workspace_id) {
      EnforceAccess(principal, Operation::kSemanticsRetireForeignFact);
    }
    fact.supersedes = superseded->id;
  }
  fact.recorded_at_ms = NowMs();
  facts_.Insert(fact);
  if (superseded) facts_.Retire(superseded->id, "superseded", fact.recorded_at_ms);

  Json audit_refs = Json::array();
  for (const auto& ref : refs) {
    audit_refs.push_back(ref.column.empty() ? ref.TableKey() : ref.TableKey() + "." + ref.column);
  }
  Json details{{"fact_id", fact.id},       {"kind", fact.kind},
               {"scope", fact.scope},      {"datasource", fact.datasource},
               {"refs", audit_refs},       {"trust", fact.trust},
               {"via", fact.recorded_via}, {"evidence", !fact.evidence_sql.empty()}};
  if (!fact.supersedes.empty()) details["supersedes"] = fact.supersedes;
  if (!fact.source_pipeline_id.empty()) details["source_pipeline_id"] = fact.source_pipeline_id;
  Audit("semantics.recorded", principal, request.correlation_id, std::move(details));

  auto visible = facts_.ListVisible(fact.datasource, principal.workspace_id, false);
  View view(principal, pipelines_, ConflictingIds(visible));
  Json out = view.Full(fact);
  if (!agreement.added.empty()) out["refs_added"] = RefsToJson(agreement.added);
  return out;
}

Json SemanticsService::RunEvidence(const Principal& principal, const std::string& datasource,
                                   const std::string& dialect, const std::string& sql) {
  // Refused before any connection: the classifier's rule, and no :parameter (evidence binds
  // nothing).
  SqlStatementVerdict verdict = SqlStatementClassifier::Classify(sql);
  if (!verdict.admitted) {
    Json details{{"field", "evidence_sql"}, {"reason", verdict.reason}};
    if (!verdict.refused_token.empty()) details["refused_token"] = verdict.refused_token;
    throw DomainError(errc::kSemanticsEvidenceRefused,
                      "evidence_sql must be ONE read-only SELECT/WITH: " + verdict.reason, details);
  }
  auto names = NamedParameters::Parse(sql, ParseDialectOrThrow(dialect)).DistinctNames();
  if (!names.empty()) {
    throw DomainError(errc::kSemanticsEvidenceRefused,
                      "evidence_sql binds nothing: inline the values instead of :" + names[0] + ".",
                      Json{{"field", "evidence_sql"}, {"parameters", names}});
  }
  ProbeRequest probe;
  probe.datasource = datasource;
  probe.sql = sql;
  probe.limit = options_.evidence_rows;
  probe.timeout_seconds = options_.evidence_timeout_seconds;
  try {
    return explorer_.Probe(principal, probe);
  } catch (const DomainError& error) {
    if (error.code() == errc::kDatasourceUnreachable || error.code() == errc::kDatasourceNotFound) {
      throw;
    }
    if (error.code() == errc::kRequestInvalid) {
      throw DomainError(errc::kSemanticsEvidenceRefused,
                        std::string("evidence_sql was refused: ") + error.what(),
                        Json{{"field", "evidence_sql"}});
    }
    bool timeout =
        error.details().is_object() && error.details().value("reason", std::string()) == "timeout";
    throw DomainError(
        errc::kSemanticsEvidenceFailed,
        std::string("evidence_sql did not run, so the fact is not recorded: ") + error.what(),
        Json{{"reason", timeout ? "timeout" : "execution_failed"},
             {"cause", std::string(error.code().code)}});
  }
}

Json SemanticsService::List(const Principal& principal, const ListFactsRequest& request) {
  EnforceAccess(principal, Operation::kSemanticsList);
  datasources_.RequireGrantedDialect(principal, request.datasource);
  auto facts =
      facts_.ListVisible(request.datasource, principal.workspace_id, request.include_retired);
  View view(principal, pipelines_, ConflictingIds(facts));
  Json out = Json::array();
  for (const auto& fact : facts) {
    if (!request.scope.empty() && fact.scope != request.scope) continue;
    if (request.since_ms && fact.recorded_at_ms < *request.since_ms) continue;
    if (!request.table.empty()) {
      bool on_table = false;
      for (const auto& ref : RefsFromJson(fact.refs)) on_table |= ref.table == request.table;
      if (!on_table) continue;
    }
    out.push_back(view.Full(fact));
  }
  std::size_t count = out.size();
  return Json{{"datasource", request.datasource}, {"facts", std::move(out)}, {"count", count}};
}

Json SemanticsService::Retire(const Principal& principal, const std::string& id,
                              const std::string& reason, const std::string& correlation_id) {
  EnforceAccess(principal, Operation::kSemanticsRetire);
  auto fact = facts_.Find(id);
  if (!fact || !VisibleTo(*fact, principal)) throw FactNotFound(id);
  // A fact on a datasource this workspace cannot see is not-found as well (D-R5).
  try {
    datasources_.RequireGrantedDialect(principal, fact->datasource);
  } catch (const DomainError& error) {
    if (error.code() == errc::kDatasourceNotFound) throw FactNotFound(id);
    throw;
  }
  bool own = fact->recorded_in == principal.workspace_id;
  if (fact->scope == "DATASOURCE" && !own) {
    EnforceAccess(principal, Operation::kSemanticsRetireForeignFact);
  }
  int64_t now = NowMs();
  if (facts_.Retire(fact->id, reason, now)) {
    fact->trust = std::string(trust::kRetired);
    fact->retired_at_ms = now;
    fact->retired_reason = reason;
    Audit("semantics.retired", principal, correlation_id,
          Json{{"fact_id", fact->id},
               {"kind", fact->kind},
               {"scope", fact->scope},
               {"datasource", fact->datasource},
               {"reason", reason},
               {"recorded_in_this_workspace", own}});
  } else if (auto again = facts_.Find(id)) {
    fact = std::move(again);  // retired already: the row as it stands, nothing re-retired
  }
  View view(principal, pipelines_, {});
  return view.Full(*fact);
}

void SemanticsService::ApplyDemotion(LearnedFactRecord& fact, const std::string& trust,
                                     const std::string& drift) {
  if (!DriftCheck::Demotes(fact.trust, trust)) return;
  facts_.Demote(fact.id, trust, drift);
  fact.trust = trust;
  fact.drift = drift;
}

void SemanticsService::DecorateDatasource(const Principal& reader, const std::string& datasource,
                                          Json& entry) {
  auto facts = facts_.ListVisible(datasource, reader.workspace_id, false);
  View view(reader, pipelines_, ConflictingIds(facts));
  Json wide = Json::array(), rules = Json::array();
  for (const auto& fact : facts) {
    if (fact.kind == "window" || fact.kind == "sampling") wide.push_back(view.Summary(fact));
    // Newest last: the listing is oldest first already.
    if (IsRuleKind(fact.kind)) rules.push_back(view.Summary(fact));
  }
  entry["facts"] = std::move(wide);
  entry["definitions"] = std::move(rules);
}

void SemanticsService::DecorateTables(const Principal& reader, const std::string& datasource,
                                      const std::vector<TableInfo>& listed, bool complete,
                                      Json& tables) {
  auto facts = facts_.ListVisible(datasource, reader.workspace_id, false);
  if (facts.empty()) return;
  if (complete) {
    std::set<std::string> keys;
    for (const auto& info : listed) keys.insert(FactRef{info.schema, info.name, ""}.TableKey());
    for (auto& fact : facts) {
      if (auto verdict = DriftCheck::FromListing(RefsFromJson(fact.refs), keys)) {
        ApplyDemotion(fact, verdict->trust, verdict->drift);
      }
    }
  }
  // Each fact once: the tables it names, and whether it is table-grain on each.
  std::map<std::string, std::vector<std::pair<std::size_t, bool>>> by_table;
  for (std::size_t i = 0; i < facts.size(); ++i) {
    std::map<std::string, bool> grain;
    for (const auto& ref : RefsFromJson(facts[i].refs)) {
      grain[ref.TableKey()] = grain[ref.TableKey()] || ref.column.empty();
    }
    for (const auto& [key, table_grain] : grain) by_table[key].emplace_back(i, table_grain);
  }
  View view(reader, pipelines_, ConflictingIds(facts));
  for (auto& entry : tables) {
    auto it =
        by_table.find(FactRef{entry.value("schema", ""), entry.value("name", ""), ""}.TableKey());
    if (it == by_table.end()) continue;
    Json block = Json::array();
    for (const auto& [index, table_grain] : it->second) {
      // Table-grain facts, and every stale one: its column may have nowhere else to ride.
      if (table_grain || facts[index].trust == trust::kStale) {
        block.push_back(view.Summary(facts[index]));
      }
    }
    if (!block.empty()) entry["facts"] = std::move(block);
  }
}

void SemanticsService::DecorateColumns(const Principal& reader, const std::string& datasource,
                                       const std::string& schema, const std::string& table,
                                       const std::vector<ColumnSchema>& columns, Json& out) {
  auto facts = facts_.ListVisible(datasource, reader.workspace_id, false);
  if (facts.empty()) return;
  FactRef here{schema, table, ""};
  for (auto& fact : facts) {
    auto verdict =
        DriftCheck::FromColumns(RefsFromJson(fact.refs), fact.fingerprint, here, columns);
    if (verdict) ApplyDemotion(fact, verdict->trust, verdict->drift);
  }
  std::map<std::string, std::vector<std::size_t>> by_column;  // this table's columns only
  for (std::size_t i = 0; i < facts.size(); ++i) {
    for (const auto& ref : RefsFromJson(facts[i].refs)) {
      if (ref.SameTable(here) && !ref.column.empty()) by_column[ref.column].push_back(i);
    }
  }
  View view(reader, pipelines_, ConflictingIds(facts));
  for (auto& column : out) {
    auto it = by_column.find(column.value("name", ""));
    if (it == by_column.end()) continue;
    Json block = Json::array();
    for (std::size_t index : it->second) block.push_back(view.Summary(facts[index]));
    column["facts"] = std::move(block);
  }
}

void SemanticsService::TableGone(const Principal& reader, const std::string& datasource,
                                 const std::string& schema, const std::string& table) {
  FactRef gone{schema, table, ""};
  for (auto& fact : facts_.ListVisible(datasource, reader.workspace_id, false)) {
    if (auto verdict = DriftCheck::TableGone(RefsFromJson(fact.refs), gone)) {
      ApplyDemotion(fact, verdict->trust, verdict->drift);
    }
  }
}

void SemanticsService::Audit(const std::string& event, const Principal& principal,
                             const std::string& correlation_id, Json details) {
  AuditEvent row;
  row.event = event;
  row.user_id = principal.user_id;
  row.key_id = principal.key_id;
  row.workspace_id = principal.workspace_id;
  row.correlation_id = correlation_id;
  row.details = std::move(details);
  audit_.Record(std::move(row));
}

}  // namespace dp
