#include "datapipelines/pipeline/pipeline_body_parser.hpp"

#include <array>
#include <limits>
#include <string_view>

#include "datapipelines/domain/error_codes.hpp"
#include "pipeline/validation_paths.hpp"

namespace dp {
namespace {

using pipeline_paths::Bounded;
using pipeline_paths::Index;
using pipeline_paths::Member;

const char* JsonTypeName(const Json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a boolean";
  if (value.is_number()) return "a number";
  return "null";
}

bool IsKnownKey(std::string_view key, std::initializer_list<std::string_view> known) {
  for (auto name : known) {
    if (key == name) return true;
  }
  return false;
}

// Typed reads of one object's members. A present member of the wrong JSON type is one problem
// (with `code`) at its path; absent or null reads as "not given".
class ObjectReader {
 public:
  ObjectReader(const Json& object, std::string path, ValidationProblems& problems,
               ErrorCode code = errc::kRequestInvalid)
      : object_(object), path_(std::move(path)), problems_(problems), code_(code) {}

  const std::string& path() const { return path_; }
  ValidationProblems& problems() const { return problems_; }
  std::string PathOf(const std::string& key) const { return Member(path_, key); }
  bool Has(const char* key) const { return object_.contains(key) && !object_[key].is_null(); }
  const Json* Get(const char* key) const { return Has(key) ? &object_[key] : nullptr; }

  std::optional<std::string> String(const char* key) const {
    return Typed<std::string>(key, &Json::is_string, "a string");
  }
  std::optional<bool> Bool(const char* key) const {
    return Typed<bool>(key, &Json::is_boolean, "a boolean");
  }
  std::optional<int64_t> Integer(const char* key) const {
    const Json* value = Get(key);
    if (value == nullptr) return std::nullopt;
    if (!value->is_number_integer() ||
        (value->is_number_unsigned() &&
         value->get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))) {
      WrongType(key, "an integer");
      return std::nullopt;
    }
    return value->get<int64_t>();
  }
  const Json* Object(const char* key) const {
    return Container(key, &Json::is_object, "an object");
  }
  const Json* Array(const char* key) const { return Container(key, &Json::is_array, "an array"); }

  // Every member not in `known` is refused: an unknown field would otherwise vanish from the
  // canonical body without the author learning it was never read.
  void RefuseUnknownKeys(std::initializer_list<std::string_view> known, const char* where) const {
    for (const auto& [key, value] : object_.items()) {
      if (!IsKnownKey(key, known)) {
        problems_.Add(code_, PathOf(key), "'" + Bounded(key) + "' is not a field of " + where,
                      {{"field", Bounded(key)}});
      }
    }
  }

  void WrongType(const char* key, const char* expected) const {
    problems_.Add(
        code_, PathOf(key),
        "'" + PathOf(key) + "' must be " + expected + ", not " + JsonTypeName(object_[key]),
        {{"field", PathOf(key)}});
  }

 private:
  template <typename T>
  std::optional<T> Typed(const char* key, bool (Json::*is)() const noexcept,
                         const char* expected) const {
    const Json* value = Get(key);
    if (value == nullptr) return std::nullopt;
    if (!(value->*is)()) {
      WrongType(key, expected);
      return std::nullopt;
    }
    return value->get<T>();
  }

  const Json* Container(const char* key, bool (Json::*is)() const noexcept,
                        const char* expected) const {
    const Json* value = Get(key);
    if (value != nullptr && !(value->*is)()) {
      WrongType(key, expected);
      return nullptr;
    }
    return value;
  }

  const Json& object_;
  std::string path_;
  ValidationProblems& problems_;
  ErrorCode code_;
};

// Caps a list at `limit`, reporting once when it is longer.
size_t BoundedCount(const Json& list, size_t limit, const std::string& path,
                    ValidationProblems& problems) {
  if (list.size() > limit) {
    problems.Add(errc::kRequestInvalid, path,
                 "'" + path + "' holds " + std::to_string(list.size()) + " entries; at most " +
                     std::to_string(limit) + " are read",
                 {{"count", list.size()}, {"limit", limit}});
    return limit;
  }
  return list.size();
}

std::optional<int> SmallInteger(const ObjectReader& reader, const char* key, ErrorCode code,
                                ValidationProblems& problems) {
  const Json* value = reader.Get(key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_number_integer() || value->get<int64_t>() < 0 || value->get<int64_t>() > 1000) {
    problems.Add(code, reader.PathOf(key),
                 "'" + reader.PathOf(key) + "' must be a non-negative integer",
                 {{"field", reader.PathOf(key)}});
    return std::nullopt;
  }
  return value->get<int>();
}

ParameterDecl ParseParameter(const std::string& name, const Json& descriptor,
                             const std::string& path, ValidationProblems& problems) {
  ParameterDecl parameter;
  parameter.name = name;
  if (!descriptor.is_object()) {
    problems.Add(errc::kRequestInvalid, path,
                 "parameter '" + Bounded(name) + "' must be an object {type, required, ...}",
                 {{"parameter", Bounded(name)}});
    return parameter;
  }
  ObjectReader reader(descriptor, path, problems);
  if (reader.Has("derived")) {
    problems.Add(errc::kPipelineDerivedParameterEchoed, reader.PathOf("derived"),
                 "parameter '" + Bounded(name) +
                     "' is a derived calculator input echoed from a read; drop it — derived "
                     "entries are computed on read and never stored",
                 {{"parameter", Bounded(name)}});
  }
  reader.RefuseUnknownKeys(
      {"type", "required", "default", "precision", "scale", "description", "derived"},
      "a parameter descriptor");
  ObjectReader typed(descriptor, path, problems, errc::kPipelineParameterTypeInvalid);
  parameter.type = typed.String("type").value_or("");
  parameter.required = reader.Bool("required").value_or(false);
  if (const Json* value = reader.Get("default")) parameter.default_value = *value;
  parameter.precision =
      SmallInteger(reader, "precision", errc::kPipelineParameterPrecisionMissing, problems);
  parameter.scale = SmallInteger(reader, "scale", errc::kPipelineParameterScaleMissing, problems);
  parameter.description = reader.String("description");
  return parameter;
}

std::vector<ParameterDecl> ParseParameters(const Json& declared, ValidationProblems& problems) {
  std::vector<ParameterDecl> parameters;
  const size_t limit =
      BoundedCount(declared, PipelineBodyParser::kMaxParameters, "parameters", problems);
  for (const auto& [name, descriptor] : declared.items()) {
    if (parameters.size() >= limit) break;
    parameters.push_back(ParseParameter(name, descriptor, Member("parameters", name), problems));
  }
  return parameters;
}

// {id|name, version} — a template ref or a child pipeline ref.
template <typename Ref>
std::optional<Ref> ParseVersionedRef(const ObjectReader& node, const char* field,
                                     const char* name_key, std::string Ref::*name_member) {
  const Json* block = node.Object(field);
  if (block == nullptr) return std::nullopt;
  ObjectReader reader(*block, node.PathOf(field), node.problems());
  reader.RefuseUnknownKeys({name_key, "version"}, field);
  Ref ref;
  ref.*name_member = reader.String(name_key).value_or("");
  ref.version = reader.Integer("version").value_or(0);
  return ref;
}

std::optional<NodeOutput> ParseOutput(const ObjectReader& node) {
  const Json* block = node.Object("output");
  if (block == nullptr) return std::nullopt;
  ObjectReader reader(*block, node.PathOf("output"), node.problems());
  reader.RefuseUnknownKeys({"target", "table", "datasource", "mode"}, "an output block");
  NodeOutput output;
  output.target = reader.String("target").value_or("");
  output.table = reader.String("table").value_or("");
  output.datasource = reader.String("datasource").value_or("");
  output.mode = reader.String("mode").value_or("");
  return output;
}

std::vector<std::string> ParseDependsOn(const ObjectReader& node) {
  std::vector<std::string> depends_on;
  const Json* list = node.Array("depends_on");
  if (list == nullptr) return depends_on;
  const std::string path = node.PathOf("depends_on");
  const size_t count =
      BoundedCount(*list, PipelineBodyParser::kMaxDependencies, path, node.problems());
  for (size_t i = 0; i < count; ++i) {
    if (!(*list)[i].is_string()) {
      node.problems().Add(errc::kRequestInvalid, Index(path, i),
                          "'" + Index(path, i) + "' must be a node id string");
      continue;
    }
    depends_on.push_back((*list)[i].get<std::string>());
  }
  return depends_on;
}

std::optional<std::vector<std::pair<std::string, std::string>>> ParseContextKeys(
    const ObjectReader& node) {
  const Json* mapping = node.Object("context_keys");
  if (mapping == nullptr) return std::nullopt;
  ObjectReader reader(*mapping, node.PathOf("context_keys"), node.problems());
  std::vector<std::pair<std::string, std::string>> keys;
  for (const auto& [output_name, key] : mapping->items()) {
    if (auto text = reader.String(output_name.c_str())) keys.emplace_back(output_name, *text);
  }
  return keys;
}

std::optional<Json> ParseTimeout(const ObjectReader& node) {
  const Json* settings = node.Object("settings");
  if (settings == nullptr) return std::nullopt;
  ObjectReader reader(*settings, node.PathOf("settings"), node.problems());
  reader.RefuseUnknownKeys({"timeout_seconds"}, "node settings");
  if (const Json* timeout = reader.Get("timeout_seconds")) return *timeout;
  return std::nullopt;
}

PipelineNode ParseNode(const Json& value, const std::string& path, ValidationProblems& problems) {
  PipelineNode node;
  if (!value.is_object()) {
    problems.Add(errc::kRequestInvalid, path,
                 "'" + path + "' must be a node object, not " + JsonTypeName(value));
    return node;
  }
  ObjectReader reader(value, path, problems);
  reader.RefuseUnknownKeys(
      {"id", "description", "type", "source", "template", "pipeline", "parameters", "output",
       "depends_on", "kind", "inputs", "context_key", "context_keys", "settings"},
      "a node");
  node.id = reader.String("id").value_or("");
  node.description = reader.String("description").value_or("");
  ObjectReader typed(value, path, problems, errc::kPipelineTypeInvalid);
  node.type_name = typed.String("type").value_or("");
  node.type = ParseNodeType(node.type_name);
  node.source = reader.String("source");
  node.template_ref = ParseVersionedRef<TemplateRef>(reader, "template", "id", &TemplateRef::id);
  node.child =
      ParseVersionedRef<ChildPipelineRef>(reader, "pipeline", "name", &ChildPipelineRef::name);
  if (const Json* bindings = reader.Object("parameters")) node.parameters = *bindings;
  node.output = ParseOutput(reader);
  node.depends_on = ParseDependsOn(reader);
  node.kind = reader.String("kind");
  if (const Json* inputs = reader.Object("inputs")) node.inputs = *inputs;
  node.context_key = reader.String("context_key");
  node.context_keys = ParseContextKeys(reader);
  node.timeout_seconds = ParseTimeout(reader);
  return node;
}

std::vector<PipelineNode> ParseNodes(const Json& list, ValidationProblems& problems) {
  std::vector<PipelineNode> nodes;
  const size_t count = BoundedCount(list, PipelineBodyParser::kMaxNodes, "nodes", problems);
  nodes.reserve(count);
  for (size_t i = 0; i < count; ++i)
    nodes.push_back(ParseNode(list[i], Index("nodes", i), problems));
  return nodes;
}

// Every check defect is check_invalid (§12.12: to the author they are one category).
PipelineCheck ParseCheck(const Json& value, const std::string& path, ValidationProblems& problems) {
  PipelineCheck check;
  if (!value.is_object()) {
    problems.Add(errc::kPipelineCheckInvalid, path,
                 "'" + path + "' must be a check object {id, name, datasource, sql, expected}");
    return check;
  }
  ObjectReader reader(value, path, problems, errc::kPipelineCheckInvalid);
  reader.RefuseUnknownKeys({"id", "name", "datasource", "sql", "expected"}, "a check");
  check.id = reader.String("id").value_or("");
  check.name = reader.String("name").value_or("");
  check.datasource = reader.String("datasource").value_or("");
  check.sql = reader.String("sql").value_or("");
  if (const Json* expected = reader.Object("expected")) check.expected = *expected;
  return check;
}

std::vector<PipelineCheck> ParseChecks(const Json& list, ValidationProblems& problems) {
  std::vector<PipelineCheck> checks;
  const size_t count = BoundedCount(list, PipelineBodyParser::kMaxChecks, "checks", problems);
  for (size_t i = 0; i < count; ++i) {
    checks.push_back(ParseCheck(list[i], Index("checks", i), problems));
  }
  return checks;
}

void ParseSchemaVersion(const ObjectReader& reader, PipelineBody& body) {
  const Json* value = reader.Get("schema_version");
  if (value == nullptr) return;  // the MCP surface has no schema_version input: v1
  if (!value->is_number_integer()) {
    reader.problems().Add(errc::kPipelineSchemaVersionUnsupported, "schema_version",
                          "schema_version must be the integer 1",
                          {{"supported", Json::array({1})}});
    body.schema_version = 0;
    return;
  }
  body.schema_version = value->get<int64_t>();
}

}  // namespace

PipelineBody PipelineBodyParser::ParseStored(const Json& stored) {
  ValidationProblems ignored;
  return Parse(stored, ignored);
}

PipelineBody PipelineBodyParser::Parse(const Json& request, ValidationProblems& problems) {
  PipelineBody body;
  if (!request.is_object()) {
    problems.Add(
        errc::kRequestInvalid, "$",
        std::string("the pipeline body must be a JSON object, not ") + JsonTypeName(request));
    return body;
  }
  ObjectReader reader(request, "", problems);
  ParseSchemaVersion(reader, body);
  auto name = reader.String("name");
  if (!name && !reader.Has("name")) {
    problems.Add(errc::kRequestInvalid, "name",
                 "'name' is required (a folder path such as "
                 "finance/reports/monthly_revenue)");
  }
  body.name = name.value_or("");
  auto display_name = reader.String("display_name");
  if (!display_name && !reader.Has("display_name")) {
    problems.Add(errc::kRequestInvalid, "display_name", "'display_name' is required");
  }
  body.display_name = display_name.value_or("");
  body.description = reader.String("description").value_or("");
  if (const Json* settings = reader.Object("settings")) body.settings = *settings;
  if (const Json* declared = reader.Object("parameters")) {
    body.parameters = ParseParameters(*declared, problems);
  }
  if (const Json* nodes = reader.Array("nodes")) body.nodes = ParseNodes(*nodes, problems);
  if (const Json* checks = reader.Array("checks")) body.checks = ParseChecks(*checks, problems);
  return body;
}

}  // namespace dp
