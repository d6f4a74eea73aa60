#include "template/builtin_names.hpp"

#include <array>
#include <cctype>

namespace dp::tmpl {
namespace {

constexpr std::array<std::string_view, 5> kForbidden = {"eval", "interpret", "eval_json", "api",
                                                        "new"};
constexpr std::array<std::string_view, 14> kLoop = {
    "index",       "counter",         "has_next",   "is_first",     "is_last",
    "item_parity", "item_parity_cap", "item_cycle", "is_even_item", "is_odd_item",
    "is_first",    "is_last",         "has_next",   "index"};
constexpr std::array<std::string_view, 101> kSupported = {
    // strings
    "length", "upper_case", "lower_case", "cap_first", "uncap_first", "capitalize", "trim",
    "contains", "starts_with", "ends_with", "index_of", "last_index_of", "replace", "split",
    "left_pad", "right_pad", "keep_before", "keep_after", "keep_before_last", "keep_after_last",
    "remove_beginning", "remove_ending", "ensure_starts_with", "ensure_ends_with", "chop_linebreak",
    "number", "boolean", "j_string", "js_string", "json_string", "url", "url_path", "word_list",
    "substring", "html", "xhtml", "xml",
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

}  // namespace

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
