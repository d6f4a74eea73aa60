#include "datapipelines/domain/request_fields.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

[[noreturn]] void Invalid(const char* field, const char* what) {
  throw DomainError(errc::kRequestInvalid, std::string("'") + field + "' " + what + ".",
                    Json{{"field", field}});
}

// The field when present and not null.
const Json* Given(const Json& body, const char* field) {
  auto it = body.find(field);
  return it == body.end() || it->is_null() ? nullptr : &*it;
}

}  // namespace

std::optional<std::string> OptionalStringField(const Json& body, const char* field) {
  const Json* value = Given(body, field);
  if (!value) return std::nullopt;
  if (!value->is_string()) Invalid(field, "must be a string");
  return value->get<std::string>();
}

std::optional<int> OptionalIntField(const Json& body, const char* field) {
  const Json* value = Given(body, field);
  if (!value) return std::nullopt;
  if (!value->is_number_integer()) Invalid(field, "must be an integer");
  return value->get<int>();
}

std::optional<bool> OptionalBoolField(const Json& body, const char* field) {
  const Json* value = Given(body, field);
  if (!value) return std::nullopt;
  if (!value->is_boolean()) Invalid(field, "must be a boolean");
  return value->get<bool>();
}

DomainError InvalidRequestField(const std::string& field, const std::string& what) {
  return DomainError(errc::kRequestInvalid, "'" + field + "' " + what + ".",
                     Json{{"field", field}});
}

std::string RequiredStringField(const Json& body, const char* field) {
  const Json* value = Given(body, field);
  if (!value || !value->is_string()) Invalid(field, "is required and must be a string");
  return value->get<std::string>();
}

}  // namespace dp
