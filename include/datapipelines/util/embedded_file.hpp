#pragma once
#include <span>
#include <string_view>

namespace dp {

// A file compiled into the binary (cmake/embed_files.cmake).
struct EmbeddedFile {
  std::string_view path;  // relative to the embedded folder, e.g. "references/x.md"
  std::string_view bytes;
};

// skill/SKILL.md, skill/references/*.md and skill/INSTRUCTIONS.md.
std::span<const EmbeddedFile> EmbeddedSkillFiles();

// src/store/migrations/{common,sqlite,postgres}/NNNN_name.sql.
std::span<const EmbeddedFile> EmbeddedMigrationFiles();

// src/mcp/catalog/<tool>.json: the MCP tool catalog (src/mcp/tool_definitions.cpp).
std::span<const EmbeddedFile> EmbeddedToolCatalogFiles();

}  // namespace dp
