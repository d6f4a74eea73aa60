// Datasources end to end (issue 3): a person registers a SQLite datasource over REST and
// grants it; an agent with the MCP SDK walks schemas → tables → columns → preview → probe.
// Then every response and the server log are searched for the datasource passwords.
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { useServer, ADMIN_EMAIL, ADMIN_PASSWORD } from './support/server.mjs';
import { request, sdkClient, toolPayload } from './support/http.mjs';

let ctx;
const SQLITE_PASSWORD = `e2e-sqlite-secret-${process.pid}`;
const seen = []; // every response body, searched for secrets at the end
let dir;
let dbPath;
let session; // {headers} of the admin's browser session
let agent;

const SEED = `
CREATE TABLE zones (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE trips (id INTEGER PRIMARY KEY, zone_id INTEGER REFERENCES zones(id),
                    fare DECIMAL(10,2), started_at TIMESTAMP, note VARCHAR(40));
INSERT INTO zones VALUES (1, 'north'), (2, 'south');
INSERT INTO trips VALUES (1, 1, 10.50, '2026-08-01 08:00:00', 'a'), (2, 2, 20.25, '2026-08-02 09:00:00', 'b'),
                         (3, 1, 30.00, '2026-08-03 10:00:00', 'c');
`;

/** A small SQLite file, made with python3's sqlite3 module (or the sqlite3 CLI). */
function makeSqliteFile(file) {
  const py = spawnSync('python3', ['-c',
    'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.stdin.read()); c.commit()',
    file], { input: SEED, encoding: 'utf8' });
  if (py.status === 0) return;
  const cli = spawnSync('sqlite3', [file], { input: SEED, encoding: 'utf8' });
  if (cli.status !== 0) throw new Error(`cannot create the SQLite file: ${py.stderr}${cli.stderr}`);
}

async function rest(method, p, body, headers = session.headers) {
  const res = await request(ctx.server, {
    method, path: p, body,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
  });
  seen.push(res.text);
  return res;
}

async function call(name, args) {
  const result = await agent.callTool({ name, arguments: args });
  seen.push(JSON.stringify(result));
  return result;
}

async function callOk(name, args) {
  const result = await call(name, args);
  assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result)}`);
  return toolPayload(result);
}

async function callError(name, args) {
  const result = await call(name, args);
  assert.equal(result.isError, true, `${name} should fail: ${JSON.stringify(result)}`);
  return toolPayload(result).error;
}

async function callInvalid(name, args) {
  await assert.rejects(agent.callTool({ name, arguments: args }),
    (err) => { seen.push(String(err.message)); return err instanceof McpError && err.code === -32602; });
}

describe('datasources end to end', () => {
ctx = useServer();

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dp-e2e-ds-'));
  dbPath = path.join(dir, 'mobility.db');
  makeSqliteFile(dbPath);
  const login = await request(ctx.server, {
    method: 'POST', path: '/api/v1/auth/login',
    headers: { 'Content-Type': 'application/json' },
    body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  assert.equal(login.status, 200, login.text);
  const cookies = (login.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
  const csrf = cookies.find((c) => c.startsWith('dp_csrf=')).split('=')[1];
  session = { headers: { Cookie: cookies.join('; '), 'DP-CSRF-Token': csrf } };
  agent = (await sdkClient(ctx.server, ctx.server.adminKey)).client;
});

after(async () => {
  await agent?.close().catch(() => {});
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('registering a datasource (REST, humans only)', () => {
  it('an API key cannot register one; a signed-in admin can', async () => {
    const body = {
      name: 'mobility', display_name: 'City mobility', description: 'e2e demo data',
      dialect: 'SQLITE', jdbc_url: `jdbc:sqlite:${dbPath}`, password: SQLITE_PASSWORD, readonly: true,
    };
    const byKey = await rest('POST', '/api/v1/datasources', body, { 'DP-API-Key': ctx.server.adminKey });
    assert.equal(byKey.status, 403, byKey.text);
    assert.equal(byKey.json.error.code, 'auth.scope.insufficient');
    const created = await rest('POST', '/api/v1/datasources', body);
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.data.name, 'mobility');
    assert.equal(created.json.data.password_set, true);
    assert.equal(created.json.data.password, undefined);
    assert.equal(created.json.data.granted, false, 'instance-level until granted');
    const again = await rest('POST', '/api/v1/datasources', body);
    assert.equal(again.status, 409);
    assert.equal(again.json.error.code, 'datasource.validation.duplicate_name');
    const tempdb = await rest('POST', '/api/v1/datasources', { ...body, name: 'tempdb' });
    assert.equal(tempdb.json.error.code, 'datasource.validation.name_invalid');
  });

  it('the signed-in super admin tests it before any grant; the agent cannot', async () => {
    const tested = await rest('POST', '/api/v1/datasources/mobility/test');
    assert.equal(tested.status, 200, tested.text);
    assert.equal(tested.json.data.connected, true, tested.text);
    const byAgent = await callError('datasources_test', { name: 'mobility' });
    assert.equal(byAgent.code, 'datasource.not_found');
  });

  it('an ungranted datasource is absent for the agent, exactly like a missing one', async () => {
    assert.deepEqual(await callOk('datasources_list', {}), []);
    const hidden = await callError('datasources_get', { name: 'mobility' });
    const missing = await callError('datasources_get', { name: 'nothing-here' });
    assert.equal(hidden.code, 'datasource.not_found');
    assert.equal(missing.code, 'datasource.not_found');
    assert.equal(hidden.message.replace('mobility', 'X'), missing.message.replace('nothing-here', 'X'));
  });

  it('a grant makes it visible to the workspace', async () => {
    const granted = await rest('POST', '/api/v1/datasources/mobility/grants', { workspace: 'default' });
    assert.equal(granted.status, 201, granted.text);
    assert.deepEqual(granted.json.data.grants.map((g) => g.workspace), ['default']);
    const list = await callOk('datasources_list', {});
    assert.equal(list.length, 1);
    assert.equal(list[0].name, 'mobility');
    assert.equal(list[0].readonly, true);
    assert.equal(list[0].granted, true);
    assert.deepEqual(list[0].facts, []);
    assert.deepEqual(list[0].definitions, []);
    const registry = await rest('GET', '/api/v1/datasources?scope=instance');
    assert.deepEqual(registry.json.data.items[0].grants, ['default']);
    const registryByKey = await rest('GET', '/api/v1/datasources?scope=instance', undefined,
      { 'DP-API-Key': ctx.server.adminKey });
    assert.equal(registryByKey.status, 403);
    const rows = await rest('GET', '/api/v1/datasources', undefined, { 'DP-API-Key': ctx.server.adminKey });
    assert.equal(rows.json.data.items[0].name, 'mobility');
    assert.equal(rows.json.data.pagination.total, 1);
  });
});

describe('the introspection flow over MCP', () => {
  it('tests the connection', async () => {
    const test = await callOk('datasources_test', { name: 'mobility' });
    assert.equal(test.connected, true);
    assert.match(test.server_version, /^SQLite 3\./);
  });

  it('schemas → tables → columns', async () => {
    const schemas = await callOk('datasources_get_schemas', { name: 'mobility' });
    assert.deepEqual(schemas, { schemas: [], entries: [], truncated: false });
    const tables = await callOk('datasources_get_tables', { name: 'mobility' });
    assert.deepEqual(tables.tables.map((t) => t.name), ['trips', 'zones']);
    assert.deepEqual(tables.tables[0].namespace, []);
    assert.equal(tables.truncated, false);
    const columns = await callOk('datasources_get_columns', { name: 'mobility', table: 'trips' });
    assert.deepEqual(columns.map((c) => [c.name, c.type]), [
      ['id', 'INTEGER'], ['zone_id', 'INTEGER'], ['fare', 'DECIMAL'], ['started_at', 'STRING'], ['note', 'STRING'],
    ]);
    const rest2 = await rest('GET', '/api/v1/datasources/mobility/tables/trips/columns', undefined,
      { 'DP-API-Key': ctx.server.adminKey });
    assert.deepEqual(rest2.json.data, columns, 'the REST twin answers the same payload');
  });

  it('an unknown table names the nearest listed one', async () => {
    const error = await callError('datasources_get_columns', { name: 'mobility', table: 'trip' });
    assert.equal(error.code, 'datasource.table_not_found');
    assert.match(error.message, /Did you mean 'trips'/);
  });

  it('previews ordered rows, wire-encoded', async () => {
    const page = await callOk('datasources_preview_rows', {
      name: 'mobility', table: 'trips', order_by: [{ column: 'fare', direction: 'DESC' }], limit: 2,
    });
    assert.equal(page.row_count, 2);
    assert.equal(page.truncated, true);
    assert.deepEqual(page.rows.map((r) => r.id), [3, 2]);
    assert.deepEqual(page.columns[0], { name: 'id', type: 'INTEGER' });
    await callInvalid('datasources_preview_rows', { name: 'mobility', table: '  ' });
    await callInvalid('datasources_preview_rows', { name: 'mobility', table: 'trips', order_by: ['fare DESC'] });
  });

  it('probes one SELECT with typed binds and a plan; refuses writes before connecting', async () => {
    const probe = await callOk('sql_probe', {
      name: 'mobility',
      sql: 'SELECT z.name, count(*) AS n FROM trips t JOIN zones z ON z.id = t.zone_id WHERE t.fare >= :min GROUP BY z.name ORDER BY z.name',
      parameters: { min: { type: 'DECIMAL', value: '15' } },
    });
    assert.deepEqual(probe.rows, [{ name: 'north', n: 1 }, { name: 'south', n: 1 }]);
    assert.equal(probe.row_count_returned, 2);
    assert.equal(typeof probe.wall_ms, 'number');
    assert.equal(typeof probe.plan.raw, 'string');
    await callInvalid('sql_probe', { name: 'mobility', sql: 'DELETE FROM trips' });
    await callInvalid('sql_probe', { name: 'mobility', sql: 'SELECT 1; DROP TABLE trips' });
    await callInvalid('sql_probe', { name: 'mobility', sql: 'SELECT :x AS x' });
    const still = await callOk('sql_probe', { name: 'mobility', sql: 'SELECT count(*) AS n FROM trips' });
    assert.deepEqual(still.rows, [{ n: 3 }]);
  });

  it('probes tempdb as a scratch check', async () => {
    const incomplete = await callOk('sql_probe', { name: 'tempdb', sql: 'SELECT * FROM staged_trips' });
    assert.equal(incomplete.validation_status, 'incomplete');
    assert.equal(incomplete.parsed, null);
    assert.equal(incomplete.missing_table, 'staged_trips');
    const executed = await callOk('sql_probe', { name: 'tempdb', sql: 'SELECT 1 AS one' });
    assert.equal(executed.validation_status, 'executed');
    assert.deepEqual(executed.rows, [{ one: 1 }]);
  });

});

describe('the REST twins', () => {
  const key = () => ({ 'DP-API-Key': ctx.server.adminKey });
  it('preview and probe answer the tool payloads; argument faults are 400', async () => {
    const preview = await rest('POST', '/api/v1/datasources/mobility/preview',
      { table: 'zones', order_by: [{ column: 'id', direction: 'DESC' }] }, key());
    assert.equal(preview.status, 200, preview.text);
    assert.deepEqual(preview.json.data.rows, [{ id: 2, name: 'south' }, { id: 1, name: 'north' }]);
    const probe = await rest('POST', '/api/v1/datasources/mobility/probe', { sql: 'SELECT 1 AS one' }, key());
    assert.deepEqual(probe.json.data.rows, [{ one: 1 }]);
    const refused = await rest('POST', '/api/v1/datasources/mobility/probe', { sql: 'DROP TABLE trips' }, key());
    assert.equal(refused.status, 400);
    assert.equal(refused.json.error.code, 'request.validation.invalid');
    const stats = await rest('GET', '/api/v1/datasources/mobility/tables/trips/stats', undefined, key());
    assert.equal(stats.status, 200, stats.text);
    assert.equal(typeof stats.json.data.stats_source, 'string');
    const missing = await rest('GET', '/api/v1/datasources/mobility/tables/trip/columns', undefined, key());
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error.code, 'datasource.table_not_found');
  });

  it('revoking the grant and deleting are human verbs', async () => {
    const byKey = await rest('DELETE', '/api/v1/datasources/mobility/grants/default', undefined, key());
    assert.equal(byKey.status, 403);
    const revoke = await rest('DELETE', '/api/v1/datasources/mobility/grants/default');
    assert.equal(revoke.status, 204, revoke.text);
    assert.equal((await callError('datasources_get', { name: 'mobility' })).code, 'datasource.not_found');
    await rest('POST', '/api/v1/datasources/mobility/grants', { workspace: 'default' });
    const del = await rest('DELETE', '/api/v1/datasources/mobility');
    assert.equal(del.status, 204, del.text);
    const gone = await rest('GET', '/api/v1/datasources/mobility', undefined, key());
    assert.equal(gone.status, 404);
  });

  it('a deleted name offers restore, or purge when nothing uses it', async () => {
    const body = { name: 'mobility', display_name: 'City mobility', dialect: 'SQLITE',
      jdbc_url: `jdbc:sqlite:${dbPath}`, readonly: true };
    const taken = await rest('POST', '/api/v1/datasources', body);
    assert.equal(taken.status, 409, taken.text);
    assert.equal(taken.json.error.code, 'datasource.validation.duplicate_name');
    assert.equal(taken.json.error.details.reason, 'deleted');
    assert.equal(taken.json.error.details.restore, true);
    assert.equal(taken.json.error.details.purge, true);
    const restored = await rest('POST', '/api/v1/datasources/mobility/restore');
    assert.equal(restored.status, 200, restored.text);
    assert.equal((await rest('GET', '/api/v1/datasources/mobility', undefined, key())).status, 200);
    assert.equal((await rest('DELETE', '/api/v1/datasources/mobility')).status, 204);
    const purged = await rest('DELETE', '/api/v1/datasources/mobility?purge=true');
    assert.equal(purged.status, 204, purged.text);
    const again = await rest('POST', '/api/v1/datasources', body);
    assert.equal(again.status, 201, again.text);
    assert.equal((await rest('DELETE', '/api/v1/datasources/mobility')).status, 204);
  });

  it('every one of those REST writes is one rest.write audit row', async () => {
    const audit = await rest('GET', '/api/v1/admin/audit?event=rest.write&limit=200');
    assert.equal(audit.status, 200, audit.text);
    const paths = audit.json.data.items.map((row) => `${row.details.method} ${row.details.path}`);
    assert.ok(paths.includes('POST /api/v1/datasources/mobility/restore'), paths.join('\n'));
    assert.ok(paths.includes('DELETE /api/v1/datasources/mobility'), paths.join('\n'));
    const byKey = await rest('GET', '/api/v1/admin/audit', undefined, key());
    assert.equal(byKey.status, 403, byKey.text);
  });
});

describe('credentials never leave the server', () => {
  it('registers a PostgreSQL datasource from DP_TEST_PG_URL when available', async (t) => {
    const url = process.env.DP_TEST_PG_URL;
    if (!url) return t.skip('DP_TEST_PG_URL not set');
    const u = new URL(url);
    const created = await rest('POST', '/api/v1/datasources', {
      name: 'e2e-pg', display_name: 'PG', dialect: 'POSTGRES',
      jdbc_url: `jdbc:postgresql://${u.hostname}:${u.port}${u.pathname}`,
      username: decodeURIComponent(u.username), password: decodeURIComponent(u.password),
      workspace: 'default',
    });
    assert.equal(created.status, 201, created.text);
    assert.equal((await callOk('datasources_test', { name: 'e2e-pg' })).connected, true);
    const schemas = await callOk('datasources_get_schemas', { name: 'e2e-pg' });
    assert.ok(schemas.schemas.includes('public'));
    await callOk('datasources_get', { name: 'e2e-pg' });
    await rest('GET', '/api/v1/datasources/e2e-pg');
    // A wrong login fails the test honestly, without echoing anything secret.
    const wrong = await rest('PUT', '/api/v1/datasources/e2e-pg', {
      display_name: 'PG', dialect: 'POSTGRES', jdbc_url: `jdbc:postgresql://${u.hostname}:${u.port}${u.pathname}`,
      username: `${decodeURIComponent(u.username)}_nobody`, password: `${SQLITE_PASSWORD}-wrong`,
    });
    assert.equal(wrong.status, 200, wrong.text);
    const failed = await callOk('datasources_test', { name: 'e2e-pg' });
    assert.equal(failed.connected, false);
    await callError('datasources_get_schemas', { name: 'e2e-pg' });
  });

  it('no response and no log line carries a datasource password', async () => {
    const secrets = [SQLITE_PASSWORD, `${SQLITE_PASSWORD}-wrong`,
      ...(process.env.DP_TEST_SECRETS ?? '').split(/[\s,]+/)].filter((s) => s.length >= 6);
    assert.ok(seen.length > 20);
    for (const secret of secrets) {
      for (const text of seen) assert.ok(!text.includes(secret), 'a response carried a password');
      assert.ok(!ctx.server.log.includes(secret), 'the server log carried a password');
    }
  });
});
});
