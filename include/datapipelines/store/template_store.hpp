#pragma once
// The template port (migration 0002): template entities and their versions. No business rule
// lives here — TemplateService decides what a write means.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/store/template_records.hpp"

namespace dp {

class SqlExecutor;

class TemplateStore {
 public:
  virtual ~TemplateStore() = default;

  // Every write below is compare-and-swap: false means the row was not in the expected state
  // (a concurrent writer won), never a partial write.
  // Inserts the entity and its version 1; DuplicateKeyError when the id exists in the
  // workspace (soft-deleted ids included).
  virtual void InsertTemplate(const TemplateRecord& tmpl, const TemplateVersionRecord& first) = 0;
  virtual std::optional<TemplateRecord> FindTemplate(const std::string& workspace_id,
                                                     const std::string& id) = 0;
  // Ascending by version, bodies included.
  virtual std::vector<TemplateVersionRecord> ListTemplateVersions(const std::string& workspace_id,
                                                                  const std::string& id) = 0;
  virtual std::optional<TemplateVersionRecord> FindTemplateVersion(const std::string& workspace_id,
                                                                   const std::string& id,
                                                                   int version) = 0;
  // The working version (highest DRAFT/RELEASED) of every live template, bodies left empty,
  // ordered by id.
  virtual std::vector<TemplateVersionRecord> ListWorkingTemplateVersions(
      const std::string& workspace_id) = 0;
  // Copy-on-write: inserts `draft` only while version `base_version` is still RELEASED with
  // `base_hash` and no other draft exists.
  virtual bool InsertTemplateDraft(const TemplateVersionRecord& draft, int base_version,
                                   const std::string& base_hash) = 0;
  // Overwrites the open draft in place when its body_hash still equals `expected_hash`.
  virtual bool OverwriteTemplateDraft(const TemplateVersionRecord& draft,
                                      const std::string& expected_hash) = 0;
  // DRAFT → RELEASED when the draft still has `expected_hash`.
  virtual bool ReleaseTemplateDraft(const std::string& workspace_id, const std::string& id,
                                    int version, const std::string& expected_hash,
                                    const std::string& by, int64_t at_ms) = 0;
  // `expected_status` → DISCARDED, only while another DRAFT/RELEASED version remains.
  virtual bool DiscardTemplateVersion(const std::string& workspace_id, const std::string& id,
                                      int version, const std::string& expected_status,
                                      const std::string& by, int64_t at_ms) = 0;
  virtual bool SoftDeleteTemplate(const std::string& workspace_id, const std::string& id,
                                  const std::string& by, int64_t at_ms) = 0;
  // Hard-deletes the entity and its versions when version 1 is still the only version, a
  // DRAFT with `expected_hash`.
  virtual bool PurgeTemplateDraft(const std::string& workspace_id, const std::string& id,
                                  const std::string& expected_hash) = 0;
};

// The SQL adapter, written once in the portable subset for both backends.
std::unique_ptr<TemplateStore> OpenTemplateStore(SqlExecutor& sql);

}  // namespace dp
