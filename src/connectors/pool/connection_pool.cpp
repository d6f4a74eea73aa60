#include "datapipelines/connectors/pool/connection_pool.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {

ConnectionPool::Lease::Lease(std::shared_ptr<ConnectionPool> pool, std::unique_ptr<Connection> conn,
                             Clock::time_point created, bool reused)
    : pool_(std::move(pool)), conn_(std::move(conn)), created_(created), reused_(reused) {}

ConnectionPool::Lease& ConnectionPool::Lease::operator=(Lease&& other) noexcept {
  if (this != &other) {
    Release();
    pool_ = std::move(other.pool_);
    conn_ = std::move(other.conn_);
    created_ = other.created_;
    reused_ = other.reused_;
  }
  return *this;
}

ConnectionPool::Lease::~Lease() { Release(); }

void ConnectionPool::Lease::Discard() {
  if (pool_ && conn_) pool_->Return(std::move(conn_), created_, true);
  pool_.reset();
}

void ConnectionPool::Lease::Release() {
  if (pool_ && conn_) pool_->Return(std::move(conn_), created_, false);
  pool_.reset();
}

std::shared_ptr<ConnectionPool> ConnectionPool::Create(PoolSettings settings, Factory factory) {
  return std::shared_ptr<ConnectionPool>(
      new ConnectionPool(std::move(settings), std::move(factory)));
}

ConnectionPool::ConnectionPool(PoolSettings settings, Factory factory)
    : settings_(std::move(settings)), factory_(std::move(factory)) {
  if (settings_.max_size < 1) settings_.max_size = 1;
}

ConnectionPool::~ConnectionPool() { Close(); }

bool ConnectionPool::Usable(Idle& idle) {
  auto now = Clock::now();
  if (idle.conn->broken()) return false;
  if (settings_.max_lifetime_ms > 0 &&
      now - idle.created > std::chrono::milliseconds(settings_.max_lifetime_ms)) {
    return false;
  }
  if (now - idle.last_used < std::chrono::milliseconds(settings_.validate_after_idle_ms)) {
    return true;
  }
  if (!settings_.validation_query.empty()) {
    try {
      QueryOptions options;
      options.timeout_ms = settings_.validation_timeout_ms;
      idle.conn->Query(settings_.validation_query, {}, options,
                       [](const RowView&) { return true; });
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }
  return idle.conn->Ping(settings_.validation_timeout_ms);
}

ConnectionPool::Lease ConnectionPool::Acquire() {
  auto deadline = Clock::now() + std::chrono::milliseconds(settings_.acquire_timeout_ms);
  std::unique_lock lock(mutex_);
  while (true) {
    if (closed_) {
      throw DomainError(errc::kNodeConnectionFailed, "the datasource's pool is closed");
    }
    while (!idle_.empty()) {
      Idle candidate = std::move(idle_.back());
      idle_.pop_back();
      lock.unlock();
      bool usable = Usable(candidate);  // validation runs without the pool lock
      if (usable) {
        return Lease(shared_from_this(), std::move(candidate.conn), candidate.created, true);
      }
      candidate.conn.reset();
      lock.lock();
      --total_;
      available_.notify_one();
    }
    if (total_ < settings_.max_size) {
      ++total_;
      lock.unlock();
      try {
        auto conn = factory_();
        return Lease(shared_from_this(), std::move(conn), Clock::now(), false);
      } catch (...) {
        lock.lock();
        --total_;
        available_.notify_one();
        throw;
      }
    }
    ++waiting_;
    const bool timed_out = available_.wait_until(lock, deadline) == std::cv_status::timeout;
    --waiting_;
    if (timed_out && idle_.empty() && total_ >= settings_.max_size) {
      ++timeouts_;
      throw DomainError(errc::kNodeConnectionFailed,
                        "could not acquire a connection within " +
                            std::to_string(settings_.acquire_timeout_ms) + " ms: all " +
                            std::to_string(settings_.max_size) + " pooled connections are in use",
                        Json{{"reason", "pool_exhausted"},
                             {"acquire_timeout_ms", settings_.acquire_timeout_ms},
                             {"max_size", settings_.max_size}});
    }
  }
}

void ConnectionPool::Return(std::unique_ptr<Connection> conn, Clock::time_point created,
                            bool discard) {
  std::vector<std::unique_ptr<Connection>> doomed;
  {
    std::lock_guard lock(mutex_);
    if (discard || closed_ || conn->broken()) {
      doomed.push_back(std::move(conn));
      --total_;
    } else {
      idle_.push_back(Idle{std::move(conn), created, Clock::now()});
    }
    EvictLocked(doomed);
  }
  available_.notify_one();
  doomed.clear();  // sessions close outside the lock
}

void ConnectionPool::EvictLocked(std::vector<std::unique_ptr<Connection>>& doomed) {
  auto now = Clock::now();
  for (auto it = idle_.begin(); it != idle_.end();) {
    bool too_old = settings_.max_lifetime_ms > 0 &&
                   now - it->created > std::chrono::milliseconds(settings_.max_lifetime_ms);
    bool idle_long = settings_.idle_timeout_ms > 0 &&
                     now - it->last_used > std::chrono::milliseconds(settings_.idle_timeout_ms) &&
                     static_cast<int>(idle_.size()) > settings_.min_idle;
    if (too_old || idle_long) {
      doomed.push_back(std::move(it->conn));
      it = idle_.erase(it);
      --total_;
    } else {
      ++it;
    }
  }
}

void ConnectionPool::EvictIdle() {
  std::vector<std::unique_ptr<Connection>> doomed;
  {
    std::lock_guard lock(mutex_);
    EvictLocked(doomed);
  }
  available_.notify_all();
}

void ConnectionPool::Close() {
  std::vector<std::unique_ptr<Connection>> doomed;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    for (auto& idle : idle_) doomed.push_back(std::move(idle.conn));
    total_ -= static_cast<int>(idle_.size());
    idle_.clear();
  }
  available_.notify_all();
}

int ConnectionPool::total() const {
  std::lock_guard lock(mutex_);
  return total_;
}

int ConnectionPool::idle() const {
  std::lock_guard lock(mutex_);
  return static_cast<int>(idle_.size());
}

int ConnectionPool::waiting() const {
  std::lock_guard lock(mutex_);
  return waiting_;
}

int64_t ConnectionPool::timeouts() const {
  std::lock_guard lock(mutex_);
  return timeouts_;
}

}  // namespace dp
