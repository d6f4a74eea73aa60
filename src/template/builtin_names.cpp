#include "template/builtin_names.hpp"

#include <array>
#include <cctype>
#include <limits>
#include <utility>

namespace dp::tmpl {
namespace {

constexpr std::array<std::string_view, 5> kForbidden = {"eval", "interpret", "eval_json", "api",
                                                        "new"};
constexpr std::array<std::string_view, 14> kLoop = {
    "index",       "counter",         "has_next",   "is_first",     "is_last",
    "item_parity", "item_parity_cap", "item_cycle", "is_even_item", "is_odd_item",
    "is_first",    "is_last",         "has_next",   "index"};
constexpr std::array<std::string_view, 106> kSupported = {
    // strings
    "length", "upper_case", "lower_case", "cap_first", "uncap_first", "capitalize", "trim",
    "contains", "starts_with", "ends_with", "index_of", "last_index_of", "replace", "split",
    "left_pad", "right_pad", "keep_before", "keep_after", "keep_before_last", "keep_after_last",
    "remove_beginning", "remove_ending", "ensure_starts_with", "ensure_ends_with", "chop_linebreak",
    "number", "boolean", "j_string", "js_string", "json_string", "url", "url_path", "truncate",
    "truncate_w", "truncate_c", "word_list", "substring", "html", "xhtml", "xml", "matches",
    "groups",
    // numbers
    "c", "string", "round", "floor", "ceiling", "abs", "int", "long", "short", "byte", "double",
    "is_infinite", "is_nan", "lower_abc", "upper_abc",
    // booleans and conditionals
    "then", "switch",
    // sequences and hashes
    "size", "first", "last", "join", "seq_contains", "seq_index_of", "seq_last_index_of", "reverse",
    "sort", "sort_by", "chunk", "min", "max", "keys", "values",
    // existence and types
    "has_content", "exists", "if_exists", "default", "is_string", "is_number", "is_boolean",
    "is_sequence", "is_hash", "is_hash_ex", "is_collection", "is_enumerable", "is_indexable",
    "is_macro", "is_directive", "is_method", "is_date", "is_markup_output",
    // output format
    "no_esc", "esc",
    // loop variables
    "index", "counter", "has_next", "is_first", "is_last", "item_parity", "item_parity_cap",
    "item_cycle", "is_even_item", "is_odd_item"};

template <size_t N>
bool Contains(const std::array<std::string_view, N>& list, std::string_view name) {
  for (std::string_view item : list) {
    if (item == name) return true;
  }
  return false;
}

// FreeMarker 2.3.31 built-ins the engine refuses at save, with the reason shown to the author.
struct Refusal {
  std::string_view name;
  const char* why;
};
constexpr const char* kDates = "the data model holds no date/time values (dates are ISO strings)";
constexpr const char* kNodes = "the data model holds no XML nodes";
constexpr const char* kMarkup = "markup-output truncation is not available; use ?truncate";
constexpr Refusal kRefused[] = {
    {"date", kDates},
    {"time", kDates},
    {"datetime", kDates},
    {"date_if_unknown", kDates},
    {"time_if_unknown", kDates},
    {"datetime_if_unknown", kDates},
    {"is_date_like", kDates},
    {"is_date_only", kDates},
    {"is_datetime", kDates},
    {"is_time", kDates},
    {"is_unknown_date_like", kDates},
    {"number_to_date", kDates},
    {"number_to_time", kDates},
    {"number_to_datetime", kDates},
    {"ancestors", kNodes},
    {"children", kNodes},
    {"next_sibling", kNodes},
    {"previous_sibling", kNodes},
    {"node_name", kNodes},
    {"node_namespace", kNodes},
    {"node_type", kNodes},
    {"parent", kNodes},
    {"root", kNodes},
    {"is_node", kNodes},
    {"truncate_m", kMarkup},
    {"truncate_w_m", kMarkup},
    {"truncate_c_m", kMarkup},
    {"markup_string", "markup output values are only those of the html template type"},
    {"with_args", "macro and function values can't be given default arguments"},
    {"with_args_last", "macro and function values can't be given default arguments"},
    {"absolute_template_name", "templates are not addressed by file names"},
    {"namespace", "namespaces are only reached through import aliases"},
    {"float", "the engine computes in decimal, not in binary floating point"},
    {"has_api", "?api is forbidden (templates.md §4.2)"},
    {"is_collection_ex", "the data model holds no Java collections"},
    {"is_transform", "there are no transforms"},
    {"sequence", "the data model holds no Java collections"},
    {"rtf", "deprecated and unavailable"},
    {"web_safe", "deprecated; use ?html"},
};

// Built-ins whose argument at this 1-based position is FreeMarker's flags string ("r", "i"...).
constexpr std::pair<std::string_view, size_t> kFlagsPosition[] = {{"replace", 3},
                                                                  {"split", 2},
                                                                  {"keep_after", 2},
                                                                  {"keep_after_last", 2},
                                                                  {"keep_before", 2},
                                                                  {"keep_before_last", 2},
                                                                  {"ensure_starts_with", 3},
                                                                  {"matches", 2}};

}  // namespace

const char* UnsupportedBuiltInReason(std::string_view normalized) {
  for (const Refusal& r : kRefused) {
    if (r.name == normalized) return r.why;
  }
  if (normalized == "iso" || normalized.rfind("iso_", 0) == 0) return kDates;
  return nullptr;
}

size_t FlagsArgumentPosition(std::string_view normalized) {
  for (const auto& [name, position] : kFlagsPosition) {
    if (name == normalized) return position;
  }
  return std::numeric_limits<size_t>::max();
}

std::string NormalizeBuiltInName(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

bool IsSupportedBuiltIn(std::string_view normalized) {
  return Contains(kSupported, normalized) || IsStreamBuiltIn(normalized);
}
bool IsStreamBuiltIn(std::string_view normalized) {
  return normalized == "filter" || normalized == "map" || normalized == "take_while" ||
         normalized == "drop_while";
}
bool IsForbiddenBuiltIn(std::string_view normalized) { return Contains(kForbidden, normalized); }
bool IsLoopVariableBuiltIn(std::string_view normalized) { return Contains(kLoop, normalized); }

}  // namespace dp::tmpl
