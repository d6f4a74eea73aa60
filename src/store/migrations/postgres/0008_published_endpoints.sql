-- 0008_published_endpoints (PostgreSQL): a released pipeline served as GET /api/x/… (REST API
-- §19, metadata-db §4.13–4.14, the published-endpoints design §4). Kept in step with
-- sqlite/0008_published_endpoints.sql. Times are epoch-ms BIGINT, like 0004.

-- One row per published URL pattern. UNIQUE (path_pattern) is deployment-wide — a URL is
-- global — and only the second line: two patterns that could match one URL ('/a/{x}' and
-- '/a/b') are refused by the service's overlap check before anything is written.
CREATE TABLE published_endpoints (
  id              TEXT    NOT NULL PRIMARY KEY,
  workspace_id    TEXT    NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  path_pattern    TEXT    NOT NULL UNIQUE,
  pipeline_id     TEXT    NOT NULL REFERENCES pipelines (id),
  timeout_seconds INTEGER NOT NULL CHECK (timeout_seconds >= 1),
  description     TEXT    NOT NULL DEFAULT '',
  is_enabled      INTEGER NOT NULL DEFAULT 1 CHECK (is_enabled IN (0, 1)),
  created_by      TEXT    NOT NULL,
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
-- pipeline_executions.via (the design's ENDPOINT trigger), widened in place.
ALTER TABLE pipeline_executions DROP CONSTRAINT pipeline_executions_via_check;
ALTER TABLE pipeline_executions ADD CONSTRAINT pipeline_executions_via_check
  CHECK (via IN ('mcp', 'rest', 'pipeline_node', 'endpoint'));
