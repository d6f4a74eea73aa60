// The metadata store (PostgreSQL) goes away under a running server — `pg_ctl -m fast stop`,
// every pooled connection closed, new ones refused — and comes back. While it is away, every
// request that needs it is answered at once with 503 service.metadata_unavailable and a
// Retry-After, on each surface: REST (the error envelope), MCP (HTTP 200, a tools/call result
// with isError and the same code), the UI (a 503 page naming the code), and for a key the
// server has never validated (not a 401: the key may be fine, the store cannot say). Never a
// 500 / internal.error. Once PostgreSQL is back, the very first request succeeds again,
// without restarting the server.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it, before, after } from 'node:test';
import { ADMIN_EMAIL, startServer } from '../e2e/support/server.mjs';
import {
  adminSession, assertEnvelope, assertRetryAfter, checkAll, createTemplate, mcpCall, request, rest,
  show,
} from './support/client.mjs';
import {
  PG_META_URL, psql, restartPostgres, servicesMissing, startPostgres, stopPostgres, postgresRunning,
} from './support/faults.mjs';

const missing = servicesMissing();
const schema = `faults_meta_${process.pid}_${Date.now()}`;
const CODE = 'service.metadata_unavailable';
// A dependency outage is answered promptly: no request may hang on a dead store.
const PROMPT_MS = 10_000;

let server;
let session; // the admin signed in before the outage
let freshKey; // minted by the CLI, never shown to the server before the outage

/** The 503 answer of one REST call while the store is down. */
function assertMetadataUnavailable(res, what) {
  assert.ok(res.ms < PROMPT_MS, `${what}: answered after ${res.ms.toFixed(0)} ms`);
  assert.notEqual(res.status, 500, `${what}: ${show(res)}`);
  assertEnvelope(res, 503, CODE);
  assertRetryAfter(res);
}

/** The MCP answer of one tools/call while the store is down. */
function assertToolUnavailable(res, what) {
  assert.ok(res.ms < PROMPT_MS, `${what}: answered after ${res.ms.toFixed(0)} ms`);
  assert.equal(res.status, 200, `${what}: the /mcp POST itself: ${show(res)}`);
  assert.equal(res.isError, true, `${what}: ${show(res)}`);
  assert.equal(res.payload?.error?.code, CODE, `${what}: ${show(res)}`);
}

describe('PostgreSQL metadata stopped and started under a running server', { skip: missing ?? false }, () => {
  before(async () => {
    psql(PG_META_URL, `CREATE SCHEMA ${schema}`);
    server = await startServer({
      DATAPIPELINES_METADATA_URL: `${PG_META_URL}?options=-csearch_path%3D${schema}`,
      DATAPIPELINES_DB_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    });
    freshKey = server.createKey(ADMIN_EMAIL, { scope: 'author', name: 'never-seen' }).api_key;
    session = await adminSession(server);
    const t = await createTemplate(server, server.adminKey,
      { id: 'faults/meta/one.sql', dialect: 'POSTGRES', body: 'SELECT 1 AS one' });
    assert.equal(t.status, 201, show(t));
  });

  after(async () => {
    if (!postgresRunning()) startPostgres();
    if (server) {
      await server.stop('SIGTERM');
      server.cleanup();
    }
    try { psql(PG_META_URL, `DROP SCHEMA IF EXISTS ${schema} CASCADE`); } catch { /* best effort */ }
  });

  it('before the outage: REST, MCP and the UI answer 200 (the admin key and session are cached)', async () => {
    const list = await rest(server, 'GET', '/api/v1/pipelines', { auth: server.adminKey });
    assert.equal(list.status, 200, show(list));
    const tool = await mcpCall(server, server.adminKey, 'templates_list', {});
    assert.equal(tool.isError, false, show(tool));
    const page = await request(server, { path: '/ui/templates', headers: { Cookie: session.cookie } });
    assert.equal(page.status, 200, show(page));
  });

  describe('while PostgreSQL is stopped', () => {
    before(() => stopPostgres());
    after(() => startPostgres());

    it('REST reads and writes → 503 service.metadata_unavailable with Retry-After', async () => {
      const calls = [
        ['GET', '/api/v1/pipelines'],
        ['GET', '/api/v1/templates'],
        ['GET', '/api/v1/executions'],
        ['GET', `/api/v1/templates/${encodeURIComponent('faults/meta/one.sql')}`],
        ['POST', '/api/v1/templates', { id: 'faults/meta/two.sql', dialect: 'POSTGRES',
          display_name: 'two', description: 'written during the outage', body: 'SELECT 2' }],
      ];
      await checkAll(calls.map(([method, path, json]) => [`${method} ${path}`, async () => {
        const res = await rest(server, method, path, { auth: server.adminKey, json });
        assertMetadataUnavailable(res, `${method} ${path}`);
      }]));
    });

    it('a signed-in session on REST → the same 503', async () => {
      const res = await rest(server, 'GET', '/api/v1/pipelines', { auth: session });
      assertMetadataUnavailable(res, 'GET /api/v1/pipelines with the session');
    });

    it('MCP tools/call → HTTP 200, isError, service.metadata_unavailable', async () => {
      await checkAll([['pipelines_list', {}], ['templates_list', {}],
        ['templates_get', { id: 'faults/meta/one.sql' }], ['executions_list', {}],
        ['templates_create', { id: 'faults/meta/mcp.sql', dialect: 'POSTGRES', display_name: 'mcp',
          description: 'written during the outage', body: 'SELECT 4' }],
      ].map(([name, args]) => [name, async () => {
        assertToolUnavailable(await mcpCall(server, server.adminKey, name, args), name);
      }]));
    });

    it('a key the server has never validated → 503 service.metadata_unavailable, not 401', async () => {
      await checkAll([
        ['REST', async () => {
          const res = await rest(server, 'GET', '/api/v1/pipelines', { auth: freshKey });
          assertMetadataUnavailable(res, 'REST with a never-validated key');
        }],
        ['MCP', async () => {
          const tool = await mcpCall(server, freshKey, 'pipelines_list', {});
          assert.notEqual(tool.status, 401, `MCP with a never-validated key: ${show(tool)}`);
          // Refused before any tool runs: the HTTP answer is the envelope (503), or — should
          // the server let the call through to the tool — a tool error; either names the code.
          if (tool.status === 200) assertToolUnavailable(tool, 'MCP with a never-validated key');
          else assertMetadataUnavailable(tool, 'MCP with a never-validated key');
        }],
      ]);
    });

    it('a UI page with a signed-in session → 503, its HTML naming the code', async () => {
      const page = await request(server, { path: '/ui/templates', headers: { Cookie: session.cookie } });
      assert.ok(page.ms < PROMPT_MS, `answered after ${page.ms.toFixed(0)} ms`);
      assert.equal(page.status, 503, show(page));
      assert.match(page.headers['content-type'] ?? '', /text\/html/, show(page));
      assert.ok(page.text.includes(CODE), `the page does not name ${CODE}: ${show(page)}`);
      assertRetryAfter(page);
    });

    it('/readyz → 503 with metadata DOWN; /healthz stays 200', async () => {
      const ready = await request(server, { path: '/readyz' });
      assert.equal(ready.status, 503, show(ready));
      assert.equal(ready.json?.data?.components?.metadata, 'DOWN', show(ready));
      assert.ok(ready.ms < PROMPT_MS, `readyz answered after ${ready.ms.toFixed(0)} ms`);
      const health = await request(server, { path: '/healthz' });
      assert.equal(health.status, 200, show(health));
    });

    it('the server is still the same process', () => {
      assert.equal(server.proc.exitCode, null);
      assert.equal(server.proc.signalCode, null);
    });
  });

  describe('after PostgreSQL is started again (no server restart)', () => {
    it('the FIRST request succeeds', async () => {
      assert.ok(postgresRunning(), 'PostgreSQL is up');
      const res = await rest(server, 'GET', '/api/v1/pipelines', { auth: server.adminKey });
      assert.equal(res.status, 200, show(res));
    });

    it('MCP, the session, the UI and the never-validated key work again', async () => {
      const tool = await mcpCall(server, server.adminKey, 'templates_get', { id: 'faults/meta/one.sql' });
      assert.equal(tool.isError, false, show(tool));
      const viaSession = await rest(server, 'GET', '/api/v1/templates', { auth: session });
      assert.equal(viaSession.status, 200, show(viaSession));
      const page = await request(server, { path: '/ui/templates', headers: { Cookie: session.cookie } });
      assert.equal(page.status, 200, show(page));
      const fresh = await rest(server, 'GET', '/api/v1/pipelines', { auth: freshKey });
      assert.equal(fresh.status, 200, show(fresh));
    });

    it('a write succeeds, and the refused write of the outage left nothing behind', async () => {
      for (const id of ['faults/meta/two.sql', 'faults/meta/mcp.sql']) {
        const gone = await rest(server, 'GET', `/api/v1/templates/${encodeURIComponent(id)}`,
          { auth: server.adminKey });
        assert.equal(gone.status, 404, `${id}: ${show(gone)}`);
      }
      const t = await createTemplate(server, server.adminKey,
        { id: 'faults/meta/three.sql', dialect: 'POSTGRES', body: 'SELECT 3 AS three' });
      assert.equal(t.status, 201, show(t));
    });

    it('/readyz → 200 again', async () => {
      const ready = await request(server, { path: '/readyz' });
      assert.equal(ready.status, 200, show(ready));
    });
  });

  describe('restarted with no request in between (every pooled connection is stale)', () => {
    it('the FIRST request after the restart succeeds, on each surface', async () => {
      // Warm: the pool holds connections that the restart is about to close.
      assert.equal((await rest(server, 'GET', '/api/v1/pipelines', { auth: server.adminKey })).status, 200);
      restartPostgres();
      await checkAll([
        ['REST read', async () => {
          const res = await rest(server, 'GET', '/api/v1/templates', { auth: server.adminKey });
          assert.equal(res.status, 200, show(res));
        }],
        ['MCP read', async () => {
          const tool = await mcpCall(server, server.adminKey, 'templates_list', {});
          assert.equal(tool.isError, false, show(tool));
        }],
        ['REST write', async () => {
          const t = await createTemplate(server, server.adminKey,
            { id: 'faults/meta/four.sql', dialect: 'POSTGRES', body: 'SELECT 4 AS four' });
          assert.equal(t.status, 201, show(t));
        }],
      ]);
    });
  });
});
