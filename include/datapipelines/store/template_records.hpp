#pragma once
// Rows of the template tables (migration 0002): the store's view of a template, with no
// business rule — TemplateService decides what a write means.
#include <cstdint>
#include <string>

#include "datapipelines/util/json.hpp"

namespace dp {

// One template id in one workspace (the entity row).
struct TemplateRecord {
  std::string workspace_id;
  std::string id;  // folder path
  std::string created_by;
  int64_t created_at_ms = 0;
  bool is_deleted = false;
};

// One version of a template. status is "DRAFT" | "RELEASED" | "DISCARDED".
struct TemplateVersionRecord {
  std::string workspace_id;
  std::string template_id;
  int version = 0;
  std::string status;
  std::string engine = "freemarker";
  std::string type = "sql";  // "sql" | "html"
  std::string dialect;       // "" for html
  std::string display_name;
  std::string description;
  bool is_library = false;
  Json imports = Json::array();  // [{id, version, alias}]
  std::string body;              // empty in summary listings
  std::string body_hash;
  std::string created_by;
  int64_t created_at_ms = 0;
  std::string updated_by;
  int64_t updated_at_ms = 0;
};

}  // namespace dp
