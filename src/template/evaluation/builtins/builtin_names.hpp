#pragma once
// The built-in vocabulary as one table: every `?name` the engine parses, with its id, the
// family that evaluates it and the position of its flags argument. A built-in is looked up
// once, at parse time; rendering dispatches on the id and never compares a name.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace dp::tmpl {

// Which evaluator function handles a built-in (builtins.cpp, one function per family).
enum class BuiltInFamily : uint8_t {
  kExistence,     // tolerate a missing target: ?has_content ?exists ?if_exists ?default
  kLoopVariable,  // read the loop state of a <#list> variable: ?index ?has_next ...
  kStream,        // ?filter ?map ?take_while ?drop_while: a lambda, applied lazily
  kGroups,        // ?groups of a ?matches result
  kLazy,          // ?then ?switch: their arguments are evaluated on demand
  kTypeTest,      // ?is_string ...
  kOutputFormat,  // ?no_esc ?esc
  kFormat,        // ?c ?string: several target types
  kNumber,        // ?round ?int ?lower_abc ...
  kSequence,      // ?size ?join ?sort_by ... (?size of a hash as well)
  kHash,          // ?keys ?values
  kBoolean,       // ?boolean
  kString,        // ?upper_case ?replace ?matches ... (numbers and booleans arrive as text)
  kForbidden,     // ?eval ?interpret ?eval_json ?api ?new: refused by TemplateValidator
};

// X(id, name, family, flags position): the flags position is the 1-based argument holding
// FreeMarker's flags string ("r", "i", ...), 0 when the built-in takes none.
#define DP_TEMPLATE_BUILTINS(X)                          \
  X(kHasContent, "has_content", kExistence, 0)           \
  X(kExists, "exists", kExistence, 0)                    \
  X(kIfExists, "if_exists", kExistence, 0)               \
  X(kDefault, "default", kExistence, 0)                  \
  X(kIndex, "index", kLoopVariable, 0)                   \
  X(kCounter, "counter", kLoopVariable, 0)               \
  X(kHasNext, "has_next", kLoopVariable, 0)              \
  X(kIsFirst, "is_first", kLoopVariable, 0)              \
  X(kIsLast, "is_last", kLoopVariable, 0)                \
  X(kItemParity, "item_parity", kLoopVariable, 0)        \
  X(kItemParityCap, "item_parity_cap", kLoopVariable, 0) \
  X(kItemCycle, "item_cycle", kLoopVariable, 0)          \
  X(kIsEvenItem, "is_even_item", kLoopVariable, 0)       \
  X(kIsOddItem, "is_odd_item", kLoopVariable, 0)         \
  X(kFilter, "filter", kStream, 0)                       \
  X(kMap, "map", kStream, 0)                             \
  X(kTakeWhile, "take_while", kStream, 0)                \
  X(kDropWhile, "drop_while", kStream, 0)                \
  X(kGroupsOf, "groups", kGroups, 0)                     \
  X(kThen, "then", kLazy, 0)                             \
  X(kSwitch, "switch", kLazy, 0)                         \
  X(kIsString, "is_string", kTypeTest, 0)                \
  X(kIsNumber, "is_number", kTypeTest, 0)                \
  X(kIsBoolean, "is_boolean", kTypeTest, 0)              \
  X(kIsSequence, "is_sequence", kTypeTest, 0)            \
  X(kIsIndexable, "is_indexable", kTypeTest, 0)          \
  X(kIsCollection, "is_collection", kTypeTest, 0)        \
  X(kIsEnumerable, "is_enumerable", kTypeTest, 0)        \
  X(kIsHash, "is_hash", kTypeTest, 0)                    \
  X(kIsHashEx, "is_hash_ex", kTypeTest, 0)               \
  X(kIsMacro, "is_macro", kTypeTest, 0)                  \
  X(kIsDirective, "is_directive", kTypeTest, 0)          \
  X(kIsMethod, "is_method", kTypeTest, 0)                \
  X(kIsMarkupOutput, "is_markup_output", kTypeTest, 0)   \
  X(kIsDate, "is_date", kTypeTest, 0)                    \
  X(kIsInfinite, "is_infinite", kTypeTest, 0)            \
  X(kIsNan, "is_nan", kTypeTest, 0)                      \
  X(kNoEsc, "no_esc", kOutputFormat, 0)                  \
  X(kEsc, "esc", kOutputFormat, 0)                       \
  X(kC, "c", kFormat, 0)                                 \
  X(kStringOf, "string", kFormat, 0)                     \
  X(kRound, "round", kNumber, 0)                         \
  X(kFloor, "floor", kNumber, 0)                         \
  X(kCeiling, "ceiling", kNumber, 0)                     \
  X(kAbs, "abs", kNumber, 0)                             \
  X(kInt, "int", kNumber, 0)                             \
  X(kLong, "long", kNumber, 0)                           \
  X(kShort, "short", kNumber, 0)                         \
  X(kByte, "byte", kNumber, 0)                           \
  X(kDouble, "double", kNumber, 0)                       \
  X(kLowerAbc, "lower_abc", kNumber, 0)                  \
  X(kUpperAbc, "upper_abc", kNumber, 0)                  \
  X(kSize, "size", kSequence, 0)                         \
  X(kFirst, "first", kSequence, 0)                       \
  X(kLast, "last", kSequence, 0)                         \
  X(kJoin, "join", kSequence, 0)                         \
  X(kSeqContains, "seq_contains", kSequence, 0)          \
  X(kSeqIndexOf, "seq_index_of", kSequence, 0)           \
  X(kSeqLastIndexOf, "seq_last_index_of", kSequence, 0)  \
  X(kReverse, "reverse", kSequence, 0)                   \
  X(kMin, "min", kSequence, 0)                           \
  X(kMax, "max", kSequence, 0)                           \
  X(kSort, "sort", kSequence, 0)                         \
  X(kSortBy, "sort_by", kSequence, 0)                    \
  X(kChunk, "chunk", kSequence, 0)                       \
  X(kKeys, "keys", kHash, 0)                             \
  X(kValues, "values", kHash, 0)                         \
  X(kBooleanOf, "boolean", kBoolean, 0)                  \
  X(kLength, "length", kString, 0)                       \
  X(kUpperCase, "upper_case", kString, 0)                \
  X(kLowerCase, "lower_case", kString, 0)                \
  X(kCapFirst, "cap_first", kString, 0)                  \
  X(kUncapFirst, "uncap_first", kString, 0)              \
  X(kCapitalize, "capitalize", kString, 0)               \
  X(kTrim, "trim", kString, 0)                           \
  X(kContains, "contains", kString, 0)                   \
  X(kStartsWith, "starts_with", kString, 0)              \
  X(kEndsWith, "ends_with", kString, 0)                  \
  X(kIndexOf, "index_of", kString, 0)                    \
  X(kLastIndexOf, "last_index_of", kString, 0)           \
  X(kReplace, "replace", kString, 3)                     \
  X(kSplit, "split", kString, 2)                         \
  X(kLeftPad, "left_pad", kString, 0)                    \
  X(kRightPad, "right_pad", kString, 0)                  \
  X(kKeepBefore, "keep_before", kString, 2)              \
  X(kKeepAfter, "keep_after", kString, 2)                \
  X(kKeepBeforeLast, "keep_before_last", kString, 2)     \
  X(kKeepAfterLast, "keep_after_last", kString, 2)       \
  X(kRemoveBeginning, "remove_beginning", kString, 0)    \
  X(kRemoveEnding, "remove_ending", kString, 0)          \
  X(kEnsureStartsWith, "ensure_starts_with", kString, 3) \
  X(kEnsureEndsWith, "ensure_ends_with", kString, 0)     \
  X(kChopLinebreak, "chop_linebreak", kString, 0)        \
  X(kNumberOf, "number", kString, 0)                     \
  X(kJString, "j_string", kString, 0)                    \
  X(kJsString, "js_string", kString, 0)                  \
  X(kJsonString, "json_string", kString, 0)              \
  X(kUrl, "url", kString, 0)                             \
  X(kUrlPath, "url_path", kString, 0)                    \
  X(kTruncate, "truncate", kString, 0)                   \
  X(kTruncateW, "truncate_w", kString, 0)                \
  X(kTruncateC, "truncate_c", kString, 0)                \
  X(kWordList, "word_list", kString, 0)                  \
  X(kSubstring, "substring", kString, 0)                 \
  X(kHtml, "html", kString, 0)                           \
  X(kXhtml, "xhtml", kString, 0)                         \
  X(kXml, "xml", kString, 0)                             \
  X(kMatches, "matches", kString, 2)                     \
  X(kEval, "eval", kForbidden, 0)                        \
  X(kInterpret, "interpret", kForbidden, 0)              \
  X(kEvalJson, "eval_json", kForbidden, 0)               \
  X(kApi, "api", kForbidden, 0)                          \
  X(kNew, "new", kForbidden, 0)

enum class BuiltIn : uint8_t {
#define DP_BUILTIN_ID(id, name, family, flags) id,
  DP_TEMPLATE_BUILTINS(DP_BUILTIN_ID)
#undef DP_BUILTIN_ID
};

struct BuiltInSpec {
  BuiltIn id;
  std::string_view name;
  BuiltInFamily family;
  uint8_t flags_position;  // 1-based; 0 = no flags argument
};

// camelCase spellings (upperCase) map to FreeMarker's snake_case names (upper_case).
std::string NormalizeBuiltInName(std::string_view name);
// The table entry of a normalized name; null for a name the engine does not know.
const BuiltInSpec* FindBuiltIn(std::string_view normalized);
// Why a FreeMarker 2.3.31 built-in is refused at save; null for one that is not refused.
const char* UnsupportedBuiltInReason(std::string_view normalized);

}  // namespace dp::tmpl
