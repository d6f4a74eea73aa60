-- 0005_executions (both backends, one file): execution history, its durable event log,
-- instance liveness and release check runs (metadata-db §4.6, §4.7, §4.20, §8.3). JSON is
-- TEXT and times are epoch-ms BIGINT, like 0004.

-- One row per execution: inserted RUNNING at launch, finished by one guarded UPDATE.
-- Both foreign keys to the pipeline cascade: a purged draft takes its executions (versioning
-- §5.4) in the purge statement itself, since the adapters have no transaction to delete them
-- in first. The composite key is also what makes pipeline_version name a version that exists.
CREATE TABLE pipeline_executions (
  id                  TEXT    NOT NULL PRIMARY KEY,  -- uuid
  workspace_id        TEXT    NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  pipeline_id         TEXT    NOT NULL REFERENCES pipelines (id) ON DELETE CASCADE,
  pipeline_name       TEXT    NOT NULL,              -- the name at launch, for history reads
  pipeline_version    INTEGER NOT NULL,
  version_status      TEXT    NOT NULL CHECK (version_status IN ('DRAFT', 'RELEASED')),
  status              TEXT    NOT NULL
                        CHECK (status IN ('RUNNING', 'SUCCESS', 'FAILED', 'ABORTED')),
  triggered_by        TEXT    NOT NULL,              -- user id, the owner for ownership checks
  key_id              TEXT,                          -- NULL for a session
  via                 TEXT    NOT NULL CHECK (via IN ('mcp', 'rest', 'pipeline_node')),
  correlation_id      TEXT,
  instance_id         TEXT    NOT NULL,              -- the server instance running it
  -- A PIPELINE node's child is part of its parent's run: it goes when the parent row goes.
  parent_execution_id TEXT    REFERENCES pipeline_executions (id) ON DELETE CASCADE,
  parent_node_id      TEXT,
  root_execution_id   TEXT    NOT NULL,              -- own id for a root
  idempotency_key     TEXT,                          -- REST Idempotency-Key
  request_hash        TEXT,                          -- sha256 of the request body, for the key
  parameters_json     TEXT    NOT NULL,              -- request parameters, then resolved Context
  node_stats_json     TEXT    NOT NULL,
  error_json          TEXT,
  result_json         TEXT,
  abort_reason        TEXT,
  cancel_requested    TEXT,  -- a cancel's reason, set by whichever instance took the request
  started_at_ms       BIGINT  NOT NULL,
  finished_at_ms      BIGINT,
  FOREIGN KEY (pipeline_id, pipeline_version)
    REFERENCES pipeline_versions (pipeline_id, version) ON DELETE CASCADE,
  -- A terminal row always has its finish time and a running one never does.
  CHECK ((status = 'RUNNING') = (finished_at_ms IS NULL))
);
-- History pages: the workspace listing, one pipeline's, one user's (non-admin reads).
CREATE INDEX pipeline_executions_workspace_idx
  ON pipeline_executions (workspace_id, started_at_ms DESC);
CREATE INDEX pipeline_executions_pipeline_idx
  ON pipeline_executions (pipeline_id, started_at_ms DESC);
CREATE INDEX pipeline_executions_user_idx
  ON pipeline_executions (triggered_by, started_at_ms DESC);
-- The crash sweep reads only in-flight rows, by the instance that owns them.
CREATE INDEX pipeline_executions_running_idx
  ON pipeline_executions (instance_id) WHERE status = 'RUNNING';
-- The family lookup, and the self-reference's cascade probe.
CREATE INDEX pipeline_executions_root_idx ON pipeline_executions (root_execution_id);
CREATE INDEX pipeline_executions_parent_idx
  ON pipeline_executions (parent_execution_id) WHERE parent_execution_id IS NOT NULL;
-- Not unique: a key may be reused once its replay window has passed.
CREATE INDEX pipeline_executions_idempotency_idx
  ON pipeline_executions (workspace_id, triggered_by, idempotency_key, started_at_ms)
  WHERE idempotency_key IS NOT NULL;

-- The durable event log: append-only; the key is the replay order and refuses a duplicate seq.
CREATE TABLE execution_events (
  execution_id TEXT   NOT NULL REFERENCES pipeline_executions (id) ON DELETE CASCADE,
  seq          BIGINT NOT NULL CHECK (seq >= 1),
  type         TEXT   NOT NULL,  -- no CHECK: the event vocabulary grows faster than the schema
  data_json    TEXT   NOT NULL,
  at_ms        BIGINT NOT NULL,
  PRIMARY KEY (execution_id, seq)
);

-- One row per server instance, stamped while it lives; the crash sweep aborts the RUNNING
-- executions of instances whose stamp went stale (or that never stamped).
CREATE TABLE server_instances (
  id              TEXT   NOT NULL PRIMARY KEY,
  heartbeat_at_ms BIGINT NOT NULL
);

-- Append-only check runs. The key is to the pipeline, not the version: a check run is a fact
-- about a version NUMBER and must not block a draft purge (metadata-db §4.20).
CREATE TABLE pipeline_check_runs (
  id              TEXT    NOT NULL PRIMARY KEY,  -- uuid
  pipeline_id     TEXT    NOT NULL REFERENCES pipelines (id) ON DELETE CASCADE,
  version         INTEGER NOT NULL,
  check_id        TEXT    NOT NULL,
  name            TEXT    NOT NULL,
  expected_json   TEXT,
  observed_json   TEXT,                          -- NULL on an error reached before a value
  verdict         TEXT    NOT NULL CHECK (verdict IN ('pass', 'fail', 'error')),
  message         TEXT,
  run_by          TEXT,                          -- no key to users: the run outlives the user
  via             TEXT    NOT NULL CHECK (via IN ('mcp', 'rest', 'ui', 'release')),
  ran_at_ms       BIGINT  NOT NULL,
  parameters_json TEXT    NOT NULL,              -- the bound parameters
  correlation_id  TEXT,
  duration_ms     BIGINT
);
-- The latest run per check is the release gate's and the UI's only read.
CREATE INDEX pipeline_check_runs_latest_idx
  ON pipeline_check_runs (pipeline_id, version, check_id, ran_at_ms DESC);
