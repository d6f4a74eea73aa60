#include "template/value.hpp"

namespace dp::tmpl {

namespace {

const Json::object_t& Members(const Json* json) { return json->get_ref<const Json::object_t&>(); }

}  // namespace

ValuePtr Value::SequenceAt(size_t i) const {
  if (range) return Int(range->begin + static_cast<int64_t>(i) * range->step);
  if (!json) return items[i];
  if (json_converted.empty()) {
    json_children.resize(json->size());
    json_converted.resize(json->size());
  }
  if (!json_converted[i]) {
    json_children[i] = FromJson((*json)[i]);
    json_converted[i] = true;
  }
  return json_children[i];
}

const std::string& Value::HashKeyAt(size_t i) const {
  return json ? Members(json).begin()[i].first : entries[i].first;
}

ValuePtr Value::HashValueAt(size_t i) const {
  if (!json) return entries[i].second;
  if (json_converted.empty()) {
    json_children.resize(json->size());
    json_converted.resize(json->size());
  }
  if (!json_converted[i]) {
    json_children[i] = FromJson(Members(json).begin()[i].second);
    json_converted[i] = true;
  }
  return json_children[i];
}

ValuePtr Value::HashGet(std::string_view key) const {
  if (json) {
    // Data-model objects are small: a scan beats building an index on every render.
    const Json::object_t& members = Members(json);
    for (size_t i = 0; i < members.size(); ++i) {
      if (members.begin()[i].first == key) return HashValueAt(i);
    }
    return nullptr;
  }
  auto it = index.find(std::string(key));
  return it == index.end() ? nullptr : entries[it->second].second;
}

ValuePtr Value::FromJson(const Json& json) {
  switch (json.type()) {
    case Json::value_t::null:
    case Json::value_t::discarded:
    case Json::value_t::binary:
      return nullptr;
    case Json::value_t::boolean:
      return Boolean(json.get<bool>());
    case Json::value_t::number_integer:
      return Int(json.get<int64_t>());
    case Json::value_t::number_unsigned:
      return Number(Decimal(Decimal::BigInt(json.get<uint64_t>()), 0));
    case Json::value_t::number_float:
      return Number(Decimal::FromDouble(json.get<double>()));
    case Json::value_t::string:
      return String(json.get_ref<const std::string&>());
    case Json::value_t::array:
    case Json::value_t::object: {
      auto v = std::make_shared<Value>();
      v->type = json.is_array() ? ValueType::kSequence : ValueType::kHash;
      v->json = &json;
      return v;
    }
  }
  return nullptr;
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
