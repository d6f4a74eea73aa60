#include "datapipelines/service/pipelines/pipeline_service.hpp"
#include "datapipelines/domain/version_status.hpp"

#include <set>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/pipeline/pipeline_body_parser.hpp"
#include "datapipelines/pipeline/pipeline_structure_validator.hpp"
#include "datapipelines/pipeline/validation_problems.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/service/pipelines/check_run_service.hpp"
#include "datapipelines/service/pipelines/folder_level.hpp"
#include "datapipelines/service/templates/template_id.hpp"
#include "datapipelines/service/templates/template_service.hpp"
#include "datapipelines/store/datasource_store.hpp"
#include "datapipelines/store/duplicate_key_error.hpp"
#include "datapipelines/store/pipeline_store.hpp"
#include "datapipelines/store/template_store.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/crypto.hpp"
#include "pipeline_projection.hpp"
#include "pipeline_save_validator.hpp"
#include "service/semantics/learned_tables_gate.hpp"

namespace dp {
namespace {

DomainError PipelineNotFound(const std::string& id, std::optional<int> version = std::nullopt) {
  Json details{{"pipeline_id", id}};
  if (version) details["version"] = *version;
  return DomainError(errc::kPipelineNotFound,
                     version ? "Pipeline '" + id + "' has no version " + std::to_string(*version) +
                                   " in this workspace."
                             : "No pipeline '" + id + "' in this workspace.",
                     std::move(details));
}

std::vector<TemplatePin> PinsOf(const PipelineWithVersions& p, const PipelineVersionRecord& v,
                                const std::string& template_id) {
  std::vector<TemplatePin> pins;
  for (const Json& node : v.body.value("nodes", Json::array())) {
    const Json tmpl = node.value("template", Json());
    if (!tmpl.is_object() || tmpl.value("id", "") != template_id) continue;
    pins.push_back(TemplatePin{p.entity.name, p.entity.id, node.value("id", ""), v.version,
                               v.status, tmpl.value("version", 0)});
  }
  return pins;
}

}  // namespace

PipelineService::PipelineService(TemplateStore& template_store, DatasourceStore& datasource_store,
                                 PipelineStore& store, TemplateService& templates,
                                 DatasourceExplorer* datasources, AuditReader* audit,
                                 PipelineServiceOptions options, PipelineServicePorts ports)
    : template_store_(template_store),
      datasource_store_(datasource_store),
      store_(store),
      templates_(templates),
      datasources_(datasources),
      audit_(audit),
      options_(std::move(options)),
      ports_(std::move(ports)) {}

PipelineService::~PipelineService() = default;

PipelineWithVersions PipelineService::Load(const Principal& principal, const std::string& id) {
  auto entity = store_.FindPipeline(principal.workspace_id, id);
  if (!entity) throw PipelineNotFound(id);
  PipelineWithVersions loaded{*entity, store_.ListPipelineVersions(id)};
  if (!WorkingPipelineVersion(loaded)) throw PipelineNotFound(id);
  return loaded;
}

const PipelineVersionRecord& PipelineService::VersionOrThrow(const PipelineWithVersions& loaded,
                                                             std::optional<int> version) {
  if (!version) return *WorkingPipelineVersion(loaded);
  for (const auto& v : loaded.versions) {
    if (v.version == *version) return v;
  }
  throw PipelineNotFound(loaded.entity.id, version);  // exact, never clamped
}

Json PipelineService::Project(const Principal& principal, const PipelineWithVersions& loaded,
                              const PipelineVersionRecord& version) {
  Json out = PipelineVersionProjection(loaded, version);
  // upgrade_available (spec §6.2.2): a newer RELEASED version of a pinned template.
  Json upgrades = Json::array();
  for (const Json& node : version.body.value("nodes", Json::array())) {
    const Json tmpl = node.value("template", Json());
    if (!tmpl.is_object()) continue;
    const std::string template_id = tmpl.value("id", "");
    const int pinned = tmpl.value("version", 0);
    auto pinned_row =
        template_store_.FindTemplateVersion(principal.workspace_id, template_id, pinned);
    if (!pinned_row || pinned_row->status != kReleasedStatus) continue;  // a draft pin is ahead
    int latest = pinned;
    for (const auto& v :
         template_store_.ListTemplateVersions(principal.workspace_id, template_id)) {
      if (v.status == kReleasedStatus && v.version > latest) latest = v.version;
    }
    if (latest > pinned) {
      upgrades.push_back({{"node", node.value("id", "")},
                          {"template_id", template_id},
                          {"pinned", pinned},
                          {"latest_released", latest}});
    }
  }
  if (!upgrades.empty()) out["upgrade_available"] = std::move(upgrades);
  return out;
}

void PipelineService::ThrowConflict(const Principal& principal, const std::string& id,
                                    const std::string& message, Json details) {
  details["pipeline_id"] = id;
  if (auto entity = store_.FindPipeline(principal.workspace_id, id)) {
    PipelineWithVersions now{*entity, store_.ListPipelineVersions(id)};
    if (const auto* working = WorkingPipelineVersion(now)) {
      details["current_body_hash"] = working->body_hash;
      details["current_status"] = working->status;
      details["current_version"] = working->version;
      details["updated_by"] = working->updated_by;
      details["updated_at"] = FormatIso8601Ms(working->updated_at_ms);
    }
  }
  throw DomainError(errc::kPipelineVersionConflict, message, std::move(details));
}

// ---- reads

PipelineListing PipelineService::List(const Principal& principal, const PipelineListQuery& query) {
  EnforceAccess(principal, Operation::kPipelinesList);
  return BuildPipelineListing(store_.ListPipelines(principal.workspace_id), query);
}

Json PipelineService::Get(const Principal& principal, const std::string& id,
                          std::optional<int> version) {
  EnforceAccess(principal, Operation::kPipelinesGet);
  PipelineWithVersions loaded = Load(principal, id);
  Json out = Project(principal, loaded, VersionOrThrow(loaded, version));
  // The URLs publishing it (issue 15): [] never absent once endpoints are served.
  if (ports_.endpoints_of) out["endpoints"] = ports_.endpoints_of(loaded.entity.id);
  return out;
}

Json PipelineService::Parameters(const Principal& principal, const std::string& id) {
  Json full = Get(principal, id, std::nullopt);
  return Json{{"id", id},
              {"version", full["version"]},
              {"status", full["status"]},
              {"parameters", full["parameters"]}};
}

Json PipelineService::ListVersions(const Principal& principal, const std::string& id) {
  EnforceAccess(principal, Operation::kPipelinesListVersions);
  PipelineWithVersions loaded = Load(principal, id);
  Json items = Json::array();
  for (const auto& v : loaded.versions) items.push_back(PipelineVersionSummary(v));
  return Json{{"id", id}, {"items", std::move(items)}};
}

// ---- writes

void PipelineService::RequireKnownRoot(const Principal& principal, const std::string& name) {
  const std::string root = TemplateRoot(name);
  if (root == "test") return;
  // Roots are shared by pipelines and templates: either one makes a root "existing".
  std::set<std::string> roots;
  for (const auto& p : store_.ListPipelines(principal.workspace_id)) {
    if (WorkingPipelineVersion(p)) roots.insert(TemplateRoot(p.entity.name));
  }
  for (const auto& t : template_store_.ListWorkingTemplateVersions(principal.workspace_id)) {
    roots.insert(TemplateRoot(t.template_id));
  }
  if (roots.count(root)) return;
  throw DomainError(
      errc::kPipelineNewRootRequiresConfirmation,
      "'" + root +
          "' would be a new top-level folder. Reuse an existing root, or ask the "
          "person and retry with confirm_new_root: true.",
      Json{{"root", root},
           {"existing_roots", Json(std::vector<std::string>(roots.begin(), roots.end()))}});
}

Json PipelineService::ValidatedBody(const Principal& principal, const Json& request,
                                    const std::string& own_name, const PipelineWriteFlags& flags) {
  if (!request.is_object()) {
    throw DomainError(errc::kRequestInvalid, "The pipeline body must be a JSON object.",
                      Json{{"field", "body"}});
  }
  ValidationProblems problems;
  PipelineBody body = PipelineBodyParser::Parse(request, problems);
  PipelineStructureValidator::Options structure;
  structure.max_nodes = static_cast<size_t>(options_.max_nodes);
  structure.node_timeout_max_seconds = options_.node_timeout_max_seconds;
  PipelineStructureValidator::Validate(body, structure, problems);
  // The environment is consulted only for a body whose shape holds: a reference into a
  // malformed body would only add noise to the report.
  problems.ThrowIfAny();
  if (!own_name.empty() && body.name != own_name) {
    throw DomainError(errc::kPipelineNameInvalid,
                      "A pipeline's name is its identity and cannot change ('" + own_name +
                          "'); create a new pipeline instead.",
                      Json{{"reason", "immutable"},
                           {"name", body.name},
                           {"established", own_name},
                           {"path", "name"}});
  }
  PipelineSaveValidator environment(template_store_, datasource_store_, store_, templates_,
                                    options_, principal);
  environment.Validate(body, problems);
  if (flags.surface == PipelineSurface::kAgent) {
    if (datasources_ && audit_) {
      LearnedTablesGate(template_store_, *datasources_, *audit_).Check(principal, body, problems);
    }
    CheckDoor(body, flags.door_acknowledged, problems);
  }
  problems.ThrowIfAny();
  return body.ToJson();
}

Json PipelineService::Create(const Principal& principal, const Json& request,
                             const PipelineWriteFlags& flags) {
  EnforceAccess(principal, Operation::kPipelinesCreate);
  Json canonical = ValidatedBody(principal, request, "", flags);
  const std::string name = canonical.value("name", "");
  if (flags.surface == PipelineSurface::kAgent && !flags.confirm_new_root) {
    RequireKnownRoot(principal, name);
  }
  if (store_.FindPipelineByName(principal.workspace_id, name)) {
    throw DomainError(errc::kPipelineDuplicateName,
                      "A pipeline '" + name +
                          "' already exists in this workspace; update it (pipelines_update) or "
                          "choose another name.",
                      Json{{"name", name}});
  }
  const int64_t now = NowMs();
  PipelineRecord entity{principal.workspace_id, NewUuid(), name, principal.user_id, now};
  PipelineVersionRecord first;
  first.pipeline_id = entity.id;
  first.version = 1;
  first.status = kDraftStatus;
  first.body = canonical;
  first.body_hash = PipelineBodyHash(canonical);
  first.created_by = first.updated_by = principal.user_id;
  first.created_at_ms = first.updated_at_ms = now;
  try {
    store_.InsertPipeline(entity, first);
  } catch (const DuplicateKeyError&) {
    throw DomainError(errc::kPipelineDuplicateName,
                      "A pipeline '" + name + "' already exists in this workspace.",
                      Json{{"name", name}});
  }
  PipelineWithVersions created{entity, {first}};
  return Project(principal, created, first);
}

Json PipelineService::Update(const Principal& principal, const std::string& id,
                             const std::string& expected_hash, const Json& request,
                             const PipelineWriteFlags& flags) {
  EnforceAccess(principal, Operation::kPipelinesUpdate);
  PipelineWithVersions loaded = Load(principal, id);
  const PipelineVersionRecord working = *WorkingPipelineVersion(loaded);
  if (expected_hash != working.body_hash) {
    ThrowConflict(principal, id,
                  "'" + loaded.entity.name +
                      "' changed after you read it: re-read with pipelines_get, rebase your "
                      "edit, retry.",
                  Json{{"expected_hash", expected_hash}});
  }
  Json with_name = request;
  if (with_name.is_object() && !with_name.contains("name")) with_name["name"] = loaded.entity.name;
  Json canonical = ValidatedBody(principal, with_name, loaded.entity.name, flags);
  const std::string hash = PipelineBodyHash(canonical);
  // Same content as the working version: nothing to write, no version number burned.
  if (hash == working.body_hash) return Project(principal, loaded, working);
  const bool has_draft = working.status == kDraftStatus;
  PipelineVersionRecord next = working;
  next.version = has_draft ? working.version : loaded.versions.back().version + 1;
  next.status = kDraftStatus;
  next.body = canonical;
  next.body_hash = hash;
  next.updated_by = principal.user_id;
  next.updated_at_ms = NowMs();
  next.released_by.clear();
  next.released_at_ms = 0;
  if (!has_draft) {
    next.created_by = principal.user_id;
    next.created_at_ms = next.updated_at_ms;
  }
  bool written = has_draft ? store_.OverwritePipelineDraft(next, expected_hash)
                           : store_.InsertPipelineDraft(next, working.version, expected_hash);
  if (!written) {
    ThrowConflict(principal, id, "'" + loaded.entity.name + "' was modified concurrently.",
                  Json{{"expected_hash", expected_hash}});
  }
  PipelineWithVersions after = Load(principal, id);
  return Project(principal, after, VersionOrThrow(after, next.version));
}

// ---- human verbs

Json PipelineService::Release(const Principal& principal, const std::string& id,
                              const std::optional<std::string>& expected_hash,
                              const std::optional<std::string>& override_checks_reason) {
  EnforceAccess(principal, Operation::kPipelinesRelease);
  PipelineWithVersions loaded = Load(principal, id);
  const PipelineVersionRecord* draft = DraftPipelineVersion(loaded);
  if (!draft) {
    throw DomainError(errc::kPipelineVersionNotDraft,
                      "'" + loaded.entity.name + "' has no draft to release.",
                      Json{{"pipeline_id", id}});
  }
  const std::string hash = expected_hash.value_or(draft->body_hash);
  if (hash != draft->body_hash) {
    ThrowConflict(principal, id,
                  "The draft of '" + loaded.entity.name + "' changed; review it again.",
                  Json{{"expected_hash", hash}});
  }
  // §12 again: the environment may have moved since the draft was saved.
  ValidatedBody(principal, draft->body, loaded.entity.name, PipelineWriteFlags{});
  Json unreleased = Json::array();
  for (const Json& node : draft->body.value("nodes", Json::array())) {
    const Json tmpl = node.value("template", Json());
    if (!tmpl.is_object()) continue;
    auto row = template_store_.FindTemplateVersion(principal.workspace_id, tmpl.value("id", ""),
                                                   tmpl.value("version", 0));
    if (!row || row->status != kReleasedStatus) {
      unreleased.push_back({{"node", node.value("id", "")},
                            {"template_id", tmpl.value("id", "")},
                            {"version", tmpl.value("version", 0)}});
    }
  }
  if (!unreleased.empty()) {
    throw DomainError(errc::kPipelineReleaseTemplateNotReleased,
                      "The draft pins template versions that are not released; release those "
                      "templates first.",
                      Json{{"pipeline_id", id}, {"templates", std::move(unreleased)}});
  }
  // The release-check gate (rest-api §5.10, pipeline-contract §13.17): a fresh server run of
  // the draft's checks, every verdict pass — or an override reason on the record.
  std::vector<std::string> overridden;
  const Json declared_checks = draft->body.value("checks", Json::array());
  CheckRunService* checks = ports_.check_runner ? ports_.check_runner() : nullptr;
  if (checks && declared_checks.is_array() && !declared_checks.empty()) {
    Json failing = Json::array();
    for (const Json& run : checks->RunForRelease(principal, id, draft->version, draft->body)) {
      if (run.value("verdict", "") == "pass") continue;
      overridden.push_back(run.value("check_id", ""));
      failing.push_back({{"check_id", run["check_id"]},
                         {"name", run["name"]},
                         {"expected", run["expected"]},
                         {"observed", run["observed"]},
                         {"verdict", run["verdict"]},
                         {"message", run["message"]}});
    }
    if (!failing.empty()) {
      std::size_t reason_chars = 0;  // code points of the trimmed reason
      if (override_checks_reason) {
        const std::string& text = *override_checks_reason;
        const auto first = text.find_first_not_of(" \t\r\n");
        const auto last = text.find_last_not_of(" \t\r\n");
        if (first != std::string::npos) {
          for (std::size_t i = first; i <= last; ++i) {
            if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++reason_chars;
          }
        }
      }
      if (reason_chars < 10) {
        Json details{
            {"pipeline_id", id}, {"version", draft->version}, {"checks", std::move(failing)}};
        if (override_checks_reason) {
          details["override_checks_reason"] =
              "too short: a non-blank reason of at least 10 "
              "characters is required";
        }
        throw DomainError(errc::kPipelineCheckFailed,
                          "Release refused: " + std::to_string(overridden.size()) +
                              " release check(s) of v" + std::to_string(draft->version) +
                              " did not pass. Fix them, or release with "
                              "override_checks_reason (at least 10 characters).",
                          std::move(details));
      }
    }
  }
  if (!store_.ReleasePipelineDraft(id, draft->version, hash, principal.user_id, NowMs())) {
    ThrowConflict(principal, id, "The draft of '" + loaded.entity.name + "' changed.",
                  Json{{"expected_hash", hash}});
  }
  if (checks) {
    checks->RecordRelease(principal, id, loaded.entity.name, draft->version, overridden,
                          overridden.empty() ? std::nullopt : override_checks_reason);
  }
  PipelineWithVersions after = Load(principal, id);
  return Project(principal, after, VersionOrThrow(after, draft->version));
}

void PipelineService::PurgeDraft(const Principal& principal, const std::string& id,
                                 const std::optional<std::string>& expected_hash) {
  EnforceAccess(principal, Operation::kPipelinesPurgeDraft);
  PipelineWithVersions loaded = Load(principal, id);
  const PipelineVersionRecord* draft = DraftPipelineVersion(loaded);
  if (!draft) {
    throw DomainError(errc::kPipelineVersionNotDraft,
                      "'" + loaded.entity.name + "' has no draft to purge.",
                      Json{{"pipeline_id", id}});
  }
  const std::string hash = expected_hash.value_or(draft->body_hash);
  bool sole = loaded.versions.size() == 1;
  bool purged =
      sole ? store_.PurgePipeline(id, hash) : store_.PurgePipelineDraft(id, draft->version, hash);
  if (!purged) {
    ThrowConflict(principal, id,
                  "The draft of '" + loaded.entity.name +
                      "' changed; nothing was "
                      "purged.",
                  Json{{"expected_hash", hash}});
  }
}

Json PipelineService::Delete(const Principal& principal, const std::string& id) {
  EnforceAccess(principal, Operation::kPipelinesDelete);
  PipelineWithVersions loaded = Load(principal, id);
  if (ports_.endpoints_of) {
    // A published pipeline is never deleted from under its URLs: unpublish them first.
    if (auto paths = ports_.endpoints_of(loaded.entity.id); !paths.empty()) {
      throw DomainError(errc::kPipelineInUse,
                        "'" + loaded.entity.name +
                            "' is published as an endpoint; delete the "
                            "endpoints first.",
                        Json{{"pipeline_id", id}, {"endpoints", Json(paths)}});
    }
  }
  if (loaded.versions.size() != 1 || loaded.versions.front().status != kDraftStatus) {
    throw DomainError(
        errc::kPipelineVersionLastRelease,
        "'" + loaded.entity.name + "' has released versions; a release is never purged.",
        Json{{"pipeline_id", id}, {"versions", loaded.versions.size()}});
  }
  std::set<std::string> pinned_by;
  for (const auto& p : store_.ListPipelines(principal.workspace_id)) {
    for (const auto& v : p.versions) {
      for (const Json& node : v.body.value("nodes", Json::array())) {
        const Json child = node.value("pipeline", Json());
        if (child.is_object() && child.value("name", "") == loaded.entity.name) {
          pinned_by.insert(p.entity.name);
        }
      }
    }
  }
  if (!pinned_by.empty()) {
    throw DomainError(
        errc::kPipelineInUse,
        "Other pipelines pin '" + loaded.entity.name + "'; change them first.",
        Json{{"pipeline_id", id},
             {"pinned_by", Json(std::vector<std::string>(pinned_by.begin(), pinned_by.end()))}});
  }
  if (!store_.PurgePipeline(id, loaded.versions.front().body_hash)) {
    ThrowConflict(principal, id, "'" + loaded.entity.name + "' changed; nothing was deleted.",
                  Json::object());
  }
  return Json{{"purged", true},
              {"exclusive_draft_templates", Json::array()},
              {"exclusive_draft_templates_purged", false}};
}

// ---- execution

PipelineService::RunnableVersion PipelineService::ResolveForExecution(
    const std::string& workspace_id, const std::string& id, std::optional<int> version) {
  auto entity = store_.FindPipeline(workspace_id, id);
  auto fail = [&] {
    Json details{{"pipeline_id", id}};
    if (version) details["version"] = *version;
    return DomainError(errc::kExecutionNotFound,
                       version ? "Pipeline '" + id + "' has no version " +
                                     std::to_string(*version) + " in this workspace."
                               : "No pipeline '" + id + "' in this workspace.",
                       std::move(details));
  };
  if (!entity) throw fail();
  PipelineWithVersions loaded{*entity, store_.ListPipelineVersions(id)};
  const PipelineVersionRecord* chosen = WorkingPipelineVersion(loaded);
  if (version) {
    chosen = nullptr;
    for (const auto& v : loaded.versions) {
      if (v.version == *version && v.status != "DISCARDED") chosen = &v;
    }
  }
  if (!chosen) throw fail();
  return RunnableVersion{loaded.entity, *chosen};
}

std::optional<PipelineRecord> PipelineService::FindByName(const std::string& workspace_id,
                                                          const std::string& name) {
  return store_.FindPipelineByName(workspace_id, name);
}

std::optional<PipelineService::RunnableVersion> PipelineService::LatestReleased(
    const std::string& workspace_id, const std::string& pipeline_id) {
  auto entity = store_.FindPipeline(workspace_id, pipeline_id);
  if (!entity) return std::nullopt;
  std::optional<RunnableVersion> latest;
  for (const auto& v : store_.ListPipelineVersions(entity->id)) {
    if (v.status == kReleasedStatus && (!latest || v.version > latest->version.version)) {
      latest = RunnableVersion{*entity, v};
    }
  }
  return latest;
}

PipelineService::RunnableVersion PipelineService::ResolveChild(const std::string& workspace_id,
                                                               const std::string& name,
                                                               int version) {
  auto entity = store_.FindPipelineByName(workspace_id, name);
  if (entity) {
    for (const auto& v : store_.ListPipelineVersions(entity->id)) {
      // A pinned version keeps resolving even once discarded (pipeline-contract §4.9).
      if (v.version == version) return RunnableVersion{*entity, v};
    }
  }
  throw DomainError(errc::kNodeChildExecutionFailed,
                    "The pinned child " + name + " v" + std::to_string(version) + " is gone.",
                    Json{{"pipeline", name}, {"version", version}});
}

// ---- pins

std::vector<TemplatePin> PipelineService::WorkingVersionPins(const std::string& workspace_id,
                                                             const std::string& template_id,
                                                             int template_version) {
  std::vector<TemplatePin> out;
  for (const auto& p : store_.ListPipelines(workspace_id)) {
    const PipelineVersionRecord* working = WorkingPipelineVersion(p);
    if (!working) continue;
    for (auto& pin : PinsOf(p, *working, template_id)) {
      if (pin.template_version == template_version) out.push_back(std::move(pin));
    }
  }
  return out;
}

std::vector<TemplatePin> PipelineService::AllPins(const std::string& workspace_id,
                                                  const std::string& template_id) {
  std::vector<TemplatePin> out;
  for (const auto& p : store_.ListPipelines(workspace_id)) {
    for (const auto& v : p.versions) {
      for (auto& pin : PinsOf(p, v, template_id)) out.push_back(std::move(pin));
    }
  }
  return out;
}

std::vector<std::string> PipelineService::PipelinesUsingDatasource(const std::string& name) {
  return PipelinesUsingDatasource(store_, name);
}

std::vector<std::string> PipelineService::PipelinesUsingDatasource(PipelineStore& store,
                                                                   const std::string& name) {
  std::set<std::string> users;
  for (const auto& p : store.ListPipelines("")) {
    for (const auto& v : p.versions) {
      if (v.status == "DISCARDED") continue;
      for (const auto& used : DatasourcesOfBody(v.body)) {
        if (used == name) users.insert(p.entity.name);
      }
    }
  }
  return {users.begin(), users.end()};
}

PipelineListQuery PipelineListQuery::FromJson(const Json& arguments, ListWindowRules window) {
  PipelineListQuery query;
  query.owner = OptionalStringField(arguments, "owner");
  query.datasource = OptionalStringField(arguments, "datasource");
  query.q = OptionalStringField(arguments, "q");
  query.prefix = OptionalStringField(arguments, "prefix");
  query.window = ListWindow::FromJson(arguments, window);
  return query;
}

}  // namespace dp
