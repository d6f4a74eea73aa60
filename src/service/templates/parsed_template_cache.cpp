#include "datapipelines/service/templates/parsed_template_cache.hpp"

#include "datapipelines/store/template_records.hpp"
#include "template_import_resolver.hpp"

namespace dp {

ParsedTemplateCache::ParsedTemplateCache(size_t capacity) : capacity_(capacity) {}

ParsedTemplate ParsedTemplateCache::Get(const TemplateVersionRecord& version,
                                        size_t max_body_chars) {
  std::string key = version.workspace_id + '\n' + version.template_id + '@' +
                    std::to_string(version.version) + '\n' + version.body_hash;
  {
    std::lock_guard lock(mutex_);
    if (auto it = index_.find(key); it != index_.end()) {
      entries_.splice(entries_.begin(), entries_, it->second);
      return it->second->second;
    }
    ++parses_;
  }
  // Parse outside the lock: a slow parse must not stall other renders.
  ParsedTemplate parsed = ParseTemplateVersion(version, max_body_chars);
  if (capacity_ == 0) return parsed;
  std::lock_guard lock(mutex_);
  if (index_.count(key)) return parsed;  // another thread parsed it meanwhile
  entries_.emplace_front(std::move(key), parsed);
  index_[entries_.front().first] = entries_.begin();
  if (entries_.size() > capacity_) {
    index_.erase(entries_.back().first);
    entries_.pop_back();
  }
  return parsed;
}

size_t ParsedTemplateCache::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

size_t ParsedTemplateCache::parses() const {
  std::lock_guard lock(mutex_);
  return parses_;
}

}  // namespace dp
