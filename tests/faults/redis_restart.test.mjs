// The Redis result store restarted under a running server (killed, started again: the stored
// results are gone, which is fine — they are TTL-bound caches). The FIRST execution after the
// restart must succeed and its rows be readable: the server's connection to the old process is
// dead, and it must notice and reconnect rather than fail the run with
// result.storage_unavailable.
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { startServer } from '../e2e/support/server.mjs';
import { assertAlive, execute, oneNodePipeline, rest, show } from './support/client.mjs';
import { REDIS_URL, redisPing, restartRedis, servicesMissing, startRedis } from './support/faults.mjs';

const missing = servicesMissing();
const ROWS = 2500;
const SQL = `WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < ${ROWS}) `
  + "SELECT n, printf('row-%06d', n) AS label FROM c";

let server;
let pipeline;

/** Executes the pipeline and reads a page of its result; asserts both. */
async function runAndRead(what) {
  let res;
  try {
    res = await execute(server, server.adminKey, pipeline.id, { timeoutMs: 30_000 });
  } catch (err) {
    await new Promise((r) => setTimeout(r, 100));
    assertAlive(server);
    throw err;
  }
  assert.equal(res.status, 200, `${what}: ${show(res)}`);
  const run = res.json.data;
  assert.equal(run.status, 'SUCCESS', `${what}: ${show(res)}`);
  assert.equal(run.total_rows, ROWS);
  const page = await rest(server, 'GET', `/api/v1/executions/${run.execution_id}/result?offset=${ROWS - 10}&limit=10`,
    { auth: server.adminKey });
  assert.equal(page.status, 200, `${what}, its result page: ${show(page)}`);
  assert.equal(page.json.data.row_count, 10, show(page));
  return run;
}

describe('the Redis result store restarted under a running server', { skip: missing ?? false }, () => {
  before(async () => {
    server = await startServer({ DATAPIPELINES_RESULTS_URL: `${REDIS_URL}/1` });
    pipeline = await oneNodePipeline(server, server.adminKey, {
      name: 'faults/redis/rows', source: 'tempdb', dialect: 'SQLITE', sql: SQL,
    });
  });

  after(async () => {
    if (!redisPing()) await startRedis();
    if (server) {
      await server.stop('SIGTERM');
      server.cleanup();
    }
  });

  let before_;
  it('an execution stores its result in Redis', async () => {
    before_ = await runAndRead('before the restart');
  });

  it('Redis is killed and started again', async () => {
    await restartRedis();
    assert.ok(redisPing());
    assertAlive(server);
  });

  it('the FIRST execution after the restart succeeds and its rows are readable', async () => {
    await runAndRead('the first execution after the restart');
  });

  it('so does the next one', async () => {
    await runAndRead('the second execution after the restart');
  });

  it('the result lost with the old Redis reads as gone (404/410), not a 500', async () => {
    assert.ok(before_, 'the first execution ran');
    const page = await rest(server, 'GET', `/api/v1/executions/${before_.execution_id}/result`,
      { auth: server.adminKey });
    assert.ok([404, 410].includes(page.status), show(page));
  });
});
