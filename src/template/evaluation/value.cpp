#include "template/evaluation/value.hpp"

#include "template/evaluation/value_pool.hpp"

namespace dp::tmpl {

namespace {

const Json::object_t& Members(const Json* json) { return json->get_ref<const Json::object_t&>(); }

// Marks a converted JSON null in the child cache (a null ValuePtr means "not converted yet").
const Value kMissingMarker;

}  // namespace

ValuePtr Value::JsonChild(size_t i, const Json& child) const {
  if (!json_children_) json_children_.Allocate(json->size());
  ValuePtr& slot = json_children_[i];
  if (!slot) {
    ValuePtr converted = FromJson(child);
    slot = converted ? std::move(converted) : Unowned(&kMissingMarker);
  }
  return slot.get() == &kMissingMarker ? nullptr : slot;
}

ValuePtr Value::SequenceAt(size_t i) const {
  if (range) return Int(range->begin + static_cast<int64_t>(i) * range->step);
  if (json) return JsonChild(i, (*json)[i]);
  return items[i];
}

size_t Value::HashSize() const {
  if (json) return json->size();
  return hash_ ? hash_->entries.size() : 0;
}

const std::string& Value::HashKeyAt(size_t i) const {
  return json ? Members(json).begin()[i].first : hash_->entries[i].first;
}

ValuePtr Value::HashValueAt(size_t i) const {
  if (json) return JsonChild(i, Members(json).begin()[i].second);
  return hash_->entries[i].second;
}

ValuePtr Value::HashGet(std::string_view key) const {
  if (json) {
    // Data-model objects are mostly small: a scan beats building an index on every render.
    // Large ones get an index, so lookups in a loop stay O(1).
    constexpr size_t kScanLimit = 16;
    const Json::object_t& members = Members(json);
    if (members.size() <= kScanLimit) {
      for (size_t i = 0; i < members.size(); ++i) {
        if (SameName(members.begin()[i].first, key)) {
          return JsonChild(i, members.begin()[i].second);
        }
      }
      return nullptr;
    }
    if (!json_index_) {
      json_index_ = std::make_unique<std::unordered_map<std::string_view, size_t>>();
      json_index_->reserve(members.size());
      for (size_t i = 0; i < members.size(); ++i) json_index_->emplace(members.begin()[i].first, i);
    }
    auto it = json_index_->find(key);
    return it == json_index_->end() ? nullptr
                                    : JsonChild(it->second, members.begin()[it->second].second);
  }
  if (!hash_) return nullptr;
  const ValuePtr* found = hash_->entries.Find(key);
  return found ? *found : nullptr;
}

MutableValuePtr Value::New() {
  static_assert(alignof(Value) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
  // A pooled value's block (the value and shared_ptr's control block) fits one pool block.
  static_assert(sizeof(Value) + 32 <= ValuePool::kBlockBytes);
  if (ValuePool* pool = ValuePool::Current()) {
    return std::__allocate_shared<Value, __gnu_cxx::_S_single>(PoolAllocator<Value>(pool));
  }
  return std::__make_shared<Value, __gnu_cxx::_S_single>();
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
      auto v = New();
      v->type = json.is_array() ? ValueType::kSequence : ValueType::kHash;
      v->json = &json;
      return v;
    }
  }
  return nullptr;
}

size_t Value::ReportedHashSize() const {
  return hash_ && hash_->literal_size > 0 ? hash_->literal_size : HashSize();
}

void Value::SetLiteralSize(size_t written_pairs) {
  if (!hash_) hash_ = std::make_unique<HashStore>();
  hash_->literal_size = written_pairs;
}

void Value::HashPut(std::string_view key, ValuePtr value) {
  if (!hash_) hash_ = std::make_unique<HashStore>();
  hash_->entries.Set(key, std::move(value));
}

ValuePtr Value::String(std::string&& s) {
  auto v = New();
  v->type = ValueType::kString;
  v->str = std::move(s);
  return v;
}

ValuePtr Value::String(const std::string& s) {  // copied once, straight into the value
  auto v = New();
  v->type = ValueType::kString;
  v->str = s;
  return v;
}

ValuePtr Value::Markup(std::string s) {
  auto v = New();
  v->type = ValueType::kMarkup;
  v->str = std::move(s);
  return v;
}

ValuePtr Value::Number(Decimal d) {
  auto v = New();
  v->type = ValueType::kNumber;
  v->number = std::move(d);
  return v;
}

ValuePtr Value::Boolean(bool b) {
  static const Value kTrue = [] {
    Value v;
    v.type = ValueType::kBoolean;
    v.boolean = true;
    return v;
  }();
  static const Value kFalse = [] {
    Value v;
    v.type = ValueType::kBoolean;
    return v;
  }();
  return Unowned(b ? &kTrue : &kFalse);
}

ValuePtr Value::Sequence(std::vector<ValuePtr> items) {
  auto v = New();
  v->type = ValueType::kSequence;
  v->items = std::move(items);
  return v;
}

ValuePtr Value::Range(RangeSpec spec) {
  auto v = New();
  v->type = ValueType::kSequence;
  v->range = std::make_unique<const RangeSpec>(spec);
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
