-- 0009_lake_tables: the dp-lake registry (metadata-db §4.15, issue 16). A LAKE datasource's
-- tables are exactly its rows here: the engine cannot list a bucket, so this catalog is what
-- introspection, the per-table views and query resolution read. Written by LakeTableService
-- alone (REST /datasources/{name}/tables, the lake_tables_* MCP tools); inserted and deleted,
-- never edited. namespace_json is the segments array as JSON text (portable across both
-- backends, the learned_facts precedent); the grammar is the service's, the format CHECK is the
-- database's last word before a bad view. registered_by names the actor without a foreign key
-- so a system actor (bootstrap, quickstart) can seed the demo lake.
CREATE TABLE lake_tables (
  datasource_id    TEXT    NOT NULL REFERENCES datasources (name) ON DELETE CASCADE,
  namespace_json   TEXT    NOT NULL,
  name             TEXT    NOT NULL,
  format           TEXT    NOT NULL,
  location         TEXT    NOT NULL,
  partition_column TEXT,
  registered_by    TEXT    NOT NULL,
  registered_at_ms BIGINT  NOT NULL,
  last_error       TEXT,
  last_error_at_ms BIGINT,
  CONSTRAINT chk_lake_table_format CHECK (format IN ('parquet', 'iceberg')),
  CONSTRAINT uq_lake_tables_datasource_namespace_name UNIQUE (datasource_id, namespace_json, name)
);
