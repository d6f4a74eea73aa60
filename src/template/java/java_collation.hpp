#pragma once
// FreeMarker sorts strings (?sort, ?sort_by) with java.text.Collator for the configured locale
// (en_US): letters case-insensitively first, lower case before upper case on a tie, some
// punctuation ignored. This is that collator's comparison for ASCII text.
#include <optional>
#include <string_view>

namespace dp::tmpl {

// RuleBasedCollator.compare (tertiary strength) of en_US: <0, 0 or >0. nullopt when a string
// holds a non-ASCII character, for which the table is not known.
std::optional<int> JavaCollatorCompare(std::string_view a, std::string_view b);

}  // namespace dp::tmpl
