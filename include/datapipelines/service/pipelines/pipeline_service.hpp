#pragma once
// Pipelines as versioned, workspace-scoped entities (spec §6.2.1–2, §6.2.4–5, §7.1; pipeline
// contract §3–§12; versioning.md; rest-api §5). Every rule lives here: the MCP tools, the REST
// routes and the resources call these functions and only translate. Every function checks the
// caller's access itself and resolves ids inside the principal's workspace only: another
// workspace's pipeline is pipeline.not_found, exactly like a missing one.
//
// Versions mirror templates: create lands version 1 as DRAFT; an update names the body_hash it
// was based on; the first update after a release inserts a new DRAFT (copy-on-write), later ones
// overwrite it in place, and content equal to the release is a no-op. Nothing invalid is stored:
// every write runs the whole save-time validation (structure, then the environment) first.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/calculators/calculator_context.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/service/list_window.hpp"
#include "datapipelines/service/templates/template_pin_source.hpp"
#include "datapipelines/store/pipeline_store.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class AuditReader;
class CheckRunService;
class DatasourceExplorer;
class DatasourceStore;
class TemplateStore;
class PipelineStore;
class TemplateService;
struct PipelineWithVersions;
struct PipelineVersionRecord;

struct PipelineServiceOptions {
  int max_nodes = 1000;
  int node_timeout_max_seconds = 900;  // datapipelines.executor.node-timeout-max-seconds
  int max_composition_depth = 5;       // datapipelines.pipelines.max-composition-depth
  OrgSettings org;
};

// Agent-surface rules differ from the REST/UI surface (spec §6.2.4, pipeline-contract §12.11).
enum class PipelineSurface {
  kAgent,  // MCP: new roots need confirm_new_root; table_not_learned and the door are checked
  kHuman,  // REST: a person chose the folder and the body
};

// The entry-point flags of a create or update (spec §6.2.4).
struct PipelineWriteFlags {
  bool confirm_new_root = false;
  bool door_acknowledged = false;
  PipelineSurface surface = PipelineSurface::kHuman;
};

struct PipelineListQuery {
  std::optional<std::string> owner;
  std::optional<std::string> datasource;
  std::optional<std::string> q;
  std::optional<std::string> prefix;  // present → one-level browse ("" is the root)
  ListWindow window;

  // {owner?, datasource?, q?, prefix?, limit?, offset?} as both surfaces pass them; the window
  // as `window` says.
  static PipelineListQuery FromJson(const Json& arguments, ListWindowRules window = {});
};

// Flat: `items`, `total`, `has_more`. Browse: also `prefix` and `folders`.
struct PipelineListing {
  bool browse = false;
  std::string prefix;
  Json folders = Json::array();
  Json items = Json::array();
  int64_t total = 0;
  bool has_more = false;

  // The browse presentation both surfaces return (§6.2.1): {prefix, folders, pipelines, …}.
  Json BrowseJson() const;
};

// What the pipeline service reads from the services built after it, passed at construction
// and bound by the application to services that exist once start-up is done.
struct PipelineServicePorts {
  // The published endpoints of a pipeline, by path pattern: pipelines_get shows them and the
  // delete refuses while any exists (pipeline.in_use).
  std::function<std::vector<std::string>(const std::string& pipeline_id)> endpoints_of;
  // The release gate's check runner (and the release audit); none leaves the gate off.
  std::function<CheckRunService*()> check_runner;
};

class PipelineService : public TemplatePinSource {
 public:
  // `datasources` and `audit` serve the agent surface's table_not_learned gate; without them
  // (unit tests of other rules) the gate is off.
  PipelineService(TemplateStore& template_store, DatasourceStore& datasource_store,
                  PipelineStore& store, TemplateService& templates, DatasourceExplorer* datasources,
                  AuditReader* audit, PipelineServiceOptions options = {},
                  PipelineServicePorts ports = {});
  ~PipelineService() override;

  PipelineListing List(const Principal& principal, const PipelineListQuery& query);
  // The read shape of `version`, or of the working version when absent (spec §6.2.2).
  Json Get(const Principal& principal, const std::string& id, std::optional<int> version);
  // The declared parameters of the working version (the …/parameters resource), derived ones too.
  Json Parameters(const Principal& principal, const std::string& id);
  // Every version, ascending, metadata only (rest-api §5.4).
  Json ListVersions(const Principal& principal, const std::string& id);
  Json Create(const Principal& principal, const Json& request, const PipelineWriteFlags& flags);
  Json Update(const Principal& principal, const std::string& id, const std::string& expected_hash,
              const Json& request, const PipelineWriteFlags& flags);

  // Human verbs (REST only, rest-api §5.10, §5.11, §5.6).
  // A draft whose body carries checks[] releases only past a fresh all-pass check run (rest-api
  // §5.10, pipeline-contract §13.17): else 409 pipeline.check.failed with details.checks, unless
  // `override_checks_reason` (>= 10 non-blank characters) is given — then the release is audited
  // with checks_overridden and override_reason. Without a check runner the gate is off.
  Json Release(const Principal& principal, const std::string& id,
               const std::optional<std::string>& expected_hash,
               const std::optional<std::string>& override_checks_reason = std::nullopt);
  void PurgeDraft(const Principal& principal, const std::string& id,
                  const std::optional<std::string>& expected_hash);
  Json Delete(const Principal& principal, const std::string& id);

  // The version an execution runs: `version`, or the working version when absent (never
  // clamped). pipeline.execution.not_found when the id or the version is not in the workspace.
  // No access check: the execution service authorizes the run.
  struct RunnableVersion {
    PipelineRecord entity;
    PipelineVersionRecord version;
  };
  RunnableVersion ResolveForExecution(const std::string& workspace_id, const std::string& id,
                                      std::optional<int> version);
  // A PIPELINE node's pinned child, by name and exact version.
  RunnableVersion ResolveChild(const std::string& workspace_id, const std::string& name,
                               int version);

  // TemplatePinSource: the reverse arrow of each node's template pin.
  std::vector<TemplatePin> WorkingVersionPins(const std::string& workspace_id,
                                              const std::string& template_id,
                                              int template_version) override;
  std::vector<TemplatePin> AllPins(const std::string& workspace_id,
                                   const std::string& template_id) override;
  // Names of the pipelines (any workspace) whose versions use datasource `name`
  // (datasource.in_use).
  std::vector<std::string> PipelinesUsingDatasource(const std::string& name);
  // The same over any pipeline store (the operator CLI has no pipeline service).
  static std::vector<std::string> PipelinesUsingDatasource(PipelineStore& store,
                                                           const std::string& name);

  // The pipeline named `name` in the workspace, if any (no access check: the caller's rule).
  std::optional<PipelineRecord> FindByName(const std::string& workspace_id,
                                           const std::string& name);
  // The latest RELEASED version of a pipeline (a published endpoint serves it, never a draft);
  // nullopt when the id is unknown in the workspace or nothing is released.
  std::optional<RunnableVersion> LatestReleased(const std::string& workspace_id,
                                                const std::string& pipeline_id);

 private:
  PipelineWithVersions Load(const Principal& principal, const std::string& id);
  const PipelineVersionRecord& VersionOrThrow(const PipelineWithVersions& loaded,
                                              std::optional<int> version);
  Json Project(const Principal& principal, const PipelineWithVersions& loaded,
               const PipelineVersionRecord& version);
  // Parses and validates a request body; returns the canonical body to store.
  Json ValidatedBody(const Principal& principal, const Json& request, const std::string& own_name,
                     const PipelineWriteFlags& flags);
  void RequireKnownRoot(const Principal& principal, const std::string& name);
  [[noreturn]] void ThrowConflict(const Principal& principal, const std::string& id,
                                  const std::string& message, Json details);

  TemplateStore& template_store_;
  DatasourceStore& datasource_store_;
  PipelineStore& store_;
  TemplateService& templates_;
  DatasourceExplorer* datasources_;
  AuditReader* audit_;
  PipelineServiceOptions options_;
  PipelineServicePorts ports_;
};

}  // namespace dp
