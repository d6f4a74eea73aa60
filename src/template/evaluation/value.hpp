#pragma once
// Runtime values of the template engine: FreeMarker's model types reduced to what a JSON data
// model and FTL literals can produce. A null ValuePtr is a missing value (JSON null included).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "datapipelines/util/json.hpp"
#include "template/evaluation/name_table.hpp"
#include "template/evaluation/value_pool.hpp"
#include "template/evaluation/value_ptr.hpp"
#include "template/java/decimal.hpp"
#include "template/syntax/template_ast.hpp"

namespace dp::tmpl {

struct Namespace;

enum class ValueType { kString, kNumber, kBoolean, kSequence, kHash, kMacro, kFunction, kMarkup };

// A lazily materialised integer range (1..n, 1..<n, descending when end < begin).
struct RangeSpec {
  int64_t begin = 0;
  int64_t size = 0;
  int step = 1;
  // How a range slices (FreeMarker's RangeModel): "n.." has no end; "n..*m" and "n.." adapt
  // to the sliced value's end instead of failing past it; "a..b" keeps FreeMarker's legacy
  // "s[n..n-1]" is "" rule.
  bool right_unbounded = false;
  bool right_adaptive = false;
  bool inclusive_end = false;
};

struct Value {
  // User-provided, so a new value is initialised member by member only: value-initialising a
  // class with an implicit constructor zero-fills all of its ~200 bytes first.
  Value() noexcept {}

  ValueType type = ValueType::kString;
  bool boolean = false;
  std::string str;  // kString, kMarkup (already escaped output)
  Decimal number;
  std::vector<ValuePtr> items;             // kSequence (when !range and !json)
  std::unique_ptr<const RangeSpec> range;  // out of line: ranges are rare, values many
  const Node* callable = nullptr;          // kMacro / kFunction
  const Namespace* home = nullptr;         // namespace a callable was defined in
  // A kHash/kSequence of the data model wraps its JSON node instead of deep-converting it on
  // every render: children are converted on first access and kept (the node outlives the
  // render, and values never escape it).
  const Json* json = nullptr;
  // ?matches: the kSequence of matches is also a boolean (did the whole input match?) with the
  // whole match's groups; each match is a kString with its own groups (FreeMarker's
  // RegexMatchModel and MatchWithGroups). Null for every other value.
  struct RegexGroups {
    bool whole_match = false;
    std::vector<ValuePtr> groups;  // a group that did not take part is missing (null)
  };
  std::unique_ptr<const RegexGroups> regex;

  size_t SequenceSize() const {
    if (range) return static_cast<size_t>(range->size);
    return json ? json->size() : items.size();
  }
  ValuePtr SequenceAt(size_t i) const;
  size_t HashSize() const;
  const std::string& HashKeyAt(size_t i) const;
  ValuePtr HashValueAt(size_t i) const;
  ValuePtr HashGet(std::string_view key) const;
  // Only for hashes built during the render (never a JSON-backed one).
  void HashPut(std::string_view key, ValuePtr value);
  // ?size: a hash literal reports the number of its key-value pairs as written, duplicates
  // included (FreeMarker's HashLiteral), while listing it visits each key once.
  size_t ReportedHashSize() const;
  void SetLiteralSize(size_t written_pairs);

  // A blank value, from the current render's ValuePool when there is one (values made outside
  // a render, e.g. parse-time literals, use the heap and may be shared across renders).
  static MutableValuePtr New();
  // JSON null is a missing value (nullptr); objects and arrays are wrapped lazily.
  static ValuePtr FromJson(const Json& json);
  static ValuePtr String(std::string&& s);
  static ValuePtr String(const std::string& s);
  static ValuePtr Markup(std::string s);
  static ValuePtr Number(Decimal d);
  static ValuePtr Int(int64_t i) { return Number(Decimal::FromInt(i)); }
  static ValuePtr Boolean(bool b);
  static ValuePtr Sequence(std::vector<ValuePtr> items);
  static ValuePtr Range(RangeSpec spec);

 private:
  // Kept out of line so scalar values (most of a render's allocations) stay small.
  struct HashStore {
    NameTable entries;
    size_t literal_size = 0;  // pairs written in a hash literal; 0 for any other hash
  };
  ValuePtr JsonChild(size_t i, const Json& child) const;

  std::unique_ptr<HashStore> hash_;
  // JSON children converted so far; null = not yet, MissingMarker() = a JSON null. From the
  // render's pool: a render converts dozens of these arrays.
  mutable ValueSlots json_children_;
  // Key -> member position, built on the first lookup in a large JSON object only.
  mutable std::unique_ptr<std::unordered_map<std::string_view, size_t>> json_index_;
};

const char* TypeName(ValueType type);

}  // namespace dp::tmpl
