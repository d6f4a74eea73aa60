// Learned semantics end to end with the official MCP SDK client (spec §6.2.37–39, §6.2.18a):
// a unit fact recorded with evidence on a writable PostgreSQL copy of the demo weather table is
// read back inline on datasources_get_columns by a second session (a fresh client with another
// key of the same workspace), superseded and retired; a dropped column demotes a fact to stale at
// the next read; a WORKSPACE definition without refs appears in `definitions`; a MariaDB
// datasource resolves refs in its current database. Needs scripts/test-services
// (DP_TEST_PG_URL, DP_TEST_MYSQL_URL).
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { ADMIN_EMAIL } from './support/server.mjs';
import { startDemoServer } from './support/demo_server.mjs';
import { UUID_RE } from './support/http.mjs';
import {
  PG_URL, MYSQL_URL, psql, ensureDemoData, adminSession, registerDatasource, agent,
} from './support/executions_env.mjs';

const required = process.env.DP_REQUIRE_SERVICES === '1';
const RUN = `${process.pid}_${Date.now().toString(36)}`;
const SCRATCH = `e2e_sem_${RUN}`; // the writable copy of demo.weather lives here

let demo;
let server;
let first; // session 1: the admin's key
let second; // session 2: a fresh client with another key of the same workspace

const columnFacts = (columns, name) => columns.find((c) => c.name === name)?.facts ?? [];

describe('learned semantics end to end', { skip: !required && (!PG_URL || !MYSQL_URL) }, () => {
  before(async () => {
    assert.ok(PG_URL && MYSQL_URL, 'DP_TEST_PG_URL and DP_TEST_MYSQL_URL must be set');
    ensureDemoData();
    psql(`CREATE SCHEMA ${SCRATCH}; CREATE TABLE ${SCRATCH}.weather AS `
      + 'SELECT * FROM demo.weather ORDER BY ts LIMIT 500');
    demo = await startDemoServer({ trips: 200 });
    server = demo.server;
    const session = await adminSession(server);
    const url = new URL(PG_URL);
    url.searchParams.set('currentSchema', SCRATCH);
    await registerDatasource(server, session,
      { name: 'wx', url: url.toString(), dialect: 'POSTGRES', readonly: false });
    await registerDatasource(server, session,
      { name: 'maria', url: MYSQL_URL, dialect: 'MYSQL', readonly: true });
    first = await agent(server, server.adminKey);
    second = await agent(server, server.createKey(ADMIN_EMAIL, { scope: 'author' }).api_key);
  });

  after(async () => {
    for (const c of [first, second]) await c?.close();
    if (demo) await demo.cleanup();
    try { psql(`DROP SCHEMA IF EXISTS ${SCRATCH} CASCADE`); } catch { /* best effort */ }
  });

  let unit; // the recorded fact

  it('lists the three semantics tools', async () => {
    const { tools } = await first.client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['semantics_record', 'semantics_list', 'semantics_retire']) {
      assert.ok(names.includes(name), name);
    }
    assert.equal(tools.find((t) => t.name === 'semantics_list').annotations.readOnlyHint, true);
    assert.equal(tools.find((t) => t.name === 'semantics_record').annotations.readOnlyHint, false);
  });

  it('session 1 records a unit fact with the probe that showed it', async () => {
    const columns = await first.ok('datasources_get_columns', { name: 'wx', table: 'weather' });
    assert.deepEqual(columnFacts(columns, 'temp_c'), [], 'nothing recorded yet');
    unit = await first.ok('semantics_record', {
      scope: 'DATASOURCE', datasource: 'wx', kind: 'unit',
      fact: 'temp_c is degrees Celsius with one decimal, never tenths of a degree',
      refs: [{ table: 'weather', column: 'temp_c' }],
      evidence_sql: 'SELECT MIN(temp_c) AS coldest, MAX(temp_c) AS hottest FROM weather',
    });
    assert.match(unit.id, UUID_RE);
    assert.equal(unit.trust, 'observed');
    assert.match(unit.evidence_summary, /^coldest=-?\d+(\.\d)?, hottest=-?\d+(\.\d)?$/);
    assert.deepEqual(unit.refs, [{ schema: SCRATCH, table: 'weather', column: 'temp_c' }]);
    assert.equal(unit.recorded_via, 'mcp');
    assert.equal(unit.from_this_workspace, true);
  });

  it('session 2 reads it inline beside the column, without asking for it', async () => {
    const columns = await second.ok('datasources_get_columns', { name: 'wx', table: 'weather' });
    const facts = columnFacts(columns, 'temp_c');
    assert.equal(facts.length, 1, JSON.stringify(columns));
    assert.equal(facts[0].id, unit.id);
    assert.equal(facts[0].trust, 'observed');
    assert.equal(facts[0].evidence_summary, unit.evidence_summary);
    assert.deepEqual(columnFacts(columns, 'ts'), []);
  });

  it('session 2 supersedes it; session 1 retires the successor', async () => {
    const better = await second.ok('semantics_record', {
      scope: 'DATASOURCE', datasource: 'wx', kind: 'unit',
      fact: 'temp_c is degrees Celsius rounded to one decimal place',
      refs: [{ table: 'weather', column: 'temp_c' }],
      evidence_sql: 'SELECT temp_c FROM weather ORDER BY ts LIMIT 3',
      supersedes: unit.id,
    });
    assert.equal(better.supersedes, unit.id);
    let facts = columnFacts(await first.ok('datasources_get_columns', { name: 'wx', table: 'weather' }), 'temp_c');
    assert.deepEqual(facts.map((f) => f.id), [better.id]);
    const history = await first.ok('semantics_list', { datasource: 'wx', include_retired: true });
    const old = history.facts.find((f) => f.id === unit.id);
    assert.equal(old.trust, 'retired');
    assert.equal(old.retired_reason, 'superseded');

    const retired = await first.ok('semantics_retire', { id: better.id, reason: 'we re-measure next week' });
    assert.equal(retired.trust, 'retired');
    facts = columnFacts(await second.ok('datasources_get_columns', { name: 'wx', table: 'weather' }), 'temp_c');
    assert.deepEqual(facts, []);
    assert.equal((await second.ok('semantics_list', { datasource: 'wx' })).count, 0);
  });

  it('a dropped column demotes its fact to stale at the next read', async () => {
    const precip = await first.ok('semantics_record', {
      scope: 'DATASOURCE', datasource: 'wx', kind: 'unit',
      fact: 'precip_mm is millimetres per hour, NULL when the gauge was down',
      refs: [{ table: 'weather', column: 'precip_mm' }],
      evidence_sql: 'SELECT COUNT(*) AS missing FROM weather WHERE precip_mm IS NULL',
    });
    psql(`ALTER TABLE ${SCRATCH}.weather DROP COLUMN precip_mm`);
    const columns = await second.ok('datasources_get_columns', { name: 'wx', table: 'weather' });
    assert.equal(columns.find((c) => c.name === 'precip_mm'), undefined);
    const listed = await second.ok('semantics_list', { datasource: 'wx', table: 'weather' });
    const fact = listed.facts.find((f) => f.id === precip.id);
    assert.equal(fact.trust, 'stale', JSON.stringify(listed));
    assert.equal(fact.drift, 'column precip_mm no longer exists');
    const tables = await first.ok('datasources_get_tables', { name: 'wx' });
    const weather = tables.tables.find((t) => t.name === 'weather' && t.schema === SCRATCH);
    assert.equal(tables.tables.find((t) => t.name === 'weather' && t.schema === 'demo').facts, undefined);
    assert.deepEqual(weather.facts.map((f) => [f.id, f.trust]), [[precip.id, 'stale']]);
  });

  it('a WORKSPACE definition without refs appears in definitions', async () => {
    const rule = await first.ok('semantics_record', {
      scope: 'WORKSPACE', datasource: 'wx', kind: 'definition',
      fact: 'a hot day is a day whose hourly temperature peaks above 30 degrees',
    });
    assert.deepEqual(rule.refs, []);
    assert.equal(rule.trust, 'asserted');
    const got = await second.ok('datasources_get', { name: 'wx' });
    assert.deepEqual(got.definitions.map((d) => d.id), [rule.id]);
    assert.deepEqual(got.facts, []);
    const listed = await second.ok('datasources_list', {});
    assert.deepEqual(listed.find((d) => d.name === 'wx').definitions.map((d) => d.id), [rule.id]);
    await second.refused('semantics_record', {
      scope: 'WORKSPACE', datasource: 'wx', kind: 'definition',
      fact: 'a hot day is a day whose hourly temperature peaks above 30 degrees',
    }, 'semantics.duplicate');
  });

  it('a MariaDB fact resolves in the current database and rides on its column', async () => {
    const fact = await first.ok('semantics_record', {
      scope: 'DATASOURCE', datasource: 'maria', kind: 'caveat',
      fact: 'ts is the hour the reading started, local time, no zone offset',
      refs: [{ table: 'demo_weather', column: 'ts' }],
      evidence_sql: 'SELECT MIN(ts) AS first_hour FROM demo_weather',
    });
    assert.equal(fact.trust, 'observed');
    assert.equal(typeof fact.refs[0].schema, 'string', JSON.stringify(fact.refs));
    assert.match(fact.evidence_summary, /^first_hour=/);
    const columns = await second.ok('datasources_get_columns', { name: 'maria', table: 'demo_weather' });
    assert.deepEqual(columnFacts(columns, 'ts').map((f) => f.id), [fact.id]);
    await second.refused('semantics_record', {
      scope: 'DATASOURCE', datasource: 'maria', kind: 'unit',
      fact: 'temp_c is degrees Celsius',
      refs: [{ table: 'demo_weather', column: 'temp_f' }],
    }, 'semantics.ref_unresolved');
  });
});
