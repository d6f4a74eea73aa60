#pragma once
// Save-time validation against the environment (pipeline-contract §12.5, §12.6, §12.9, §12.12's
// registry rule, and the agent-surface gates of §12.1/§12.11): datasources visible and writable
// where the body writes, templates pinned at existing versions of the right type and dialect that
// dry-render against the declared parameters and bind only what the Context provides, child
// pipelines pinned at released versions with their inputs mapped, composition bounded. The body
// alone was already checked by PipelineStructureValidator; problems accumulate in one report.
#include <map>
#include <optional>
#include <string>

#include "datapipelines/pipeline/pipeline_body.hpp"
#include "datapipelines/pipeline/validation_problems.hpp"
#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/service/pipelines/pipeline_service.hpp"
#include "datapipelines/store/datasource_store.hpp"
#include "datapipelines/store/pipeline_store.hpp"
#include "datapipelines/store/template_store.hpp"

namespace dp {

class PipelineSaveValidator {
 public:
  PipelineSaveValidator(TemplateStore& template_store, DatasourceStore& datasource_store,
                        PipelineStore& pipelines, TemplateService& templates,
                        const PipelineServiceOptions& options, const Principal& principal);

  void Validate(const PipelineBody& body, ValidationProblems& problems);

 private:
  // The datasource as this workspace sees it; nullopt when absent or not granted.
  const DatasourceRecord* Visible(const std::string& name);
  void CheckNodeDatasources(const PipelineBody& body, size_t index, ValidationProblems& problems);
  void CheckNodeTemplate(const PipelineBody& body, size_t index, const Json& render_context,
                         ValidationProblems& problems);
  void CheckBinds(const PipelineBody& body, size_t index, const std::string& rendered,
                  const std::string& dialect, ValidationProblems& problems);
  void CheckChildNode(const PipelineBody& body, size_t index, ValidationProblems& problems);
  void CheckCompositionDepth(const PipelineBody& body, ValidationProblems& problems);
  void CheckCheckDatasources(const PipelineBody& body, ValidationProblems& problems);

  TemplateStore& template_store_;
  DatasourceStore& datasource_store_;
  PipelineStore& pipelines_;
  TemplateService& templates_;
  const PipelineServiceOptions& options_;
  const Principal& principal_;
  std::map<std::string, std::optional<DatasourceRecord>> datasources_;
};

// The agent surface's §12.11 door rule: refused unless door_acknowledged.
void CheckDoor(const PipelineBody& body, bool door_acknowledged, ValidationProblems& problems);

}  // namespace dp
