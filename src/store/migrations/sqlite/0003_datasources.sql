-- 0003_datasources (sqlite): the datasource registry and its workspace grants
-- (datasources.md §3, §7.2; metadata-db.md §4.10; MCP spec D-R7 "visibility is the grant").
-- Kept in step with the other backend's 0003. Passwords are stored only as the AES-256-GCM
-- envelope "v1:<base64>" sealed with the datasource name as associated data.

CREATE TABLE datasources (
  name                  TEXT    PRIMARY KEY,
  display_name          TEXT    NOT NULL,
  description           TEXT,             -- optional; NULL = absent
  dialect               TEXT    NOT NULL,
  jdbc_url              TEXT    NOT NULL,
  username              TEXT    NOT NULL DEFAULT '',
  password_encrypted    TEXT    NOT NULL,
  properties_json       TEXT    NOT NULL DEFAULT '{}',
  query_timeout_seconds INTEGER,          -- NULL = the executor default
  include_schemas_json  TEXT    NOT NULL DEFAULT '[]',
  is_readonly           INTEGER NOT NULL DEFAULT 0 CHECK (is_readonly IN (0, 1)),
  workspace_id          TEXT    REFERENCES workspaces (id),  -- registering workspace; NULL = instance
  is_deleted            INTEGER NOT NULL DEFAULT 0 CHECK (is_deleted IN (0, 1)),
  health_json           TEXT,             -- the last datasources_test outcome
  created_by            TEXT,             -- provenance only; NULL = bootstrap file / system
  created_at_ms         BIGINT  NOT NULL,
  updated_at_ms         BIGINT  NOT NULL,
  CONSTRAINT datasources_name_chk CHECK (length(name) BETWEEN 1 AND 63 AND name GLOB '[a-z0-9_-]*' AND name NOT GLOB '*[^a-z0-9_-]*'),
  CONSTRAINT datasources_dialect_chk CHECK (
    dialect IN ('POSTGRES', 'ORACLE', 'MSSQL', 'MYSQL', 'H2', 'DUCKDB', 'SQLITE', 'LAKE')),
  CONSTRAINT datasources_timeout_chk CHECK (
    query_timeout_seconds IS NULL OR query_timeout_seconds >= 1)
);
CREATE INDEX datasources_active_idx ON datasources (name) WHERE is_deleted = 0;

CREATE TABLE datasource_grants (
  datasource_name TEXT   NOT NULL REFERENCES datasources (name) ON DELETE CASCADE,
  workspace_id    TEXT   NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  granted_by      TEXT,
  granted_at_ms   BIGINT NOT NULL,
  PRIMARY KEY (datasource_name, workspace_id)
);
CREATE INDEX datasource_grants_workspace_idx ON datasource_grants (workspace_id);
