#pragma once
// The portable pipeline body (pipeline-contract §3.2 note): the author-owned fields only —
// schema_version, name, display_name, description, settings, parameters, nodes, checks. The
// server fields (id, version, owner, created_at, updated_at) live on the record, never here.
// Fields keep what the author wrote (raw type names, optional presence) so the structure
// validator can say exactly what is wrong; ToJson() is the canonical form that is hashed/stored.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "datapipelines/util/json.hpp"

namespace dp {

// One entry of `parameters` (§6.1).
struct ParameterDecl {
  std::string name;
  std::string type;  // as written; the validator checks it is one of the 10 canonical types
  bool required = false;
  std::optional<Json> default_value;  // a JSON null default reads as absent
  std::optional<int> precision;
  std::optional<int> scale;
  std::optional<std::string> description;

  Json ToJson() const;  // the descriptor, without the name
};

struct TemplateRef {
  std::string id;
  int64_t version = 0;
};

// A PIPELINE node's pinned child (§4.9).
struct ChildPipelineRef {
  std::string name;
  int64_t version = 0;
};

// The §4.7 output block. An empty string is an absent field.
struct NodeOutput {
  std::string target;
  std::string table;
  std::string datasource;
  std::string mode;

  Json ToJson() const;
};

enum class NodeType { kDql, kDml, kDdl, kPipeline, kCalculator };

// "DQL" ... "CALCULATOR"; nullopt for anything else (pipeline.validation.type_invalid).
std::optional<NodeType> ParseNodeType(const std::string& text);
const char* ToString(NodeType type);

struct PipelineNode {
  std::string id;
  std::string description;
  std::string type_name;         // as written
  std::optional<NodeType> type;  // nullopt when type_name is not a node type
  std::optional<std::string> source;
  std::optional<TemplateRef> template_ref;
  std::optional<ChildPipelineRef> child;  // `pipeline`
  std::optional<Json> parameters;         // PIPELINE child bindings (an object)
  std::optional<NodeOutput> output;
  std::vector<std::string> depends_on;
  std::optional<std::string> kind;  // CALCULATOR
  std::optional<Json> inputs;       // CALCULATOR (an object)
  std::optional<std::string> context_key;
  // {output name: context key}, in the author's order.
  std::optional<std::vector<std::pair<std::string, std::string>>> context_keys;
  // settings.timeout_seconds as written; valid (validator-checked) means a positive integer.
  std::optional<Json> timeout_seconds;

  // "caller" for a DQL node without output; the output's target when there is one; "" for a
  // node that returns nothing (DML, DDL, CALCULATOR, a PIPELINE node without output).
  std::string EffectiveTarget() const;
  // Every Context key this node writes: context_key, or each context_keys value, in order.
  std::vector<std::string> WrittenContextKeys() const;
  // timeout_seconds when it is a JSON integer.
  std::optional<int64_t> TimeoutSeconds() const;

  Json ToJson() const;
};

// One release check (§3.3).
struct PipelineCheck {
  std::string id;
  std::string name;
  std::string datasource;
  std::string sql;
  Json expected = Json::object();

  Json ToJson() const;
};

struct PipelineBody {
  int64_t schema_version = 1;
  std::string name;
  std::string display_name;
  std::string description;
  Json settings = Json::object();
  std::vector<ParameterDecl> parameters;  // in the author's key order
  std::vector<PipelineNode> nodes;
  std::vector<PipelineCheck> checks;

  // The canonical portable body: stable key order, absent/empty optional fields omitted
  // (`checks: []` and `settings: {}` canonicalize to absent). Used for hashing and storage.
  Json ToJson() const;

  const PipelineNode* FindNode(const std::string& id) const;
  const ParameterDecl* FindParameter(const std::string& name) const;
};

}  // namespace dp
