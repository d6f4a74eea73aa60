#pragma once
// The window of the three list tools (templates_list, pipelines_list, executions_list): their
// schema declares `limit` (default 50, maximum 200, no minimum) and no `offset`, so a limit the
// schema lets through is clamped into 1..200 — never refused as REST refuses it — and the
// listing starts at the first item.
#include "datapipelines/service/list_window.hpp"

namespace dp {

inline constexpr ListWindowRules kListToolWindow{
    .out_of_range = ListWindowRules::OutOfRange::kClamp,
    .offset = ListWindowRules::Offset::kIgnored,
};

}  // namespace dp
