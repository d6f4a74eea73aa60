#pragma once
// Parses a one-dimensional PostgreSQL array literal ("{1,\"a b\",NULL}") into its elements.
#include <string>
#include <string_view>
#include <vector>

namespace dp {

std::vector<std::string> ParsePgArrayText(std::string_view text);

}  // namespace dp
