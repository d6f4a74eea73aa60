#include "datapipelines/results/result_store.hpp"

#include <charconv>
#include <stdexcept>

#include "datapipelines/redis/redis_url.hpp"
#include "datapipelines/results/memory_result_store.hpp"
#include "datapipelines/results/redis_result_store.hpp"

namespace dp {
namespace {

std::size_t ParseMaxBytes(std::string_view text) {
  std::size_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value == 0) {
    throw std::invalid_argument("memory result store size must be a positive byte count");
  }
  return value;
}

}  // namespace

void ResultStore::Put(const std::string& key, const StoredResult& result,
                      std::chrono::seconds ttl) {
  auto writer = OpenWriter(key, ttl);
  for (const std::string& row : result.rows) writer->Append(row);
  writer->Commit(result.schema);
}

std::unique_ptr<ResultStore> OpenResultStore(const std::string& url,
                                             std::chrono::seconds memory_sweep_interval) {
  std::string_view text = url;
  if (text.empty() || text == "memory" || text.rfind("memory:", 0) == 0) {
    MemoryResultStoreOptions options;
    if (text.rfind("memory:", 0) == 0) options.max_bytes = ParseMaxBytes(text.substr(7));
    options.sweep_interval = memory_sweep_interval;
    return std::make_unique<MemoryResultStore>(std::move(options));
  }
  if (text.rfind("redis://", 0) == 0) {
    return std::make_unique<RedisResultStore>(RedisUrl::Parse(text));
  }
  // Do not echo the URL: it may carry credentials.
  throw std::invalid_argument(
      "unsupported result store URL: expected memory, memory:<bytes> or redis://host:port[/db]");
}

}  // namespace dp
