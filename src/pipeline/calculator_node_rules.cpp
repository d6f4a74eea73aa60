// §12.10 CALCULATOR-node rules. Everything here is decided from the body alone: the catalog is a
// build constant and the org/platform Context keys are configuration (calculators.md §0.3).
#include <map>
#include <optional>
#include <string>

#include "datapipelines/calculators/calculator_catalog.hpp"
#include "datapipelines/calculators/calculator_context.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/pipeline/parameter_coercion.hpp"
#include "pipeline/body_rules.hpp"
#include "pipeline/identifier_rules.hpp"
#include "pipeline/validation_paths.hpp"

namespace dp {
namespace {

using identifier_rules::IsContextKeyName;
using pipeline_paths::Bounded;
using pipeline_paths::Index;
using pipeline_paths::Member;
using pipeline_paths::NodePath;
using pipeline_paths::Quoted;

// Who writes a Context key, and at which type.
struct KeyWriter {
  std::size_t node_index;
  std::string type;
};

// What a `$reference` resolves to.
struct ResolvedReference {
  std::string type;
  std::optional<std::size_t> producer;  // set for another node's key
};

Json StringList(const std::vector<std::string>& values) {
  Json list = Json::array();
  for (const auto& value : values) list.push_back(value);
  return list;
}

// "$name" with a §6.1-shaped name is a reference; every other value is a literal.
std::optional<std::string> ReferenceName(const Json& value) {
  if (!value.is_string()) return std::nullopt;
  const std::string& text = value.get_ref<const std::string&>();
  if (text.size() < 2 || text[0] != '$' || !IsContextKeyName(text.substr(1))) return std::nullopt;
  return text.substr(1);
}

class CalculatorRules {
 public:
  CalculatorRules(const PipelineBody& body, const NodeGraph& graph, ValidationProblems& problems)
      : body_(body), graph_(graph), problems_(problems) {}

  void Run() {
    for (std::size_t i = 0; i < body_.nodes.size(); ++i) {
      if (body_.nodes[i].type == NodeType::kCalculator) {
        RegisterWrittenKeys(i);
      } else {
        RefuseCalculatorFields(i);
      }
    }
    for (std::size_t i = 0; i < body_.nodes.size(); ++i) {
      if (body_.nodes[i].type == NodeType::kCalculator) ValidateNode(i);
    }
  }

 private:
  const PipelineNode& Node(std::size_t i) const { return body_.nodes[i]; }
  Json Where(std::size_t i) const { return {{"node", Bounded(Node(i).id)}}; }
  Json Where(std::size_t i, const Json& more) const {
    Json details = Where(i);
    for (const auto& [key, value] : more.items()) details[key] = value;
    return details;
  }
  const CalculatorKind* KindOf(std::size_t i) const {
    return Node(i).kind ? FindCalculator(*Node(i).kind) : nullptr;
  }

  void RefuseCalculatorFields(std::size_t i) {
    const PipelineNode& node = Node(i);
    const std::pair<const char*, bool> fields[] = {{"kind", node.kind.has_value()},
                                                   {"inputs", node.inputs.has_value()},
                                                   {"context_key", node.context_key.has_value()},
                                                   {"context_keys", node.context_keys.has_value()}};
    for (const auto& [field, present] : fields) {
      if (!present) continue;
      problems_.Add(errc::kPipelineCalculatorFieldsOnNonCalculator, NodePath(i, field),
                    std::string(field) + " belongs to CALCULATOR nodes; node " + Quoted(node.id) +
                        " is " + Bounded(node.type_name),
                    Where(i, {{"field", field}, {"type", Bounded(node.type_name)}}));
    }
  }

  // §12.10 output_name_invalid and output_collision, while building the key -> writer map.
  void RegisterKey(std::size_t i, const std::string& key, const std::string& type,
                   const std::string& path) {
    if (!IsContextKeyName(key)) {
      problems_.Add(errc::kPipelineCalculatorOutputNameInvalid, path,
                    "Context key " + Quoted(key) + " must match [a-z_][a-z0-9_]{0,62}",
                    Where(i, {{"key", Bounded(key)}}));
      return;
    }
    if (body_.FindParameter(key) != nullptr) {
      problems_.Add(errc::kPipelineCalculatorOutputCollision, path,
                    "Context key " + Quoted(key) +
                        " shadows a declared parameter; a calculator may shadow org/platform "
                        "keys, never a parameter",
                    Where(i, {{"key", key}, {"collides_with", "parameter"}}));
      return;
    }
    auto [it, inserted] = writers_.emplace(key, KeyWriter{i, type});
    if (inserted) return;
    problems_.Add(
        errc::kPipelineCalculatorOutputCollision, path,
        "Context key " + Quoted(key) + " is already written by node " +
            Quoted(Node(it->second.node_index).id) + "; one writer per key",
        Where(i, {{"key", key}, {"collides_with", Bounded(Node(it->second.node_index).id)}}));
  }

  void RegisterWrittenKeys(std::size_t i) {
    const PipelineNode& node = Node(i);
    const CalculatorKind* kind = KindOf(i);
    if (node.context_key) {
      const bool single = kind != nullptr && !kind->multi_output();
      RegisterKey(i, *node.context_key, single ? kind->output_type : "ANY",
                  NodePath(i, "context_key"));
    }
    if (!node.context_keys) return;
    for (const auto& [output_name, key] : *node.context_keys) {
      const CalculatorOutput* output = kind ? kind->FindOutput(output_name) : nullptr;
      RegisterKey(i, key, output ? output->type : "ANY",
                  NodePath(i, Member("context_keys", output_name)));
    }
  }

  void ValidateNode(std::size_t i) {
    RefuseSqlFields(i);
    const PipelineNode& node = Node(i);
    if (!node.kind || !node.inputs) {
      const char* missing = !node.kind ? "kind" : "inputs";
      problems_.Add(errc::kPipelineCalculatorNodeIncomplete, NodePath(i, missing),
                    "CALCULATOR node " + Quoted(node.id) +
                        " needs kind and inputs (call "
                        "calculators_list for the kinds and their inputs)",
                    Where(i, {{"missing", missing}}));
    }
    const CalculatorKind* kind = KindOf(i);
    if (node.kind && kind == nullptr) {
      problems_.Add(errc::kPipelineCalculatorUnknown, NodePath(i, "kind"),
                    "calculator kind " + Quoted(*node.kind) + " is not in the catalog",
                    Where(i, {{"kind", Bounded(*node.kind)},
                              {"known_kinds", StringList(CalculatorKindNames())}}));
    }
    ValidateOutputShape(i, kind);
    if (kind != nullptr && node.inputs) ValidateInputs(i, *kind);
  }

  void RefuseSqlFields(std::size_t i) {
    const PipelineNode& node = Node(i);
    const std::pair<const char*, bool> fields[] = {{"source", node.source.has_value()},
                                                   {"template", node.template_ref.has_value()},
                                                   {"output", node.output.has_value()}};
    for (const auto& [field, present] : fields) {
      if (!present) continue;
      problems_.Add(errc::kPipelineCalculatorNodeHasSqlFields, NodePath(i, field),
                    "CALCULATOR node " + Quoted(node.id) +
                        " runs no SQL and writes Context "
                        "keys, not a table; drop " +
                        field,
                    Where(i, {{"field", field}}));
    }
  }

  void ShapeMismatch(std::size_t i, const char* field, const char* reason,
                     const std::string& message) {
    problems_.Add(errc::kPipelineCalculatorOutputShapeMismatch, NodePath(i, field), message,
                  Where(i, {{"kind", Bounded(Node(i).kind.value_or(""))}, {"reason", reason}}));
  }

  void ValidateOutputShape(std::size_t i, const CalculatorKind* kind) {
    const PipelineNode& node = Node(i);
    if (node.context_key && node.context_keys) {
      return ShapeMismatch(i, "context_keys", "both_fields",
                           "give context_key (single-output kind) OR context_keys (multi-output "
                           "kind), never both");
    }
    if (!node.context_key && !node.context_keys) {
      return ShapeMismatch(i, "context_key", "neither_field",
                           "CALCULATOR node " + Quoted(node.id) +
                               " writes nothing: give context_key (single-output kind) or "
                               "context_keys (multi-output kind)");
    }
    if (kind == nullptr) return;
    if (!kind->multi_output() && node.context_keys) {
      return ShapeMismatch(
          i, "context_keys", "single_output_kind",
          "kind " + Quoted(kind->kind) + " writes one value: use context_key, not context_keys");
    }
    if (kind->multi_output() && node.context_key) {
      return ShapeMismatch(i, "context_key", "multi_output_kind",
                           "kind " + Quoted(kind->kind) +
                               " writes a named set: map every output through context_keys");
    }
    if (kind->multi_output()) ValidateOutputMapping(i, *kind);
  }

  void ValidateOutputMapping(std::size_t i, const CalculatorKind& kind) {
    const auto& mapping = *Node(i).context_keys;
    std::vector<std::string> known;
    for (const auto& output : kind.outputs) known.push_back(output.name);
    for (const auto& [output_name, key] : mapping) {
      if (kind.FindOutput(output_name) != nullptr) continue;
      problems_.Add(errc::kPipelineCalculatorOutputUnknown,
                    NodePath(i, Member("context_keys", output_name)),
                    "kind " + Quoted(kind.kind) + " has no output " + Quoted(output_name),
                    Where(i, {{"kind", kind.kind},
                              {"output", Bounded(output_name)},
                              {"known_outputs", StringList(known)}}));
    }
    std::vector<std::string> missing;
    for (const auto& name : known) {
      bool mapped = false;
      for (const auto& entry : mapping) mapped = mapped || entry.first == name;
      if (!mapped) missing.push_back(name);
    }
    if (missing.empty()) return;
    problems_.Add(errc::kPipelineCalculatorOutputsIncomplete, NodePath(i, "context_keys"),
                  "context_keys must map every output of " + Quoted(kind.kind) +
                      " (no partial "
                      "mapping); missing: " +
                      StringList(missing).dump(),
                  Where(i, {{"kind", kind.kind}, {"missing", StringList(missing)}}));
  }

  void ValidateInputs(std::size_t i, const CalculatorKind& kind) {
    const Json& inputs = *Node(i).inputs;
    for (const auto& input : kind.inputs) {
      if (input.optional || (inputs.contains(input.name) && !inputs[input.name].is_null()))
        continue;
      problems_.Add(errc::kPipelineCalculatorInputMissing,
                    NodePath(i, Member("inputs", input.name)),
                    "kind " + Quoted(kind.kind) + " requires input " + Quoted(input.name),
                    Where(i, {{"kind", kind.kind}, {"input", input.name}}));
    }
    std::vector<std::string> known;
    for (const auto& input : kind.inputs) known.push_back(input.name);
    for (const auto& [name, value] : inputs.items()) {
      const std::string path = NodePath(i, Member("inputs", name));
      const CalculatorInput* input = kind.FindInput(name);
      if (input == nullptr) {
        problems_.Add(errc::kPipelineCalculatorInputUnknown, path,
                      "kind " + Quoted(kind.kind) + " has no input " + Quoted(name),
                      Where(i, {{"kind", kind.kind},
                                {"input", Bounded(name)},
                                {"known_inputs", StringList(known)}}));
        continue;
      }
      ValidateInputValue(i, *input, value, path);
    }
  }

  void TypeMismatch(std::size_t i, const CalculatorInput& input, const std::string& path,
                    const std::string& reason, const Json& extra = Json::object()) {
    Json details = Where(i, {{"input", input.name},
                             {"expected", input.type},
                             {"list", input.list},
                             {"reason", reason}});
    for (const auto& [key, value] : extra.items()) details[key] = value;
    problems_.Add(errc::kPipelineCalculatorInputTypeMismatch, path,
                  "input " + Quoted(input.name) + " of node " + Quoted(Node(i).id) + " " + reason,
                  details);
  }

  void ValidateInputValue(std::size_t i, const CalculatorInput& input, const Json& value,
                          const std::string& path) {
    if (value.is_null()) return;  // an explicit null reads as omitted; input_missing covers it
    if (input.list && !ReferenceName(value)) {
      if (!value.is_array()) return TypeMismatch(i, input, path, "takes a JSON array");
      for (std::size_t k = 0; k < value.size(); ++k) {
        ValidateScalar(i, input, value[k], Index(path, k));
      }
      return;
    }
    if (!input.list && value.is_array()) {
      return TypeMismatch(i, input, path, "takes one " + input.type + " value, not an array");
    }
    ValidateScalar(i, input, value, path);
  }

  void ValidateScalar(std::size_t i, const CalculatorInput& input, const Json& value,
                      const std::string& path) {
    auto reference = ReferenceName(value);
    if (!reference) {
      if (input.type == "ANY" && value.is_null()) return;
      if (auto failure = TypeCoercionFailure(input.type, value)) {
        TypeMismatch(i, input, path, *failure);
      }
      return;
    }
    auto resolved = Resolve(*reference);
    if (!resolved) {
      problems_.Add(errc::kPipelineCalculatorInputUnknown, path,
                    "reference " + Quoted("$" + *reference) +
                        " names no Context key: not an org/platform key, a declared parameter "
                        "or another node's key",
                    Where(i, {{"input", input.name}, {"reference", Bounded(*reference)}}));
      return;
    }
    if (resolved->producer && !graph_.DependsOn(i, *resolved->producer)) {
      const std::string& producer = Node(*resolved->producer).id;
      problems_.Add(errc::kPipelineCalculatorInputUnordered, path,
                    "node " + Quoted(Node(i).id) + " reads " + Quoted("$" + *reference) +
                        " written by node " + Quoted(producer) +
                        " but does not depend_on it "
                        "(directly or transitively); sequencing is topology",
                    Where(i, {{"input", input.name},
                              {"reference", *reference},
                              {"producer", Bounded(producer)}}));
      return;
    }
    const bool comparable = input.type != "ANY" && resolved->type != "ANY";
    if (comparable && resolved->type != input.type) {
      TypeMismatch(i, input, path,
                   "expects " + input.type + " but $" + *reference + " is " + resolved->type,
                   {{"reference", *reference}, {"actual", resolved->type}});
    }
  }

  // A calculator key may shadow an org/platform key, never a parameter: writers first.
  std::optional<ResolvedReference> Resolve(const std::string& name) const {
    if (auto writer = writers_.find(name); writer != writers_.end()) {
      return ResolvedReference{writer->second.type, writer->second.node_index};
    }
    if (const ParameterDecl* parameter = body_.FindParameter(name)) {
      return ResolvedReference{parameter->type, std::nullopt};
    }
    std::string built_in = BuiltInContextKeyType(name);
    if (!built_in.empty()) return ResolvedReference{built_in, std::nullopt};
    return std::nullopt;
  }

  const PipelineBody& body_;
  const NodeGraph& graph_;
  ValidationProblems& problems_;
  std::map<std::string, KeyWriter> writers_;
};

}  // namespace

void ValidateCalculatorNodes(const PipelineBody& body, const NodeGraph& graph,
                             ValidationProblems& problems) {
  CalculatorRules(body, graph, problems).Run();
}

}  // namespace dp
