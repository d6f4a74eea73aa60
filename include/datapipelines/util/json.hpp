#pragma once
#include <nlohmann/json.hpp>

namespace dp {
// One JSON type across the codebase (ordered keys keep wire output stable and readable).
using Json = nlohmann::ordered_json;
}  // namespace dp
