#pragma once
// A bounded pool of sessions honouring PoolSettings: max size, acquire timeout
// (pipeline.node.datasource_connection_failed when exhausted), idle eviction above
// min_idle, max lifetime, and validation of sessions idle past validate_after_idle_ms.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

#include "datapipelines/connectors/connection.hpp"
#include "datapipelines/connectors/connector_config.hpp"

namespace dp {

class ConnectionPool : public std::enable_shared_from_this<ConnectionPool> {
 public:
  using Factory = std::function<std::unique_ptr<Connection>()>;
  using Clock = std::chrono::steady_clock;

  // A leased session; returns to the pool on destruction (dropped when broken).
  class Lease {
   public:
    Lease() = default;
    Lease(std::shared_ptr<ConnectionPool> pool, std::unique_ptr<Connection> conn,
          Clock::time_point created, bool reused);
    Lease(Lease&&) noexcept = default;
    Lease& operator=(Lease&&) noexcept;
    ~Lease();
    Connection* operator->() const { return conn_.get(); }
    Connection& operator*() const { return *conn_; }
    Connection* get() const { return conn_.get(); }
    // Drop the session instead of returning it (e.g. after a cancel mid-protocol).
    void Discard();
    // The session served an earlier lease: it may have gone stale since (a server restart).
    bool reused() const { return reused_; }

   private:
    void Release();
    std::shared_ptr<ConnectionPool> pool_;
    std::unique_ptr<Connection> conn_;
    Clock::time_point created_{};
    bool reused_ = false;
  };

  static std::shared_ptr<ConnectionPool> Create(PoolSettings settings, Factory factory);
  ~ConnectionPool();

  Lease Acquire();
  // Closes idle sessions past idle_timeout (keeping min_idle) or max_lifetime.
  void EvictIdle();
  // Refuses new leases and closes idle sessions; leased ones close on return.
  void Close();

  int total() const;
  int idle() const;
  int waiting() const;       // callers blocked in Acquire right now
  int64_t timeouts() const;  // Acquire calls that gave up (pool exhausted), ever
  const PoolSettings& settings() const { return settings_; }

 private:
  struct Idle {
    std::unique_ptr<Connection> conn;
    Clock::time_point created;
    Clock::time_point last_used;
  };
  ConnectionPool(PoolSettings settings, Factory factory);
  void Return(std::unique_ptr<Connection> conn, Clock::time_point created, bool discard);
  bool Usable(Idle& idle);
  void EvictLocked(std::vector<std::unique_ptr<Connection>>& doomed);

  PoolSettings settings_;
  Factory factory_;
  mutable std::mutex mutex_;
  std::condition_variable available_;
  std::deque<Idle> idle_;
  int total_ = 0;  // idle + leased + being opened
  int waiting_ = 0;
  int64_t timeouts_ = 0;
  bool closed_ = false;
};

}  // namespace dp
