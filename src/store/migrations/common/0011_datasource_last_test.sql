-- 0011_datasource_last_test: the outcome of the LAST connection test, as typed columns
-- (datasources.md §8.1B, metadata-db §4.10's last_test_*; issue 17). Written by
-- DatasourceService::Test alone (MCP datasources_test, REST POST /datasources/{name}/test, the
-- UI's Test button): when, whether it connected, how long it took and the catalogued error
-- code of a failure. No message column: a driver's sentence can carry a host, a port or a user
-- name, so the text is answered to the caller and never stored. All NULL = never tested. The
-- write does not move updated_at (an observation, not an edit). It replaces 0003's free-form
-- health_json, which held that text and is dropped here.
ALTER TABLE datasources ADD COLUMN last_test_at_ms BIGINT;
ALTER TABLE datasources ADD COLUMN last_test_ok INTEGER CHECK (last_test_ok IN (0, 1));
ALTER TABLE datasources ADD COLUMN last_test_latency_ms BIGINT;
ALTER TABLE datasources ADD COLUMN last_test_error_code TEXT;
ALTER TABLE datasources DROP COLUMN health_json;
