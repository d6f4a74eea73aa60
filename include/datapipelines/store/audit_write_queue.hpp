#pragma once
// Writes audit rows on a thread of its own, in batches (one multi-row INSERT each), so a request
// never waits for the metadata database to record what it did. Bounded: when the queue is full
// a row is dropped, counted and logged (once a second at most) — the request is never blocked.
// Readers that must see their own writes (the admin audit page, the entry-point checks that
// learn from a key's past calls) call Flush() first.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "datapipelines/store/audit_sink.hpp"

namespace dp {

class AuditWriteQueue {
 public:
  struct Options {
    std::size_t capacity = 10000;  // rows waiting at most; one more is dropped
    std::size_t max_batch = 256;   // rows per INSERT
  };
  AuditWriteQueue(AuditSink& store, Options options);
  ~AuditWriteQueue();  // Stop()
  AuditWriteQueue(const AuditWriteQueue&) = delete;
  AuditWriteQueue& operator=(const AuditWriteQueue&) = delete;

  // Queues one row; false when the queue is full (the row is dropped and counted). Never
  // blocks on the database, never throws.
  bool Push(AuditEvent event) noexcept;
  // Returns once every row pushed before the call is written (or its write failed).
  void Flush();
  // Writes what is queued, then ends the writer thread; later pushes are dropped and counted.
  void Stop();

  int64_t Dropped() const { return dropped_.load(std::memory_order_relaxed); }
  int64_t WriteFailures() const { return write_failures_.load(std::memory_order_relaxed); }
  int64_t Batches() const { return batches_.load(std::memory_order_relaxed); }

 private:
  void Run();
  void WriteBatch(std::vector<AuditEvent>& batch) noexcept;
  void WriteOne(const AuditEvent& row) noexcept;
  void CountDrop() noexcept;

  AuditSink& store_;
  const Options options_;
  std::mutex mutex_;
  std::condition_variable wake_;     // the writer: rows arrived, or stop
  std::condition_variable written_;  // Flush: a batch was written
  std::deque<AuditEvent> queue_;
  uint64_t pushed_ = 0;   // rows accepted so far (the sequence Flush waits for)
  uint64_t settled_ = 0;  // rows written or failed so far
  bool stopping_ = false;
  bool finished_ = false;  // the writer has returned
  std::atomic<int64_t> dropped_{0};
  std::atomic<int64_t> write_failures_{0};
  std::atomic<int64_t> batches_{0};
  std::atomic<int64_t> last_drop_log_ms_{0};
  std::thread writer_;
};

}  // namespace dp
