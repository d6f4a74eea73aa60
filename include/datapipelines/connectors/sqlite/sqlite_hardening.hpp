#pragma once
// The one hardening every SQLite handle we open gets (issue 9): no FTS3 tokenizer interface
// (fts3_tokenizer() plants function pointers), DEFENSIVE on, no extension loading, no ATTACH,
// an untrusted schema, and an authorizer sized to what the handle runs. Call Harden right
// after sqlite3_open_v2, before any statement.
struct sqlite3;

namespace dp {

enum class SqliteRole {
  kMetadata,    // our embedded metadata store: only our SQL; PRAGMAs and writes allowed
  kDatasource,  // a user datasource's pool: author SQL; writes allowed, side-effect PRAGMAs not
  kProbe,       // sql_probe on a user datasource: read-only, no write of any kind
  kTempdb,      // an execution's staging engine (and the probe scratch): writes allowed
};

class SqliteHardening {
 public:
  // Applies the connection settings and installs the role's authorizer. Throws
  // std::runtime_error (never reached on a supported SQLite) when a setting does not take.
  static void Harden(sqlite3* db, SqliteRole role);

  // Our own statement, not author SQL (e.g. tempdb re-asserting PRAGMA max_page_count): while
  // a scope is alive on this thread, PRAGMAs the role otherwise refuses are allowed. The
  // authorizer runs at prepare time, so the scope only needs to cover the prepare.
  class TrustedScope {
   public:
    TrustedScope();
    ~TrustedScope();
    TrustedScope(const TrustedScope&) = delete;
    TrustedScope& operator=(const TrustedScope&) = delete;

   private:
    bool previous_;
  };
};

}  // namespace dp
