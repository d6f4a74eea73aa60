#pragma once
// Metadata store over PostgreSQL (libpqxx 6.4) for multi-instance deployments. A small
// pool of connections (mutex + condition variable); a connection found broken is
// reopened and the operation retried once. Statements are prepared per connection.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "datapipelines/store/metadata_store.hpp"

namespace dp {

class PostgresMetadataStore final : public MetadataStore {
 public:
  static constexpr std::size_t kDefaultPoolSize = 4;

  // Opens the first connection eagerly so a bad URL fails here. Throws std::runtime_error
  // whose message never carries the password.
  explicit PostgresMetadataStore(std::string url, std::size_t pool_size = kDefaultPoolSize);
  ~PostgresMetadataStore() override;
  PostgresMetadataStore(const PostgresMetadataStore&) = delete;
  PostgresMetadataStore& operator=(const PostgresMetadataStore&) = delete;

  // Each migration runs in its own transaction under pg_advisory_xact_lock, so instances
  // starting together apply it exactly once.
  int Migrate() override;
  int SchemaVersion() override;
  bool Ping() override;
  std::string BackendName() const override { return "postgres"; }

 public:  // SqlExecutor
  std::vector<SqlRow> Query(const std::string& sql, const std::vector<SqlValue>& params) override;
  int64_t Execute(const std::string& sql, const std::vector<SqlValue>& params) override;

 private:
  struct Connection;  // pqxx::connection + names prepared on it (defined in the .cpp)

  std::unique_ptr<Connection> Open();
  std::unique_ptr<Connection> Acquire();
  void Release(std::unique_ptr<Connection> conn);
  void Discard();
  // Runs fn on a pooled connection; on a broken connection reopens it and retries once.
  void Run(const std::function<void(Connection&)>& fn);
  std::string StatementName(const std::string& sql);
  [[noreturn]] void Rethrow(const std::exception& error) const;

  const std::string url_;
  const std::size_t pool_size_;
  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<Connection>> idle_;
  std::size_t open_ = 0;                                          // idle + leased
  std::unordered_map<std::string, std::string> statement_names_;  // sql -> "dp_s<n>"
  // Set when the server refused a write for want of disk, cleared by the next write that
  // changed a row: while set, Ping reports the store down.
  mutable std::atomic<bool> writes_failing_{false};
};

}  // namespace dp
