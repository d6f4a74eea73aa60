#pragma once
// Metadata store over an embedded SQLite file (the no-server default). One connection in
// WAL mode, serialized by a mutex since callers come from the blocking thread pool;
// prepared statements are cached per SQL text. A full disk or an I/O failure is answered as
// an outage (store_outage.hpp), and readiness reports the store down until a write succeeds.
#include <mutex>
#include <string>
#include <unordered_map>

#include "datapipelines/store/metadata_store.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace dp {

class SqliteMetadataStore final : public MetadataStore {
 public:
  // `path` is a file path or ":memory:". Throws std::runtime_error when it cannot be opened.
  explicit SqliteMetadataStore(const std::string& path);
  ~SqliteMetadataStore() override;
  SqliteMetadataStore(const SqliteMetadataStore&) = delete;
  SqliteMetadataStore& operator=(const SqliteMetadataStore&) = delete;

  int Migrate() override;
  int SchemaVersion() override;
  bool Ping() override;
  std::string BackendName() const override { return "sqlite"; }

 public:  // SqlExecutor
  std::vector<SqlRow> Query(const std::string& sql, const std::vector<SqlValue>& params) override;
  int64_t Execute(const std::string& sql, const std::vector<SqlValue>& params) override;

 private:
  // All private helpers expect mutex_ held.
  std::vector<SqlRow> RunLocked(const std::string& sql, const std::vector<SqlValue>& params);
  sqlite3_stmt* Prepare(const std::string& sql);
  void ExecScript(const std::string& sql);
  bool ApplyMigrationLocked(int version, const std::string& sql);
  int SchemaVersionLocked();
  [[noreturn]] void Fail(int rc, const std::string& context);

  std::mutex mutex_;
  // Set when a write failed for want of disk or I/O, cleared by the next write that changed
  // a row: while set, Ping reports the store down (reads alone still answer).
  bool writes_failing_ = false;
  sqlite3* db_ = nullptr;
  std::unordered_map<std::string, sqlite3_stmt*> statements_;
};

}  // namespace dp
