#include "datapipelines/store/audit_write_queue.hpp"

#include <spdlog/spdlog.h>

#include "datapipelines/util/clock.hpp"

namespace dp {

AuditWriteQueue::AuditWriteQueue(AuditSink& store, Options options)
    : store_(store), options_(options), writer_([this] { Run(); }) {}

AuditWriteQueue::~AuditWriteQueue() { Stop(); }

bool AuditWriteQueue::Push(AuditEvent event) noexcept {
  try {
    {
      std::lock_guard lock(mutex_);
      if (stopping_ || queue_.size() >= options_.capacity) {
        CountDrop();
        return false;
      }
      queue_.push_back(std::move(event));
      ++pushed_;
    }
    wake_.notify_one();
    return true;
  } catch (...) {
    CountDrop();
    return false;
  }
}

void AuditWriteQueue::CountDrop() noexcept {
  const int64_t total = dropped_.fetch_add(1, std::memory_order_relaxed) + 1;
  // At most one line a second: a flood of drops must not become a flood of log lines.
  const int64_t now = NowMs();
  int64_t last = last_drop_log_ms_.load(std::memory_order_relaxed);
  if (now - last < 1000 || !last_drop_log_ms_.compare_exchange_strong(last, now)) return;
  try {
    spdlog::warn("audit queue full ({} rows waiting): {} audit rows dropped since start",
                 options_.capacity, total);
  } catch (...) {
  }
}

void AuditWriteQueue::Flush() {
  std::unique_lock lock(mutex_);
  const uint64_t target = pushed_;
  written_.wait(lock, [&] { return settled_ >= target || finished_; });
}

void AuditWriteQueue::Stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_one();
  if (writer_.joinable()) writer_.join();
}

void AuditWriteQueue::Run() {
  std::vector<AuditEvent> batch;
  batch.reserve(options_.max_batch);
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) {  // stopping, and everything is written
      finished_ = true;
      written_.notify_all();
      return;
    }
    while (!queue_.empty() && batch.size() < options_.max_batch) {
      batch.push_back(std::move(queue_.front()));
      queue_.pop_front();
    }
    lock.unlock();
    WriteBatch(batch);
    lock.lock();
    settled_ += batch.size();
    batch.clear();
    written_.notify_all();
  }
}

void AuditWriteQueue::WriteBatch(std::vector<AuditEvent>& batch) noexcept {
  try {
    store_.AppendAuditBatch(batch);
    batches_.fetch_add(1, std::memory_order_relaxed);
    return;
  } catch (...) {
    if (batch.size() == 1) {
      WriteOne(batch.front());
      return;
    }
  }
  // One bad row (or a statement the database refused as a whole) must not cost the others.
  for (const AuditEvent& row : batch) WriteOne(row);
}

void AuditWriteQueue::WriteOne(const AuditEvent& row) noexcept {
  try {
    store_.AppendAudit(row);
  } catch (const std::exception& e) {
    write_failures_.fetch_add(1, std::memory_order_relaxed);
    try {
      // Only the event name: the details are not needed to diagnose a store failure.
      spdlog::error("audit write failed for event '{}': {}", row.event, e.what());
    } catch (...) {
    }
  } catch (...) {
    write_failures_.fetch_add(1, std::memory_order_relaxed);
  }
}

}  // namespace dp
