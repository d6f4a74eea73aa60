// Crash recovery (operations.md "Crash"): a server killed with SIGKILL in the middle of a run
// leaves that execution RUNNING; a NEW process on the same data dir and config (same metadata
// store, same encryption key) sweeps it to ABORTED with pipeline.execution.instance_lost, an
// abort_reason and finished_at, and runs new executions. Once on the embedded SQLite metadata,
// once on PostgreSQL metadata (needs scripts/test-services: DP_TEST_PG_META_URL).
//
// The sweep is heartbeat-based in both modes: the restarted instance has a new id, and it
// aborts a dead instance's runs only once that instance's last heartbeat is older than
// 3 × datapipelines.executor.heartbeat-seconds — so both servers run with a 1 s heartbeat and
// the assertions poll (~3-4 s). With the default 15 s a single restarted embedded server
// sweeps the run ~45 s after the dead instance's last beat, not at start (measured: 45.2 s).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, it, before, after } from 'node:test';
import { startDemoServer } from './support/demo_server.mjs';
import { restart } from './support/restart.mjs';
import { UUID_RE } from './support/http.mjs';
import { agent, oneNodePipeline, saveSqliteTemplates, until } from './support/executions_env.mjs';

const PG_META = process.env.DP_TEST_PG_META_URL;
const required = process.env.DP_REQUIRE_SERVICES === '1';
const HEARTBEAT = { DATAPIPELINES_EXECUTOR_HEARTBEAT_SECONDS: '1' };

const T = {
  slow: 'city/crash/sql/slow_count.sql',
  quick: 'city/crash/sql/quick_count.sql',
};
const BODIES = {
  [T.slow]: 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c '
    + 'WHERE n < 5000000000) SELECT COUNT(*) AS n FROM c',
  [T.quick]: 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c '
    + 'WHERE n < 1000) SELECT COUNT(*) AS n FROM c',
};

function metaPsql(sql) {
  const res = spawnSync('psql', [PG_META, '-v', 'ON_ERROR_STOP=1', '-At', '-c', sql],
    { encoding: 'utf8', timeout: 30_000 });
  if (res.status !== 0) throw new Error(`psql failed: ${res.stderr}`);
  return res.stdout.trim();
}

/** The whole scenario against one metadata backend; `env` selects it. */
function crashScenario(label, env, { skip = false, setup, teardown } = {}) {
  describe(`SIGKILL during a run, ${label}`, { skip }, () => {
    let demo; // the first server (and the demo SQLite file it shares with the second)
    let second; // the restarted process
    let a; // the admin's key on the first server
    let b; // the same key on the restarted one
    let slow;
    let quick;
    let lost; // the execution the first server was running when it died
    let pending; // its pipelines_execute call, which never gets an answer

    before(async () => {
      if (setup) setup();
      demo = await startDemoServer({ trips: 200, env: { ...env, ...HEARTBEAT } });
      a = await agent(demo.server, demo.server.adminKey);
      await saveSqliteTemplates(a, BODIES, 'crash recovery template');
      slow = await oneNodePipeline(a, 'city/crash/slow', T.slow,
        'Counts to five billion; the server dies first.');
      quick = await oneNodePipeline(a, 'city/crash/quick', T.quick, 'Counts to a thousand.');
    });

    after(async () => {
      await a?.close();
      await b?.close();
      if (second) await second.stop('SIGKILL');
      if (demo) await demo.cleanup(); // stops the first (already dead) and removes both dirs
      if (teardown) teardown();
    });

    it('the run is RUNNING when the server is killed with SIGKILL', async () => {
      pending = a.raw('pipelines_execute', { id: slow.id, parameters: {} })
        .then((r) => ({ answered: r }), (err) => ({ failed: err }));
      lost = await until(async () => {
        const list = await a.ok('executions_list', { pipeline_id: slow.id, status: 'RUNNING' });
        return list[0];
      }, { what: 'a RUNNING execution' });
      assert.match(lost.execution_id, UUID_RE);
      assert.equal(lost.status, 'RUNNING');
      assert.equal(lost.finished_at ?? null, null);

      const exit = await demo.server.stop('SIGKILL');
      assert.deepEqual(exit, { code: null, signal: 'SIGKILL' });
      const outcome = await pending;
      assert.ok(outcome.failed, `the killed server must not answer: ${JSON.stringify(outcome.answered)}`);
    });

    it('a new process on the same data dir and config marks it ABORTED (instance_lost)', async () => {
      second = await restart(demo.server);
      assert.notEqual(second.port, demo.server.port);
      b = await agent(second, second.adminKey);
      const got = await until(async () => {
        const e = await b.ok('executions_get', { execution_id: lost.execution_id });
        return e.status === 'RUNNING' ? null : e;
      }, { timeoutMs: 20_000, intervalMs: 250, what: 'the swept execution' });
      assert.equal(got.status, 'ABORTED', JSON.stringify(got));
      assert.equal(got.execution_id, lost.execution_id);
      assert.equal(got.pipeline_id, slow.id);
      assert.equal(got.error?.code, 'pipeline.execution.instance_lost', JSON.stringify(got));
      assert.equal(typeof got.abort_reason, 'string');
      assert.ok(got.abort_reason.trim().length > 0, 'abort_reason is non-empty');
      assert.ok(got.finished_at, `finished_at is set: ${JSON.stringify(got)}`);
      assert.ok(Date.parse(got.finished_at) >= Date.parse(got.started_at),
        `finished_at ${got.finished_at} is not before started_at ${got.started_at}`);
      const listed = await b.ok('executions_list', { pipeline_id: slow.id, status: 'ABORTED' });
      assert.deepEqual(listed.map((e) => e.execution_id), [lost.execution_id]);
      assert.deepEqual(await b.ok('executions_list', { pipeline_id: slow.id, status: 'RUNNING' }), []);
    });

    it('the restarted server runs a new execution to SUCCESS', async () => {
      const run = await b.ok('pipelines_execute', { id: quick.id, parameters: {} });
      assert.equal(run.status, 'SUCCESS');
      assert.notEqual(run.execution_id, lost.execution_id);
      assert.equal(run.total_rows, 1);
      assert.deepEqual(run.schema.map((c) => c.name), ['n']);
      assert.equal(Number(run.rows[0][0]), 1000);
      const got = await b.ok('executions_get', { execution_id: run.execution_id });
      assert.equal(got.status, 'SUCCESS');
      assert.ok(got.finished_at);
    });
  });
}

crashScenario('SQLite metadata', {});

const schema = `e2e_crash_${process.pid}_${Date.now()}`;
crashScenario('PostgreSQL metadata', {
  DATAPIPELINES_METADATA_URL: `${PG_META}?options=-csearch_path%3D${schema}`,
  DATAPIPELINES_DB_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
}, {
  skip: !required && !PG_META,
  setup: () => {
    assert.ok(PG_META, 'DP_TEST_PG_META_URL must be set');
    metaPsql(`CREATE SCHEMA ${schema}`);
  },
  teardown: () => { if (PG_META) metaPsql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`); },
});
