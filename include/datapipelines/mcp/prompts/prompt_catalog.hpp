#pragma once
// The static prompt surface (spec §8): prompts/list and prompts/get. Arguments are validated
// here before any text is rendered — a UUID argument must be a UUID; the question must be
// present, not blank, at most 2000 characters and free of the fence's sentinel lines.
#include <stdexcept>
#include <string_view>
#include <vector>

#include "datapipelines/mcp/prompts/prompt_definition.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

// An argument the prompt refuses; McpServer answers it as JSON-RPC -32602.
class PromptArgumentError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

inline constexpr std::string_view kQuestionOpen = "<<<QUESTION";
inline constexpr std::string_view kQuestionClose = "QUESTION>>>";
inline constexpr std::size_t kQuestionMaxCharacters = 2000;

class PromptCatalog {
 public:
  explicit PromptCatalog(std::vector<PromptDefinition> prompts);
  // analyze_pipeline, create_pipeline_for_question, debug_failed_execution.
  static const PromptCatalog& BuiltIn();

  const std::vector<PromptDefinition>& Prompts() const { return prompts_; }
  // The prompts/list result: {"prompts": [{name, title, description, arguments}]}.
  Json ListResult() const;
  // The prompts/get result for params {name, arguments}; PromptArgumentError when the name is
  // unknown or an argument is missing, unknown or invalid.
  Json Get(const Json& params) const;

 private:
  std::vector<PromptDefinition> prompts_;
};

}  // namespace dp
