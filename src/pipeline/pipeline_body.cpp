#include "datapipelines/pipeline/pipeline_body.hpp"

#include <array>

namespace dp {
namespace {

struct NodeTypeName {
  NodeType type;
  const char* name;
};

constexpr std::array<NodeTypeName, 5> kNodeTypeNames = {{
    {NodeType::kDql, "DQL"},
    {NodeType::kDml, "DML"},
    {NodeType::kDdl, "DDL"},
    {NodeType::kPipeline, "PIPELINE"},
    {NodeType::kCalculator, "CALCULATOR"},
}};

void PutIfPresent(Json& object, const char* key, const std::string& value) {
  if (!value.empty()) object[key] = value;
}

}  // namespace

std::optional<NodeType> ParseNodeType(const std::string& text) {
  for (const auto& entry : kNodeTypeNames) {
    if (text == entry.name) return entry.type;
  }
  return std::nullopt;
}

const char* ToString(NodeType type) {
  for (const auto& entry : kNodeTypeNames) {
    if (entry.type == type) return entry.name;
  }
  return "";
}

Json ParameterDecl::ToJson() const {
  Json descriptor = {{"type", type}, {"required", required}};
  if (default_value) descriptor["default"] = *default_value;
  if (precision) descriptor["precision"] = *precision;
  if (scale) descriptor["scale"] = *scale;
  if (description) descriptor["description"] = *description;
  return descriptor;
}

Json NodeOutput::ToJson() const {
  Json block = Json::object();
  PutIfPresent(block, "target", target);
  PutIfPresent(block, "datasource", datasource);
  PutIfPresent(block, "table", table);
  PutIfPresent(block, "mode", mode);
  return block;
}

std::string PipelineNode::EffectiveTarget() const {
  if (type == NodeType::kDql) return output ? output->target : "caller";
  if (type == NodeType::kPipeline && output) return output->target;
  return "";
}

std::vector<std::string> PipelineNode::WrittenContextKeys() const {
  std::vector<std::string> keys;
  if (context_key) keys.push_back(*context_key);
  if (context_keys) {
    for (const auto& [output_name, key] : *context_keys) keys.push_back(key);
  }
  return keys;
}

std::optional<int64_t> PipelineNode::TimeoutSeconds() const {
  if (!timeout_seconds || !timeout_seconds->is_number_integer()) return std::nullopt;
  if (timeout_seconds->is_number_unsigned() &&
      timeout_seconds->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    return std::nullopt;
  }
  return timeout_seconds->get<int64_t>();
}

Json PipelineNode::ToJson() const {
  Json node = {{"id", id}, {"description", description}, {"type", type_name}};
  if (source) node["source"] = *source;
  if (template_ref)
    node["template"] = {{"id", template_ref->id}, {"version", template_ref->version}};
  if (child) node["pipeline"] = {{"name", child->name}, {"version", child->version}};
  if (parameters && !parameters->empty()) node["parameters"] = *parameters;
  if (kind) node["kind"] = *kind;
  if (inputs) node["inputs"] = *inputs;
  if (context_key) node["context_key"] = *context_key;
  if (context_keys) {
    Json mapping = Json::object();
    for (const auto& [output_name, key] : *context_keys) mapping[output_name] = key;
    node["context_keys"] = std::move(mapping);
  }
  if (output) node["output"] = output->ToJson();
  node["depends_on"] = depends_on;
  if (timeout_seconds) node["settings"] = {{"timeout_seconds", *timeout_seconds}};
  return node;
}

Json PipelineCheck::ToJson() const {
  return {
      {"id", id}, {"name", name}, {"datasource", datasource}, {"sql", sql}, {"expected", expected}};
}

Json PipelineBody::ToJson() const {
  Json body = {{"schema_version", schema_version},
               {"name", name},
               {"display_name", display_name},
               {"description", description}};
  if (settings.is_object() && !settings.empty()) body["settings"] = settings;
  Json declared = Json::object();
  for (const auto& parameter : parameters) declared[parameter.name] = parameter.ToJson();
  body["parameters"] = std::move(declared);
  Json node_list = Json::array();
  for (const auto& node : nodes) node_list.push_back(node.ToJson());
  body["nodes"] = std::move(node_list);
  if (!checks.empty()) {
    Json check_list = Json::array();
    for (const auto& check : checks) check_list.push_back(check.ToJson());
    body["checks"] = std::move(check_list);
  }
  return body;
}

const PipelineNode* PipelineBody::FindNode(const std::string& id) const {
  for (const auto& node : nodes) {
    if (node.id == id) return &node;
  }
  return nullptr;
}

const ParameterDecl* PipelineBody::FindParameter(const std::string& name) const {
  for (const auto& parameter : parameters) {
    if (parameter.name == name) return &parameter;
  }
  return nullptr;
}

}  // namespace dp
