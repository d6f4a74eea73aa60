#include "datapipelines/mcp/json_schema_validator.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <regex>
#include <set>
#include <string_view>
#include <utility>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/util/crypto.hpp"
#include "datapipelines/util/edit_distance.hpp"

namespace dp {
namespace {

// Bit per draft-07 primitive type; "number" accepts integers too.
enum TypeBit : unsigned {
  kNull = 1,
  kBoolean = 2,
  kInteger = 4,
  kNumber = 8,
  kString = 16,
  kArray = 32,
  kObject = 64,
};

constexpr std::pair<std::string_view, unsigned> kTypeNames[] = {
    {"null", kNull},     {"boolean", kBoolean}, {"integer", kInteger}, {"number", kNumber},
    {"string", kString}, {"array", kArray},     {"object", kObject},
};

// Keywords that carry no validation meaning (annotations).
const std::set<std::string, std::less<>> kIgnoredKeywords = {
    "title",   "description", "default",  "examples", "$comment",
    "$schema", "$id",         "readOnly", "writeOnly"};

[[noreturn]] void SchemaFault(const std::string& message) {
  throw DomainError(errc::kInternal, "invalid JSON schema: " + message);
}

// JSON 1.0 is an integer in draft-07: a float with no fractional part counts.
bool IsIntegral(const Json& value) {
  if (value.is_number_integer()) return true;
  if (!value.is_number_float()) return false;
  double d = value.get<double>();
  return std::isfinite(d) && std::floor(d) == d;
}

unsigned TypeOf(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return kNull;
    case Json::value_t::boolean:
      return kBoolean;
    case Json::value_t::string:
      return kString;
    case Json::value_t::array:
      return kArray;
    case Json::value_t::object:
      return kObject;
    default:
      return IsIntegral(value) ? (kInteger | kNumber) : kNumber;
  }
}

// Draft-07 equality: numbers by value (1 == 1.0), objects regardless of key order.
bool JsonEquals(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_number_integer() && b.is_number_integer()) return a == b;
    return a.get<double>() == b.get<double>();
  }
  if (a.type() != b.type()) return false;
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!JsonEquals(a[i], b[i])) return false;
    }
    return true;
  }
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (const auto& [key, value] : a.items()) {
      auto it = b.find(key);
      if (it == b.end() || !JsonEquals(value, *it)) return false;
    }
    return true;
  }
  return a == b;
}

// Length in Unicode code points: count every byte that does not continue a UTF-8 sequence.
std::size_t CodePointLength(std::string_view text) {
  std::size_t count = 0;
  for (unsigned char c : text) count += (c & 0xC0) != 0x80;
  return count;
}

std::string Join(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string Index(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

std::string Label(const std::string& path) {
  return path.empty() ? std::string("arguments") : "'" + path + "'";
}

bool ParseDigits(std::string_view text, std::size_t pos, std::size_t count, int* out) {
  if (pos + count > text.size()) return false;
  int value = 0;
  for (std::size_t i = pos; i < pos + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    value = value * 10 + (text[i] - '0');
  }
  *out = value;
  return true;
}

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// RFC 3339 date-time; a leap second is legal only at 23:59:60 UTC.
bool IsDateTime(std::string_view s) {
  int year, month, day, hour, minute, second;
  if (!ParseDigits(s, 0, 4, &year) || s.size() < 20 || s[4] != '-' ||
      !ParseDigits(s, 5, 2, &month) || s[7] != '-' || !ParseDigits(s, 8, 2, &day) ||
      (s[10] != 'T' && s[10] != 't') || !ParseDigits(s, 11, 2, &hour) || s[13] != ':' ||
      !ParseDigits(s, 14, 2, &minute) || s[16] != ':' || !ParseDigits(s, 17, 2, &second)) {
    return false;
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month) || hour > 23 ||
      minute > 59 || second > 60) {
    return false;
  }
  std::size_t pos = 19;
  if (pos < s.size() && s[pos] == '.') {
    std::size_t start = ++pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
    if (pos == start) return false;
  }
  if (pos >= s.size()) return false;
  int offset_minutes = 0;
  if (s[pos] == 'Z' || s[pos] == 'z') {
    ++pos;
  } else if (s[pos] == '+' || s[pos] == '-') {
    int oh, om;
    if (!ParseDigits(s, pos + 1, 2, &oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !ParseDigits(s, pos + 4, 2, &om) || oh > 23 || om > 59) {
      return false;
    }
    offset_minutes = (s[pos] == '+' ? 1 : -1) * (oh * 60 + om);
    pos += 6;
  } else {
    return false;
  }
  if (pos != s.size()) return false;
  if (second == 60) {
    int utc = ((hour * 60 + minute - offset_minutes) % 1440 + 1440) % 1440;
    return utc == 23 * 60 + 59;
  }
  return true;
}

bool FormatMatches(const std::string& format, const std::string& text) {
  if (format == "uuid") return IsUuid(text);
  if (format == "date-time") return IsDateTime(text);
  return true;  // unknown formats are annotations (draft-07 §7.2)
}

std::string TypeList(unsigned mask) {
  std::string out;
  for (const auto& [name, bit] : kTypeNames) {
    if (!(mask & bit) || (bit == kInteger && (mask & kNumber))) continue;
    if (!out.empty()) out += " or ";
    out += name;
  }
  return out;
}

}  // namespace

struct JsonSchemaValidator::Node {
  using Ptr = std::unique_ptr<Node>;
  struct Pattern {
    std::string source;
    std::regex regex;
  };

  std::optional<bool> constant;  // boolean schema: true accepts all, false rejects all
  unsigned types = 0;            // 0 = any type
  std::vector<std::pair<std::string, Ptr>> properties;
  std::vector<std::string> required;
  bool forbid_additional = false;
  Ptr additional_properties;
  std::optional<std::size_t> min_properties, max_properties;
  Ptr items;                     // one schema for every element
  std::vector<Ptr> tuple_items;  // items as an array
  bool items_is_tuple = false;
  bool forbid_additional_items = false;
  Ptr additional_items;
  std::optional<Json> enum_values, const_value;
  std::optional<Json> minimum, maximum, exclusive_minimum, exclusive_maximum, multiple_of;
  std::optional<std::size_t> min_length, max_length, min_items, max_items;
  bool unique_items = false;
  std::optional<Pattern> pattern;
  std::string format;
  std::vector<Ptr> all_of, any_of, one_of;
  Ptr not_schema;
};

namespace {

using Node = JsonSchemaValidator::Node;

Node::Ptr Compile(const Json& schema);

std::size_t Count(const Json& value, const std::string& keyword) {
  if (!IsIntegral(value) || value.get<double>() < 0) {
    SchemaFault(keyword + " must be a non-negative integer");
  }
  return static_cast<std::size_t>(value.get<double>());
}

Json Number(const Json& value, const std::string& keyword) {
  if (!value.is_number()) SchemaFault(keyword + " must be a number");
  return value;
}

std::vector<Node::Ptr> CompileList(const Json& value, const std::string& keyword) {
  if (!value.is_array() || value.empty()) SchemaFault(keyword + " must be a non-empty array");
  std::vector<Node::Ptr> out;
  for (const Json& sub : value) out.push_back(Compile(sub));
  return out;
}

unsigned CompileTypes(const Json& value) {
  unsigned mask = 0;
  auto add = [&mask](const Json& name) {
    for (const auto& [type_name, bit] : kTypeNames) {
      if (name.is_string() && name.get<std::string>() == type_name) {
        mask |= bit;
        return;
      }
    }
    SchemaFault("unknown type " + name.dump());
  };
  if (value.is_array()) {
    for (const Json& name : value) add(name);
  } else {
    add(value);
  }
  if (mask & kNumber) mask |= kInteger;
  return mask;
}

void CompileObjectKeyword(Node& node, const std::string& key, const Json& value) {
  if (key == "properties") {
    if (!value.is_object()) SchemaFault("properties must be an object");
    for (const auto& [name, sub] : value.items()) node.properties.emplace_back(name, Compile(sub));
  } else if (key == "required") {
    if (!value.is_array()) SchemaFault("required must be an array");
    for (const Json& name : value) node.required.push_back(name.get<std::string>());
  } else if (key == "additionalProperties") {
    if (value.is_boolean()) {
      node.forbid_additional = !value.get<bool>();
    } else {
      node.additional_properties = Compile(value);
    }
  } else if (key == "minProperties") {
    node.min_properties = Count(value, key);
  } else {
    node.max_properties = Count(value, key);
  }
}

void CompileArrayKeyword(Node& node, const std::string& key, const Json& value) {
  if (key == "items") {
    if (value.is_array()) {
      node.items_is_tuple = true;
      for (const Json& sub : value) node.tuple_items.push_back(Compile(sub));
    } else {
      node.items = Compile(value);
    }
  } else if (key == "additionalItems") {
    if (value.is_boolean()) {
      node.forbid_additional_items = !value.get<bool>();
    } else {
      node.additional_items = Compile(value);
    }
  } else if (key == "minItems") {
    node.min_items = Count(value, key);
  } else if (key == "maxItems") {
    node.max_items = Count(value, key);
  } else {
    if (!value.is_boolean()) SchemaFault("uniqueItems must be a boolean");
    node.unique_items = value.get<bool>();
  }
}

void CompileScalarKeyword(Node& node, const std::string& key, const Json& value) {
  if (key == "minimum") {
    node.minimum = Number(value, key);
  } else if (key == "maximum") {
    node.maximum = Number(value, key);
  } else if (key == "exclusiveMinimum") {
    node.exclusive_minimum = Number(value, key);
  } else if (key == "exclusiveMaximum") {
    node.exclusive_maximum = Number(value, key);
  } else if (key == "multipleOf") {
    if (!value.is_number() || value.get<double>() <= 0) SchemaFault("multipleOf must be > 0");
    node.multiple_of = value;
  } else if (key == "minLength") {
    node.min_length = Count(value, key);
  } else if (key == "maxLength") {
    node.max_length = Count(value, key);
  } else if (key == "pattern") {
    if (!value.is_string()) SchemaFault("pattern must be a string");
    try {
      node.pattern = Node::Pattern{value.get<std::string>(),
                                   std::regex(value.get<std::string>(), std::regex::ECMAScript)};
    } catch (const std::regex_error&) {
      SchemaFault("pattern " + value.dump() + " is not a supported ECMAScript regex");
    }
  } else {
    if (!value.is_string()) SchemaFault("format must be a string");
    node.format = value.get<std::string>();
  }
}

void CompileKeyword(Node& node, const std::string& key, const Json& value) {
  static const std::set<std::string, std::less<>> kObjectKeys = {
      "properties", "required", "additionalProperties", "minProperties", "maxProperties"};
  static const std::set<std::string, std::less<>> kArrayKeys = {
      "items", "additionalItems", "minItems", "maxItems", "uniqueItems"};
  static const std::set<std::string, std::less<>> kScalarKeys = {
      "minimum",          "maximum",    "exclusiveMinimum",
      "exclusiveMaximum", "multipleOf", "minLength",
      "maxLength",        "pattern",    "format"};
  if (kIgnoredKeywords.count(key)) return;
  if (key == "type") {
    node.types = CompileTypes(value);
  } else if (key == "enum") {
    if (!value.is_array()) SchemaFault("enum must be an array");
    node.enum_values = value;
  } else if (key == "const") {
    node.const_value = value;
  } else if (kObjectKeys.count(key)) {
    CompileObjectKeyword(node, key, value);
  } else if (kArrayKeys.count(key)) {
    CompileArrayKeyword(node, key, value);
  } else if (kScalarKeys.count(key)) {
    CompileScalarKeyword(node, key, value);
  } else if (key == "allOf") {
    node.all_of = CompileList(value, key);
  } else if (key == "anyOf") {
    node.any_of = CompileList(value, key);
  } else if (key == "oneOf") {
    node.one_of = CompileList(value, key);
  } else if (key == "not") {
    node.not_schema = Compile(value);
  } else {
    SchemaFault("unsupported keyword '" + key + "'");
  }
}

Node::Ptr Compile(const Json& schema) {
  auto node = std::make_unique<Node>();
  if (schema.is_boolean()) {
    node->constant = schema.get<bool>();
    return node;
  }
  if (!schema.is_object()) SchemaFault("a schema must be an object or a boolean");
  for (const auto& [key, value] : schema.items()) CompileKeyword(*node, key, value);
  return node;
}

// Walks one compiled schema over one instance, appending failures.
// "unknown field 'prefx' (declared: prefix, limit); did you mean 'prefix'?"
std::string UnknownField(const Node& node, const std::string& key, const std::string& path) {
  std::string message = "unknown field '" + path + "'";
  if (node.properties.empty()) return message + " (this takes no arguments)";
  const std::string* nearest = nullptr;
  std::size_t best = 0;
  std::string declared;
  for (const auto& [name, sub] : node.properties) {
    declared += (declared.empty() ? "" : ", ") + name;
    std::size_t distance = EditDistance(key, name);
    if (!nearest || distance < best) nearest = &name, best = distance;
  }
  message += " (declared: " + declared + ")";
  if (nearest && best <= std::max<std::size_t>(2, nearest->size() / 3)) {
    message += "; did you mean '" + *nearest + "'?";
  }
  return message;
}

class Checker {
 public:
  explicit Checker(std::vector<ValidationError>* errors) : errors_(errors) {}

  void Check(const Node& node, const Json& value, const std::string& path) {
    if (node.constant) {
      if (!*node.constant) Fail(path, "false", Label(path) + " is not allowed");
      return;
    }
    if (node.types != 0 && !(TypeOf(value) & node.types)) {
      // Nothing else is meaningful against the wrong type; one error, not a cascade.
      Fail(path, "type", Label(path) + " must be of type " + TypeList(node.types));
      return;
    }
    CheckGeneric(node, value, path);
    if (value.is_object()) CheckObject(node, value, path);
    if (value.is_array()) CheckArray(node, value, path);
    if (value.is_string()) CheckString(node, value.get_ref<const std::string&>(), path);
    if (value.is_number()) CheckNumber(node, value, path);
    CheckCombinators(node, value, path);
  }

 private:
  void Fail(const std::string& path, const char* keyword, std::string message) {
    errors_->push_back({path, keyword, std::move(message)});
  }

  static bool Matches(const Node& node, const Json& value, const std::string& path) {
    std::vector<ValidationError> scratch;
    Checker(&scratch).Check(node, value, path);
    return scratch.empty();
  }

  void CheckGeneric(const Node& node, const Json& value, const std::string& path) {
    if (node.enum_values) {
      bool found = false;
      for (const Json& candidate : *node.enum_values) found = found || JsonEquals(candidate, value);
      if (!found) {
        std::string list;
        for (const Json& candidate : *node.enum_values) {
          list += (list.empty() ? "" : ", ") + candidate.dump();
        }
        Fail(path, "enum", Label(path) + " must be one of: " + list);
      }
    }
    if (node.const_value && !JsonEquals(*node.const_value, value)) {
      Fail(path, "const", Label(path) + " must equal " + node.const_value->dump());
    }
  }

  void CheckObject(const Node& node, const Json& value, const std::string& path) {
    for (const std::string& name : node.required) {
      if (!value.contains(name)) {
        Fail(Join(path, name), "required", "missing required field '" + Join(path, name) + "'");
      }
    }
    if (node.min_properties && value.size() < *node.min_properties) {
      Fail(path, "minProperties",
           Label(path) + " must have at least " + std::to_string(*node.min_properties) +
               " properties");
    }
    if (node.max_properties && value.size() > *node.max_properties) {
      Fail(path, "maxProperties",
           Label(path) + " must have at most " + std::to_string(*node.max_properties) +
               " properties");
    }
    for (const auto& [key, member] : value.items()) {
      const Node* declared = nullptr;
      for (const auto& [name, sub] : node.properties) {
        if (name == key) declared = sub.get();
      }
      std::string child = Join(path, key);
      if (declared) {
        Check(*declared, member, child);
      } else if (node.forbid_additional) {
        Fail(child, "additionalProperties", UnknownField(node, key, child));
      } else if (node.additional_properties) {
        Check(*node.additional_properties, member, child);
      }
    }
  }

  void CheckArray(const Node& node, const Json& value, const std::string& path) {
    if (node.min_items && value.size() < *node.min_items) {
      Fail(path, "minItems",
           Label(path) + " must have at least " + std::to_string(*node.min_items) + " items");
    }
    if (node.max_items && value.size() > *node.max_items) {
      Fail(path, "maxItems",
           Label(path) + " must have at most " + std::to_string(*node.max_items) + " items");
    }
    if (node.unique_items && HasDuplicate(value)) {
      Fail(path, "uniqueItems", Label(path) + " must not contain duplicate items");
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
      const Node* item = ItemSchema(node, i);
      if (item) Check(*item, value[i], Index(path, i));
      if (!item && node.items_is_tuple && node.forbid_additional_items) {
        Fail(Index(path, i), "additionalItems",
             Label(path) + " must have at most " + std::to_string(node.tuple_items.size()) +
                 " items");
        break;
      }
    }
  }

  static const Node* ItemSchema(const Node& node, std::size_t i) {
    if (node.items) return node.items.get();
    if (i < node.tuple_items.size()) return node.tuple_items[i].get();
    // additionalItems only applies when items is a tuple.
    if (node.items_is_tuple) return node.additional_items.get();
    return nullptr;
  }

  static bool HasDuplicate(const Json& value) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      for (std::size_t j = i + 1; j < value.size(); ++j) {
        if (JsonEquals(value[i], value[j])) return true;
      }
    }
    return false;
  }

  void CheckString(const Node& node, const std::string& text, const std::string& path) {
    if (node.min_length || node.max_length) {
      std::size_t length = CodePointLength(text);
      if (node.min_length && length < *node.min_length) {
        Fail(path, "minLength",
             Label(path) + " must be at least " + std::to_string(*node.min_length) + " characters");
      }
      if (node.max_length && length > *node.max_length) {
        Fail(path, "maxLength",
             Label(path) + " must be at most " + std::to_string(*node.max_length) + " characters");
      }
    }
    if (node.pattern && !std::regex_search(text, node.pattern->regex)) {
      Fail(path, "pattern", Label(path) + " must match pattern " + node.pattern->source);
    }
    if (!node.format.empty() && !FormatMatches(node.format, text)) {
      Fail(path, "format", Label(path) + " must be a valid " + node.format);
    }
  }

  void CheckNumber(const Node& node, const Json& value, const std::string& path) {
    double number = value.get<double>();
    auto bound = [&](const std::optional<Json>& limit, const char* keyword, const char* op,
                     bool ok) {
      if (limit && !ok) Fail(path, keyword, Label(path) + " must be " + op + " " + limit->dump());
    };
    bound(node.minimum, "minimum", ">=", !node.minimum || number >= node.minimum->get<double>());
    bound(node.maximum, "maximum", "<=", !node.maximum || number <= node.maximum->get<double>());
    bound(node.exclusive_minimum, "exclusiveMinimum", ">",
          !node.exclusive_minimum || number > node.exclusive_minimum->get<double>());
    bound(node.exclusive_maximum, "exclusiveMaximum", "<",
          !node.exclusive_maximum || number < node.exclusive_maximum->get<double>());
    if (node.multiple_of && !IsMultiple(value, *node.multiple_of)) {
      Fail(path, "multipleOf", Label(path) + " must be a multiple of " + node.multiple_of->dump());
    }
  }

  static bool IsMultiple(const Json& value, const Json& divisor) {
    if (value.is_number_integer() && divisor.is_number_integer()) {
      return value.get<std::int64_t>() % divisor.get<std::int64_t>() == 0;
    }
    double quotient = value.get<double>() / divisor.get<double>();
    if (!std::isfinite(quotient)) return false;
    return std::fabs(quotient - std::nearbyint(quotient)) <=
           1e-9 * std::max(1.0, std::fabs(quotient));
  }

  void CheckCombinators(const Node& node, const Json& value, const std::string& path) {
    for (const Node::Ptr& sub : node.all_of) Check(*sub, value, path);
    if (!node.any_of.empty()) {
      bool any = false;
      for (const Node::Ptr& sub : node.any_of) any = any || Matches(*sub, value, path);
      if (!any) Fail(path, "anyOf", Label(path) + " does not match any of the allowed forms");
    }
    if (!node.one_of.empty()) {
      int matched = 0;
      for (const Node::Ptr& sub : node.one_of) matched += Matches(*sub, value, path);
      if (matched != 1) {
        Fail(path, "oneOf", Label(path) + " must match exactly one of the allowed forms");
      }
    }
    if (node.not_schema && Matches(*node.not_schema, value, path)) {
      Fail(path, "not", Label(path) + " matches a disallowed form");
    }
  }

  std::vector<ValidationError>* errors_;
};

}  // namespace

JsonSchemaValidator::JsonSchemaValidator(const Json& schema, bool close_root) {
  Node::Ptr root = Compile(schema);
  if (close_root && !root->additional_properties) root->forbid_additional = true;
  root_ = std::move(root);
}
JsonSchemaValidator::~JsonSchemaValidator() = default;
JsonSchemaValidator::JsonSchemaValidator(JsonSchemaValidator&&) noexcept = default;
JsonSchemaValidator& JsonSchemaValidator::operator=(JsonSchemaValidator&&) noexcept = default;

std::vector<ValidationError> JsonSchemaValidator::Validate(const Json& instance) const {
  std::vector<ValidationError> errors;
  Checker(&errors).Check(*root_, instance, "");
  return errors;
}

std::string FormatInvalidParams(const std::vector<ValidationError>& errors) {
  if (errors.empty()) return {};
  return "Invalid params: " + errors.front().message;
}

}  // namespace dp
