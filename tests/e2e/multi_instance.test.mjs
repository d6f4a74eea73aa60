// Several instances on one PostgreSQL + one Redis (operations.md "Several instances"): two
// `datapipelines serve` processes, each with its own port and its own empty data dir, share
// the metadata store, the result store and the rate limiter. Nothing one instance holds in
// memory is needed by the other; the API-key validation cache (TTL) is the documented
// exception. Needs scripts/test-services (DP_TEST_PG_META_URL, DP_TEST_REDIS_URL).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { describe, it, before, after } from 'node:test';
import { startDemoServer } from './support/demo_server.mjs';
import { startServer, USER_PASSWORD } from './support/server.mjs';
import { spawnOn } from './support/restart.mjs';
import { keyHeader, mcpPost, rpc, request, UUID_RE } from './support/http.mjs';
import { agent, oneNodePipeline, saveSqliteTemplates, until } from './support/executions_env.mjs';

const PG_META = process.env.DP_TEST_PG_META_URL;
const REDIS = process.env.DP_TEST_REDIS_URL;
const required = process.env.DP_REQUIRE_SERVICES === '1';
const CACHE_TTL_SECONDS = 2;
// Login lockouts are kept in Redis by e-mail, beyond this run's PostgreSQL schema: one per run.
const LOCKED_EMAIL = `locked-${process.pid}-${Date.now()}@e2e.test`;
const schema = `e2e_multi_${process.pid}_${Date.now()}`;

const T = {
  slow: 'city/multi/sql/slow_count.sql',
  quick: 'city/multi/sql/zones.sql',
};
const BODIES = {
  [T.slow]: 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c '
    + 'WHERE n < 5000000000) SELECT COUNT(*) AS n FROM c',
  [T.quick]: 'SELECT id, name, borough FROM zones ORDER BY id',
};

function metaPsql(sql) {
  const res = spawnSync('psql', [PG_META, '-v', 'ON_ERROR_STOP=1', '-At', '-c', sql],
    { encoding: 'utf8', timeout: 30_000 });
  if (res.status !== 0) throw new Error(`psql failed: ${res.stderr}`);
  return res.stdout.trim();
}

/** A second `serve` on the same shared stores as `first`, with an empty data dir of its own. */
async function secondInstance(first, overrides = {}) {
  const { SERVER_PORT: _port, DATAPIPELINES_DATA_DIR: _dir, ...shared } = first.env;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dp-e2e-b-'));
  const server = await spawnOn({ ...shared, DATAPIPELINES_DATA_DIR: dataDir, ...overrides }, dataDir);
  server.adminKey = first.adminKey;
  server.cleanupDir = () => rmSync(dataDir, { recursive: true, force: true });
  return server;
}

/** Executions of `pipelineId` with `status`, read through `client`. */
const listed = (client, pipelineId, status) =>
  client.ok('executions_list', { pipeline_id: pipelineId, status });

describe('two instances on one PostgreSQL and one Redis', { skip: !required && (!PG_META || !REDIS) }, () => {
  let demo; // instance A (and the demo SQLite file both read)
  let b; // instance B
  let onA;
  let onB;
  let slow;
  let quick;

  before(async () => {
    assert.ok(PG_META && REDIS, 'DP_TEST_PG_META_URL and DP_TEST_REDIS_URL must be set');
    metaPsql(`CREATE SCHEMA ${schema}`);
    demo = await startDemoServer({
      trips: 200,
      env: {
        DATAPIPELINES_METADATA_URL: `${PG_META}?options=-csearch_path%3D${schema}`,
        DATAPIPELINES_DB_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        DATAPIPELINES_RESULTS_URL: `${REDIS}/4`,
        DATAPIPELINES_RATE_LIMIT_URL: `${REDIS}/4`,
        DATAPIPELINES_EXECUTOR_HEARTBEAT_SECONDS: '1',
        DATAPIPELINES_AUTH_API_KEYS_CACHE_TTL_SECONDS: String(CACHE_TTL_SECONDS),
      },
    });
    b = await secondInstance(demo.server);
    assert.notEqual(b.port, demo.server.port);
    onA = await agent(demo.server, demo.server.adminKey);
    onB = await agent(b, b.adminKey);
    await saveSqliteTemplates(onA, BODIES, 'multi-instance template');
    await onA.ok('datasources_get_columns', { name: 'demo', table: 'zones' });
    slow = await oneNodePipeline(onA, 'city/multi/slow', T.slow,
      'Counts to five billion: it is cancelled first.');
    quick = await oneNodePipeline(onA, 'city/multi/zones', T.quick, 'The zones, in order.');
  });

  after(async () => {
    await onA?.close();
    await onB?.close();
    if (b) {
      await b.stop('SIGKILL');
      b.cleanupDir();
    }
    if (demo) await demo.cleanup();
    if (PG_META) metaPsql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  it('a pipeline created through A is read, run and paged identically through B', async () => {
    const run = await onA.ok('pipelines_execute', { id: quick.id, parameters: {} });
    assert.equal(run.status, 'SUCCESS');
    const page = { execution_id: run.execution_id, offset: 0, limit: 3 };
    const fromA = await onA.ok('executions_get_result', page);
    const fromB = await onB.ok('executions_get_result', page);
    assert.deepEqual(fromB, fromA);
    assert.equal(fromA.rows.length, 3);
    assert.deepEqual(await onB.ok('executions_get', { execution_id: run.execution_id }),
      await onA.ok('executions_get', { execution_id: run.execution_id }));
  });

  it('resources/list pages alike through either instance (the cursor is theirs in common)', async () => {
    const firstA = await onA.client.listResources();
    const firstB = await onB.client.listResources();
    assert.deepEqual(firstB, firstA);
    assert.ok(firstA.resources.some((r) => r.uri.includes(quick.id)), JSON.stringify(firstA));
    if (firstA.nextCursor) {
      // A cursor minted by A is honoured by B.
      assert.deepEqual(await onB.client.listResources({ cursor: firstA.nextCursor }),
        await onA.client.listResources({ cursor: firstA.nextCursor }));
    }
  });

  it('an execution started through A is cancelled through B and ends ABORTED on A', { timeout: 120_000 }, async () => {
    const pending = onA.raw('pipelines_execute', { id: slow.id, parameters: {} });
    const running = await until(async () => (await listed(onB, slow.id, 'RUNNING'))[0],
      { timeoutMs: 20_000, what: 'the run seen RUNNING through B' });
    assert.match(running.execution_id, UUID_RE);
    const cancelled = await onB.ok('executions_cancel', { execution_id: running.execution_id });
    assert.equal(cancelled.execution_id, running.execution_id);
    const answer = await pending; // A's caller gets the failure as its answer
    assert.equal(answer.isError, true, JSON.stringify(answer.payload));
    const onRecordA = await onA.ok('executions_get', { execution_id: running.execution_id });
    assert.equal(onRecordA.status, 'ABORTED', JSON.stringify(onRecordA));
    assert.ok(onRecordA.finished_at);
  });

  it('a key revoked through A is refused by B within the cache TTL', async () => {
    const key = demo.server.createKey('admin@e2e.test', { scope: 'read' });
    assert.equal((await mcpPost(b, rpc('ping'), keyHeader(key.api_key))).status, 200);
    const revoked = await request(demo.server, { method: 'DELETE',
      path: `/api/v1/auth/api-keys/${key.id}`, headers: keyHeader(key.api_key) });
    assert.equal(revoked.status, 204, revoked.text);
    const started = Date.now();
    await until(async () => (await mcpPost(b, rpc('ping'), keyHeader(key.api_key))).status === 401,
      { timeoutMs: CACHE_TTL_SECONDS * 1000 + 3000, intervalMs: 100, what: 'B refusing the key' });
    assert.ok(Date.now() - started <= CACHE_TTL_SECONDS * 1000 + 3000);
    const refused = await mcpPost(b, rpc('ping'), keyHeader(key.api_key));
    assert.equal(refused.json.error.code, 'auth.api_key.invalid', refused.text);
  });

  it('killing A with SIGKILL mid-run leaves the execution ABORTED by B, never RUNNING', { timeout: 120_000 }, async () => {
    const pending = onA.raw('pipelines_execute', { id: slow.id, parameters: {} })
      .then(() => 'answered', () => 'failed');
    const lost = await until(async () => (await listed(onB, slow.id, 'RUNNING'))[0],
      { timeoutMs: 20_000, what: 'the run seen RUNNING through B' });
    assert.deepEqual(await demo.server.stop('SIGKILL'), { code: null, signal: 'SIGKILL' });
    assert.equal(await pending, 'failed');
    // B sweeps once A's heartbeat is three intervals (1 s each) old.
    const swept = await until(async () => {
      const e = await onB.ok('executions_get', { execution_id: lost.execution_id });
      return e.status === 'RUNNING' ? null : e;
    }, { timeoutMs: 30_000, intervalMs: 250, what: 'B sweeping the lost run' });
    assert.equal(swept.status, 'ABORTED', JSON.stringify(swept));
    assert.equal(swept.error?.code, 'pipeline.execution.instance_lost', JSON.stringify(swept));
    assert.ok(swept.abort_reason?.trim(), 'abort_reason is recorded');
    assert.deepEqual(await listed(onB, slow.id, 'RUNNING'), []);
  });
});

/** POST /api/v1/auth/login on `server`; resolves the response. */
const login = (server, email, password) => request(server, {
  method: 'POST', path: '/api/v1/auth/login', headers: { 'Content-Type': 'application/json' },
  body: { email, password },
});

describe('one user budget across two instances', { skip: !required && (!PG_META || !REDIS) }, () => {
  const budgetSchema = `${schema}_rl`;
  let a;
  let b;
  let key;

  before(async () => {
    metaPsql(`CREATE SCHEMA ${budgetSchema}`);
    // Four requests a minute per user: the fifth, on either instance, is refused.
    a = await startServer({
      DATAPIPELINES_METADATA_URL: `${PG_META}?options=-csearch_path%3D${budgetSchema}`,
      DATAPIPELINES_DB_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      DATAPIPELINES_RESULTS_URL: `${REDIS}/4`,
      DATAPIPELINES_RATE_LIMIT_URL: `${REDIS}/4`,
      DATAPIPELINES_RATE_LIMIT_REQUESTS_PER_MINUTE: '4',
      DATAPIPELINES_AUTH_LOCAL_LOCKOUT_MAX_FAILURES: '3',
    });
    b = await secondInstance(a);
    a.createUser('budget@e2e.test', 'author');
    a.createUser(LOCKED_EMAIL, 'author');
    key = a.createKey('budget@e2e.test', { scope: 'read' }).api_key;
  });

  after(async () => {
    for (const s of [a, b]) if (s) await s.stop('SIGKILL');
    a?.cleanup();
    b?.cleanupDir();
    if (PG_META) metaPsql(`DROP SCHEMA IF EXISTS ${budgetSchema} CASCADE`);
  });

  it('requests through A and B draw from one budget; the refusal is rate_limit.exceeded', async () => {
    const statuses = [];
    for (const server of [a, b, a, b]) {
      statuses.push((await mcpPost(server, rpc('ping'), keyHeader(key))).status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200]);
    for (const server of [b, a]) {
      const res = await mcpPost(server, rpc('ping'), keyHeader(key));
      assert.equal(res.status, 429, res.text);
      assert.equal(res.json.error.code, 'rate_limit.exceeded', res.text);
      assert.ok(Number(res.headers['retry-after']) >= 1);
    }
  });

  it('failed logins through A and B lock the account on both', async () => {
    for (const server of [a, b]) {
      const res = await login(server, LOCKED_EMAIL, 'not-the-password-at-all');
      assert.equal(res.status, 401, res.text);
    }
    assert.equal((await login(a, LOCKED_EMAIL, 'not-the-password-at-all')).status, 401);
    // The third failure landed on A: now both refuse even the right password.
    for (const server of [b, a]) {
      const res = await login(server, LOCKED_EMAIL, USER_PASSWORD);
      assert.equal(res.status, 403, res.text);
      assert.equal(res.json.error.code, 'auth.login.locked', res.text);
      assert.ok(Number(res.headers['retry-after']) >= 1);
    }
  });
});
