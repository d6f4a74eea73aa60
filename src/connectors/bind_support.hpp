#pragma once
// Shared bind plumbing: every referenced `:name` must be supplied, typed.
#include <string>
#include <vector>

#include "datapipelines/connectors/bind_value.hpp"

namespace dp::bind_support {

// The bind for `name`; throws request.validation.invalid when it was not supplied.
const BindValue& Require(const std::string& name, const BindMap& binds);

}  // namespace dp::bind_support
