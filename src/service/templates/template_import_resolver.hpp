#pragma once
// Library import resolution (templates.md §6.3–6.4): each {id, version, alias} entry names an
// exact stored version that must be a library; imports are transitive, ≤ 10 deep, acyclic.
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "datapipelines/template/syntax/parsed_template.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class TemplateStore;
class ParsedTemplateCache;
struct TemplateVersionRecord;

using LibraryMap = std::map<std::string, std::shared_ptr<const ParsedTemplate>>;

// Parses a stored (or about-to-be-stored) version with the mode its type implies.
ParsedTemplate ParseTemplateVersion(const TemplateVersionRecord& version, size_t max_body_chars);

// The imports array's own rules, before anything is looked up: every alias a plain
// identifier and every id path-shaped (else dangerous_construct — they would be spliced into
// a synthesized import prologue — and the value is never echoed), versions positive, aliases
// unique (duplicate_alias).
void CheckImportsShape(const Json& imports);

class TemplateImportResolver {
 public:
  // `for_save`: a save may only import live (DRAFT/RELEASED) versions of live templates; a
  // render resolves whatever version was pinned. `cache` (optional) keeps library parses.
  TemplateImportResolver(TemplateStore& store, std::string workspace_id, size_t max_body_chars,
                         bool for_save, ParsedTemplateCache* cache = nullptr);

  // alias → parsed library (with its own imports bound) for the template `self_key`
  // ("id@version"), whose `imports` are resolved.
  LibraryMap Resolve(const std::string& self_key, const Json& imports);

 private:
  LibraryMap ResolveAt(const Json& imports, int depth);
  std::shared_ptr<const ParsedTemplate> Library(const Json& entry, int depth);

  TemplateStore& store_;
  std::string workspace_id_;
  size_t max_body_chars_;
  bool for_save_;
  ParsedTemplateCache* cache_;
  std::vector<std::string> stack_;  // "id@version" keys being resolved, for cycle detection
  LibraryMap memo_;                 // "id@version" → resolved library
};

}  // namespace dp
