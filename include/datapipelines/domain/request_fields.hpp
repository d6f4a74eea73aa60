#pragma once
// Typed reads of request fields shared by every surface. A present field of the wrong JSON
// type is request.validation.invalid naming the field; absent or null is "not given".
#include <optional>
#include <string>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

std::optional<std::string> OptionalStringField(const Json& body, const char* field);
std::optional<int> OptionalIntField(const Json& body, const char* field);
std::optional<bool> OptionalBoolField(const Json& body, const char* field);
// Absent, null or not a string: request.validation.invalid "'field' is required…".
std::string RequiredStringField(const Json& body, const char* field);
// request.validation.invalid naming `field` in its details: "'<field>' <what>."
DomainError InvalidRequestField(const std::string& field, const std::string& what);

}  // namespace dp
