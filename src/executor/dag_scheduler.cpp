#include "datapipelines/executor/dag_scheduler.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "datapipelines/executor/execution_cancellation.hpp"

namespace dp {
namespace {

std::atomic<std::size_t> global_thread_limit{32};
std::atomic<std::size_t> global_threads{0};

// Takes one slot of the process-wide worker budget, or reports that none is left.
bool TryTakeThreadSlot() {
  std::size_t current = global_threads.load();
  while (current < global_thread_limit.load()) {
    if (global_threads.compare_exchange_weak(current, current + 1)) return true;
  }
  return false;
}

class ScheduledRun {
 public:
  ScheduledRun(const DagShape& shape, const DagSchedulerOptions& options,
               ExecutionCancellation& cancellation, const std::function<void(std::size_t)>& run,
               const std::function<void(std::size_t)>& on_failure)
      : shape_(shape),
        options_(options),
        cancellation_(cancellation),
        run_(run),
        on_failure_(on_failure),
        pending_parents_(shape.parents.size()),
        children_(shape.parents.size()),
        started_(shape.parents.size(), false) {
    for (std::size_t i = 0; i < shape.parents.size(); ++i) {
      pending_parents_[i] = shape.parents[i].size();
      for (std::size_t parent : shape.parents[i]) children_[parent].push_back(i);
      if (pending_parents_[i] == 0) ready_.push_back(i);
    }
  }

  std::vector<std::size_t> Execute() {
    Work();
    for (auto& thread : threads_) thread.join();
    std::vector<std::size_t> never_started;
    for (std::size_t i = 0; i < started_.size(); ++i) {
      if (!started_[i]) never_started.push_back(i);
    }
    return never_started;
  }

 private:
  // One thread's loop: take a ready node, run it, release its children.
  void Work() {
    std::unique_lock lock(mutex_);
    while (true) {
      changed_.wait(lock, [&] { return Stopping() || !ready_.empty() || running_ == 0; });
      if (Stopping() || (ready_.empty() && running_ == 0)) break;
      std::size_t node = ready_.front();
      ready_.pop_front();
      started_[node] = true;
      ++running_;
      MaybeAddWorker();
      lock.unlock();
      bool ok = RunOne(node);
      lock.lock();
      --running_;
      if (ok) {
        for (std::size_t child : children_[node]) {
          if (--pending_parents_[child] == 0) ready_.push_back(child);
        }
      }
      changed_.notify_all();
    }
    changed_.notify_all();
  }

  bool Stopping() const { return failed_ || cancellation_.aborted(); }

  // Another thread only while ready work would otherwise wait (called with the lock held).
  void MaybeAddWorker() {
    const std::size_t threads = threads_.size() + 1;
    if (ready_.empty() || threads >= options_.max_parallel_nodes) return;
    if (running_ < threads) return;  // an idle thread will take it
    if (!TryTakeThreadSlot()) return;
    threads_.emplace_back([this] {
      Work();
      global_threads.fetch_sub(1);
    });
  }

  bool RunOne(std::size_t node) {
    try {
      run_(node);
      return true;
    } catch (...) {
      bool first = false;
      {
        std::lock_guard lock(mutex_);
        first = !failed_;
        failed_ = true;
      }
      if (first) on_failure_(node);
      return false;
    }
  }

  const DagShape& shape_;
  const DagSchedulerOptions& options_;
  ExecutionCancellation& cancellation_;
  const std::function<void(std::size_t)>& run_;
  const std::function<void(std::size_t)>& on_failure_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::size_t> ready_;
  std::vector<std::size_t> pending_parents_;
  std::vector<std::vector<std::size_t>> children_;
  std::vector<bool> started_;
  std::vector<std::thread> threads_;
  std::size_t running_ = 0;
  bool failed_ = false;
};

}  // namespace

std::vector<std::size_t> DagScheduler::Run(const DagShape& shape,
                                           const DagSchedulerOptions& options,
                                           ExecutionCancellation& cancellation,
                                           const std::function<void(std::size_t)>& run,
                                           const std::function<void(std::size_t)>& on_failure) {
  return ScheduledRun(shape, options, cancellation, run, on_failure).Execute();
}

void DagScheduler::SetGlobalThreadLimit(std::size_t limit) { global_thread_limit = limit; }

}  // namespace dp
