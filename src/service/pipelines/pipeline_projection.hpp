#pragma once
// The read shapes of a pipeline (spec §6.2.1–2, rest-api §5.2/§5.4/§5.7): the composed version
// projection, the listing row and the one-level browse. No rule here beyond presentation.
#include <string>
#include <vector>

#include "datapipelines/service/pipelines/pipeline_service.hpp"
#include "datapipelines/store/pipeline_store.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

// The working version: the draft when one exists, else the latest release; null when none.
const PipelineVersionRecord* WorkingPipelineVersion(const PipelineWithVersions& pipeline);
const PipelineVersionRecord* DraftPipelineVersion(const PipelineWithVersions& pipeline);
// The latest RELEASED version (current_version), null when nothing is released.
const PipelineVersionRecord* CurrentPipelineVersion(const PipelineWithVersions& pipeline);

// The body merged with the lifecycle fields: id, version, status, body_hash, owner, timestamps,
// current_version, the draft pointer when a draft exists, and the derived parameters.
Json PipelineVersionProjection(const PipelineWithVersions& pipeline,
                               const PipelineVersionRecord& version);
// Metadata only: version, status, body_hash, created_at, created_by, released_at.
Json PipelineVersionSummary(const PipelineVersionRecord& version);
// {id, name, display_name, description, version, status, owner, updated_at}.
Json PipelineListItem(const PipelineWithVersions& pipeline);

// Every datasource a body names: node sources (tempdb excluded) and write-back targets.
std::vector<std::string> DatasourcesOfBody(const Json& body);

PipelineListing BuildPipelineListing(const std::vector<PipelineWithVersions>& pipelines,
                                     const PipelineListQuery& query);

std::string PipelineBodyHash(const Json& canonical_body);

}  // namespace dp
