-- 0006_learned_facts (both backends, one file): what agents learned about a datasource that
-- introspection could not tell them (metadata-db §4.18, the learned-semantic-layer design §3).
-- JSON is TEXT and times are epoch-ms BIGINT, like 0004.
-- A DATASOURCE fact (workspace_id NULL) is visible wherever the datasource is granted; a
-- WORKSPACE fact only in its workspace. Rows are never deleted by users: retired is a state.

CREATE TABLE learned_facts (
  id                 TEXT    NOT NULL PRIMARY KEY,  -- uuid
  scope              TEXT    NOT NULL,
  workspace_id       TEXT    REFERENCES workspaces (id) ON DELETE CASCADE,  -- NULL iff DATASOURCE
  datasource_name    TEXT    NOT NULL REFERENCES datasources (name) ON DELETE CASCADE,
  kind               TEXT    NOT NULL,
  fact               TEXT    NOT NULL,
  refs_json          TEXT    NOT NULL,  -- [{schema, table, column}], normalised (sorted)
  evidence_sql       TEXT,              -- the probe that showed it
  evidence_summary   TEXT,              -- what the probe returned, <= 300 characters
  trust              TEXT    NOT NULL,
  drift              TEXT,              -- why the read-time check demoted it
  schema_fingerprint TEXT    NOT NULL,  -- 'tableKey=sha256' entries joined by ';'
  recorded_by        TEXT    NOT NULL,  -- user id (provenance)
  recorded_via       TEXT    NOT NULL,
  recorded_in        TEXT    NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  source_pipeline_id TEXT    REFERENCES pipelines (id) ON DELETE SET NULL,
  source_version     INTEGER,
  recorded_at_ms     BIGINT  NOT NULL,
  verified_by        TEXT,
  verified_at_ms     BIGINT,
  supersedes         TEXT    REFERENCES learned_facts (id),
  retired_at_ms      BIGINT,
  retired_reason     TEXT,
  CONSTRAINT learned_facts_scope_chk CHECK (scope IN ('DATASOURCE', 'WORKSPACE')),
  CONSTRAINT learned_facts_kind_chk CHECK (kind IN (
    'unit', 'time_zone', 'sampling', 'grain', 'window', 'enum_meaning', 'join', 'caveat', 'format',
    'definition', 'exclusion', 'preference')),
  CONSTRAINT learned_facts_kind_scope_chk CHECK (
    (scope = 'WORKSPACE') = (kind IN ('definition', 'exclusion', 'preference'))),
  CONSTRAINT learned_facts_fact_length_chk CHECK (length(fact) BETWEEN 8 AND 1000),
  CONSTRAINT learned_facts_summary_length_chk CHECK (
    evidence_summary IS NULL OR length(evidence_summary) <= 300),
  CONSTRAINT learned_facts_trust_chk CHECK (
    trust IN ('asserted', 'observed', 'verified', 'needs_review', 'stale', 'retired')),
  CONSTRAINT learned_facts_via_chk CHECK (recorded_via IN ('session', 'api_key', 'mcp')),
  CONSTRAINT learned_facts_scope_workspace_chk CHECK (
    (scope = 'WORKSPACE') = (workspace_id IS NOT NULL)),
  CONSTRAINT learned_facts_retired_chk CHECK ((trust = 'retired') = (retired_at_ms IS NOT NULL))
);
-- Every read is per datasource, then narrowed to a table in the reader (metadata-db §4.18).
CREATE INDEX learned_facts_datasource_idx ON learned_facts (datasource_name);
CREATE INDEX learned_facts_workspace_idx ON learned_facts (workspace_id) WHERE workspace_id IS NOT NULL;
