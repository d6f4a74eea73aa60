// The lake (issue 16, spec §6.2.29–31, §6.2.17/18/33/34) with the MCP TypeScript SDK client:
// `datapipelines demo-data --lake` writes the demo trips as month-partitioned parquet plus
// zones; the bootstrap file registers `demo_lake` (its manifest imported at start, as the
// quickstart does) beside the SQLite `demo`. An agent registers, imports (inline and by a
// manifest file), lists (partition_column), reads columns and footer stats, probes with a
// pruning partition filter, runs a pipeline joining demo_lake trips with the SQLite zones in
// tempdb, unregisters — and provokes every refusal of §6.2.29–31 once.
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BINARY, startServer } from './support/server.mjs';
import { adminSession, agent, rest } from './support/executions_env.mjs';

const TRIPS = 5000;
const MONTH = '2024-03';

// The lake report's parameter and nodes: the lake's pickups and SQLite's zones staged into
// tempdb, joined there by `t.report` (a template per tempdb engine's dialect).
const MONTH_PARAMETER = { month: { type: 'STRING', required: false, default: MONTH,
  description: 'The pickup month, YYYY-MM.' } };
function zoneTripNodes(t) {
  return [
    { id: 'stg_trips', description: 'Pickups per zone in the month, from the lake.', type: 'DQL',
      source: 'demo_lake', template: { id: t.lakeTrips, version: 1 },
      output: { target: 'tempdb', table: 'stg_trips' }, depends_on: [] },
    { id: 'stg_zones', description: 'Every zone, from SQLite.', type: 'DQL', source: 'demo',
      template: { id: t.zones, version: 1 }, output: { target: 'tempdb', table: 'stg_zones' },
      depends_on: [] },
    { id: 'report', description: 'Zones joined with their pickups.', type: 'DQL',
      source: 'tempdb', template: { id: t.report, version: 1 },
      depends_on: ['stg_trips', 'stg_zones'] },
  ];
}

let dir;
let demoLake; // the bootstrap-registered lake folder
let root; // the agent-registered LAKE datasource's root
let server;
let a;

function demoData(args) {
  const res = spawnSync(BINARY, ['demo-data', ...args, '--trips', String(TRIPS)],
    { encoding: 'utf8', timeout: 120_000 });
  assert.equal(res.status, 0, `demo-data ${args.join(' ')} failed: ${res.stdout}${res.stderr}`);
  return res.stdout;
}

before(async () => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'dp-e2e-lake-')));
  const db = path.join(dir, 'demo.sqlite');
  demoLake = path.join(dir, 'demo-lake');
  root = path.join(dir, 'lk');
  demoData(['--sqlite', db]);
  assert.match(demoData(['--lake', demoLake]), /24 month partitions/);
  assert.match(demoData(['--lake', demoLake]), /skipped/, 'a re-run of the same scale is skipped');
  demoData(['--lake', root]);
  mkdirSync(path.join(dir, 'outside'));
  // A second manifest under the root: one table in another namespace, a relative path.
  writeFileSync(path.join(root, 'archive.json'), JSON.stringify({
    namespace: 'archive', tables: [{ name: 'trips_2024', path: 'trips', partition_column: 'month' }],
  }));
  writeFileSync(path.join(dir, 'outside', 'manifest.json'), JSON.stringify({ tables: [] }));
  const bootstrapFile = path.join(dir, 'bootstrap-datasources.yaml');
  writeFileSync(bootstrapFile, [
    'datasources:',
    '  - name: demo',
    '    display_name: Demo — city mobility',
    '    dialect: SQLITE',
    `    jdbc_url: jdbc:sqlite:${db}`,
    '    readonly: true',
    '    grants: [default]',
    '  - name: demo_lake',
    '    display_name: Demo — city mobility lake',
    '    dialect: LAKE',
    `    jdbc_url: jdbc:lake:file://${demoLake}`,
    '    readonly: true',
    '    grants: [default]',
    `    lake_manifest: file://${demoLake}/manifest.json`,
    '',
  ].join('\n'));
  server = await startServer({ DATAPIPELINES_BOOTSTRAP_DATASOURCES_FILE: bootstrapFile });
  const session = await adminSession(server);
  const created = await rest(server, 'POST', '/api/v1/datasources', {
    auth: session,
    json: { name: 'lk', display_name: 'Agent lake', description: 'e2e LAKE', dialect: 'LAKE',
      jdbc_url: `jdbc:lake:file://${root}`, readonly: true, workspace: 'default' },
  });
  assert.equal(created.status, 201, created.text);
  a = await agent(server, server.adminKey);
});

after(async () => {
  await a?.close();
  if (server) {
    await server.stop('SIGKILL');
    server.cleanup();
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const trips = () => ({ name: 'lk', namespace: 'demo', table: 'trips', format: 'parquet',
  location: `file://${root}/trips`, partition_column: 'month' });

describe('the demo lake, registered at start', () => {
  it('serves demo.trips (partitioned by month) and demo.zones', async () => {
    assert.match(server.log, /2 lake table\(s\) imported into demo_lake/);
    const list = await a.ok('datasources_list', {});
    const lake = list.find((d) => d.name === 'demo_lake');
    assert.ok(lake, JSON.stringify(list));
    assert.equal(lake.dialect, 'LAKE');
    assert.equal(lake.readonly, true);
    const tables = await a.ok('datasources_get_tables', { name: 'demo_lake' });
    const byName = Object.fromEntries(tables.tables.map((t) => [t.name, t]));
    assert.deepEqual(Object.keys(byName).sort(), ['trips', 'zones']);
    assert.equal(byName.trips.partition_column, 'month');
    assert.equal(byName.zones.partition_column, null);
  });

  it('holds the same trips as the SQLite demo', async () => {
    const lake = await a.ok('sql_probe', { name: 'demo_lake',
      sql: 'SELECT count(*) AS n, sum(fare) AS fares FROM demo.trips' });
    const sqlite = await a.ok('sql_probe', { name: 'demo',
      sql: 'SELECT count(*) AS n, sum(fare) AS fares FROM trips' });
    assert.equal(Number(lake.rows[0].n), TRIPS);
    assert.equal(Number(lake.rows[0].n), Number(sqlite.rows[0].n));
    assert.ok(Math.abs(Number(lake.rows[0].fares) - Number(sqlite.rows[0].fares)) < 0.01,
      `${lake.rows[0].fares} vs ${sqlite.rows[0].fares}`);
  });
});

describe('lake_tables_* on an agent-registered LAKE datasource', () => {
  it('registers a partitioned table', async () => {
    const row = await a.ok('lake_tables_register', trips());
    assert.equal(row.qualified_name, 'demo.trips');
    assert.deepEqual(row.namespace, ['demo']);
    assert.equal(row.partition_column, 'month');
    assert.ok(row.registered_at);
  });

  it('imports inline tables, idempotently', async () => {
    const args = { name: 'lk', namespace: 'demo',
      tables: [{ name: 'zones', location: `file://${root}/zones.parquet` }] };
    const first = await a.ok('lake_tables_import', args);
    assert.equal(first.registered_count, 1);
    assert.equal(first.registered[0].qualified_name, 'demo.zones');
    const again = await a.ok('lake_tables_import', args);
    assert.equal(again.registered_count, 0);
    assert.deepEqual(again.already_registered, ['demo.zones']);
  });

  it('imports by a manifest file under the root', async () => {
    const own = await a.ok('lake_tables_import',
      { name: 'lk', manifest_url: `file://${root}/manifest.json` });
    assert.equal(own.registered_count, 0, 'the demo manifest names what is registered already');
    assert.deepEqual([...own.already_registered].sort(), ['demo.trips', 'demo.zones']);
    const archive = await a.ok('lake_tables_import',
      { name: 'lk', manifest_url: `file://${root}/archive.json` });
    assert.equal(archive.registered_count, 1);
    assert.equal(archive.registered[0].qualified_name, 'archive.trips_2024');
    assert.equal(archive.registered[0].location, `file://${root}/trips`);
  });

  it('lists the tables with partition_column, and their columns', async () => {
    const all = await a.ok('datasources_get_tables', { name: 'lk' });
    const names = all.tables.map((t) => `${t.namespace.join('.')}.${t.name}`).sort();
    assert.deepEqual(names, ['archive.trips_2024', 'demo.trips', 'demo.zones']);
    const trip = all.tables.find((t) => t.name === 'trips');
    assert.equal(trip.partition_column, 'month');
    assert.equal(all.tables.find((t) => t.name === 'zones').partition_column, null);
    const cols = await a.ok('datasources_get_columns', { name: 'lk', namespace: ['demo'], table: 'trips' });
    const byName = Object.fromEntries(cols.map((c) => [c.name, c]));
    for (const c of ['id', 'pickup_zone_id', 'pickup_at', 'fare', 'month']) assert.ok(byName[c], c);
    assert.equal(byName.id.type, 'BIGINTEGER');
    assert.equal(byName.fare.type, 'DECIMAL');
    assert.equal(byName.pickup_at.type, 'TIMESTAMP');
  });

  it('reports parquet-footer stats with the partition pseudo-index', async () => {
    const stats = await a.ok('datasources_get_table_stats',
      { name: 'lk', namespace: ['demo'], table: 'trips' });
    assert.equal(stats.stats_source, 'parquet_metadata');
    assert.equal(stats.row_estimate, TRIPS);
    const partition = stats.indexes.find((i) => i.kind === 'partition');
    assert.deepEqual(partition?.columns, ['month'], JSON.stringify(stats.indexes));
    const id = stats.columns.find((c) => c.name === 'id');
    assert.equal(Number(id.min), 1, JSON.stringify(id));
    assert.equal(Number(id.max), TRIPS, JSON.stringify(id));
  });

  it('prunes partitions on a month filter (sql_probe plan)', async () => {
    const probe = await a.ok('sql_probe', { name: 'lk',
      sql: `SELECT count(*) AS n FROM demo.trips WHERE month = '${MONTH}'` });
    assert.ok(Number(probe.rows[0].n) > 0);
    assert.equal(probe.plan.partitions_total, 24, JSON.stringify(probe.plan));
    assert.ok(probe.plan.partitions_scanned < probe.plan.partitions_total,
      JSON.stringify(probe.plan));
  });

  it('unregisters a table; the next read no longer serves it', async () => {
    const gone = await a.ok('lake_tables_unregister',
      { name: 'lk', namespace: 'archive', table: 'trips_2024' });
    assert.deepEqual(gone, { datasource: 'lk', table: 'archive.trips_2024', deleted: true });
    await a.refused('datasources_get_columns', { name: 'lk', namespace: ['archive'], table: 'trips_2024' },
      'datasource.lake_table_not_found');
  });
});

describe('every refusal of §6.2.29–31, once', () => {
  const cases = [
    ['injection characters in a location', 'lake_tables_register',
      { ...trips(), table: 't1', location: `file://${root}/trips') ; COPY x TO ('/tmp/x` },
      'datasource.validation.lake_location_invalid'],
    ['a non-LAKE datasource', 'lake_tables_register', { ...trips(), name: 'demo' },
      'datasource.validation.lake_dialect_required'],
    ['a duplicate', 'lake_tables_register', trips(), 'datasource.lake_table_duplicate'],
    ['an unknown table', 'lake_tables_unregister', { name: 'lk', namespace: 'demo', table: 'nope' },
      'datasource.lake_table_not_found'],
    ['a manifest URL outside the root', 'lake_tables_import',
      { name: 'lk', manifest_url: `file://${dir}/outside/manifest.json` },
      'datasource.validation.lake_manifest_url_forbidden'],
    ['a manifest URL over the network', 'lake_tables_import',
      { name: 'lk', manifest_url: 'http://169.254.169.254/latest/manifest.json' },
      'datasource.validation.lake_manifest_url_forbidden'],
    ['s3 without the extension', 'lake_tables_register',
      { ...trips(), table: 't2', location: 's3://bucket/trips/' },
      'datasource.validation.lake_extension_unavailable'],
  ];
  for (const [what, tool, args, code] of cases) {
    it(`${what}: ${code}, and nothing changes`, async () => {
      const before = await a.ok('datasources_get_tables', { name: 'lk' });
      const error = await a.refused(tool, args, code);
      assert.ok(error.message.length > 0);
      const afterwards = await a.ok('datasources_get_tables', { name: 'lk' });
      assert.deepEqual(afterwards.tables.map((t) => t.name).sort(),
        before.tables.map((t) => t.name).sort());
    });
  }
});

describe('a pipeline joining demo_lake trips with the SQLite zones in tempdb', () => {
  const T = {
    lakeTrips: 'city/lake/sql/trips_per_zone.sql',
    zones: 'city/lake/sql/zones.sql',
    report: 'city/lake/sql/zone_report.sql',
  };
  let expectedSchema;
  let expectedRows;
  const BODIES = {
    [T.lakeTrips]: ['LAKE', 'SELECT pickup_zone_id AS zone_id, count(*) AS trips, sum(fare) AS fares '
      + 'FROM demo.trips WHERE month = :month GROUP BY pickup_zone_id'],
    [T.zones]: ['SQLITE', 'SELECT id AS zone_id, name AS zone_name, borough FROM zones'],
    [T.report]: ['SQLITE', 'SELECT z.zone_id, z.zone_name, z.borough, COALESCE(t.trips, 0) AS trips '
      + 'FROM stg_zones z LEFT JOIN stg_trips t ON t.zone_id = z.zone_id ORDER BY z.zone_id'],
  };

  it('runs and matches the SQLite demo computed directly', async () => {
    // The authoring loop: the columns of every table the templates name are read first.
    await a.ok('datasources_get_columns', { name: 'demo_lake', namespace: ['demo'], table: 'trips' });
    await a.ok('datasources_get_columns', { name: 'demo', table: 'zones' });
    let first = true;
    for (const [id, [dialect, body]] of Object.entries(BODIES)) {
      await a.ok('templates_create', { id, dialect, display_name: id.split('/').pop(),
        description: 'e2e lake template', body, ...(first ? { confirm_new_root: true } : {}) });
      first = false;
      await a.ok('templates_render', { id, context: {} });
    }
    const pipeline = await a.ok('pipelines_create', {
      name: 'city/lake/zone_trips',
      display_name: 'Trips per zone from the lake',
      description: 'One row per demo zone (SQLite) with its pickups in one month, read from the '
        + 'partitioned parquet lake and joined in tempdb.',
      parameters: MONTH_PARAMETER,
      nodes: zoneTripNodes(T),
    });
    const run = await a.ok('pipelines_execute', { id: pipeline.id, parameters: {} });
    assert.equal(run.status, 'SUCCESS', JSON.stringify(run));
    assert.equal(run.total_rows, 60);
    expectedSchema = run.schema;
    const stats = Object.fromEntries(run.node_stats.map((s) => [s.node_id, s]));
    assert.equal(stats.stg_zones.rows_out, 60);
    const expected = await a.ok('sql_probe', { name: 'demo', limit: 100,
      sql: `SELECT pickup_zone_id AS z, count(*) AS n FROM trips WHERE strftime('%Y-%m', pickup_at) = '${MONTH}' GROUP BY pickup_zone_id` });
    const want = new Map(expected.rows.map((r) => [Number(r.z), Number(r.n)]));
    assert.equal(stats.stg_trips.rows_out, want.size);
    let total = 0;
    assert.deepEqual(run.schema.map((c) => c.name), ['zone_id', 'zone_name', 'borough', 'trips']);
    for (const [zoneId, , , trips] of run.rows) {
      assert.equal(Number(trips), want.get(Number(zoneId)) ?? 0, `zone ${zoneId}`);
      total += Number(trips);
    }
    assert.ok(total > 0);
    expectedRows = run.rows;
  });

  it('runs the same with settings.tempdb.engine DUCKDB (a DUCKDB report template)', async () => {
    const report = 'city/lake/sql/zone_report_duckdb.sql';
    await a.ok('templates_create', { id: report, dialect: 'DUCKDB', display_name: 'zone_report_duckdb',
      description: 'e2e lake template', body: BODIES[T.report][1] });
    await a.ok('templates_render', { id: report, context: {} });
    const body = (tempdb) => ({
      name: `city/lake/zone_trips_${tempdb.engine.toLowerCase()}`,
      display_name: 'Trips per zone from the lake, staged in DuckDB',
      description: 'The same join as city/lake/zone_trips, staged in an in-memory DuckDB.',
      settings: { tempdb },
      parameters: MONTH_PARAMETER,
      nodes: zoneTripNodes({ ...T, report }),
    });
    // A SQLITE-engine body cannot pin the DUCKDB template, and an unknown engine is refused.
    await a.refused('pipelines_create', body({ engine: 'SQLITE' }),
      'pipeline.validation.template_dialect_mismatch');
    await a.refused('pipelines_create', body({ engine: 'POSTGRES' }),
      'pipeline.validation.tempdb_engine_unsupported');
    const pipeline = await a.ok('pipelines_create',
      body({ engine: 'DUCKDB', config: { max_memory_mb: 256 } }));
    const run = await a.ok('pipelines_execute', { id: pipeline.id, parameters: {} });
    assert.equal(run.status, 'SUCCESS', JSON.stringify(run));
    // Columns selected straight from a staged column keep their canonical type on both engines;
    // a computed one (the COALESCE) gets what its engine reports.
    assert.deepEqual(run.schema.map((c) => c.name), expectedSchema.map((c) => c.name));
    assert.deepEqual(run.schema.slice(0, 3), expectedSchema.slice(0, 3));
    assert.deepEqual(run.rows.map((r) => r.map(String)), expectedRows.map((r) => r.map(String)));
  });
});
