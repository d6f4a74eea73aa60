// The production shape: PostgreSQL metadata + Redis results and rate limits, with the same
// SDK workflow and the audit trail landing in PostgreSQL. Needs scripts/test-services.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, it, before, after } from 'node:test';
import { BINARY, startServer } from './support/server.mjs';
import { keyHeader, mcpPost, request, sdkClient, toolPayload } from './support/http.mjs';

const PG = process.env.DP_TEST_PG_META_URL;
const REDIS = process.env.DP_TEST_REDIS_URL;
const required = process.env.DP_REQUIRE_SERVICES === '1';
const schema = `e2e_${process.pid}_${Date.now()}`;

function psql(sql) {
  const res = spawnSync('psql', [PG, '-v', 'ON_ERROR_STOP=1', '-At', '-c', sql], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`psql failed: ${res.stderr}`);
  return res.stdout.trim();
}

describe('production backends (PostgreSQL + Redis)', { skip: !required && (!PG || !REDIS) }, () => {
  let server;
  before(async () => {
    assert.ok(PG && REDIS, 'DP_TEST_PG_META_URL and DP_TEST_REDIS_URL must be set');
    psql(`CREATE SCHEMA ${schema}`);
    server = await startServer({
      DATAPIPELINES_METADATA_URL: `${PG}?options=-csearch_path%3D${schema}`,
      DATAPIPELINES_RESULTS_URL: `${REDIS}/2`,
      DATAPIPELINES_RATE_LIMIT_URL: `${REDIS}/2`,
      DATAPIPELINES_DB_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    });
  });
  after(async () => {
    if (server) {
      await server.stop('SIGTERM');
      server.cleanup();
    }
    if (PG) psql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  it('refuses to start without the datasource encryption key (datasources.md §7.1)', () => {
    const res = spawnSync(BINARY, ['serve'], {
      env: { ...server.env, DATAPIPELINES_DB_ENCRYPTION_KEY: '', SERVER_PORT: '0' },
      encoding: 'utf8', timeout: 20_000,
    });
    assert.notEqual(res.status, 0);
    assert.match(res.stderr + res.stdout, /DATAPIPELINES_DB_ENCRYPTION_KEY/);
  });

  it('reports every component ready, each with its latency', async () => {
    const res = await request(server, { method: 'GET', path: '/readyz' });
    assert.equal(res.status, 200);
    const components = { metadata: 'UP', results: 'UP', rate_limiter: 'UP', tempdb: 'UP' };
    assert.deepEqual(res.json.data.components, components);
    for (const name of Object.keys(components)) {
      const ms = res.json.data.latency_ms[name];
      assert.ok(typeof ms === 'number' && ms >= 0 && ms < 5000, `${name}: ${ms}`);
    }
  });

  it('answers 503 naming the components whose Redis is down, and no address', async () => {
    // Embedded metadata of its own; both Redis users pointed at a port nothing listens on.
    const down = await startServer({
      DATAPIPELINES_RESULTS_URL: 'redis://127.0.0.1:1/2',
      DATAPIPELINES_RATE_LIMIT_URL: 'redis://127.0.0.1:1/2',
    }, { bootstrap: false });
    try {
      const res = await request(down, { method: 'GET', path: '/readyz' });
      assert.equal(res.status, 503, res.text);
      assert.equal(res.json.data.status, 'DOWN');
      assert.deepEqual(res.json.data.components,
        { metadata: 'UP', results: 'DOWN', rate_limiter: 'DOWN', tempdb: 'UP' });
      assert.doesNotMatch(res.text, /127\.0\.0\.1|redis:/);
      // Liveness stays trivial: the process is up even when a dependency is not.
      assert.equal((await request(down, { method: 'GET', path: '/healthz' })).status, 200);
    } finally {
      await down.stop('SIGTERM');
      down.cleanup();
    }
  });

  it('serves the SDK workflow and audits it in PostgreSQL', async () => {
    const { client } = await sdkClient(server, server.adminKey, 'bearer');
    try {
      const result = await client.callTool({ name: 'docs_get', arguments: { name: 'skill' } });
      assert.equal(result.isError, false);
      assert.equal(toolPayload(result).name, 'skill');
      const correlationId = result._meta.correlation_id;
      // The audit writer is a thread of its own: the row lands moments after the answer.
      const query = `SELECT event FROM ${schema}.audit_log WHERE correlation_id = '${correlationId}' ORDER BY id`;
      let rows = psql(query);
      for (let tries = 0; rows === '' && tries < 50; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        rows = psql(query);
      }
      assert.equal(rows, 'mcp.tool.called');
      const migrated = psql(`SELECT max(version) FROM ${schema}.schema_migrations`);
      assert.ok(Number(migrated) >= 1);
    } finally {
      await client.close();
    }
  });

  it('charges the per-user budget through Redis', async () => {
    const res = await mcpPost(server, { jsonrpc: '2.0', id: 1, method: 'ping' }, keyHeader(server.adminKey));
    assert.equal(res.status, 200);
    assert.equal(res.headers['ratelimit-limit'], '100000');
    const keys = spawnSync('redis-cli', ['-u', `${REDIS}/2`, '--scan', '--pattern', 'dp:rl:*'], { encoding: 'utf8' });
    assert.match(keys.stdout, /dp:rl:/);
  });
});
