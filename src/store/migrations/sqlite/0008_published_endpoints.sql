-- 0008_published_endpoints (SQLite): a released pipeline served as GET /api/x/… (REST API §19,
-- metadata-db §4.13–4.14, the published-endpoints design §4). Kept in step with
-- postgres/0008_published_endpoints.sql. Times are epoch-ms BIGINT, like 0004.

-- One row per published URL pattern. UNIQUE (path_pattern) is deployment-wide — a URL is
-- global — and only the second line: two patterns that could match one URL ('/a/{x}' and
-- '/a/b') are refused by the service's overlap check before anything is written.
CREATE TABLE published_endpoints (
  id              TEXT    NOT NULL PRIMARY KEY,  -- uuid
  workspace_id    TEXT    NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  path_pattern    TEXT    NOT NULL UNIQUE,       -- '/finance/revenue/{region}', no /api/x
  pipeline_id     TEXT    NOT NULL REFERENCES pipelines (id),
  timeout_seconds INTEGER NOT NULL CHECK (timeout_seconds >= 1),
  description     TEXT    NOT NULL DEFAULT '',
  is_enabled      INTEGER NOT NULL DEFAULT 1 CHECK (is_enabled IN (0, 1)),
  created_by      TEXT    NOT NULL,              -- user id
  created_at_ms   BIGINT  NOT NULL,
  updated_at_ms   BIGINT  NOT NULL
);
CREATE INDEX published_endpoints_workspace_idx ON published_endpoints (workspace_id);
CREATE INDEX published_endpoints_pipeline_idx ON published_endpoints (pipeline_id);

-- Which keys authorise which NODE of the endpoint tree ('/finance' binds everything beneath
-- it). Per request the first ancestor carrying any binding decides (auth.md §7.7).
CREATE TABLE endpoint_key_bindings (
  path_prefix   TEXT   NOT NULL,
  api_key_id    TEXT   NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  workspace_id  TEXT   NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  created_by    TEXT   NOT NULL,
  created_at_ms BIGINT NOT NULL,
  PRIMARY KEY (path_prefix, api_key_id)
);
CREATE INDEX endpoint_key_bindings_key_idx ON endpoint_key_bindings (api_key_id);

-- An endpoint serve is an execution of its own kind: 'endpoint' joins the closed set of
-- pipeline_executions.via (the design's ENDPOINT trigger). SQLite cannot widen a CHECK in
-- place, so the table is rebuilt the documented way; execution_events is rebuilt beside it so
-- no row is cascaded away when the old table is dropped, and RENAME re-points every reference.
CREATE TABLE pipeline_executions_0008 (
  id                  TEXT    NOT NULL PRIMARY KEY,
  workspace_id        TEXT    NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  pipeline_id         TEXT    NOT NULL REFERENCES pipelines (id) ON DELETE CASCADE,
  pipeline_name       TEXT    NOT NULL,
  pipeline_version    INTEGER NOT NULL,
  version_status      TEXT    NOT NULL CHECK (version_status IN ('DRAFT', 'RELEASED')),
  status              TEXT    NOT NULL
                        CHECK (status IN ('RUNNING', 'SUCCESS', 'FAILED', 'ABORTED')),
  triggered_by        TEXT    NOT NULL,
  key_id              TEXT,
  via                 TEXT    NOT NULL
                        CHECK (via IN ('mcp', 'rest', 'pipeline_node', 'endpoint')),
  correlation_id      TEXT,
  instance_id         TEXT    NOT NULL,
  parent_execution_id TEXT    REFERENCES pipeline_executions_0008 (id) ON DELETE CASCADE,
  parent_node_id      TEXT,
  root_execution_id   TEXT    NOT NULL,
  idempotency_key     TEXT,
  request_hash        TEXT,
  parameters_json     TEXT    NOT NULL,
  node_stats_json     TEXT    NOT NULL,
  error_json          TEXT,
  result_json         TEXT,
  abort_reason        TEXT,
  cancel_requested    TEXT,
  started_at_ms       BIGINT  NOT NULL,
  finished_at_ms      BIGINT,
  FOREIGN KEY (pipeline_id, pipeline_version)
    REFERENCES pipeline_versions (pipeline_id, version) ON DELETE CASCADE,
  CHECK ((status = 'RUNNING') = (finished_at_ms IS NULL))
);
INSERT INTO pipeline_executions_0008 SELECT * FROM pipeline_executions;
CREATE TABLE execution_events_0008 (
  execution_id TEXT   NOT NULL REFERENCES pipeline_executions_0008 (id) ON DELETE CASCADE,
  seq          BIGINT NOT NULL CHECK (seq >= 1),
  type         TEXT   NOT NULL,
  data_json    TEXT   NOT NULL,
  at_ms        BIGINT NOT NULL,
  PRIMARY KEY (execution_id, seq)
);
INSERT INTO execution_events_0008 SELECT * FROM execution_events;
DROP TABLE execution_events;
DROP TABLE pipeline_executions;
ALTER TABLE pipeline_executions_0008 RENAME TO pipeline_executions;
ALTER TABLE execution_events_0008 RENAME TO execution_events;
CREATE INDEX pipeline_executions_workspace_idx
  ON pipeline_executions (workspace_id, started_at_ms DESC);
CREATE INDEX pipeline_executions_pipeline_idx
  ON pipeline_executions (pipeline_id, started_at_ms DESC);
CREATE INDEX pipeline_executions_user_idx
  ON pipeline_executions (triggered_by, started_at_ms DESC);
CREATE INDEX pipeline_executions_running_idx
  ON pipeline_executions (instance_id) WHERE status = 'RUNNING';
CREATE INDEX pipeline_executions_root_idx ON pipeline_executions (root_execution_id);
CREATE INDEX pipeline_executions_parent_idx
  ON pipeline_executions (parent_execution_id) WHERE parent_execution_id IS NOT NULL;
CREATE INDEX pipeline_executions_idempotency_idx
  ON pipeline_executions (workspace_id, triggered_by, idempotency_key, started_at_ms)
  WHERE idempotency_key IS NOT NULL;
