#include "datapipelines/executor/execution_context.hpp"

#include <climits>
#include <cstdint>

#include "datapipelines/calculators/calculator_catalog.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/pipeline/parameter_coercion.hpp"
#include "datapipelines/pipeline/pipeline_structure_validator.hpp"

namespace dp {
namespace {

struct InputProblems {
  Json failures = Json::array();
  void Add(const std::string& name, const std::string& reason) {
    failures.push_back({{"parameter", name}, {"reason", reason}});
  }
};

// A supplied calculator key is typed by its kind's output; ANY takes any JSON scalar.
std::optional<std::string> CalculatorKeyFailure(const std::string& type, const Json& value) {
  if (type == "ANY") {
    if (value.is_object() || value.is_array()) return "a calculator key takes a scalar value";
    return std::nullopt;
  }
  return TypeCoercionFailure(type, value);
}

// An ANY-typed key (coalesce, if_null, map) binds by the JSON kind of its value.
void AdoptJsonKind(BindValue& bind) {
  const Json& v = bind.value;
  if (v.is_boolean()) {
    bind.type = CanonicalType::kBoolean;
  } else if (v.is_number_integer()) {
    const int64_t n = v.get<int64_t>();
    bind.type =
        n >= INT32_MIN && n <= INT32_MAX ? CanonicalType::kInteger : CanonicalType::kBigInteger;
    if (bind.type == CanonicalType::kBigInteger) bind.value = std::to_string(n);
  } else if (v.is_number()) {
    bind.type = CanonicalType::kDecimal;
  } else {
    bind.type = CanonicalType::kString;
  }
}

}  // namespace

ExecutionContext::ExecutionContext(ExecutionContext&& other) noexcept
    : keys_(std::move(other.keys_)), supplied_nodes_(std::move(other.supplied_nodes_)) {}

ExecutionContext ExecutionContext::Resolve(const PipelineBody& body, const Json& supplied,
                                           const CalculatorEnvironment& environment,
                                           const std::string& execution_id) {
  ExecutionContext context;
  const Json builtins = BuiltInContextValues(environment, execution_id);
  for (auto it = builtins.begin(); it != builtins.end(); ++it) {
    context.keys_[it.key()] = {it.value(), BuiltInContextKeyType(it.key())};
  }
  const Json inputs = supplied.is_object() ? supplied : Json::object();
  const auto calculator_keys = CalculatorKeyTypes(body);
  InputProblems invalid;
  std::vector<std::string> missing;
  for (const ParameterDecl& p : body.parameters) {
    auto it = inputs.find(p.name);
    if (it != inputs.end() && !it->is_null()) {
      if (auto failure = CoercionFailure(p, *it)) {
        invalid.Add(p.name, *failure);
      } else {
        context.keys_[p.name] = {*it, p.type};
      }
    } else if (p.default_value) {
      context.keys_[p.name] = {*p.default_value, p.type};
    } else if (p.required) {
      missing.push_back(p.name);
    } else {
      context.keys_[p.name] = {nullptr, p.type};  // optional, no default: binds as NULL
    }
  }
  for (auto it = inputs.begin(); it != inputs.end(); ++it) {
    if (it.value().is_null() || body.FindParameter(it.key())) continue;
    auto calc = calculator_keys.find(it.key());
    if (calc == calculator_keys.end()) {
      invalid.Add(it.key(), "not a declared parameter or a calculator key of this pipeline");
    } else if (auto failure = CalculatorKeyFailure(calc->second, it.value())) {
      invalid.Add(it.key(), *failure);
    } else {
      context.keys_[it.key()] = {it.value(), calc->second};
    }
  }
  if (!invalid.failures.empty()) {
    throw DomainError(errc::kExecutionInvalidParameterType,
                      "Execute parameters do not match their declared types.",
                      Json{{"failures", invalid.failures}});
  }
  if (!missing.empty()) {
    throw DomainError(errc::kParameterRequired,
                      "Required parameters are missing: supply them in parameters.",
                      Json{{"missing", missing}});
  }
  // All-or-nothing per calculator node (§4.10): every key supplied skips it, none computes it.
  for (const PipelineNode& node : body.nodes) {
    const auto keys = node.WrittenContextKeys();
    if (keys.empty()) continue;
    std::vector<std::string> given, absent;
    for (const auto& key : keys) {
      (inputs.contains(key) && !inputs[key].is_null() ? given : absent).push_back(key);
    }
    if (!given.empty() && !absent.empty()) {
      throw DomainError(errc::kExecutionCalculatorKeysPartial,
                        "Node '" + node.id + "' writes several keys: supply all of them or none.",
                        Json{{"node", node.id}, {"supplied", given}, {"missing", absent}});
    }
    if (absent.empty()) context.supplied_nodes_.insert(node.id);
  }
  return context;
}

bool ExecutionContext::SuppliedByCaller(const std::string& node_id) const {
  std::lock_guard lock(mutex_);
  return supplied_nodes_.count(node_id) > 0;
}

void ExecutionContext::Write(const std::string& key, Json value, std::string type) {
  std::lock_guard lock(mutex_);
  keys_[key] = {std::move(value), std::move(type)};
}

Json ExecutionContext::Value(const std::string& key) const {
  std::lock_guard lock(mutex_);
  auto it = keys_.find(key);
  return it == keys_.end() ? Json() : it->second.value;
}

bool ExecutionContext::Has(const std::string& key) const {
  std::lock_guard lock(mutex_);
  return keys_.count(key) > 0;
}

Json ExecutionContext::RenderModel() const {
  std::lock_guard lock(mutex_);
  Json model = Json::object();
  for (const auto& [key, entry] : keys_) model[key] = entry.value;
  return model;
}

BindMap ExecutionContext::Binds(const std::vector<std::string>& names) const {
  std::lock_guard lock(mutex_);
  BindMap binds;
  for (const auto& name : names) {
    auto it = keys_.find(name);
    if (it == keys_.end()) {
      throw DomainError(errc::kNodeSqlParameterMissing,
                        "The rendered SQL binds :" + name +
                            ", which this execution's Context "
                            "does not hold.",
                        Json{{"parameter", name}});
    }
    BindValue bind;
    bind.type = ParseCanonicalType(it->second.type).value_or(CanonicalType::kString);
    // An ANY-typed key binds by the JSON kind of its value.
    bind.value = it->second.value;
    if (it->second.type == "ANY") AdoptJsonKind(bind);
    binds[name] = std::move(bind);
  }
  return binds;
}

Json ExecutionContext::Snapshot() const { return RenderModel(); }

}  // namespace dp
