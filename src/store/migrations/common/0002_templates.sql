-- 0002_templates (both backends, one file): template entities and their versions
-- (metadata-db §4.8–4.9, workspaces design §3).
-- A template id is unique per workspace, soft-deleted rows included (the id is not reusable
-- until hard-deleted). Versions carry their lifecycle status; the working version (the draft
-- when one exists, else the latest release) is derived from it, never stored twice.

CREATE TABLE templates (
  workspace_id  TEXT    NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  id            TEXT    NOT NULL,  -- folder path, e.g. 'acme/finance/daily_orders.sql'
  created_by    TEXT    NOT NULL,  -- user id; the creator purge_draft admits
  created_at_ms BIGINT  NOT NULL,
  is_deleted    INTEGER NOT NULL DEFAULT 0 CHECK (is_deleted IN (0, 1)),
  deleted_by    TEXT,
  deleted_at_ms BIGINT,
  PRIMARY KEY (workspace_id, id)
);

CREATE TABLE template_versions (
  workspace_id  TEXT    NOT NULL,
  template_id   TEXT    NOT NULL,
  version       INTEGER NOT NULL CHECK (version >= 1),
  status        TEXT    NOT NULL CHECK (status IN ('DRAFT', 'RELEASED', 'DISCARDED')),
  engine        TEXT    NOT NULL DEFAULT 'freemarker',
  type          TEXT    NOT NULL CHECK (type IN ('sql', 'html')),
  dialect       TEXT,  -- NULL exactly when type = 'html'
  display_name  TEXT    NOT NULL,
  description   TEXT    NOT NULL DEFAULT '',
  is_library    INTEGER NOT NULL DEFAULT 0 CHECK (is_library IN (0, 1)),
  imports_json  TEXT    NOT NULL DEFAULT '[]',  -- array of {id, version, alias}
  body          TEXT    NOT NULL,
  body_hash     TEXT    NOT NULL,
  created_by    TEXT    NOT NULL,
  created_at_ms BIGINT  NOT NULL,
  updated_by    TEXT    NOT NULL,
  updated_at_ms BIGINT  NOT NULL,
  PRIMARY KEY (workspace_id, template_id, version),
  FOREIGN KEY (workspace_id, template_id) REFERENCES templates (workspace_id, id)
    ON DELETE CASCADE
);
-- At most one open draft per template: two racing copy-on-write updates cannot both win.
CREATE UNIQUE INDEX template_versions_one_draft_idx
  ON template_versions (workspace_id, template_id) WHERE status = 'DRAFT';
