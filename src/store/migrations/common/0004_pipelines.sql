-- 0004_pipelines (both backends, one file): pipeline entities and their versions
-- (metadata-db §4.4–4.5).
-- A pipeline is addressed by uuid; its name (a
-- folder path) is unique per workspace forever: there is no rename and no soft delete. The
-- working version (the draft when one exists, else the latest release) and current_version
-- (the latest release) are derived from the version statuses, never stored twice.

CREATE TABLE pipelines (
  id            TEXT    NOT NULL PRIMARY KEY,  -- uuid
  workspace_id  TEXT    NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  name          TEXT    NOT NULL,              -- folder path, e.g. 'acme/finance/revenue'
  owner         TEXT    NOT NULL,              -- creating user id
  created_at_ms BIGINT  NOT NULL,
  UNIQUE (workspace_id, name)
);

CREATE TABLE pipeline_versions (
  pipeline_id    TEXT    NOT NULL REFERENCES pipelines (id) ON DELETE CASCADE,
  version        INTEGER NOT NULL CHECK (version >= 1),
  status         TEXT    NOT NULL CHECK (status IN ('DRAFT', 'RELEASED', 'DISCARDED')),
  body_json      TEXT    NOT NULL,  -- the canonical portable body (pipeline-contract §3.2)
  body_hash      TEXT    NOT NULL,
  created_by     TEXT    NOT NULL,
  created_at_ms  BIGINT  NOT NULL,
  updated_by     TEXT    NOT NULL,
  updated_at_ms  BIGINT  NOT NULL,
  released_by    TEXT,
  released_at_ms BIGINT,
  PRIMARY KEY (pipeline_id, version)
);
-- At most one open draft per pipeline: two racing copy-on-write updates cannot both win.
CREATE UNIQUE INDEX pipeline_versions_one_draft_idx
  ON pipeline_versions (pipeline_id) WHERE status = 'DRAFT';

-- The entry-point checks read one key's own calls of one tool back (spec §14, 139): the tool
-- gets a column of its own, so that read is an index range, not a scan of the key's history.
ALTER TABLE audit_log ADD COLUMN tool TEXT;
CREATE INDEX audit_log_key_tool_idx ON audit_log (key_id, tool);
