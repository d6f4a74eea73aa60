#pragma once
// Runtime values of the template engine: FreeMarker's model types reduced to what a JSON data
// model and FTL literals can produce. A null ValuePtr is a missing value (JSON null included).
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "datapipelines/util/json.hpp"
#include "template/decimal.hpp"
#include "template/template_ast.hpp"

namespace dp::tmpl {

struct Value;
using ValuePtr = std::shared_ptr<const Value>;
struct Namespace;

enum class ValueType { kString, kNumber, kBoolean, kSequence, kHash, kMacro, kFunction, kMarkup };

// A lazily materialised integer range (1..n, 1..<n, descending when end < begin).
struct RangeSpec {
  int64_t begin = 0;
  int64_t size = 0;
  int step = 1;
};

struct Value {
  ValueType type = ValueType::kString;
  std::string str;  // kString, kMarkup (already escaped output)
  Decimal number;
  bool boolean = false;
  std::vector<ValuePtr> items;  // kSequence (when !range)
  std::optional<RangeSpec> range;
  std::vector<std::pair<std::string, ValuePtr>> entries;  // kHash, in insertion order
  std::unordered_map<std::string, size_t> index;          // key -> position in entries
  const Node* callable = nullptr;                         // kMacro / kFunction
  const Namespace* home = nullptr;                        // namespace a callable was defined in
  // A kHash/kSequence of the data model wraps its JSON node instead of deep-converting it on
  // every render: children are converted on first access and kept (the node outlives the
  // render, and values never escape it). Such a value is never mutated (HashPut refuses).
  const Json* json = nullptr;
  mutable std::vector<ValuePtr> json_children;
  mutable std::vector<bool> json_converted;

  size_t SequenceSize() const {
    if (range) return static_cast<size_t>(range->size);
    return json ? json->size() : items.size();
  }
  ValuePtr SequenceAt(size_t i) const;
  size_t HashSize() const { return json ? json->size() : entries.size(); }
  const std::string& HashKeyAt(size_t i) const;
  ValuePtr HashValueAt(size_t i) const;
  ValuePtr HashGet(std::string_view key) const;
  void HashPut(const std::string& key, ValuePtr value);

  // JSON null is a missing value (nullptr); objects and arrays are wrapped lazily.
  static ValuePtr FromJson(const Json& json);

  static ValuePtr String(std::string s);
  static ValuePtr Markup(std::string s);
  static ValuePtr Number(Decimal d);
  static ValuePtr Int(int64_t i) { return Number(Decimal::FromInt(i)); }
  static ValuePtr Boolean(bool b);
  static ValuePtr Sequence(std::vector<ValuePtr> items);
  static ValuePtr Range(RangeSpec spec);
};

const char* TypeName(ValueType type);

}  // namespace dp::tmpl
