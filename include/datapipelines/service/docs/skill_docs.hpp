#pragma once
// The single reader of the agent manual compiled into the binary (spec §15): SKILL.md, its
// references and the MCP instructions. The docs tools, the docs resources and GET /skill.md
// all answer from here, so they cannot drift.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/util/embedded_file.hpp"

namespace dp {

struct SkillDoc {
  std::string name;     // "skill" for SKILL.md, else the reference name ("authoring-playbook")
  std::string title;    // the document's own H1
  std::string purpose;  // the map's one-line "open this when…" ("" for the core)
  std::string_view markdown;
};

class SkillDocs {
 public:
  // Builds the catalog from embedded files; throws std::runtime_error when the map and the
  // references disagree (a reference without a map line, or a map line without a file).
  explicit SkillDocs(std::span<const EmbeddedFile> files);

  // skill first, then references in the map's order.
  const std::vector<SkillDoc>& List() const { return docs_; }
  // By name: "skill", a reference name, or either with a ".md" suffix. nullptr when unknown.
  const SkillDoc* Find(std::string_view name) const;
  std::vector<std::string> Names() const;
  // Find() or DomainError mcp.doc_not_found with details.known_docs (spec §6.2.41).
  const SkillDoc& Require(std::string_view name) const;
  std::string_view Instructions() const { return instructions_; }

 private:
  std::vector<SkillDoc> docs_;
  std::string_view instructions_;
};

// The process-wide catalog over EmbeddedSkillFiles() (built once, immutable).
const SkillDocs& BuiltInSkillDocs();

}  // namespace dp
