// Readiness with Redis frozen (SIGSTOP: the socket stays open, nothing answers — what a hung
// or swapping Redis looks like). A load balancer's probe must get its answer in bounded time:
// GET /readyz answers 503 within 3 s naming the Redis-backed component DOWN, and so does the
// next probe right after (no queue of hung checks). Thawed (SIGCONT, always, in a finally),
// /readyz is 200 again.
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { startServer } from '../e2e/support/server.mjs';
import { request, show, until } from './support/client.mjs';
import { REDIS_URL, freezeRedis, servicesMissing, thawRedis } from './support/faults.mjs';

const missing = servicesMissing();
const BOUND_MS = 3000;

let server;

/** GET /readyz with a generous client timeout, so a slow answer is measured, not lost. */
async function probe() {
  try {
    return await request(server, { path: '/readyz', timeoutMs: 15_000 });
  } catch (err) {
    return { status: 0, ms: 15_000, text: err.message, headers: {} };
  }
}

function assertDownInTime(res, what, t) {
  t?.diagnostic(`${what}: HTTP ${res.status} in ${res.ms.toFixed(0)} ms ${JSON.stringify(res.json?.data ?? res.text)}`);
  assert.ok(res.ms < BOUND_MS, `${what}: answered after ${res.ms.toFixed(0)} ms (bound ${BOUND_MS} ms): ${show(res)}`);
  assert.equal(res.status, 503, `${what}: ${show(res)}`);
  const c = res.json?.data?.components ?? {};
  assert.ok(c.results === 'DOWN' || c.rate_limiter === 'DOWN', `${what}: ${show(res)}`);
}

describe('Redis frozen with SIGSTOP under a running server', { skip: missing ?? false }, () => {
  before(async () => {
    server = await startServer({
      DATAPIPELINES_RESULTS_URL: `${REDIS_URL}/2`,
      DATAPIPELINES_RATE_LIMIT_URL: `${REDIS_URL}/2`,
    });
    const ready = await probe();
    assert.equal(ready.status, 200, show(ready));
  });

  after(async () => {
    thawRedis();
    if (server) {
      await server.stop('SIGTERM');
      server.cleanup();
    }
  });

  describe('while frozen', () => {
    before(() => freezeRedis());
    after(() => thawRedis());

    it(`GET /readyz → 503 within ${BOUND_MS} ms, results or rate_limiter DOWN`, async (t) => {
      const res = await probe();
      assertDownInTime(res, 'the first probe', t);
    });

    it(`the next probe right after → 503 within ${BOUND_MS} ms too`, async (t) => {
      const res = await probe();
      assertDownInTime(res, 'the second probe', t);
    });

    it(`two probes at once → both 503 within ${BOUND_MS} ms`, async (t) => {
      const both = await Promise.all([probe(), probe()]);
      both.forEach((res, i) => assertDownInTime(res, `concurrent probe ${i + 1}`, t));
    });

    it('GET /healthz stays 200 at once', async () => {
      const res = await request(server, { path: '/healthz', timeoutMs: 2000 });
      assert.equal(res.status, 200, show(res));
    });
  });

  it('thawed: /readyz → 200 again within 5 s', async () => {
    thawRedis();
    let last;
    try {
      await until(async () => {
        last = await probe();
        return last.status === 200;
      }, { timeoutMs: 5000, intervalMs: 200, what: '/readyz 200 after SIGCONT' });
    } catch (err) {
      assert.fail(`${err.message}; last: ${last ? show(last) : 'none'}`);
    }
  });
});
