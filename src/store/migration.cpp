// Hand-maintained copy of src/store/migrations/**/*.sql (raw string literals, byte for
// byte). tests/unit/store checks it against the files on disk: when you add or edit a
// migration, paste the file between R"sql( and )sql" here.
#include "datapipelines/store/migration.hpp"

namespace dp {
namespace {

constexpr Migration kSqlite[] = {
    {1, "0001_init",
     R"sql(-- 0001_init (SQLite): users, workspaces, memberships, API keys, sessions, audit log.
-- Portable subset, kept in step with postgres/0001_init.sql: TEXT uuids, epoch-ms
-- BIGINT timestamps, 0/1 INTEGER booleans, TEXT JSON. Empty optional ids are NULL.

CREATE TABLE users (
  id             TEXT    PRIMARY KEY,
  email          TEXT    NOT NULL UNIQUE,  -- stored lowercased by the adapter
  display_name   TEXT    NOT NULL DEFAULT '',
  password_hash  TEXT    NOT NULL DEFAULT '',
  is_active      INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  is_super_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_super_admin IN (0, 1)),
  created_at_ms  BIGINT  NOT NULL
);

CREATE TABLE workspaces (
  id            TEXT   PRIMARY KEY,
  name          TEXT   NOT NULL UNIQUE,
  display_name  TEXT   NOT NULL DEFAULT '',
  created_by    TEXT,  -- provenance only: no foreign key, users are never deleted
  created_at_ms BIGINT NOT NULL
);

CREATE TABLE workspace_members (
  workspace_id TEXT   NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  user_id      TEXT   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role         TEXT   NOT NULL CHECK (role IN ('viewer', 'operator', 'author', 'ws_admin')),
  joined_at_ms BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_members_user_idx ON workspace_members (user_id);

CREATE TABLE api_keys (
  id              TEXT    PRIMARY KEY,  -- public handle "dpk_<12 base32>"
  user_id         TEXT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  workspace_id    TEXT    REFERENCES workspaces (id) ON DELETE CASCADE,
  name            TEXT    NOT NULL DEFAULT '',
  kind            TEXT    NOT NULL CHECK (kind IN ('user', 'endpoint', 'server')),
  scope           TEXT    NOT NULL CHECK (scope IN ('read', 'execute', 'author')),
  key_hash        TEXT    NOT NULL,
  is_revoked      INTEGER NOT NULL DEFAULT 0 CHECK (is_revoked IN (0, 1)),
  created_at_ms   BIGINT  NOT NULL,
  expires_at_ms   BIGINT,
  last_used_at_ms BIGINT
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id);

CREATE TABLE sessions (
  token_hash    TEXT   PRIMARY KEY,  -- SHA-256 hex of the cookie value
  user_id       TEXT   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  workspace_id  TEXT   REFERENCES workspaces (id) ON DELETE SET NULL,
  created_at_ms BIGINT NOT NULL,
  expires_at_ms BIGINT NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at_ms);

-- Append-only; no foreign keys so history outlives the rows it mentions.
CREATE TABLE audit_log (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  timestamp_ms   BIGINT  NOT NULL,
  event          TEXT    NOT NULL,
  user_id        TEXT,
  key_id         TEXT,
  workspace_id   TEXT,
  correlation_id TEXT,
  source_ip      TEXT,
  details        TEXT    NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_timestamp_idx ON audit_log (timestamp_ms);
)sql"},
};

constexpr Migration kPostgres[] = {
    {1, "0001_init",
     R"sql(-- 0001_init (PostgreSQL): users, workspaces, memberships, API keys, sessions, audit log.
-- Portable subset, kept in step with sqlite/0001_init.sql: TEXT uuids, epoch-ms
-- BIGINT timestamps, 0/1 INTEGER booleans, TEXT JSON. Empty optional ids are NULL.

CREATE TABLE users (
  id             TEXT    PRIMARY KEY,
  email          TEXT    NOT NULL UNIQUE,  -- stored lowercased by the adapter
  display_name   TEXT    NOT NULL DEFAULT '',
  password_hash  TEXT    NOT NULL DEFAULT '',
  is_active      INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  is_super_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_super_admin IN (0, 1)),
  created_at_ms  BIGINT  NOT NULL
);

CREATE TABLE workspaces (
  id            TEXT   PRIMARY KEY,
  name          TEXT   NOT NULL UNIQUE,
  display_name  TEXT   NOT NULL DEFAULT '',
  created_by    TEXT,  -- provenance only: no foreign key, users are never deleted
  created_at_ms BIGINT NOT NULL
);

CREATE TABLE workspace_members (
  workspace_id TEXT   NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  user_id      TEXT   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role         TEXT   NOT NULL CHECK (role IN ('viewer', 'operator', 'author', 'ws_admin')),
  joined_at_ms BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_members_user_idx ON workspace_members (user_id);

CREATE TABLE api_keys (
  id              TEXT    PRIMARY KEY,  -- public handle "dpk_<12 base32>"
  user_id         TEXT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  workspace_id    TEXT    REFERENCES workspaces (id) ON DELETE CASCADE,
  name            TEXT    NOT NULL DEFAULT '',
  kind            TEXT    NOT NULL CHECK (kind IN ('user', 'endpoint', 'server')),
  scope           TEXT    NOT NULL CHECK (scope IN ('read', 'execute', 'author')),
  key_hash        TEXT    NOT NULL,
  is_revoked      INTEGER NOT NULL DEFAULT 0 CHECK (is_revoked IN (0, 1)),
  created_at_ms   BIGINT  NOT NULL,
  expires_at_ms   BIGINT,
  last_used_at_ms BIGINT
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id);

CREATE TABLE sessions (
  token_hash    TEXT   PRIMARY KEY,  -- SHA-256 hex of the cookie value
  user_id       TEXT   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  workspace_id  TEXT   REFERENCES workspaces (id) ON DELETE SET NULL,
  created_at_ms BIGINT NOT NULL,
  expires_at_ms BIGINT NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at_ms);

-- Append-only; no foreign keys so history outlives the rows it mentions.
CREATE TABLE audit_log (
  id             BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  timestamp_ms   BIGINT  NOT NULL,
  event          TEXT    NOT NULL,
  user_id        TEXT,
  key_id         TEXT,
  workspace_id   TEXT,
  correlation_id TEXT,
  source_ip      TEXT,
  details        TEXT    NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_timestamp_idx ON audit_log (timestamp_ms);
)sql"},
};

}  // namespace

std::span<const Migration> SqliteMigrations() { return kSqlite; }
std::span<const Migration> PostgresMigrations() { return kPostgres; }

}  // namespace dp
