#pragma once
// A typed `:name` bind value (spec §6.2.34 parameters): a canonical type plus its JSON value.
#include <map>
#include <optional>
#include <string>

#include "datapipelines/connectors/canonical_type.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

struct BindValue {
  CanonicalType type = CanonicalType::kString;
  Json value;  // null = SQL NULL

  // Validated text form handed to the driver: integers as digits, decimals plain,
  // booleans "true"/"false", BINARY decoded from base64 to raw bytes, temporals in ISO form.
  // nullopt = SQL NULL. Throws DomainError(request.validation.invalid) on a value that
  // does not match its declared type (never echoing the value).
  std::optional<std::string> DriverText(const std::string& name) const;
};

using BindMap = std::map<std::string, BindValue>;

}  // namespace dp
