#pragma once
// Templates as versioned, workspace-scoped entities (spec §6.2.6–9, §6.2.21, §6.2.32,
// §6.2.36; templates.md §5–7). Every rule lives here; the seven MCP tools and the REST routes
// call these functions and only translate. Every function checks the caller's access itself,
// so a surface cannot forget it, and resolves ids inside the principal's workspace only:
// another workspace's template is template.not_found, exactly like a missing one.
//
// Versions: create lands version 1 as DRAFT. An update names the body_hash it was based on;
// the first update after a release inserts a new DRAFT (copy-on-write), later ones overwrite
// that draft in place, and content equal to the release is a no-op. Humans release, discard
// and delete (REST only); an agent may purge its own never-released, unpinned draft.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/service/list_window.hpp"
#include "datapipelines/service/user_concurrency.hpp"
#include "datapipelines/template/evaluation/template_renderer.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class TemplateStore;
class ParsedTemplateCache;
class TemplatePinSource;
struct TemplateVersionRecord;

struct TemplateServiceOptions {
  // datapipelines.templates.max-body-chars (configuration §3.9).
  size_t max_body_chars = 262144;
  // datapipelines.templates.cache-size: parsed versions kept (0 = parse on every render).
  size_t cache_size = 500;
  // render.timeout_ms: datapipelines.templates.render-timeout-ms.
  RenderOptions render;
  // Per-user permits for renders (shared with probe and preview); nullptr = unbounded.
  UserConcurrency* expensive = nullptr;
};

// The fields of a create or update. Optional fields are "absent" when nullopt.
struct TemplateWrite {
  std::optional<std::string> id;  // create only; omitted → generated under test/
  std::optional<std::string> engine;
  std::optional<std::string> type;
  std::optional<std::string> dialect;
  std::string display_name;
  std::string description;
  Json imports = Json::array();  // [{id, version, alias}]
  bool is_library = false;
  std::string body;

  // The create/update body both surfaces accept (display_name and body required; every other
  // field optional and type-checked): request.validation.invalid naming the field otherwise.
  static TemplateWrite FromJson(const Json& body);
};

// Agent-surface rules differ from the REST/UI surface in two places (spec §6.2.8, §6.2.36).
enum class TemplateSurface {
  kAgent,  // MCP: new roots need confirm_new_root; update inherits and compares type/dialect
  kHuman,  // REST: a person chose the folder; PUT states its dialect and it is not compared
};

struct TemplateListQuery {
  std::optional<std::string> dialect;
  std::optional<std::string> type;
  std::optional<std::string> q;
  std::optional<std::string> prefix;  // present → one-level browse ("" is the root)
  std::optional<bool> is_library;
  ListWindow window;

  // {dialect?, type?, q?, prefix?, is_library?, limit?, offset?} as both surfaces pass them (REST
  // its query string through rest/QueryArguments); the window as `window` says.
  static TemplateListQuery FromJson(const Json& arguments, ListWindowRules window = {});
};

// Flat: `items`, `total`, `has_more`. Browse: `prefix`, `folders`, `items` (the level's
// leaves), `total`, `has_more`.
struct TemplateListing {
  bool browse = false;
  std::string prefix;
  Json folders = Json::array();
  Json items = Json::array();
  int64_t total = 0;
  bool has_more = false;

  // The browse presentation both surfaces return (§6.2.6): {prefix, folders, templates, …}.
  Json BrowseJson() const;
};

class TemplateService {
 public:
  // `pins` may be null: no pipeline exists, so nothing pins anything. The pipeline service is
  // built after this one (it renders through it): the application passes a PinSourcePort.
  explicit TemplateService(TemplateStore& store, TemplatePinSource* pins = nullptr,
                           TemplateServiceOptions options = {});
  ~TemplateService();

  TemplateListing List(const Principal& principal, const TemplateListQuery& query);
  // The projection of `version`, or of the working version (draft if any, else latest
  // release) when absent.
  Json Get(const Principal& principal, const std::string& id, std::optional<int> version);
  // Every version, ascending, without bodies.
  Json ListVersions(const Principal& principal, const std::string& id);
  Json Create(const Principal& principal, const TemplateWrite& write, bool confirm_new_root,
              TemplateSurface surface);
  // `write.id`, when given, must be `id` (there is no rename): request.validation.invalid
  // {field: id} otherwise; the write is otherwise what TemplateWrite::FromJson read.
  Json Update(const Principal& principal, const std::string& id, const std::string& expected_hash,
              const TemplateWrite& write, TemplateSurface surface);
  // {id, version, status, type, rendered}; a missing variable fails as
  // pipeline.node.template_render_failed.
  Json Render(const Principal& principal, const std::string& id, std::optional<int> version,
              const Json& context);
  // The executor's render of a node's pin: the exact version with its libraries, no access
  // check (the execution was authorized as a whole). pipeline.node.template_not_found when the
  // pinned version is gone, pipeline.node.template_render_failed when it does not render.
  std::string RenderPinned(const std::string& workspace_id, const std::string& id, int version,
                           const Json& context);
  Json UsedBy(const Principal& principal, const std::string& id, int version);
  Json PurgeDraft(const Principal& principal, const std::string& id);

  // Human verbs (REST only).
  Json Release(const Principal& principal, const std::string& id,
               const std::optional<std::string>& expected_hash);
  Json Discard(const Principal& principal, const std::string& id, int version);
  void Delete(const Principal& principal, const std::string& id);

 private:
  struct Loaded;  // a live template with all its versions

  Loaded Load(const Principal& principal, const std::string& id);
  const TemplateVersionRecord& VersionOrThrow(const Loaded& loaded, std::optional<int> version);
  // Save-time validation (templates.md §7.1): parse-only, imports resolved.
  void Validate(const Principal& principal, const TemplateVersionRecord& record);
  void RequireKnownRoot(const Principal& principal, const std::string& id);
  [[noreturn]] void ThrowConflict(const Principal& principal, const std::string& id,
                                  const std::string& message, Json details);

  TemplateStore& store_;
  TemplatePinSource* pins_;
  TemplateServiceOptions options_;
  std::unique_ptr<ParsedTemplateCache> parsed_;
};

}  // namespace dp
