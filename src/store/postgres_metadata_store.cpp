#include "datapipelines/store/postgres_metadata_store.hpp"

#include <chrono>
#include <pqxx/pqxx>
#include <stdexcept>
#include <unordered_set>

#include "datapipelines/store/migration.hpp"
#include "datapipelines/store/redact_url.hpp"
#include "datapipelines/store/store_outage.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/socket_liveness.hpp"

namespace dp {

struct PostgresMetadataStore::Connection {
  explicit Connection(const std::string& url) : pq(url) {}
  pqxx::connection pq;
  std::unordered_set<std::string> prepared;  // statement names prepared on `pq`
};

namespace {

constexpr auto kAcquireTimeout = std::chrono::seconds(30);
// Arbitrary, fixed key ("dp_meta" in ASCII) for the migration advisory lock.
constexpr int64_t kMigrationLockKey = 0x64705f6d657461;

std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

// Parameters travel as text (NULL as a null pointer); the server casts them by context.
std::vector<std::optional<std::string>> ToText(const std::vector<SqlValue>& params) {
  std::vector<std::optional<std::string>> out;
  out.reserve(params.size());
  for (const SqlValue& value : params) {
    if (const auto* text = std::get_if<std::string>(&value)) {
      out.emplace_back(*text);
    } else if (const auto* number = std::get_if<int64_t>(&value)) {
      out.emplace_back(std::to_string(*number));
    } else {
      out.emplace_back(std::nullopt);
    }
  }
  return out;
}

std::vector<SqlRow> ToRows(const pqxx::result& result) {
  std::vector<SqlRow> rows;
  rows.reserve(result.size());
  for (const auto& row : result) {
    SqlRow out(row.size());
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (!row[static_cast<pqxx::row::size_type>(c)].is_null()) {
        out[c] = row[static_cast<pqxx::row::size_type>(c)].c_str();
      }
    }
    rows.push_back(std::move(out));
  }
  return rows;
}

pqxx::result ExecPrepared(pqxx::transaction_base& tx, const std::string& name,
                          const std::vector<SqlValue>& params) {
  auto texts = ToText(params);
  std::vector<const char*> pointers;
  pointers.reserve(texts.size());
  for (const auto& text : texts) pointers.push_back(text ? text->c_str() : nullptr);
  return tx.exec_prepared(name, pqxx::prepare::make_dynamic_params(pointers));
}

}  // namespace

PostgresMetadataStore::PostgresMetadataStore(std::string url, std::size_t pool_size)
    : url_(std::move(url)), pool_size_(pool_size == 0 ? 1 : pool_size) {
  try {
    idle_.push_back(Open());
    open_ = 1;
  } catch (const std::exception& error) {
    throw std::runtime_error("cannot open PostgreSQL metadata store " + RedactUrl(url_) + ": " +
                             FirstLine(ScrubSecrets(error.what(), url_)));
  }
}

PostgresMetadataStore::~PostgresMetadataStore() = default;

int PostgresMetadataStore::Migrate() {
  for (const Migration& m : PostgresMigrations()) {
    Run([&](Connection& c) {
      pqxx::work tx(c.pq);
      // Serializes concurrent starts; released with the transaction.
      tx.exec("SELECT pg_advisory_xact_lock(" + std::to_string(kMigrationLockKey) + ")");
      if (tx.exec("SELECT to_regclass('schema_migrations') IS NULL")[0][0].as<bool>()) {
        tx.exec(
            "CREATE TABLE schema_migrations ("
            "version INTEGER PRIMARY KEY, applied_at_ms BIGINT NOT NULL)");
      }
      if (tx.exec_params("SELECT 1 FROM schema_migrations WHERE version = $1", m.version).empty()) {
        tx.exec(std::string(m.sql));
        tx.exec_params("INSERT INTO schema_migrations (version, applied_at_ms) VALUES ($1, $2)",
                       m.version, NowMs());
      }
      tx.commit();
    });
  }
  return SchemaVersion();
}

int PostgresMetadataStore::SchemaVersion() {
  int version = 0;
  Run([&](Connection& c) {
    pqxx::nontransaction tx(c.pq);
    // Two statements: a query naming a missing table fails at parse time.
    if (tx.exec("SELECT to_regclass('schema_migrations') IS NULL")[0][0].as<bool>()) {
      version = 0;
      return;
    }
    version = tx.exec("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")[0][0].as<int>();
  });
  return version;
}

bool PostgresMetadataStore::Ping() {
  if (writes_failing_) return false;
  try {
    bool ok = false;
    Run([&](Connection& c) {
      pqxx::nontransaction tx(c.pq);
      ok = tx.exec("SELECT 1")[0][0].as<int>() == 1;
    });
    return ok;
  } catch (const std::exception&) {
    return false;
  }
}

std::vector<SqlRow> PostgresMetadataStore::Query(const std::string& sql,
                                                 const std::vector<SqlValue>& params) {
  std::vector<SqlRow> rows;
  std::string name = StatementName(sql);
  Run([&](Connection& c) {
    if (!c.prepared.count(name)) {
      c.pq.prepare(name, sql);
      c.prepared.insert(name);
    }
    pqxx::nontransaction tx(c.pq);  // one statement: autocommit is atomic enough
    rows = ToRows(ExecPrepared(tx, name, params));
  });
  return rows;
}

int64_t PostgresMetadataStore::Execute(const std::string& sql,
                                       const std::vector<SqlValue>& params) {
  int64_t affected = 0;
  std::string name = StatementName(sql);
  Run([&](Connection& c) {
    if (!c.prepared.count(name)) {
      c.pq.prepare(name, sql);
      c.prepared.insert(name);
    }
    pqxx::nontransaction tx(c.pq);
    affected = static_cast<int64_t>(ExecPrepared(tx, name, params).affected_rows());
  });
  if (affected > 0) writes_failing_ = false;  // a write reached the disk again
  return affected;
}

std::unique_ptr<PostgresMetadataStore::Connection> PostgresMetadataStore::Open() {
  return std::make_unique<Connection>(url_);
}

std::unique_ptr<PostgresMetadataStore::Connection> PostgresMetadataStore::Acquire() {
  std::unique_lock lock(mutex_);
  bool ready = available_.wait_for(lock, kAcquireTimeout,
                                   [&] { return !idle_.empty() || open_ < pool_size_; });
  if (!ready) ThrowMetadataUnavailable("postgres", "no free connection within 30 s");
  if (!idle_.empty()) {
    auto conn = std::move(idle_.back());
    idle_.pop_back();
    if (!PeerHasClosed(conn->pq.sock())) return conn;
    // The server restarted since this connection was last used: a fresh one takes its slot
    // rather than fail (or half-run) the statement meant for it.
  } else {
    ++open_;  // reserve the slot, then connect without holding the lock
  }
  lock.unlock();
  try {
    return Open();
  } catch (const std::exception& error) {
    Discard();
    Rethrow(error);
  }
}

void PostgresMetadataStore::Release(std::unique_ptr<Connection> conn) {
  {
    std::lock_guard lock(mutex_);
    idle_.push_back(std::move(conn));
  }
  available_.notify_one();
}

void PostgresMetadataStore::Discard() {
  {
    std::lock_guard lock(mutex_);
    --open_;
  }
  available_.notify_one();
}

void PostgresMetadataStore::Run(const std::function<void(Connection&)>& fn) {
  std::unique_ptr<Connection> conn = Acquire();
  for (int attempt = 0;; ++attempt) {
    try {
      fn(*conn);
      Release(std::move(conn));
      return;
    } catch (const pqxx::broken_connection& error) {
      // The server restarted or dropped us: reopen this slot and retry once.
      conn.reset();
      if (attempt > 0) {
        Discard();
        Rethrow(error);
      }
      try {
        conn = Open();
      } catch (const std::exception& open_error) {
        Discard();
        Rethrow(open_error);
      }
    } catch (const std::exception& error) {
      Release(std::move(conn));
      Rethrow(error);
    }
  }
}

std::string PostgresMetadataStore::StatementName(const std::string& sql) {
  std::lock_guard lock(mutex_);
  auto [it, inserted] = statement_names_.try_emplace(sql);
  if (inserted) it->second = "dp_s" + std::to_string(statement_names_.size());
  return it->second;
}

namespace {

// SQLSTATEs that say the server cannot serve now rather than that the statement is wrong:
// connection exceptions (08), shutting down or starting up (57P01-57P03), too many
// connections (53300). A full disk (53100) is its own answer.
bool IsOutageState(const std::string& state) {
  return state.rfind("08", 0) == 0 || state == "57P01" || state == "57P02" || state == "57P03" ||
         state == "53300";
}

}  // namespace

void PostgresMetadataStore::Rethrow(const std::exception& error) const {
  std::string message = FirstLine(ScrubSecrets(error.what(), url_));
  if (dynamic_cast<const pqxx::unique_violation*>(&error)) {
    throw DuplicateKeyError("PostgreSQL metadata store: " + message);
  }
  if (dynamic_cast<const pqxx::broken_connection*>(&error)) {
    ThrowMetadataUnavailable("postgres", RedactUrl(url_) + " unreachable: " + message);
  }
  if (const auto* sql = dynamic_cast<const pqxx::sql_error*>(&error)) {
    if (sql->sqlstate() == "53100") {
      writes_failing_ = true;
      ThrowMetadataStorageFull("postgres", message);
    }
    if (IsOutageState(sql->sqlstate())) ThrowMetadataUnavailable("postgres", message);
  }
  throw std::runtime_error("PostgreSQL metadata store: " + message);
}

}  // namespace dp
