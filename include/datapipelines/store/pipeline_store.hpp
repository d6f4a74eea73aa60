#pragma once
// The pipeline store port (metadata-db §4.4–4.5, migration 0004): pipeline entities and their
// versions, one port of its own rather than more methods on MetadataStore. No business rule
// lives here — PipelineService decides what a write means. Every write is compare-and-swap:
// false means the row was not in the expected state (a concurrent writer won).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/util/json.hpp"

namespace dp {

class MetadataStore;

// One pipeline in one workspace (the entity row). The name is unique per workspace, forever.
struct PipelineRecord {
  std::string workspace_id;
  std::string id;  // uuid
  std::string name;
  std::string owner;  // creating user id
  int64_t created_at_ms = 0;
};

// One version. status is "DRAFT" | "RELEASED" | "DISCARDED"; body is the canonical portable body.
struct PipelineVersionRecord {
  std::string pipeline_id;
  int version = 0;
  std::string status;
  Json body = Json::object();
  std::string body_hash;
  std::string created_by;
  int64_t created_at_ms = 0;
  std::string updated_by;
  int64_t updated_at_ms = 0;
  std::string released_by;  // "" until released
  int64_t released_at_ms = 0;
};

// A pipeline with every version, ascending.
struct PipelineWithVersions {
  PipelineRecord entity;
  std::vector<PipelineVersionRecord> versions;
};

class PipelineStore {
 public:
  virtual ~PipelineStore() = default;

  // Inserts the entity and its version 1; DuplicateKeyError when the name exists in the
  // workspace.
  virtual void InsertPipeline(const PipelineRecord& pipeline,
                              const PipelineVersionRecord& first) = 0;
  virtual std::optional<PipelineRecord> FindPipeline(const std::string& workspace_id,
                                                     const std::string& id) = 0;
  virtual std::optional<PipelineRecord> FindPipelineByName(const std::string& workspace_id,
                                                           const std::string& name) = 0;
  // Ascending by version, bodies included.
  virtual std::vector<PipelineVersionRecord> ListPipelineVersions(
      const std::string& pipeline_id) = 0;
  // Every pipeline of the workspace with all its versions ("" = every workspace), by name.
  virtual std::vector<PipelineWithVersions> ListPipelines(const std::string& workspace_id) = 0;
  // Copy-on-write: inserts `draft` only while `base_version` is still RELEASED with `base_hash`
  // and no other draft exists.
  virtual bool InsertPipelineDraft(const PipelineVersionRecord& draft, int base_version,
                                   const std::string& base_hash) = 0;
  // Overwrites the open draft in place when its body_hash still equals `expected_hash`.
  virtual bool OverwritePipelineDraft(const PipelineVersionRecord& draft,
                                      const std::string& expected_hash) = 0;
  // DRAFT → RELEASED when the draft still has `expected_hash`.
  virtual bool ReleasePipelineDraft(const std::string& pipeline_id, int version,
                                    const std::string& expected_hash, const std::string& by,
                                    int64_t at_ms) = 0;
  // Hard-deletes the DRAFT `version` when it still has `expected_hash` and another version
  // remains (the draft purge that keeps the entity).
  virtual bool PurgePipelineDraft(const std::string& pipeline_id, int version,
                                  const std::string& expected_hash) = 0;
  // Hard-deletes the entity and its versions when its only version is a DRAFT with
  // `expected_hash`.
  virtual bool PurgePipeline(const std::string& pipeline_id, const std::string& expected_hash) = 0;
};

// The SQL adapter over the metadata store's own connection (SQLite or PostgreSQL).
std::unique_ptr<PipelineStore> OpenPipelineStore(MetadataStore& metadata);

}  // namespace dp
