#pragma once
// The pipeline DAG as an SVG drawing model: each node placed in the column of its longest
// depends_on path from a root (so every edge points right), rows in body order; edges as cubic
// paths from the right side of a dependency to the left side of its dependent.
#include "datapipelines/util/json.hpp"

namespace dp {

// `nodes` is the body's nodes[] ({id, type?, depends_on?}). Answers {width, height,
// nodes: [{id, type, x, y, w, h}], edges: [{from, to, d}]}. A dependency on an unknown id is
// drawn as nothing; a cycle (refused at save) cannot loop: depth is bounded by the node count.
Json LayoutDag(const Json& nodes);

// A line diff of two texts (longest common subsequence): [{op: " "|"-"|"+", text}]. Inputs
// past `max_lines` lines each are compared as wholes (one "-" and one "+" block).
Json LineDiff(const std::string& before, const std::string& after, size_t max_lines = 3000);

}  // namespace dp
