#include "template/value.hpp"

namespace dp::tmpl {

ValuePtr Value::SequenceAt(size_t i) const {
  if (range) return Int(range->begin + static_cast<int64_t>(i) * range->step);
  return items[i];
}

ValuePtr Value::HashGet(const std::string& key) const {
  auto it = index.find(key);
  return it == index.end() ? nullptr : entries[it->second].second;
}

void Value::HashPut(const std::string& key, ValuePtr value) {
  auto it = index.find(key);
  if (it != index.end()) {
    entries[it->second].second = std::move(value);
    return;
  }
  index.emplace(key, entries.size());
  entries.emplace_back(key, std::move(value));
}

ValuePtr Value::String(std::string s) {
  auto v = std::make_shared<Value>();
  v->type = ValueType::kString;
  v->str = std::move(s);
  return v;
}

ValuePtr Value::Markup(std::string s) {
  auto v = std::make_shared<Value>();
  v->type = ValueType::kMarkup;
  v->str = std::move(s);
  return v;
}

ValuePtr Value::Number(Decimal d) {
  auto v = std::make_shared<Value>();
  v->type = ValueType::kNumber;
  v->number = std::move(d);
  return v;
}

ValuePtr Value::Boolean(bool b) {
  static const ValuePtr kTrue = [] {
    auto v = std::make_shared<Value>();
    v->type = ValueType::kBoolean;
    v->boolean = true;
    return v;
  }();
  static const ValuePtr kFalse = [] {
    auto v = std::make_shared<Value>();
    v->type = ValueType::kBoolean;
    return v;
  }();
  return b ? kTrue : kFalse;
}

ValuePtr Value::Sequence(std::vector<ValuePtr> items) {
  auto v = std::make_shared<Value>();
  v->type = ValueType::kSequence;
  v->items = std::move(items);
  return v;
}

ValuePtr Value::Range(RangeSpec spec) {
  auto v = std::make_shared<Value>();
  v->type = ValueType::kSequence;
  v->range = spec;
  return v;
}

const char* TypeName(ValueType type) {
  switch (type) {
    case ValueType::kString:
      return "a string";
    case ValueType::kNumber:
      return "a number";
    case ValueType::kBoolean:
      return "a boolean";
    case ValueType::kSequence:
      return "a sequence";
    case ValueType::kHash:
      return "a hash";
    case ValueType::kMacro:
      return "a macro";
    case ValueType::kFunction:
      return "a function";
    case ValueType::kMarkup:
      return "a markup output";
  }
  return "a value";
}

}  // namespace dp::tmpl
