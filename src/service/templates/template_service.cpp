#include "datapipelines/service/templates/template_service.hpp"
#include "datapipelines/domain/version_status.hpp"

#include <algorithm>
#include <set>

#include "datapipelines/connectors/dialect.hpp"
#include "datapipelines/connectors/named_parameters.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/service/templates/parsed_template_cache.hpp"
#include "datapipelines/service/templates/template_id.hpp"
#include "datapipelines/service/templates/template_pin_source.hpp"
#include "datapipelines/store/duplicate_key_error.hpp"
#include "datapipelines/store/template_store.hpp"
#include "datapipelines/util/clock.hpp"
#include "template_import_resolver.hpp"
#include "template_projection.hpp"

namespace dp {
namespace {

bool IsLiveTemplateVersion(const TemplateVersionRecord& v) {
  return v.status == kDraftStatus || v.status == kReleasedStatus;
}

DomainError TemplateNotFound(const std::string& id, std::optional<int> version = std::nullopt) {
  Json details{{"template_id", id}};
  if (version) details["version"] = *version;
  return DomainError(errc::kTemplateNotFound,
                     version ? "Template '" + id + "' has no version " + std::to_string(*version) +
                                   " in this workspace."
                             : "No template '" + id + "' in this workspace.",
                     std::move(details));
}

// engine, type and dialect rules of templates.md §7 / spec §6.2.8.
void CheckKind(const TemplateVersionRecord& v) {
  if (v.engine != "freemarker") {
    throw DomainError(errc::kTemplateEngineUnsupported,
                      "engine '" + v.engine + "' is not supported; v1 supports freemarker only.",
                      Json{{"engine", v.engine}, {"supported", Json::array({"freemarker"})}});
  }
  if (v.type != "sql" && v.type != "html") {
    throw DomainError(errc::kRequestInvalid, "type must be 'sql' or 'html'.",
                      Json{{"field", "type"}});
  }
  if (v.type == "html" && !v.dialect.empty()) {
    throw DomainError(errc::kTemplateDialectInvalid,
                      "An html template declares no dialect; remove 'dialect'.",
                      Json{{"reason", "dialect_forbidden"}, {"type", "html"}});
  }
  if (v.type == "sql" && v.dialect.empty()) {
    throw DomainError(errc::kTemplateDialectInvalid, "An sql template requires a dialect.",
                      Json{{"reason", "dialect_required"}, {"type", "sql"}});
  }
  if (v.type == "sql" && !ParseDialect(v.dialect)) {
    throw DomainError(
        errc::kTemplateDialectInvalid, "Unknown dialect '" + v.dialect + "'.",
        Json{{"reason", "unknown_dialect"}, {"dialect", v.dialect}, {"allowed", DialectNames()}});
  }
}

// The content fields of `write` onto a version record (identity and bookkeeping left alone).
void ApplyContent(const TemplateWrite& write, TemplateVersionRecord& v) {
  v.engine = write.engine.value_or("freemarker");
  v.type = write.type.value_or("sql");
  v.dialect = write.dialect.value_or("");
  v.display_name = write.display_name;
  v.description = write.description;
  v.is_library = write.is_library;
  v.imports = write.imports;
  v.body = write.body;
}

std::vector<std::string> PinnedBy(const std::vector<TemplatePin>& pins) {
  std::set<std::string> names;
  for (const auto& pin : pins) names.insert(pin.pipeline);
  return {names.begin(), names.end()};
}

}  // namespace

struct TemplateService::Loaded {
  TemplateRecord entity;
  std::vector<TemplateVersionRecord> versions;  // ascending

  const TemplateVersionRecord* Working() const {
    for (auto it = versions.rbegin(); it != versions.rend(); ++it) {
      if (IsLiveTemplateVersion(*it)) return &*it;
    }
    return nullptr;
  }
  const TemplateVersionRecord* Draft() const {
    for (const auto& v : versions) {
      if (v.status == kDraftStatus) return &v;
    }
    return nullptr;
  }
  Json Projection(const TemplateVersionRecord& v) const { return TemplateProjection(v, versions); }
};

TemplateService::TemplateService(TemplateStore& store, TemplatePinSource* pins,
                                 TemplateServiceOptions options)
    : store_(store),
      pins_(pins),
      options_(options),
      parsed_(std::make_unique<ParsedTemplateCache>(options.cache_size)) {}

TemplateService::~TemplateService() = default;

TemplateService::Loaded TemplateService::Load(const Principal& principal, const std::string& id) {
  auto entity = store_.FindTemplate(principal.workspace_id, id);
  if (!entity || entity->is_deleted) throw TemplateNotFound(id);
  Loaded loaded{*entity, store_.ListTemplateVersions(principal.workspace_id, id)};
  if (!loaded.Working()) throw TemplateNotFound(id);
  return loaded;
}

const TemplateVersionRecord& TemplateService::VersionOrThrow(const Loaded& loaded,
                                                             std::optional<int> version) {
  if (!version) return *loaded.Working();
  for (const auto& v : loaded.versions) {
    if (v.version == *version) return v;
  }
  throw TemplateNotFound(loaded.entity.id, version);
}

void TemplateService::ThrowConflict(const Principal& principal, const std::string& id,
                                    const std::string& message, Json details) {
  details["template_id"] = id;
  auto entity = store_.FindTemplate(principal.workspace_id, id);
  if (entity && !entity->is_deleted) {
    Loaded now{*entity, store_.ListTemplateVersions(principal.workspace_id, id)};
    if (const auto* working = now.Working()) {
      details["current"] = now.Projection(*working);
      details["current"].erase("body");  // the state to rebase on, not a copy of the body
    }
  }
  throw DomainError(errc::kTemplateVersionConflict, message, std::move(details));
}

// ---- reads

TemplateListing TemplateService::List(const Principal& principal, const TemplateListQuery& query) {
  EnforceAccess(principal, Operation::kTemplatesList);
  auto working = store_.ListWorkingTemplateVersions(principal.workspace_id);
  return BuildTemplateListing(working, query);
}

Json TemplateService::Get(const Principal& principal, const std::string& id,
                          std::optional<int> version) {
  EnforceAccess(principal, Operation::kTemplatesGet);
  Loaded loaded = Load(principal, id);
  return loaded.Projection(VersionOrThrow(loaded, version));
}

Json TemplateService::ListVersions(const Principal& principal, const std::string& id) {
  EnforceAccess(principal, Operation::kTemplatesListVersions);
  Loaded loaded = Load(principal, id);
  Json items = Json::array();
  for (const auto& v : loaded.versions) {
    Json row = loaded.Projection(v);
    row.erase("body");
    items.push_back(std::move(row));
  }
  return Json{{"id", id}, {"items", std::move(items)}};
}

// ---- writes

void TemplateService::Validate(const Principal& principal, const TemplateVersionRecord& record) {
  CheckKind(record);
  CheckImportsShape(record.imports);
  ParseTemplateVersion(record, options_.max_body_chars);
  TemplateImportResolver resolver(store_, principal.workspace_id, options_.max_body_chars,
                                  /*for_save=*/true);
  resolver.Resolve(record.template_id + "@" + std::to_string(record.version), record.imports);
}

void TemplateService::RequireKnownRoot(const Principal& principal, const std::string& id) {
  std::string root = TemplateRoot(id);
  if (root == "test") return;
  TemplateListQuery roots;
  roots.prefix = "";
  TemplateListing level =
      BuildTemplateListing(store_.ListWorkingTemplateVersions(principal.workspace_id), roots);
  Json existing = Json::array();
  for (const Json& folder : level.folders) {
    if (folder["path"] == root) return;
    existing.push_back(folder["path"]);
  }
  throw DomainError(errc::kTemplateNewRootRequiresConfirmation,
                    "'" + root +
                        "' would be a new top-level folder. Reuse an existing root, or ask the "
                        "person and retry with confirm_new_root: true.",
                    Json{{"root", root}, {"existing_roots", std::move(existing)}});
}

Json TemplateService::Create(const Principal& principal, const TemplateWrite& write,
                             bool confirm_new_root, TemplateSurface surface) {
  EnforceAccess(principal, Operation::kTemplatesCreate);
  std::string id = write.id.value_or(GenerateTestTemplateId());
  ValidateTemplateId(id);
  // An omitted id lands under test/, which never needs confirmation.
  if (surface == TemplateSurface::kAgent && write.id && !confirm_new_root) {
    RequireKnownRoot(principal, id);
  }
  const int64_t now = NowMs();
  TemplateVersionRecord first;
  first.workspace_id = principal.workspace_id;
  first.template_id = id;
  first.version = 1;
  first.status = kDraftStatus;
  ApplyContent(write, first);
  first.created_by = first.updated_by = principal.user_id;
  first.created_at_ms = first.updated_at_ms = now;
  Validate(principal, first);
  first.body_hash = TemplateBodyHash(first);
  try {
    store_.InsertTemplate(TemplateRecord{principal.workspace_id, id, principal.user_id, now, false},
                          first);
  } catch (const DuplicateKeyError&) {
    throw DomainError(errc::kTemplateDuplicateId,
                      "A template '" + id +
                          "' already exists in this workspace; update it "
                          "(templates_update) or choose another id.",
                      Json{{"template_id", id}});
  }
  return TemplateProjection(first, {first});
}

Json TemplateService::Update(const Principal& principal, const std::string& id,
                             const std::string& expected_hash, const TemplateWrite& write,
                             TemplateSurface surface) {
  EnforceAccess(principal, Operation::kTemplatesUpdate);
  // The id is the template's identity: a write naming another one is refused, not a rename.
  if (write.id && *write.id != id) {
    throw InvalidRequestField("id", "cannot change (there is no rename)");
  }
  ValidateTemplateId(id);
  Loaded loaded = Load(principal, id);
  const TemplateVersionRecord working = *loaded.Working();
  TemplateWrite effective = write;
  if (effective.type && *effective.type != working.type) {
    throw DomainError(
        errc::kTemplateTypeImmutable,
        "A template's type is fixed at creation; '" + id + "' is " + working.type +
            ". Create a new template instead.",
        Json{{"type", *effective.type}, {"established_type", working.type}, {"template_id", id}});
  }
  effective.type = working.type;
  if (surface == TemplateSurface::kAgent && working.type == "sql") {
    if (!effective.dialect) effective.dialect = working.dialect;
    if (*effective.dialect != working.dialect) {
      throw DomainError(errc::kTemplateDialectInvalid,
                        "'" + id + "' is a " + working.dialect +
                            " template; a different dialect is a new template.",
                        Json{{"dialect", *effective.dialect},
                             {"established_dialect", working.dialect},
                             {"template_id", id}});
    }
  }
  if (expected_hash != working.body_hash) {
    ThrowConflict(principal, id,
                  "'" + id +
                      "' changed after you read it: re-read with templates_get, rebase "
                      "your edit, retry.",
                  Json{{"expected_hash", expected_hash}});
  }
  const bool has_draft = working.status == kDraftStatus;
  TemplateVersionRecord next = working;
  ApplyContent(effective, next);
  next.version = has_draft ? working.version : loaded.versions.back().version + 1;
  next.status = kDraftStatus;
  next.updated_by = principal.user_id;
  next.updated_at_ms = NowMs();
  if (!has_draft) {
    next.created_by = principal.user_id;
    next.created_at_ms = next.updated_at_ms;
  }
  Validate(principal, next);
  next.body_hash = TemplateBodyHash(next);
  // Same content as the working version: nothing to write, no version number burned (§5.1).
  if (next.body_hash == working.body_hash) return loaded.Projection(working);
  bool written = has_draft ? store_.OverwriteTemplateDraft(next, expected_hash)
                           : store_.InsertTemplateDraft(next, working.version, expected_hash);
  if (!written) {
    ThrowConflict(principal, id, "'" + id + "' was modified concurrently: re-read and rebase.",
                  Json{{"expected_hash", expected_hash}});
  }
  Loaded after = Load(principal, id);
  return after.Projection(VersionOrThrow(after, next.version));
}

// ---- render and references

Json TemplateService::Render(const Principal& principal, const std::string& id,
                             std::optional<int> version, const Json& context) {
  EnforceAccess(principal, Operation::kTemplatesRender);
  std::optional<UserConcurrency::Permit> permit;
  if (options_.expensive) permit.emplace(options_.expensive->Acquire(principal.user_id));
  Loaded loaded = Load(principal, id);
  const TemplateVersionRecord& v = VersionOrThrow(loaded, version);
  if (!context.is_object()) {
    throw DomainError(errc::kRequestInvalid, "'context' must be an object.",
                      Json{{"field", "context"}});
  }
  ParsedTemplate parsed = parsed_->Get(v, options_.max_body_chars);
  TemplateImportResolver resolver(store_, principal.workspace_id, options_.max_body_chars,
                                  /*for_save=*/false, parsed_.get());
  LibraryMap libraries = resolver.Resolve(id + "@" + std::to_string(v.version), v.imports);
  std::map<std::string, const ParsedTemplate*> bound;
  for (const auto& [alias, library] : libraries) bound[alias] = library.get();
  std::string rendered = TemplateRenderer::Render(parsed, context, options_.render, bound);
  Json out{{"id", id},
           {"version", v.version},
           {"status", v.status},
           {"type", v.type},
           {"rendered", rendered}};
  if (v.type == "sql") {
    // The :name binds the rendered SQL needs, in order of first use (additive field).
    Dialect dialect = ParseDialect(v.dialect).value_or(Dialect::kPostgres);
    out["binds"] = NamedParameters::Parse(rendered, dialect).DistinctNames();
  }
  return out;
}

std::string TemplateService::RenderPinned(const std::string& workspace_id, const std::string& id,
                                          int version, const Json& context) {
  auto v = store_.FindTemplateVersion(workspace_id, id, version);
  if (!v || v->status == kDiscardedStatus) {
    throw DomainError(errc::kNodeTemplateNotFound,
                      "Template " + id + "@" + std::to_string(version) +
                          " resolved when the pipeline was saved but is gone now.",
                      Json{{"template_id", id}, {"version", version}});
  }
  ParsedTemplate parsed = parsed_->Get(*v, options_.max_body_chars);
  TemplateImportResolver resolver(store_, workspace_id, options_.max_body_chars,
                                  /*for_save=*/false, parsed_.get());
  LibraryMap libraries = resolver.Resolve(id + "@" + std::to_string(version), v->imports);
  std::map<std::string, const ParsedTemplate*> bound;
  for (const auto& [alias, library] : libraries) bound[alias] = library.get();
  return TemplateRenderer::Render(parsed, context, options_.render, bound);
}

Json TemplateService::UsedBy(const Principal& principal, const std::string& id, int version) {
  EnforceAccess(principal, Operation::kTemplatesUsedBy);
  Loaded loaded = Load(principal, id);
  VersionOrThrow(loaded, version);
  std::vector<TemplatePin> pins;
  if (pins_) pins = pins_->WorkingVersionPins(principal.workspace_id, id, version);
  Json references = Json::array();
  std::set<std::string> pipelines;
  for (const auto& pin : pins) {
    pipelines.insert(pin.pipeline_id);
    references.push_back({{"pipeline", pin.pipeline},
                          {"pipeline_id", pin.pipeline_id},
                          {"node_id", pin.node_id},
                          {"pipeline_version", pin.pipeline_version},
                          {"pipeline_version_status", pin.pipeline_version_status}});
  }
  return Json{{"template", {{"id", id}, {"version", version}}},
              {"scan", "working_version"},
              {"pipeline_count", pipelines.size()},
              {"references", std::move(references)}};
}

Json TemplateService::PurgeDraft(const Principal& principal, const std::string& id) {
  EnforceAccess(principal, Operation::kTemplatesPurgeDraft);
  auto entity = store_.FindTemplate(principal.workspace_id, id);
  if (!entity || entity->is_deleted) throw TemplateNotFound(id);
  auto versions = store_.ListTemplateVersions(principal.workspace_id, id);
  if (versions.size() != 1 || versions.front().status != kDraftStatus) {
    throw DomainError(errc::kTemplateLastRelease,
                      "'" + id +
                          "' has been released (or a release was discarded); only a "
                          "person retires released templates.",
                      Json{{"template_id", id}, {"versions", versions.size()}});
  }
  if (entity->created_by != principal.user_id) {
    throw DomainError(errc::kScopeInsufficient,
                      "Only the user who created this draft may purge it.",
                      Json{{"reason", "not_creator"}, {"template_id", id}});
  }
  if (pins_) {
    auto pins = pins_->AllPins(principal.workspace_id, id);
    if (!pins.empty()) {
      throw DomainError(errc::kTemplateInUse,
                        "Pipelines pin '" + id + "'; change them before purging it.",
                        Json{{"template_id", id}, {"pinned_by", PinnedBy(pins)}});
    }
  }
  if (!store_.PurgeTemplateDraft(principal.workspace_id, id, versions.front().body_hash)) {
    ThrowConflict(principal, id,
                  "'" + id +
                      "' changed while it was being purged; nothing was "
                      "deleted.",
                  Json::object());
  }
  return Json{{"id", id}, {"purged", true}};
}

// ---- human verbs

Json TemplateService::Release(const Principal& principal, const std::string& id,
                              const std::optional<std::string>& expected_hash) {
  EnforceAccess(principal, Operation::kTemplatesRelease);
  Loaded loaded = Load(principal, id);
  const TemplateVersionRecord* draft = loaded.Draft();
  if (!draft) {
    ThrowConflict(principal, id, "'" + id + "' has no draft to release.",
                  Json{{"reason", "no_draft"}});
  }
  const std::string hash = expected_hash.value_or(draft->body_hash);
  if (!store_.ReleaseTemplateDraft(principal.workspace_id, id, draft->version, hash,
                                   principal.user_id, NowMs())) {
    ThrowConflict(principal, id, "The draft of '" + id + "' changed; review it again.",
                  Json{{"expected_hash", hash}});
  }
  Loaded after = Load(principal, id);
  return after.Projection(VersionOrThrow(after, draft->version));
}

Json TemplateService::Discard(const Principal& principal, const std::string& id, int version) {
  EnforceAccess(principal, Operation::kTemplatesDiscard);
  Loaded loaded = Load(principal, id);
  const TemplateVersionRecord& v = VersionOrThrow(loaded, version);
  if (v.status == kDiscardedStatus) {
    ThrowConflict(principal, id, "Version " + std::to_string(version) + " is already discarded.",
                  Json{{"reason", "already_discarded"}, {"version", version}});
  }
  if (pins_) {
    std::vector<TemplatePin> pins;
    for (auto& pin : pins_->AllPins(principal.workspace_id, id)) {
      if (pin.template_version == version) pins.push_back(pin);
    }
    if (!pins.empty()) {
      throw DomainError(
          errc::kTemplateInUse, "Pipelines pin " + id + "@" + std::to_string(version) + ".",
          Json{{"template_id", id}, {"version", version}, {"pinned_by", PinnedBy(pins)}});
    }
  }
  auto live = std::count_if(loaded.versions.begin(), loaded.versions.end(), IsLiveTemplateVersion);
  if (live <= 1) {
    throw DomainError(errc::kTemplateLastRelease,
                      "Version " + std::to_string(version) + " is the last live version of '" + id +
                          "'; delete the template instead.",
                      Json{{"template_id", id}, {"version", version}});
  }
  if (!store_.DiscardTemplateVersion(principal.workspace_id, id, version, v.status,
                                     principal.user_id, NowMs())) {
    ThrowConflict(principal, id, "'" + id + "' changed; review it again.",
                  Json{{"version", version}});
  }
  Loaded after = Load(principal, id);
  return after.Projection(VersionOrThrow(after, version));
}

void TemplateService::Delete(const Principal& principal, const std::string& id) {
  EnforceAccess(principal, Operation::kTemplatesDelete);
  Load(principal, id);
  if (pins_) {
    auto pins = pins_->AllPins(principal.workspace_id, id);
    if (!pins.empty()) {
      throw DomainError(errc::kTemplateInUse,
                        "Pipelines pin '" + id + "'; change them before deleting it.",
                        Json{{"template_id", id}, {"pinned_by", PinnedBy(pins)}});
    }
  }
  if (!store_.SoftDeleteTemplate(principal.workspace_id, id, principal.user_id, NowMs())) {
    throw TemplateNotFound(id);
  }
}

TemplateListQuery TemplateListQuery::FromJson(const Json& arguments, ListWindowRules window) {
  TemplateListQuery query;
  query.dialect = OptionalStringField(arguments, "dialect");
  query.type = OptionalStringField(arguments, "type");
  query.q = OptionalStringField(arguments, "q");
  query.prefix = OptionalStringField(arguments, "prefix");
  query.is_library = OptionalBoolField(arguments, "is_library");
  query.window = ListWindow::FromJson(arguments, window);
  return query;
}

TemplateWrite TemplateWrite::FromJson(const Json& body) {
  TemplateWrite write;
  write.id = OptionalStringField(body, "id");
  write.engine = OptionalStringField(body, "engine");
  write.type = OptionalStringField(body, "type");
  write.dialect = OptionalStringField(body, "dialect");
  write.display_name = RequiredStringField(body, "display_name");
  write.description = OptionalStringField(body, "description").value_or("");
  write.body = RequiredStringField(body, "body");
  write.is_library = OptionalBoolField(body, "is_library").value_or(false);
  if (auto it = body.find("imports"); it != body.end() && !it->is_null()) {
    if (!it->is_array()) {
      throw DomainError(errc::kRequestInvalid, "'imports' must be an array.",
                        Json{{"field", "imports"}});
    }
    write.imports = *it;
  }
  return write;
}

Json TemplateListing::BrowseJson() const {
  return Json{{"prefix", prefix},
              {"folders", folders},
              {"templates", items},
              {"total", total},
              {"has_more", has_more}};
}

}  // namespace dp
