// Pipeline execution end to end with the official MCP SDK client: a cross-datasource pipeline
// (PostgreSQL + MariaDB + SQLite staged into tempdb, joined there, a calculator bound) run as a
// DRAFT and paged in json / csv / arrow; a failure diagnosed from its record alone; a long run
// cancelled from a second client of the same key, and every executions_cancel refusal; a child
// PIPELINE node; a write-back into PostgreSQL; parameter typing and caller-supplied calculator
// keys; progress notifications. Needs scripts/test-services (DP_TEST_PG_URL, DP_TEST_MYSQL_URL).
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { tableFromIPC, RecordBatchReader } from 'apache-arrow';
import { ADMIN_EMAIL } from './support/server.mjs';
import { startDemoServer } from './support/demo_server.mjs';
import { UUID_RE, mcpPost, keyHeader } from './support/http.mjs';
import {
  PG_URL, MYSQL_URL, psql, ensureDemoData, adminSession, rest, registerDatasource, agent,
  parseCsv, until,
} from './support/executions_env.mjs';

const required = process.env.DP_REQUIRE_SERVICES === '1';
const RUN = `${process.pid}_${Date.now().toString(36)}`;
const SCRATCH = `e2e_exec_${RUN}`; // writable PostgreSQL schema for the write-back
const WB_TABLE = `e2e_zone_totals_${RUN}`; // write-back table in the login's default schema
const enc = (id) => encodeURIComponent(id);

// Templates: one per datasource, the tempdb join, and the rest of the shows.
const T = {
  zones: 'city/exec/sql/zones.sql',
  pgTrips: 'city/exec/sql/pg_trips_in_window.sql',
  myTrips: 'city/exec/sql/mariadb_trips.sql',
  report: 'city/exec/sql/zone_report.sql',
  broken: 'city/exec/sql/broken_column.sql',
  slow: 'city/exec/sql/slow_count.sql',
  child: 'city/exec/sql/child_boroughs.sql',
  parentRead: 'city/exec/sql/parent_read.sql',
  ddl: 'city/exec/sql/create_zone_totals.sql',
  zoneTotals: 'city/exec/sql/zone_totals.sql',
  ddlPublic: 'city/exec/sql/create_zone_totals_default.sql',
  countTo: 'city/exec/sql/count_to.sql',
  sumCounts: 'city/exec/sql/sum_counts.sql',
};
const BODIES = {
  [T.zones]: ['SQLITE', 'SELECT id AS zone_id, name AS zone_name, borough FROM zones'],
  [T.pgTrips]: ['POSTGRES', 'SELECT t.pickup_zone_id AS zone_id, COUNT(*) AS pg_trips '
    + 'FROM demo.trips t WHERE CAST(t.pickup_at AS DATE) BETWEEN :window_start AND :window_end '
    + 'GROUP BY t.pickup_zone_id'],
  [T.myTrips]: ['MYSQL', 'SELECT t.pickup_zone_id AS zone_id, COUNT(*) AS my_trips '
    + 'FROM demo_trips t GROUP BY t.pickup_zone_id'],
  [T.report]: ['SQLITE', 'SELECT z.zone_id, z.zone_name, z.borough, '
    + 'COALESCE(p.pg_trips, 0) AS pg_trips, COALESCE(m.my_trips, 0) AS my_trips '
    + 'FROM stg_zones z LEFT JOIN stg_pg p ON p.zone_id = z.zone_id '
    + 'LEFT JOIN stg_my m ON m.zone_id = z.zone_id '
    + 'WHERE COALESCE(p.pg_trips, 0) >= :min_trips ORDER BY z.zone_id'],
  [T.broken]: ['POSTGRES', 'SELECT t.no_such_column AS x FROM demo.trips t LIMIT 1'],
  [T.slow]: ['SQLITE', 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c '
    + 'WHERE n < 5000000000) SELECT COUNT(*) AS n FROM c'],
  [T.child]: ['SQLITE', 'SELECT borough, COUNT(*) AS zones FROM zones WHERE id >= :min_zone_id '
    + 'GROUP BY borough'],
  [T.parentRead]: ['SQLITE', 'SELECT borough, zones FROM stg_child ORDER BY borough'],
  [T.ddl]: ['POSTGRES', `CREATE TABLE ${SCRATCH}.zone_totals (borough VARCHAR(32), zone_count BIGINT)`],
  [T.zoneTotals]: ['SQLITE', 'SELECT borough, COUNT(*) AS zone_count FROM zones GROUP BY borough'],
  [T.ddlPublic]: ['POSTGRES', `CREATE TABLE ${WB_TABLE} (borough VARCHAR(32), zone_count BIGINT)`],
  [T.countTo]: ['SQLITE', 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c '
    + 'WHERE n < :upto) SELECT COUNT(*) AS n FROM c'],
  [T.sumCounts]: ['SQLITE', 'SELECT (SELECT n FROM stg_a) + (SELECT n FROM stg_b) AS total'],
};

// The window the calculator computes: February 2024 (a leap year: 29 days).
const WINDOW = { start: '2024-02-01', end: '2024-02-29' };

function crossBody(name = 'city/exec/zone_report') {
  return {
    name,
    display_name: 'Trips per zone across three databases',
    description: 'One row per demo zone: its name and borough (SQLite), pickups in the window '
      + '(PostgreSQL) and all-time pickups (MariaDB). Parameter: min_trips.',
    parameters: {
      min_trips: { type: 'INTEGER', required: false, default: 0,
        description: 'Only zones with at least this many pickups in the window.' },
    },
    nodes: [
      { id: 'window', description: 'February 2024, first and last day.', type: 'CALCULATOR',
        kind: 'period_bounds', inputs: { date: '2024-02-10', unit: 'month' },
        context_keys: { start: 'window_start', end: 'window_end' }, depends_on: [] },
      { id: 'stg_zones', description: 'Every zone with its borough, from SQLite.', type: 'DQL',
        source: 'demo', template: { id: T.zones, version: 1 },
        output: { target: 'tempdb', table: 'stg_zones' }, depends_on: [] },
      { id: 'stg_pg', description: 'Pickups per zone in the window, from PostgreSQL.', type: 'DQL',
        source: 'pg', template: { id: T.pgTrips, version: 1 },
        output: { target: 'tempdb', table: 'stg_pg' }, depends_on: ['window'] },
      { id: 'stg_my', description: 'All-time pickups per zone, from MariaDB.', type: 'DQL',
        source: 'maria', template: { id: T.myTrips, version: 1 },
        output: { target: 'tempdb', table: 'stg_my' }, depends_on: [] },
      { id: 'report', description: 'The three joined per zone.', type: 'DQL', source: 'tempdb',
        template: { id: T.report, version: 1 }, depends_on: ['stg_zones', 'stg_pg', 'stg_my'] },
    ],
  };
}

let demo;
let server;
let session;
let a; // the admin's author key, first client
let a2; // the SAME key, a second client
let otherKey; // another key of the same person
let stranger; // another user's key
let cross; // the cross-datasource pipeline
let crossRun; // its first execution
const expected = { rows: null };

describe('pipeline execution end to end', { skip: !required && (!PG_URL || !MYSQL_URL) }, () => {
  before(async () => {
    assert.ok(PG_URL && MYSQL_URL, 'DP_TEST_PG_URL and DP_TEST_MYSQL_URL must be set');
    ensureDemoData();
    psql(`CREATE SCHEMA ${SCRATCH}`);
    demo = await startDemoServer({ trips: 2000 });
    server = demo.server;
    session = await adminSession(server);
    await registerDatasource(server, session, { name: 'pg', url: PG_URL, dialect: 'POSTGRES', readonly: true });
    await registerDatasource(server, session, { name: 'maria', url: MYSQL_URL, dialect: 'MYSQL', readonly: true });
    await registerDatasource(server, session,
      { name: 'pgw', url: PG_URL, dialect: 'POSTGRES', readonly: false });
    // pgJDBC's currentSchema picks the schema unqualified names (and write-back tables) use.
    const scratchUrl = new URL(PG_URL);
    scratchUrl.searchParams.set('currentSchema', SCRATCH);
    await registerDatasource(server, session,
      { name: 'pgs', url: scratchUrl.toString(), dialect: 'POSTGRES', readonly: false });
    a = await agent(server, server.adminKey);
    a2 = await agent(server, server.adminKey);
    otherKey = await agent(server, server.createKey(ADMIN_EMAIL, { scope: 'author' }).api_key);
    server.createUser('stranger@e2e.test', 'author');
    stranger = await agent(server, server.createKey('stranger@e2e.test', { scope: 'author' }).api_key);

    // The authoring loop: read the columns every template names, create, render each template.
    for (const [name, table, schema] of [['demo', 'zones'], ['pg', 'trips', 'demo'],
      ['maria', 'demo_trips'], ['maria', 'demo_zones']]) {
      await a.ok('datasources_get_columns', { name, table, ...(schema ? { schema } : {}) });
    }
    let first = true;
    for (const [id, [dialect, body]] of Object.entries(BODIES)) {
      await a.ok('templates_create', { id, dialect, display_name: id.split('/').pop(),
        description: 'e2e execution template', body, ...(first ? { confirm_new_root: true } : {}) });
      first = false;
      await a.ok('templates_render', { id, context: {} });
    }
  });

  after(async () => {
    for (const c of [a, a2, otherKey, stranger]) await c?.close();
    if (demo) await demo.cleanup();
    try { psql(`DROP SCHEMA IF EXISTS ${SCRATCH} CASCADE`); } catch { /* best effort */ }
    try { psql(`DROP TABLE IF EXISTS public.${WB_TABLE}`); } catch { /* best effort */ }
  });

  describe('1. a cross-datasource pipeline, staged in tempdb and joined there', () => {
    it('computes the expected rows independently on each datasource', async () => {
      const zones = await a.ok('sql_probe', { name: 'demo',
        sql: 'SELECT id, name, borough FROM zones ORDER BY id', limit: 500 });
      const pg = await a.ok('sql_probe', { name: 'pg', limit: 500,
        sql: 'SELECT pickup_zone_id AS z, COUNT(*) AS n FROM demo.trips '
          + `WHERE pickup_at >= '${WINDOW.start}' AND pickup_at < '2024-03-01' GROUP BY pickup_zone_id` });
      const my = await a.ok('sql_probe', { name: 'maria', limit: 500,
        sql: 'SELECT pickup_zone_id AS z, COUNT(*) AS n FROM demo_trips GROUP BY pickup_zone_id' });
      assert.equal(zones.rows.length, 60);
      const pgBy = new Map(pg.rows.map((r) => [Number(r.z), Number(r.n)]));
      const myBy = new Map(my.rows.map((r) => [Number(r.z), Number(r.n)]));
      // Cross-check the probes against the databases themselves.
      assert.equal([...pgBy.values()].reduce((s, n) => s + n, 0),
        Number(psql(`SELECT COUNT(*) FROM demo.trips WHERE pickup_at >= '${WINDOW.start}' AND pickup_at < '2024-03-01'`)));
      assert.equal([...myBy.values()].reduce((s, n) => s + n, 0), 1_000_000);
      expected.rows = zones.rows.map((z) => ({
        zone_id: Number(z.id), zone_name: z.name, borough: z.borough,
        pg_trips: pgBy.get(Number(z.id)) ?? 0, my_trips: myBy.get(Number(z.id)) ?? 0,
      }));
      assert.ok(expected.rows.every((r) => r.pg_trips > 0 && r.my_trips > 0));
    });

    it('creates it as a DRAFT and executes it', async () => {
      cross = await a.ok('pipelines_create', crossBody());
      assert.equal(cross.status, 'DRAFT');
      crossRun = await a.ok('pipelines_execute', { id: cross.id, parameters: {} });
      assert.match(crossRun.execution_id, UUID_RE);
      assert.equal(crossRun.status, 'SUCCESS');
      assert.equal(crossRun.pipeline_id, cross.id);
      assert.equal(crossRun.version, 1);
      assert.equal(crossRun.version_status, 'DRAFT');
      assert.equal(crossRun.total_rows, 60);
      assert.equal(crossRun.has_more, false, 'all 60 rows fit the first page');
      assert.deepEqual(crossRun.schema.map((c) => c.name),
        ['zone_id', 'zone_name', 'borough', 'pg_trips', 'my_trips']);
      const stats = Object.fromEntries(crossRun.node_stats.map((s) => [s.node_id, s]));
      assert.deepEqual(Object.keys(stats).sort(), ['report', 'stg_my', 'stg_pg', 'stg_zones', 'window']);
      for (const s of crossRun.node_stats) assert.equal(s.status, 'SUCCESS', JSON.stringify(s));
      assert.deepEqual(stats.window.context_values,
        { window_start: WINDOW.start, window_end: WINDOW.end });
      assert.equal(stats.stg_zones.rows_out, 60);
      assert.equal(stats.stg_pg.rows_out, 60);
      assert.equal(stats.stg_my.rows_out, 60);
      assert.equal(stats.report.rows_out, 60);
      assert.equal(crossRun.rows.length, 60);
      assert.deepEqual(crossRun.schema.map((c) => c.type),
        ['INTEGER', 'STRING', 'STRING', 'INTEGER', 'INTEGER']);
      assert.deepEqual(objects(crossRun).map(normalizeRow), expected.rows);
      assert.deepEqual(crossRun.rows[0], [1, 'Old Town Centre', 'Old Town',
        expected.rows[0].pg_trips, expected.rows[0].my_trips], 'rows are positional, per schema');
      const got = await a.ok('executions_get', { execution_id: crossRun.execution_id });
      assert.equal(got.status, 'SUCCESS');
      assert.equal(got.via, 'mcp');
      assert.equal(got.result.total_rows, 60);
      assert.equal(got.parameters.window_start, WINDOW.start);
      const listed = await a.ok('executions_list', { pipeline_id: cross.id });
      assert.deepEqual(listed.map((e) => e.execution_id), [crossRun.execution_id]);
    });

    it('pages json to the end with offset/limit', async () => {
      const pages = [];
      let offset = 0;
      for (;;) {
        const page = await a.ok('executions_get_result',
          { execution_id: crossRun.execution_id, offset, limit: 25, format: 'json' });
        assert.equal(page.offset, offset);
        assert.equal(page.limit, 25);
        assert.equal(page.total_rows, 60);
        pages.push(page);
        offset += page.rows.length;
        if (!page.has_more) break;
        assert.equal(page.rows.length, 25);
      }
      assert.deepEqual(pages.map((p) => p.rows.length), [25, 25, 10]);
      assert.equal(pages.at(-1).has_more, false);
      const rows = pages.flatMap((p) => p.rows);
      assert.deepEqual(pages.flatMap(objects).map(normalizeRow), expected.rows);
      assert.deepEqual(rows, crossRun.rows, 'stable order across pages');
      const past = await a.ok('executions_get_result',
        { execution_id: crossRun.execution_id, offset: 60, limit: 25 });
      assert.deepEqual(past.rows, []);
      assert.equal(past.has_more, false);
    });

    it('serves csv inline as base64, the same values as json', async () => {
      const csv = await a.ok('executions_get_result',
        { execution_id: crossRun.execution_id, format: 'csv' });
      assert.equal(csv.format, 'csv');
      assert.equal(csv.content_type, 'text/csv');
      assert.equal(csv.encoding, 'base64');
      assert.equal(csv.total_rows, 60);
      const text = Buffer.from(csv.data, 'base64').toString('utf8');
      const [header, ...lines] = parseCsv(text);
      assert.deepEqual(header, ['zone_id', 'zone_name', 'borough', 'pg_trips', 'my_trips']);
      assert.equal(lines.length, 60);
      assert.deepEqual(lines, crossRun.rows.map((r) => r.map(String)));
      // The REST cursor serves the same bytes as text/csv.
      const viaRest = await rest(server, 'GET',
        `/api/v1/executions/${crossRun.execution_id}/result?format=csv`, { auth: server.adminKey });
      assert.equal(viaRest.status, 200);
      assert.match(viaRest.headers['content-type'], /^text\/csv/);
      assert.equal(viaRest.text, text);
    });

    it('serves arrow inline as base64; apache-arrow decodes the same values as json', async () => {
      const arrow = await a.ok('executions_get_result',
        { execution_id: crossRun.execution_id, format: 'arrow' });
      assert.equal(arrow.format, 'arrow');
      assert.equal(arrow.content_type, 'application/vnd.apache.arrow.stream');
      assert.equal(arrow.encoding, 'base64');
      const bytes = Buffer.from(arrow.data, 'base64');
      const table = tableFromIPC(bytes);
      assert.equal(table.numRows, 60);
      assert.deepEqual(table.schema.fields.map((f) => f.name),
        ['zone_id', 'zone_name', 'borough', 'pg_trips', 'my_trips']);
      const decoded = table.toArray().map((r) => normalizeRow(r.toJSON()));
      assert.deepEqual(decoded, expected.rows);
      // Stream-wise too: the batches add up to the rows.
      const reader = RecordBatchReader.from(bytes);
      let batchRows = 0;
      for (const batch of reader) batchRows += batch.numRows;
      assert.equal(batchRows, 60);
      const viaRest = await fetch(`${server.baseUrl}/api/v1/executions/${crossRun.execution_id}/result?format=arrow`,
        { headers: { 'DP-API-Key': server.adminKey } });
      assert.equal(viaRest.status, 200);
      assert.equal(viaRest.headers.get('content-type'), 'application/vnd.apache.arrow.stream');
      assert.ok(Buffer.from(await viaRest.arrayBuffer()).equals(bytes));
    });
    it('takes DP-Result-TTL-Seconds over MCP too, and refuses one that is not a number', async () => {
      // A call past 200 ms answers as an SSE stream: its last event is the response.
      const execute = async (ttl) => {
        const res = await mcpPost(server, { jsonrpc: '2.0', id: 77, method: 'tools/call', params: {
          name: 'pipelines_execute', arguments: { id: cross.id, version: 1, parameters: { min_trips: 0 } } } },
        { ...keyHeader(server.adminKey), 'DP-Result-TTL-Seconds': ttl });
        assert.equal(res.status, 200, res.text);
        const message = /^text\/event-stream/.test(res.headers['content-type'])
          ? JSON.parse(res.text.split(/\r?\n/).filter((l) => l.startsWith('data:')).pop().slice(5))
          : res.json;
        return { isError: message.result.isError, payload: JSON.parse(message.result.content[0].text) };
      };
      const run = await execute('90');
      assert.equal(run.isError, false, JSON.stringify(run.payload));
      assert.equal(run.payload.ttl_seconds, 90);
      const bad = await execute('soon');
      assert.equal(bad.isError, true);
      assert.equal(bad.payload.error.code, 'request.validation.invalid');
      assert.equal(bad.payload.error.details.field, 'DP-Result-TTL-Seconds');
    });
    it('runs over REST too, with DP-Result-TTL-Seconds, and pages the REST cursor', async () => {
      const res = await rest(server, 'POST', `/api/v1/pipelines/${cross.id}/execute`, {
        auth: server.adminKey, json: { version: 1, parameters: { min_trips: 0 } },
        headers: { 'DP-Result-TTL-Seconds': '120' } });
      assert.equal(res.status, 200, res.text);
      const run = res.json.data;
      assert.equal(run.status, 'SUCCESS');
      assert.equal(run.ttl_seconds, 120);
      assert.equal(run.total_rows, 60);
      const got = await a.ok('executions_get', { execution_id: run.execution_id });
      assert.equal(got.via, 'rest');
      assert.equal(got.result.ttl_seconds, 120);
      const page = await rest(server, 'GET',
        `/api/v1/executions/${run.execution_id}/result?offset=50&limit=25`, { auth: server.adminKey });
      assert.equal(page.status, 200, page.text);
      assert.equal(page.json.data.row_count, 10);
      assert.equal(page.json.data.has_more, false);
      assert.deepEqual(objects(page.json.data).map(normalizeRow), expected.rows.slice(50));
    });
  });

  describe('2. a failure diagnosed from its record alone', () => {
    let pipeline;
    let failure;
    it('returns the whole failure record as an isError result', async () => {
      pipeline = await a.ok('pipelines_create', {
        name: 'city/exec/broken', display_name: 'Broken column',
        description: 'Selects a column that does not exist.',
        nodes: [{ id: 'bad', description: 'A missing column.', type: 'DQL', source: 'pg',
          template: { id: T.broken, version: 1 }, depends_on: [] }],
      });
      const { isError, payload, result } = await a.raw('pipelines_execute',
        { id: pipeline.id, parameters: {} });
      assert.equal(isError, true);
      failure = payload.error;
      assert.equal(failure.code, 'pipeline.node.query_execution_failed', JSON.stringify(failure));
      assert.match(failure.message, /no_such_column/);
      assert.match(failure.execution_id, UUID_RE);
      assert.equal(failure.status, 'FAILED');
      assert.equal(failure.failed_node_id, 'bad');
      assert.equal(failure.node.id, 'bad');
      assert.equal(failure.node.type, 'DQL');
      assert.equal(failure.node.datasource, 'pg');
      assert.equal(failure.node.dialect, 'POSTGRES');
      assert.equal(failure.node.template, T.broken);
      assert.equal(failure.node.template_version, 1);
      assert.equal(failure.sql, BODIES[T.broken][1]);
      assert.equal(failure.exception.class, 'pipeline.node.query_execution_failed');
      const root = failure.exception.caused_by.at(-1);
      assert.match(root.message, /column t\.no_such_column does not exist/);
      assert.equal(root.sqlstate, '42703');
      assert.match(failure.correlation_id, UUID_RE);
      assert.equal(failure.correlation_id, result._meta.correlation_id);
      assert.deepEqual(failure.node_stats.map((s) => [s.node_id, s.status]), [['bad', 'FAILED']]);
      assert.equal(failure.node_stats[0].error_code, 'pipeline.node.query_execution_failed');
    });

    it('executions_get shows the same record; there is no result', async () => {
      const got = await a.ok('executions_get', { execution_id: failure.execution_id });
      assert.equal(got.status, 'FAILED');
      assert.equal(got.failed_node_id, 'bad');
      assert.equal(got.correlation_id, failure.correlation_id);
      for (const field of ['code', 'message', 'failed_node_id', 'node', 'sql', 'exception', 'correlation_id']) {
        assert.deepEqual(got.error[field], failure[field], field);
      }
      assert.deepEqual(got.node_stats, failure.node_stats);
      const none = await a.refused('executions_get_result', { execution_id: failure.execution_id },
        'result.execution_failed');
      assert.equal(none.details.status, 'FAILED');
      const listed = await a.ok('executions_list', { pipeline_id: pipeline.id, status: 'FAILED' });
      assert.deepEqual(listed.map((e) => e.execution_id), [failure.execution_id]);
    });
  });

  describe('3. cancellation', () => {
    let slow;
    before(async () => {
      slow = await a.ok('pipelines_create', {
        name: 'city/exec/slow', display_name: 'Slow count',
        description: 'Counts to five billion; it is cancelled long before.',
        nodes: [{ id: 'count', description: 'A long recursive count.', type: 'DQL', source: 'demo',
          template: { id: T.slow, version: 1 }, depends_on: [] }],
      });
    });

    const running = async (c = a2) => until(async () => {
      const list = await c.ok('executions_list', { pipeline_id: slow.id, status: 'RUNNING' });
      return list[0];
    }, { what: 'a RUNNING execution' });

    it('a second client of the same key cancels; the first call returns aborted', async () => {
      const started = Date.now();
      const call = a.raw('pipelines_execute', { id: slow.id, parameters: {} });
      const run = await running();
      assert.equal(run.status, 'RUNNING');
      assert.equal(run.via, 'mcp');

      // Refusals while it runs: another key of the same person, another person.
      const other = await otherKey.refused('executions_cancel', { execution_id: run.execution_id },
        'auth.scope.insufficient');
      assert.equal(other.details.reason, 'different_credential');
      await stranger.refused('executions_cancel', { execution_id: run.execution_id },
        'pipeline.execution.not_found');
      await stranger.refused('executions_get', { execution_id: run.execution_id },
        'pipeline.execution.not_found');

      const cancelled = await a2.ok('executions_cancel', { execution_id: run.execution_id });
      assert.deepEqual(cancelled, { execution_id: run.execution_id, status: 'cancellation_requested' });
      const { isError, payload } = await call;
      assert.ok(Date.now() - started < 30_000, 'the statement stopped when cancelled');
      assert.equal(isError, true);
      assert.equal(payload.error.code, 'pipeline.execution.aborted', JSON.stringify(payload));
      assert.equal(payload.error.execution_id, run.execution_id);
      assert.equal(payload.error.status, 'ABORTED');
      const got = await a2.ok('executions_get', { execution_id: run.execution_id });
      assert.equal(got.status, 'ABORTED');
      assert.match(got.abort_reason, /Cancelled by/);
      assert.match(got.abort_reason, new RegExp(ADMIN_EMAIL.replace('.', '\\.')));
      assert.equal(got.node_stats[0].status, 'ABORTED');

      const finished = await a2.refused('executions_cancel', { execution_id: run.execution_id },
        'pipeline.execution.not_running');
      assert.equal(finished.details.status, 'ABORTED');
    });

    it('an execution started over REST is not cancellable over MCP; REST cancels it', async () => {
      const call = rest(server, 'POST', `/api/v1/pipelines/${slow.id}/execute`,
        { auth: server.adminKey, json: { parameters: {} } });
      const run = await running();
      assert.equal(run.via, 'rest');
      const refusal = await a.refused('executions_cancel', { execution_id: run.execution_id },
        'auth.scope.insufficient');
      assert.equal(refusal.details.reason, 'started_outside_mcp');
      const del = await rest(server, 'DELETE', `/api/v1/executions/${run.execution_id}`,
        { auth: server.adminKey });
      assert.equal(del.status, 202, del.text);
      assert.equal(del.json.data.status, 'cancellation_requested');
      const res = await call;
      assert.equal(res.json.error.code, 'pipeline.execution.aborted', res.text);
      const got = await rest(server, 'GET', `/api/v1/executions/${run.execution_id}`,
        { auth: server.adminKey });
      assert.equal(got.json.data.status, 'ABORTED');
      assert.ok(got.json.data.abort_reason);
    });

    it('a finished execution is not_running; another user\'s is not_found', async () => {
      const done = await a.refused('executions_cancel', { execution_id: crossRun.execution_id },
        'pipeline.execution.not_running');
      assert.equal(done.details.status, 'SUCCESS');
      await stranger.refused('executions_cancel', { execution_id: crossRun.execution_id },
        'pipeline.execution.not_found');
      await stranger.refused('executions_get_result', { execution_id: crossRun.execution_id },
        'result.execution_not_found');
      assert.deepEqual(await stranger.ok('executions_list', {}), []);
    });
  });

  describe('4. a child PIPELINE node', () => {
    it('runs a released child and records the parent link', async () => {
      const child = await a.ok('pipelines_create', {
        name: 'city/exec/child_boroughs', display_name: 'Zones per borough',
        description: 'Zones per borough from a given zone id on.',
        parameters: { min_zone_id: { type: 'INTEGER', required: false, default: 1 } },
        nodes: [{ id: 'boroughs', description: 'Zones per borough.', type: 'DQL', source: 'demo',
          template: { id: T.child, version: 1 }, depends_on: [] }],
      });
      const rel = await rest(server, 'POST', `/api/v1/templates/${enc(T.child)}/release`,
        { auth: server.adminKey });
      assert.equal(rel.status, 200, rel.text);
      const released = await rest(server, 'POST', `/api/v1/pipelines/${child.id}/release`,
        { auth: server.adminKey, headers: { 'If-Match': child.body_hash } });
      assert.equal(released.status, 200, released.text);
      assert.equal(released.json.data.status, 'RELEASED');

      const parent = await a.ok('pipelines_create', {
        name: 'city/exec/parent', display_name: 'Boroughs via a child',
        description: 'Reads the child pipeline output through tempdb.',
        parameters: { from_zone: { type: 'INTEGER', required: false, default: 31 } },
        nodes: [
          { id: 'kids', description: 'The child pipeline.', type: 'PIPELINE',
            pipeline: { name: 'city/exec/child_boroughs', version: 1 },
            parameters: { min_zone_id: '${from_zone}' },
            output: { target: 'tempdb', table: 'stg_child' }, depends_on: [] },
          { id: 'read', description: 'Every borough row of the child.', type: 'DQL',
            source: 'tempdb', template: { id: T.parentRead, version: 1 }, depends_on: ['kids'] },
        ],
      });
      const probe = await a.ok('sql_probe', { name: 'demo',
        sql: 'SELECT borough, COUNT(*) AS zones FROM zones WHERE id >= 31 GROUP BY borough ORDER BY borough' });
      const run = await a.ok('pipelines_execute', { id: parent.id, parameters: {} });
      assert.equal(run.status, 'SUCCESS');
      assert.deepEqual(run.rows.map(([borough, zones]) => [borough, Number(zones)]),
        probe.rows.map((r) => [r.borough, Number(r.zones)]));
      assert.ok(run.rows.length > 0);
      const kids = run.node_stats.find((s) => s.node_id === 'kids');
      assert.equal(kids.type, 'PIPELINE');
      assert.equal(kids.status, 'SUCCESS');
      assert.equal(kids.rows_out, probe.rows.length);
      assert.match(kids.child_execution_id, UUID_RE);
      const childRun = await a.ok('executions_get', { execution_id: kids.child_execution_id });
      assert.equal(childRun.parent_execution_id, run.execution_id);
      assert.equal(childRun.parent_node_id, 'kids');
      assert.equal(childRun.via, 'pipeline_node');
      assert.equal(childRun.status, 'SUCCESS');
      assert.equal(childRun.pipeline_id, child.id);
      assert.equal(childRun.version_status, 'RELEASED');
      assert.equal(childRun.parameters.min_zone_id, 31);
      const parentRun = await a.ok('executions_get', { execution_id: run.execution_id });
      assert.equal(childRun.correlation_id, parentRun.correlation_id, 'one call, one correlation id');
      assert.equal(parentRun.parent_execution_id, undefined);
    });
  });

  describe('5. write-back into a writable PostgreSQL datasource', () => {
    const writeBack = (name, source, ddl, table) => ({
      name, display_name: 'Zones per borough, written back',
      description: 'Creates the zone totals table and fills it from the demo zones.',
      nodes: [
        { id: 'create', description: 'The target table.', type: 'DDL', source,
          template: { id: ddl, version: 1 }, depends_on: [] },
        { id: 'fill', description: 'Zones per borough into the table.', type: 'DQL',
          source: 'demo', template: { id: T.zoneTotals, version: 1 },
          output: { target: 'datasource', datasource: source, table, mode: 'replace' },
          depends_on: ['create'] },
      ],
    });
    let boroughs;
    before(async () => {
      const probe = await a.ok('sql_probe', { name: 'demo',
        sql: 'SELECT borough, COUNT(*) AS zones FROM zones GROUP BY borough ORDER BY borough' });
      boroughs = probe.rows.map((r) => [r.borough, Number(r.zones)]);
      assert.ok(boroughs.length > 1);
    });

    it('a DDL node creates the table, a DQL node replaces its rows (default schema)', async () => {
      const pipeline = await a.ok('pipelines_create',
        writeBack('city/exec/write_back', 'pgw', T.ddlPublic, WB_TABLE));
      const run = await a.ok('pipelines_execute', { id: pipeline.id, parameters: {} });
      assert.equal(run.status, 'SUCCESS');
      const stats = Object.fromEntries(run.node_stats.map((s) => [s.node_id, s]));
      assert.equal(stats.create.status, 'SUCCESS');
      assert.equal(stats.fill.rows_out, boroughs.length);
      assert.equal(run.rows, undefined, 'no caller node, no rows');
      await a.refused('executions_get_result', { execution_id: run.execution_id },
        'result.execution_not_found');
      const landed = await a.ok('sql_probe', { name: 'pgw',
        sql: `SELECT borough, zone_count FROM public.${WB_TABLE} ORDER BY borough` });
      assert.deepEqual(landed.rows.map((r) => [r.borough, Number(r.zone_count)]), boroughs);
      assert.equal(psql(`SELECT SUM(zone_count) FROM public.${WB_TABLE}`), '60');
    });

    it('replace mode truncates: a second run leaves the same rows, not twice as many', async () => {
      // The DDL node would fail on a second run (CREATE TABLE without IF NOT EXISTS), so the
      // fill alone is re-run through a one-node pipeline writing to the same table.
      const fillOnly = writeBack('city/exec/write_back_again', 'pgw', T.ddlPublic, WB_TABLE);
      fillOnly.nodes = [{ ...fillOnly.nodes[1], depends_on: [] }];
      const pipeline = await a.ok('pipelines_create', fillOnly);
      await a.ok('pipelines_execute', { id: pipeline.id, parameters: {} });
      assert.equal(psql(`SELECT COUNT(*) || '/' || SUM(zone_count) FROM public.${WB_TABLE}`),
        `${boroughs.length}/60`);
    });

    it('into a scratch schema chosen by the jdbc_url currentSchema', async () => {
      const pipeline = await a.ok('pipelines_create',
        writeBack('city/exec/write_back_scratch', 'pgs', T.ddl, 'zone_totals'));
      const run = await a.ok('pipelines_execute', { id: pipeline.id, parameters: {} });
      assert.equal(run.node_stats.find((s) => s.node_id === 'fill').rows_out, boroughs.length);
      assert.equal(psql(`SELECT SUM(zone_count) FROM ${SCRATCH}.zone_totals`), '60');
    });
  });

  describe('6. parameters', () => {
    it('an invalid type is invalid_parameter_type with the failures listed', async () => {
      const err = await a.refused('pipelines_execute',
        { id: cross.id, parameters: { min_trips: 'many' } },
        'pipeline.execution.invalid_parameter_type');
      assert.equal(err.details.failures.length, 1);
      assert.equal(err.details.failures[0].parameter, 'min_trips');
      assert.ok(err.details.failures[0].reason.length > 0);
      const noise = await a.refused('pipelines_execute',
        { id: cross.id, parameters: { window_start: 7, window_end: WINDOW.end } },
        'pipeline.execution.invalid_parameter_type');
      assert.deepEqual(noise.details.failures.map((f) => f.parameter), ['window_start']);
    });

    it('supplied calculator keys skip the calculator (provided_by caller) and bind', async () => {
      const march = Number(psql('SELECT COUNT(*) FROM demo.trips '
        + "WHERE pickup_at >= '2024-03-01' AND pickup_at < '2024-04-01'"));
      const run = await a.ok('pipelines_execute', { id: cross.id, parameters: {
        window_start: '2024-03-01', window_end: '2024-03-31', min_trips: 1 } });
      const window = run.node_stats.find((s) => s.node_id === 'window');
      assert.equal(window.provided_by, 'caller');
      assert.deepEqual(window.context_values, { window_start: '2024-03-01', window_end: '2024-03-31' });
      assert.equal(objects(run).reduce((s, r) => s + Number(r.pg_trips), 0), march);
      assert.ok(run.rows.length > 0 && objects(run).every((r) => r.pg_trips >= 1));
      const got = await a.ok('executions_get', { execution_id: run.execution_id });
      assert.equal(got.parameters.window_start, '2024-03-01');
      assert.equal(got.parameters.min_trips, 1);
    });
  });

  describe('7. progress notifications', () => {
    // Three nodes in a chain, each well over the 200 ms after which pipelines_execute answers
    // as an SSE stream: count to 1.5 M twice on SQLite, stage both, add them up in tempdb.
    const UPTO = 1_500_000;
    let chain;
    before(async () => {
      chain = await a.ok('pipelines_create', {
        name: 'city/exec/progress_chain', display_name: 'Two counts added',
        description: 'Counts to upto twice and adds the counts. Parameter: upto.',
        parameters: { upto: { type: 'INTEGER', required: false, default: UPTO } },
        nodes: [
          { id: 'count_a', description: 'The first count.', type: 'DQL', source: 'demo',
            template: { id: T.countTo, version: 1 }, output: { target: 'tempdb', table: 'stg_a' },
            depends_on: [] },
          { id: 'count_b', description: 'The second count.', type: 'DQL', source: 'demo',
            template: { id: T.countTo, version: 1 }, output: { target: 'tempdb', table: 'stg_b' },
            depends_on: ['count_a'] },
          { id: 'total', description: 'Both counts added.', type: 'DQL', source: 'tempdb',
            template: { id: T.sumCounts, version: 1 }, depends_on: ['count_b'] },
        ],
      });
    });

    it('pipelines_execute with a progressToken reports each completed node', async () => {
      const events = [];
      const result = await a.client.callTool(
        { name: 'pipelines_execute', arguments: { id: chain.id, parameters: {} } },
        undefined,
        { onprogress: (p) => events.push(p), timeout: 120_000 },
      );
      assert.notEqual(result.isError, true, JSON.stringify(result));
      const payload = JSON.parse(result.content[0].text);
      assert.equal(payload.status, 'SUCCESS');
      assert.deepEqual(payload.rows, [[2 * UPTO]]);
      assert.deepEqual(events, [
        { progress: 1, total: 3, message: 'node count_a: SUCCESS' },
        { progress: 2, total: 3, message: 'node count_b: SUCCESS' },
        { progress: 3, total: 3, message: 'node total: SUCCESS' },
      ], `notifications/progress, one per finished node: ${JSON.stringify(events)}`);
    });

    it('on the wire: an SSE stream of progress notifications, then the response', async () => {
      const id = 4242;
      const res = await mcpPost(server, { jsonrpc: '2.0', id, method: 'tools/call', params: {
        name: 'pipelines_execute', arguments: { id: chain.id, parameters: {} },
        _meta: { progressToken: 'tok-1' } } }, keyHeader(server.adminKey));
      assert.equal(res.status, 200);
      assert.match(res.headers['content-type'], /^text\/event-stream/);
      const events = res.text.split(/\r?\n\r?\n/).filter((b) => b.trim() && !b.startsWith(':'))
        .map((block) => {
          const lines = block.split(/\r?\n/);
          const event = lines.find((l) => l.startsWith('event:'))?.slice(6).trim();
          const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
          return { event, message: JSON.parse(data) };
        });
      assert.deepEqual(events.map((e) => e.event), ['message', 'message', 'message', 'message']);
      assert.deepEqual(events.slice(0, 3).map((e) => e.message), [1, 2, 3].map((n) => ({
        jsonrpc: '2.0', method: 'notifications/progress',
        params: { progressToken: 'tok-1', progress: n, total: 3,
          message: `node ${['count_a', 'count_b', 'total'][n - 1]}: SUCCESS` } })));
      const final = events[3].message;
      assert.equal(final.id, id);
      assert.equal(final.result.isError, false);
      assert.deepEqual(JSON.parse(final.result.content[0].text).rows, [[2 * UPTO]]);
    });
  });
});

// A result page's positional rows as objects keyed by the schema's column names.
function objects(page) {
  return page.rows.map((r) => Object.fromEntries(page.schema.map((c, i) => [c.name, r[i]])));
}

// JSON wire values (BIGINTEGER as strings) and arrow values (BigInt) as plain numbers.
function normalizeRow(r) {
  return {
    zone_id: Number(r.zone_id), zone_name: r.zone_name, borough: r.borough,
    pg_trips: Number(r.pg_trips), my_trips: Number(r.my_trips),
  };
}

