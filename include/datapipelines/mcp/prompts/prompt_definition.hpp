#pragma once
// One prompt of the §8 prompt surface: what prompts/list shows and how prompts/get renders it.
// The text is content (one file per prompt under src/mcp/prompts/); the argument rules live in
// PromptCatalog.
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace dp {

enum class PromptArgumentKind {
  kUuid,      // §8.1/§8.3: an entity id, refused -32602 unless a UUID
  kQuestion,  // §8.2: free text, 1..2000 characters, fenced between sentinel lines
};

struct PromptArgument {
  std::string name;
  std::string description;
  bool required = true;
  PromptArgumentKind kind = PromptArgumentKind::kUuid;
};

struct PromptDefinition {
  std::string name;
  std::string title;
  std::string description;
  std::vector<PromptArgument> arguments;
  // The user message, from arguments PromptCatalog has already validated.
  std::function<std::string(const std::map<std::string, std::string>& arguments)> render;
};

// The three prompts of spec §8, each defined in its own file.
PromptDefinition AnalyzePipelinePrompt();
PromptDefinition CreatePipelineForQuestionPrompt();
PromptDefinition DebugFailedExecutionPrompt();

}  // namespace dp
