// A full disk under the embedded SQLite metadata store: the server's data dir on a 32 MiB
// tmpfs, filled to the last byte with a file. A write the store cannot take answers 507
// service.metadata_storage_full with Retry-After (REST and MCP), nothing half-written shows
// afterwards, /readyz says metadata DOWN while writes fail; the filler deleted, /readyz is 200
// again within seconds (the 1 s heartbeat writes) and the write succeeds.
// Then the same with an execution in flight: its final status write cannot land, its caller
// gets an error naming the execution_id, and once the disk has room the execution shows a
// terminal status — none stays RUNNING.
//
// SQLite in WAL mode may still commit into WAL space it already owns after the file system is
// full, so "full" is proven by writing until the store refuses (each accepted write is whole
// and stays); the first refusal must be the 507.
import assert from 'node:assert/strict';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { describe, it, before, after } from 'node:test';
import { startServer } from '../e2e/support/server.mjs';
import {
  adminSession, assertEnvelope, assertRetryAfter, checkAll, createTemplate, execute, mcpCall,
  oneNodePipeline, registerDatasource, request, rest, show, until, UUID_RE,
} from './support/client.mjs';
import {
  PG_URL, fillDisk, freeBytes, freeDisk, holdAdvisoryLock, servicesMissing, tmpfsUnavailable,
  withTmpfs,
} from './support/faults.mjs';

const TMPFS_MIB = 32;
const CODE = 'service.metadata_storage_full';
const LOCK_KEY = 4242;
// A template body of ~96 KiB: a few of them use up whatever WAL space SQLite already owns.
const PADDING = `-- ${'x'.repeat(96 * 1024)}\nSELECT 1 AS one`;

const missing = servicesMissing();
const skip = missing ?? tmpfsUnavailable() ?? false;
if (skip) console.log(`# disk_full: skipped — ${skip}`);

let server;
let tmpfs; // the mount point
let filler; // the file that fills it
let written = 0; // templates accepted while the disk was filling
let refusedId; // the first template id the store refused

const templatePath = (id) => `/api/v1/templates/${encodeURIComponent(id)}`;

/**
 * Writes ~96 KiB templates until the store refuses one (at most `max`); returns that refusal
 * and its id. Every accepted one is counted (WAL space SQLite already owned).
 */
async function writeUntilRefused(prefix, max = 80) {
  for (let i = 0; i < max; i += 1) {
    const id = `faults/disk/${prefix}_${i}.sql`;
    const res = await createTemplate(server, server.adminKey, { id, dialect: 'POSTGRES', body: PADDING });
    if (res.status !== 201) return { res, id, accepted: i };
    written += 1;
  }
  throw new Error(`the store accepted ${max} writes of ~96 KiB on a full ${TMPFS_MIB} MiB disk`);
}

// The tmpfs stays mounted from `before` to `after`: withTmpfs holds it until `release()` is
// called, then unmounts in its finally (and the exit hook and tests/faults/run's trap would).
let release;
let mountedTask;

describe(`the embedded SQLite store on a ${TMPFS_MIB} MiB tmpfs that fills up`, { skip }, () => {
  let session;
  let slow; // a pipeline whose one query waits on an advisory lock the test holds

  before(async () => {
    let ready;
    const mountedReady = new Promise((r) => { ready = r; });
    const lifetime = new Promise((r) => { release = r; });
    mountedTask = withTmpfs(TMPFS_MIB, async (dir) => {
      tmpfs = dir;
      ready();
      await lifetime;
    });
    const early = await Promise.race([mountedReady.then(() => null), mountedTask]);
    if (early?.skipped) throw new Error(early.skipped);
    filler = path.join(tmpfs, 'filler');
    const dataDir = path.join(tmpfs, 'data');
    mkdirSync(dataDir);
    server = await startServer({
      DATAPIPELINES_DATA_DIR: dataDir,
      DATAPIPELINES_EXECUTOR_HEARTBEAT_SECONDS: '1',
    });
    session = await adminSession(server);
    await registerDatasource(server, session, { name: 'pg', url: PG_URL, dialect: 'POSTGRES' });
    slow = await oneNodePipeline(server, server.adminKey, {
      name: 'faults/disk/slow', source: 'pg', dialect: 'POSTGRES',
      sql: `SELECT 1 AS one FROM (SELECT pg_advisory_xact_lock(${LOCK_KEY})) AS l`,
    });
  });

  after(async () => {
    if (server) {
      await server.stop('SIGKILL');
      server.cleanup();
    }
    if (filler) freeDisk(filler);
    release?.();
    await mountedTask; // unmounted in withTmpfs's finally
  });

  describe('a write on a full disk', () => {
    let refusal;

    before(() => {
      const left = fillDisk(filler);
      assert.equal(left, 0, `the tmpfs still has ${left} bytes free`);
    });

    it('the first write the store cannot take → 507 service.metadata_storage_full with Retry-After', async (t) => {
      const { res, id, accepted } = await writeUntilRefused('a');
      t.diagnostic(`${accepted} write(s) of ~96 KiB accepted on the full disk, then: ${show(res).slice(0, 300)}`);
      refusal = res;
      refusedId = id;
      assert.notEqual(res.status, 500, show(res));
      assertEnvelope(res, 507, CODE);
      assertRetryAfter(res);
    });

    it('over MCP too: templates_create → isError, service.metadata_storage_full', async () => {
      assert.ok(refusal, 'the disk is full (previous test)');
      const tool = await mcpCall(server, server.adminKey, 'templates_create', {
        id: 'faults/disk/by_mcp.sql', dialect: 'POSTGRES', display_name: 'by_mcp',
        description: 'written on a full disk', body: PADDING,
      });
      assert.equal(tool.status, 200, show(tool));
      assert.equal(tool.isError, true, show(tool));
      assert.equal(tool.payload?.error?.code, CODE, show(tool));
    });

    it('/readyz → 503 with metadata DOWN while writes fail (within 5 s)', async () => {
      const res = await until(async () => {
        const r = await request(server, { path: '/readyz' });
        return r.status === 503 && r.json?.data?.components?.metadata === 'DOWN' ? r : null;
      }, { timeoutMs: 5000, intervalMs: 200, what: '/readyz 503 with metadata DOWN' })
        .catch(async (err) => {
          const r = await request(server, { path: '/readyz' });
          throw new Error(`${err.message}; last: ${show(r)}`);
        });
      assert.equal(res.json.data.status, 'DOWN', show(res));
    });

    it('reads still work, and nothing half-written is visible', async () => {
      await checkAll([
        ['the refused template is absent', async () => {
          const gone = await rest(server, 'GET', templatePath(refusedId), { auth: server.adminKey });
          assert.equal(gone.status, 404, show(gone));
        }],
        ['the MCP-refused template is absent', async () => {
          const gone = await rest(server, 'GET', templatePath('faults/disk/by_mcp.sql'), { auth: server.adminKey });
          assert.equal(gone.status, 404, show(gone));
        }],
        ['every accepted template is whole', async () => {
          const list = await rest(server, 'GET', '/api/v1/templates?q=faults/disk/a_&limit=200',
            { auth: server.adminKey });
          assert.equal(list.status, 200, show(list));
          for (let i = 0; i < written; i += 1) {
            const one = await rest(server, 'GET', templatePath(`faults/disk/a_${i}.sql`), { auth: server.adminKey });
            assert.equal(one.status, 200, show(one));
            assert.equal(one.json.data.body, PADDING, `faults/disk/a_${i}.sql is not whole`);
          }
        }],
        ['the server is the same process', async () => {
          assert.equal(server.proc.exitCode, null);
        }],
      ]);
    });

    it('the filler deleted: /readyz 200 within 10 s, then the same write succeeds', async () => {
      freeDisk(filler);
      assert.ok(freeBytes(tmpfs) > 1 << 20);
      const started = Date.now();
      await until(async () => (await request(server, { path: '/readyz' })).status === 200,
        { timeoutMs: 10_000, intervalMs: 200, what: '/readyz 200 after the disk was freed' })
        .catch(async (err) => {
          const r = await request(server, { path: '/readyz' });
          throw new Error(`${err.message}; last: ${show(r)}`);
        });
      const res = await createTemplate(server, server.adminKey,
        { id: refusedId, dialect: 'POSTGRES', body: PADDING });
      assert.equal(res.status, 201, `${show(res)} (${Date.now() - started} ms after the disk was freed)`);
    });
  });

  describe('an execution in flight when the disk fills', () => {
    let lock;
    let pending; // the caller's execute request
    let runningId;
    let answer;

    after(async () => {
      await lock?.release();
      freeDisk(filler);
    });

    it('runs, waiting on the lock the test holds', async () => {
      lock = await holdAdvisoryLock(PG_URL, LOCK_KEY);
      pending = execute(server, server.adminKey, slow.id, { timeoutMs: 60_000 })
        .then((res) => ({ res }), (err) => ({ err }));
      const running = await until(async () => {
        const list = await rest(server, 'GET',
          `/api/v1/executions?pipeline_id=${slow.id}&status=RUNNING`, { auth: server.adminKey });
        return list.json?.data?.items?.[0];
      }, { timeoutMs: 10_000, what: 'the execution RUNNING' });
      runningId = running.execution_id;
      assert.match(runningId, UUID_RE);
    });

    it('the disk fills (the store refuses writes), then the query finishes', async () => {
      assert.ok(runningId, 'the execution is running (previous test)');
      const left = fillDisk(filler);
      assert.equal(left, 0, `the tmpfs still has ${left} bytes free`);
      // Any refusal proves the store is out of room (its code is the previous block's test).
      const { res } = await writeUntilRefused('b');
      assert.notEqual(res.status, 201, show(res));
      await lock.release();
      answer = await Promise.race([pending,
        new Promise((r) => setTimeout(() => r({ err: new Error('no answer within 20 s') }), 20_000))]);
      assert.ok(!answer.err, `the caller got no answer: ${answer.err?.message}`);
    });

    it("the caller's answer is an error naming the execution_id (not a 500, not SUCCESS)", (t) => {
      assert.ok(answer?.res, 'the caller got an answer (previous test)');
      const { res } = answer;
      t.diagnostic(`the caller got: ${show(res).slice(0, 400)}`);
      assert.notEqual(res.status, 200, `the final status could not be written, yet: ${show(res)}`);
      assert.notEqual(res.status, 500, show(res));
      assert.notEqual(res.json?.error?.code, 'internal.error', show(res));
      const error = res.json?.error ?? {};
      // The store's own condition, retryable: the disk is full, or the store did not take the
      // final state yet (the server keeps writing it).
      assert.ok([CODE, 'service.metadata_unavailable'].includes(error.code), show(res));
      assertRetryAfter(res);
      assert.equal(error.details?.execution_id, runningId, `error.details.execution_id: ${show(res)}`);
    });

    it('the disk freed: within 10 s the execution shows a terminal status, not RUNNING', async (t) => {
      assert.ok(runningId, 'the execution ran');
      freeDisk(filler);
      let last;
      try {
        await until(async () => {
          last = await rest(server, 'GET', `/api/v1/executions/${runningId}`, { auth: server.adminKey });
          return last.status === 200 && ['SUCCESS', 'FAILED', 'ABORTED'].includes(last.json.data.status);
        }, { timeoutMs: 10_000, intervalMs: 250, what: 'a terminal status' });
      } catch (err) {
        assert.fail(`${err.message}; last: ${last ? show(last) : 'none'}`);
      }
      t.diagnostic(`terminal: ${last.json.data.status} ${last.json.data.error?.code ?? ''}`);
      assert.ok(last.json.data.finished_at, show(last));
      const list = await rest(server, 'GET', `/api/v1/executions?pipeline_id=${slow.id}&status=RUNNING`,
        { auth: server.adminKey });
      assert.deepEqual(list.json?.data?.items, [], show(list));
    });
  });
});
