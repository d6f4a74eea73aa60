#pragma once
#include <cstddef>
#include <string_view>

namespace dp {

// Levenshtein distance (insert, delete, substitute: 1 each), bytewise: the "did you mean" of
// an undeclared argument, a near-miss table name, an unknown JDBC property.
std::size_t EditDistance(std::string_view a, std::string_view b);

}  // namespace dp
