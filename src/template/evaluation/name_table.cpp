#include "template/evaluation/name_table.hpp"

namespace dp::tmpl {

void NameTable::Set(std::string_view name, ValuePtr value) {
  if (const ValuePtr* slot = Find(name)) {
    *const_cast<ValuePtr*>(slot) = std::move(value);
    return;
  }
  entries_.emplace_back(std::string(name), std::move(value));
  if (index_) {
    index_->emplace(entries_.back().first, entries_.size() - 1);
  } else if (entries_.size() > kScanLimit) {
    index_ =
        std::make_unique<std::unordered_map<std::string, size_t, StringHash, std::equal_to<>>>();
    index_->reserve(entries_.size() * 2);
    for (size_t i = 0; i < entries_.size(); ++i) index_->emplace(entries_[i].first, i);
  }
}

}  // namespace dp::tmpl
