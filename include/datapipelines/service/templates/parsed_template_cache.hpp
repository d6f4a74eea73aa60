#pragma once
// Parsed template versions, kept by content (datapipelines.templates.cache-size, LRU): a
// render parses a version and each library it imports once per distinct body, not per call.
// Keyed by workspace, id@version and body_hash, so an overwritten draft is a different entry.
// Thread-safe; parse trees are immutable and shared.
#include <cstddef>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "datapipelines/template/syntax/parsed_template.hpp"

namespace dp {

struct TemplateVersionRecord;

class ParsedTemplateCache {
 public:
  // capacity 0 disables caching (every call parses).
  explicit ParsedTemplateCache(size_t capacity);

  // The parse of `version` (ParseTemplateVersion), from the cache when its content was seen.
  ParsedTemplate Get(const TemplateVersionRecord& version, size_t max_body_chars);

  size_t size() const;
  size_t parses() const;  // how many times Get had to parse (for tests)

 private:
  using Entry = std::pair<std::string, ParsedTemplate>;

  size_t capacity_;
  mutable std::mutex mutex_;
  std::list<Entry> entries_;  // most recently used first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  size_t parses_ = 0;
};

}  // namespace dp
