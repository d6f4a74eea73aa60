// The in-process result store keeps its byte cap and frees expired results on time, on its
// own. With `memory:4 MiB` and short TTLs: results fill it until an execution is refused —
// FAILED with result.storage_unavailable — cheaply (no slower than a normal run: the store does
// not buffer a result it cannot keep); a result stored earlier still reads while the store is
// full. Then, with NO request touching the store, once the TTLs pass and the sweep timer
// (datapipelines.results.sweep-interval-seconds = 1) runs, the store's usage drops to zero
// (read on /metrics: datapipelines_result_store_bytes / _results), and a new execution succeeds.
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { startServer } from '../e2e/support/server.mjs';
import {
  assertAlive, execute, metricValue, oneNodePipeline, request, rest, show, sleep,
} from './support/client.mjs';

const CAP = 4 * 1024 * 1024;
const TTL = 10; // seconds, asked with DP-Result-TTL-Seconds
const SWEEP = 1; // seconds
const ROWS = 4000;
// ~4000 rows of ~230 bytes: about 1 MiB per result, so the cap holds three or four.
const SQL = `WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < ${ROWS}) `
  + "SELECT n, printf('%0200d', n) AS pad FROM c";
// The same rows, 75 times as many (~70 MiB, under result.max-size-bytes): buffered whole before
// a refusal, it would cost far more than a stored run; refused on its first rows, it does not.
const BIG_SQL = SQL.replace(`n < ${ROWS}`, `n < ${ROWS * 75}`);

let server;
let pipeline;
let big; // a pipeline whose result is far larger than the whole store
const stored = []; // {execution_id, at, ms}
let refused; // {res, ms, execution_id}
let lastStoredAt;

async function usage() {
  const res = await request(server, { path: '/metrics' });
  assert.equal(res.status, 200, show(res));
  return {
    bytes: metricValue(res.text, 'datapipelines_result_store_bytes', { backend: 'memory' }),
    results: metricValue(res.text, 'datapipelines_result_store_results', { backend: 'memory' }),
  };
}

describe(`the memory result store (cap ${CAP} bytes, TTL ${TTL} s, sweep every ${SWEEP} s)`, () => {
  before(async () => {
    server = await startServer({
      DATAPIPELINES_RESULTS_URL: `memory:${CAP}`,
      DATAPIPELINES_RESULT_TTL_MIN_SECONDS: '1',
      DATAPIPELINES_RESULT_TTL_DEFAULT_SECONDS: String(TTL),
      DATAPIPELINES_RESULTS_SWEEP_INTERVAL_SECONDS: String(SWEEP),
    });
    pipeline = await oneNodePipeline(server, server.adminKey, {
      name: 'faults/memory/rows', source: 'tempdb', dialect: 'SQLITE', sql: SQL,
    });
    big = await oneNodePipeline(server, server.adminKey, {
      name: 'faults/memory/big', source: 'tempdb', dialect: 'SQLITE', sql: BIG_SQL,
    });
  });

  after(async () => {
    if (server) {
      await server.stop('SIGTERM');
      server.cleanup();
    }
  });

  it('results fill the store until an execution is refused with result.storage_unavailable', async (t) => {
    for (let i = 0; i < 12 && !refused; i += 1) {
      const started = performance.now();
      const res = await execute(server, server.adminKey, pipeline.id, { ttlSeconds: TTL })
        .catch((err) => { assertAlive(server); throw err; });
      const ms = performance.now() - started;
      if (res.status === 200) {
        assert.equal(res.json.data.status, 'SUCCESS', show(res));
        assert.equal(res.json.data.ttl_seconds, TTL, show(res));
        stored.push({ execution_id: res.json.data.execution_id, at: Date.now(), ms });
        lastStoredAt = Date.now();
      } else {
        refused = { res, ms, execution_id: res.json?.error?.execution_id ?? res.json?.error?.details?.execution_id };
      }
    }
    assert.ok(refused, `12 results of ~1 MiB all fit a ${CAP}-byte store`);
    // The result ~75 times larger, three times (a median, not one noisy sample): refused too.
    refused.all = [];
    for (let i = 0; i < 3; i += 1) {
      const started = performance.now();
      const again = await execute(server, server.adminKey, big.id, { ttlSeconds: TTL });
      refused.all.push(performance.now() - started);
      assert.equal(again.json?.error?.code, 'result.storage_unavailable', show(again));
    }
    refused.median = [...refused.all].sort((a, b) => a - b)[1];
    t.diagnostic(`${stored.length} results stored (${stored.map((s) => s.ms.toFixed(0)).join('/')} ms), `
      + `then refused in ${refused.ms.toFixed(0)} ms: ${show(refused.res).slice(0, 200)}; the 75 × larger `
      + `result refused in ${refused.all.map((ms) => ms.toFixed(0)).join('/')} ms`);
    assert.ok(stored.length >= 2, `only ${stored.length} result(s) fit before the refusal: ${show(refused.res)}`);
    assert.equal(refused.res.json?.error?.code, 'result.storage_unavailable', show(refused.res));
    const full = await usage();
    assert.ok(full.bytes <= CAP, `the store holds ${full.bytes} bytes, over its cap of ${CAP}`);
    assert.equal(full.results, stored.length);
  });

  it('the refused execution is recorded FAILED with result.storage_unavailable', async () => {
    assert.ok(refused?.execution_id, `the refusal names its execution: ${refused && show(refused.res)}`);
    const got = await rest(server, 'GET', `/api/v1/executions/${refused.execution_id}`, { auth: server.adminKey });
    assert.equal(got.status, 200, show(got));
    assert.equal(got.json.data.status, 'FAILED', show(got));
    assert.equal(got.json.data.error?.code, 'result.storage_unavailable', show(got));
  });

  it('a refusal is cheap: a result 75 × larger is refused no slower than 2 × a stored run + 200 ms', () => {
    assert.ok(refused, 'an execution was refused');
    const normal = stored.map((s) => s.ms).sort((a, b) => a - b)[Math.floor(stored.length / 2)];
    assert.ok(refused.median < 2 * normal + 200,
      `refused in ${refused.all.map((ms) => ms.toFixed(0)).join('/')} ms (median `
      + `${refused.median.toFixed(0)}); a stored run took ${normal.toFixed(0)} ms (median)`);
  });

  it('a result stored earlier still reads while the store is full', async () => {
    assert.ok(stored.length, 'results were stored');
    const page = await rest(server, 'GET', `/api/v1/executions/${stored[0].execution_id}/result?offset=${ROWS - 5}&limit=5`,
      { auth: server.adminKey });
    assert.equal(page.status, 200, show(page));
    assert.equal(page.json.data.row_count, 5, show(page));
    assert.ok(Date.now() - stored[0].at < TTL * 1000, 'read before its TTL ended');
  });

  it(`with no request touching the store, usage drops to zero within TTL + ${SWEEP} s sweep + 4 s`, async (t) => {
    assert.ok(lastStoredAt, 'results were stored');
    const bound = lastStoredAt + (TTL + SWEEP + 4) * 1000;
    // Read only the gauge; observe a little past the bound so a late sweep is measured too.
    let now = await usage();
    const before_ = now;
    while (now.bytes > 0 && Date.now() < bound + 8000) {
      await sleep(250);
      now = await usage();
    }
    const late = ((Date.now() - lastStoredAt) / 1000).toFixed(1);
    t.diagnostic(`usage ${before_.bytes} bytes in ${before_.results} → ${now.bytes} in ${now.results}, `
      + `${late} s after the last result was stored (TTL ${TTL} s)`);
    assert.ok(now.bytes === 0 && now.results === 0,
      `after ${late} s the store still holds ${now.bytes} bytes in ${now.results} results `
      + `(it held ${before_.bytes} in ${before_.results}; the last result expired at ${TTL} s)`);
    assert.ok(Date.now() <= bound, `usage reached zero only ${late} s after the last result was stored`);
  });

  it('a new execution succeeds', async () => {
    const res = await execute(server, server.adminKey, pipeline.id, { ttlSeconds: TTL });
    assert.equal(res.status, 200, show(res));
    assert.equal(res.json.data.status, 'SUCCESS', show(res));
  });
});
