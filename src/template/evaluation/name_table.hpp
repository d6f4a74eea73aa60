#pragma once
// Name -> value in insertion order: a namespace's variables, the globals, a hash built during a
// render. Most hold a handful of names, so a lookup scans them (first byte first) and the table
// allocates nothing beyond its vector; past kScanLimit names a key index is built once and kept.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "template/evaluation/value_ptr.hpp"

namespace dp::tmpl {

// Name equality for the short names scanned on every lookup (loop variables, locals, the keys
// of a small JSON object): the first byte rules out most candidates before memcmp is called.
// Compared inline, eight bytes at a time: these names are short and a memcmp call (hundreds
// per render) costs more than the comparison itself.
inline bool SameName(std::string_view a, std::string_view b) {
  size_t n = a.size();
  if (n != b.size()) return false;
  if (n == 0) return true;
  if (a[0] != b[0]) return false;
  const char* p = a.data();
  const char* q = b.data();
  for (; n >= 8; n -= 8, p += 8, q += 8) {
    uint64_t x;
    uint64_t y;
    std::memcpy(&x, p, 8);
    std::memcpy(&y, q, 8);
    if (x != y) return false;
  }
  for (; n > 0; --n, ++p, ++q) {
    if (*p != *q) return false;
  }
  return true;
}

// Lets an index be probed with a string_view (no temporary std::string).
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

class NameTable {
 public:
  using Entry = std::pair<std::string, ValuePtr>;
  static constexpr size_t kScanLimit = 16;

  const ValuePtr* Find(std::string_view name) const {
    if (index_) {
      auto it = index_->find(name);
      return it == index_->end() ? nullptr : &entries_[it->second].second;
    }
    for (const Entry& entry : entries_) {
      if (SameName(entry.first, name)) return &entry.second;
    }
    return nullptr;
  }
  // Replaces the value of a known name in place (its position is kept), else appends it.
  void Set(std::string_view name, ValuePtr value);

  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }
  const Entry& operator[](size_t i) const { return entries_[i]; }
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }

 private:
  std::vector<Entry> entries_;
  // Keys are owned copies: the entries' strings move when the vector grows.
  std::unique_ptr<std::unordered_map<std::string, size_t, StringHash, std::equal_to<>>> index_;
};

}  // namespace dp::tmpl
