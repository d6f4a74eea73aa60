// The demo datasource, as the quickstart serves it (issue 3): `datapipelines demo-data` writes
// the deterministic city-mobility SQLite file, the bootstrap datasources file registers it
// readonly and grants it to `default`, and an agent with the MCP SDK walks
// schemas → tables → columns → preview → probe on it with an author key.
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { startDemoServer } from './support/demo_server.mjs';
import { sdkClient, toolPayload } from './support/http.mjs';

const TRIPS = 20000;
let server;
let cleanup;
let agent;

async function callOk(name, args) {
  const result = await agent.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result)}`);
  return toolPayload(result);
}

before(async () => {
  ({ server, cleanup } = await startDemoServer({ trips: TRIPS }));
  ({ client: agent } = await sdkClient(server, server.adminKey));
});

after(async () => {
  await agent?.close();
  await cleanup?.();
});

describe('the demo datasource over MCP', () => {
  it('is registered from the bootstrap file, readonly and granted to default', async () => {
    assert.match(server.log, /datasource demo registered/);
    const list = await callOk('datasources_list', {});
    const demo = list.find((d) => d.name === 'demo');
    assert.ok(demo, JSON.stringify(list));
    assert.equal(demo.dialect, 'SQLITE');
    assert.equal(demo.readonly, true);
    assert.equal(demo.granted, true);
    assert.equal(demo.password_set, false);
  });

  it('lists its tables and the canonical columns of trips', async () => {
    const tables = await callOk('datasources_get_tables', { name: 'demo' });
    const names = tables.tables.map((t) => t.name);
    for (const t of ['calendar', 'trips', 'weather', 'zones']) assert.ok(names.includes(t), t);
    const cols = await callOk('datasources_get_columns', { name: 'demo', table: 'trips' });
    const byName = Object.fromEntries(cols.map((c) => [c.name, c]));
    // SQLite has affinities, not types (type-system §5.7, docs/types.md): a declaration the
    // affinity cannot honour says so in `warnings`; BIGINT takes BIGINTEGER.
    assert.equal(byName.id.type, 'BIGINTEGER');
    assert.match(byName.id.warnings[0], /declares BIGINT/);
    assert.equal(byName.pickup_zone_id.type, 'INTEGER');
    assert.deepEqual(byName.pickup_zone_id.warnings, []);
    assert.equal(byName.fare.type, 'DECIMAL');
    assert.equal(byName.fare.precision, 15); // NUMERIC affinity: DECIMAL(15), no scale
    assert.equal(byName.fare.scale, undefined);
    assert.match(byName.fare.warnings[0], /DECIMAL\(10,2\).*scale/);
    assert.equal(byName.pickup_at.type, 'STRING');
    assert.equal(byName.pickup_at.source_type, 'TIMESTAMP');
    assert.match(byName.pickup_at.warnings[0], /date or time/);
    assert.equal(byName.payment_type.type, 'STRING');
    assert.deepEqual(byName.payment_type.warnings, []);
    const cal = await callOk('datasources_get_columns', { name: 'demo', table: 'calendar' });
    const holiday = cal.find((c) => c.name === 'is_holiday');
    assert.equal(holiday.type, 'DECIMAL');
    assert.match(holiday.warnings[0], /boolean/);
  });

  it('previews the newest trips in a server-built, ordered statement', async () => {
    const preview = await callOk('datasources_preview_rows', {
      name: 'demo', table: 'trips', limit: 3, order_by: [{ column: 'id', direction: 'DESC' }],
    });
    assert.deepEqual(preview.rows.map((r) => String(r.id)), [TRIPS, TRIPS - 1, TRIPS - 2].map(String));
    assert.equal(preview.truncated, true);
    for (const row of preview.rows) assert.match(row.pickup_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('probes an aggregate with a typed bind and returns the plan', async () => {
    const probe = await callOk('sql_probe', {
      name: 'demo',
      sql: 'SELECT COUNT(*) AS n, MIN(id) AS first_id FROM trips WHERE id <= :max_id',
      parameters: { max_id: { type: 'BIGINTEGER', value: '1000' } },
    });
    assert.equal(Number(probe.rows[0].n), 1000);
    assert.equal(String(probe.rows[0].first_id), '1');
    assert.ok(probe.plan && typeof probe.plan.raw === 'string', JSON.stringify(probe));
    const all = await callOk('sql_probe', { name: 'demo', sql: 'SELECT COUNT(*) AS n FROM trips' });
    assert.equal(Number(all.rows[0].n), TRIPS);
  });

  it('types the probe result the way introspection does, warnings included', async () => {
    const probe = await callOk('sql_probe', {
      name: 'demo', sql: 'SELECT id, fare, pickup_at FROM trips WHERE id = :id',
      parameters: { id: { type: 'BIGINTEGER', value: '7' } },
    });
    const types = Object.fromEntries(probe.columns.map((c) => [c.name, c.type]));
    assert.deepEqual(types, { id: 'BIGINTEGER', fare: 'DECIMAL', pickup_at: 'STRING' });
    assert.equal(probe.rows[0].id, '7'); // BIGINTEGER is a JSON string on the wire
    const warned = probe.warnings.map((w) => w.column).sort();
    assert.deepEqual(warned, ['fare', 'id', 'pickup_at']);
    assert.ok(probe.warnings.every((w) => w.code === 'type_mapping.sqlite_declared_type'));
  });

  it('binds booleans as the wire strings and timestamps in the stored form', async () => {
    const holidays = await callOk('sql_probe', {
      name: 'demo', sql: 'SELECT COUNT(*) AS n FROM calendar WHERE is_holiday = :h',
      parameters: { h: { type: 'BOOLEAN', value: 'true' } },
    });
    const all = await callOk('sql_probe', {
      name: 'demo', sql: 'SELECT COUNT(*) AS n FROM calendar WHERE is_holiday IS NOT NULL', });
    assert.ok(Number(holidays.rows[0].n) > 0 && Number(holidays.rows[0].n) < Number(all.rows[0].n));
    // A mistyped bind is -32602 (docs/mcp.md), and the message says what is accepted.
    await assert.rejects(agent.callTool({ name: 'sql_probe', arguments: {
      name: 'demo', sql: 'SELECT 1 FROM calendar WHERE is_holiday = :h',
      parameters: { h: { type: 'BOOLEAN', value: 'yes' } } } }),
    (err) => err.code === -32602 && /"true"\/"false"/.test(err.message));
    // The first trip's own pickup time: `=` matches it and `>=` keeps it (the boundary row).
    const first = await callOk('sql_probe', {
      name: 'demo', sql: 'SELECT pickup_at FROM trips WHERE id = 1' });
    const at = first.rows[0].pickup_at.replace(' ', 'T') + 'Z';
    const eq = await callOk('sql_probe', {
      name: 'demo', sql: 'SELECT COUNT(*) AS n FROM trips WHERE id = 1 AND pickup_at = :t',
      parameters: { t: { type: 'TIMESTAMP', value: at } },
    });
    assert.equal(Number(eq.rows[0].n), 1, at);
    const ge = await callOk('sql_probe', {
      name: 'demo', sql: 'SELECT COUNT(*) AS n FROM trips WHERE id = 1 AND pickup_at >= :t',
      parameters: { t: { type: 'TIMESTAMP', value: at } },
    });
    assert.equal(Number(ge.rows[0].n), 1);
  });

  it('lists every column of a table in its stats, with stats_source none', async () => {
    const stats = await callOk('datasources_get_table_stats', { name: 'demo', table: 'zones' });
    assert.ok(stats.columns.length > 0, JSON.stringify(stats));
    assert.ok(['none', 'sqlite_stat1'].includes(stats.stats_source));
  });

  it('refuses a write before it reaches the readonly file', async () => {
    await assert.rejects(
      agent.callTool({ name: 'sql_probe', arguments: { name: 'demo', sql: 'DELETE FROM trips' } }),
      /-32602|Invalid params|DELETE/);
    const all = await callOk('sql_probe', { name: 'demo', sql: 'SELECT COUNT(*) AS n FROM trips' });
    assert.equal(Number(all.rows[0].n), TRIPS);
  });
});
