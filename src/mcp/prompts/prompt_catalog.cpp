#include "datapipelines/mcp/prompts/prompt_catalog.hpp"

#include <algorithm>

#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

// Code points, not bytes: the cap is "2000 characters" (§8.2). Invalid UTF-8 cannot arrive
// here (the JSON parser refused it).
std::size_t Utf8Length(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

bool Blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
  });
}

void Validate(const PromptArgument& argument, const std::string& value) {
  switch (argument.kind) {
    case PromptArgumentKind::kUuid:
      if (!IsUuid(value)) {
        throw PromptArgumentError("Invalid params: '" + argument.name + "' must be a UUID.");
      }
      return;
    case PromptArgumentKind::kQuestion:
      if (Blank(value)) {
        throw PromptArgumentError("Invalid params: '" + argument.name + "' must not be blank.");
      }
      if (Utf8Length(value) > kQuestionMaxCharacters) {
        throw PromptArgumentError("Invalid params: '" + argument.name + "' is longer than " +
                                  std::to_string(kQuestionMaxCharacters) + " characters.");
      }
      // The fence cannot be forged from inside (§8.2).
      if (value.find(kQuestionOpen) != std::string::npos ||
          value.find(kQuestionClose) != std::string::npos) {
        throw PromptArgumentError("Invalid params: '" + argument.name +
                                  "' must not contain the sentinel " + std::string(kQuestionOpen) +
                                  " or " + std::string(kQuestionClose) + ".");
      }
      return;
  }
}

}  // namespace

PromptCatalog::PromptCatalog(std::vector<PromptDefinition> prompts)
    : prompts_(std::move(prompts)) {}

const PromptCatalog& PromptCatalog::BuiltIn() {
  static const PromptCatalog kCatalog(
      {AnalyzePipelinePrompt(), CreatePipelineForQuestionPrompt(), DebugFailedExecutionPrompt()});
  return kCatalog;
}

Json PromptCatalog::ListResult() const {
  Json prompts = Json::array();
  for (const PromptDefinition& prompt : prompts_) {
    Json arguments = Json::array();
    for (const PromptArgument& argument : prompt.arguments) {
      arguments.push_back({{"name", argument.name},
                           {"description", argument.description},
                           {"required", argument.required}});
    }
    prompts.push_back({{"name", prompt.name},
                       {"title", prompt.title},
                       {"description", prompt.description},
                       {"arguments", std::move(arguments)}});
  }
  return Json{{"prompts", std::move(prompts)}};
}

Json PromptCatalog::Get(const Json& params) const {
  auto name = params.find("name");
  if (name == params.end() || !name->is_string()) {
    throw PromptArgumentError("Invalid params: missing required field 'name'.");
  }
  auto prompt = std::find_if(prompts_.begin(), prompts_.end(),
                             [&](const PromptDefinition& p) { return p.name == *name; });
  if (prompt == prompts_.end()) {
    throw PromptArgumentError("Invalid params: unknown prompt '" + name->get<std::string>() + "'.");
  }
  static const Json kNone = Json::object();
  const Json* given = &kNone;
  if (auto it = params.find("arguments"); it != params.end() && !it->is_null()) {
    if (!it->is_object()) {
      throw PromptArgumentError("Invalid params: 'arguments' must be an object.");
    }
    given = &*it;
  }
  for (const auto& item : given->items()) {
    // Named, not a structured binding: clang before 16 cannot capture a binding in a lambda.
    const std::string& key = item.key();
    const Json& value = item.value();
    bool known = std::any_of(prompt->arguments.begin(), prompt->arguments.end(),
                             [&](const PromptArgument& a) { return a.name == key; });
    if (!known) throw PromptArgumentError("Invalid params: unknown argument '" + key + "'.");
    if (!value.is_string()) {
      throw PromptArgumentError("Invalid params: '" + key + "' must be a string.");
    }
  }
  std::map<std::string, std::string> values;
  for (const PromptArgument& argument : prompt->arguments) {
    auto it = given->find(argument.name);
    if (it == given->end()) {
      if (argument.required) {
        throw PromptArgumentError("Invalid params: missing required argument '" + argument.name +
                                  "'.");
      }
      continue;
    }
    const std::string& value = it->get_ref<const std::string&>();
    Validate(argument, value);
    values[argument.name] = value;
  }
  return Json{{"description", prompt->description},
              {"messages",
               Json::array({{{"role", "user"},
                             {"content", {{"type", "text"}, {"text", prompt->render(values)}}}}})}};
}

}  // namespace dp
