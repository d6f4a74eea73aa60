#pragma once
// A JSON-Schema (draft-07) subset validator for MCP tool arguments (DESIGN §8: every argument of
// every tool is validated before the handler runs). Compile once per schema — regexes are built
// at construction — then Validate() many times, from any thread.
//
// Supported: boolean schemas, type (string or array), properties, required,
// additionalProperties (bool or schema), items (schema or tuple array) + additionalItems,
// enum, const, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minLength,
// maxLength (code points), pattern (ECMAScript, unanchored search), minItems, maxItems,
// uniqueItems, minProperties, maxProperties, format (uuid, date-time; unknown formats pass),
// allOf, anyOf, oneOf, not. Annotations (title, description, default, examples, $comment,
// $schema, $id) are ignored. Any other keyword (e.g. $ref) makes the constructor throw, so a
// schema we cannot enforce is never silently half-enforced.
#include <memory>
#include <string>
#include <vector>

#include "datapipelines/util/json.hpp"

namespace dp {

struct ValidationError {
  std::string path;     // "limit", "nodes[0].id"; empty for the arguments object itself
  std::string keyword;  // the schema keyword that failed ("required", "maximum", ...)
  std::string message;  // self-contained, names the field: "'limit' must be <= 500"
};

class JsonSchemaValidator {
 public:
  // Throws DomainError(internal.error) on a malformed or unsupported schema.
  // close_root: a root object schema that does not say otherwise refuses members it does
  // not declare (tool arguments: an undeclared argument is a typo, never ignored); the
  // refusal names the nearest declared member.
  explicit JsonSchemaValidator(const Json& schema, bool close_root = false);
  ~JsonSchemaValidator();
  JsonSchemaValidator(JsonSchemaValidator&&) noexcept;
  JsonSchemaValidator& operator=(JsonSchemaValidator&&) noexcept;

  // Every failure, in schema order (type, required, unknown fields, then each property).
  std::vector<ValidationError> Validate(const Json& instance) const;
  bool IsValid(const Json& instance) const { return Validate(instance).empty(); }

  struct Node;

 private:
  std::unique_ptr<const Node> root_;
};

// The MCP -32602 message for the FIRST error: "Invalid params: 'limit' must be <= 500".
// Empty when there are no errors.
std::string FormatInvalidParams(const std::vector<ValidationError>& errors);

}  // namespace dp
