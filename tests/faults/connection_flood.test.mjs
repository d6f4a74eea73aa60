// Health under a connection flood: with datapipelines.http.max-connections=16 and one
// connection per client address, 16 idle keep-alive connections from 127.0.0.2 … 127.0.0.17
// fill the cap. An ordinary API request from yet another address is refused 503
// service.unavailable with Retry-After — but the probes (/healthz, /readyz, /metrics) still
// answer 200: the server keeps a few slots for them, so a load balancer does not pull a busy
// instance and the operator can still scrape it.
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it, before, after } from 'node:test';
import { useServer } from '../e2e/support/server.mjs';
import {
  assertEnvelope, assertRetryAfter, installClosingFetch, keyHeader, request, show, sleep,
} from './support/client.mjs';

installClosingFetch();

const CAP = 16;
const ctx = useServer({
  DATAPIPELINES_HTTP_MAX_CONNECTIONS: String(CAP),
  DATAPIPELINES_HTTP_MAX_CONNECTIONS_PER_CLIENT: '1',
  DATAPIPELINES_HTTP_IDLE_TIMEOUT_SECONDS: '120',
});

/** An idle keep-alive connection from `localAddress` that has made one ordinary API request
 * (so it is admitted and counted, not just queued in the backlog). Resolves the socket. */
function idleConnection(localAddress) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: ctx.server.port, localAddress });
    let data = '';
    const timer = setTimeout(() => { socket.destroy(); reject(new Error(`${localAddress}: no answer`)); }, 10_000);
    socket.on('error', (err) => { clearTimeout(timer); reject(err); });
    socket.on('data', (c) => {
      data += c.toString('latin1');
      if (/\r\n\r\n/.test(data) && /Content-Length: \d+/i.test(data)) {
        const len = Number(/Content-Length: (\d+)/i.exec(data)[1]);
        if (data.length >= data.indexOf('\r\n\r\n') + 4 + len) {
          clearTimeout(timer);
          socket.removeAllListeners('data');
          socket.on('data', () => {});
          resolve({ socket, status: Number(/^HTTP\/1\.1 (\d+)/.exec(data)?.[1]) });
        }
      }
    });
    socket.write(`GET /api/v1/pipelines HTTP/1.1\r\nHost: 127.0.0.1\r\nDP-API-Key: ${ctx.server.adminKey}\r\n`
      + 'Connection: keep-alive\r\n\r\n');
  });
}

describe(`${CAP} idle keep-alive connections from ${CAP} addresses fill the cap`, () => {
  const sockets = [];
  const OUTSIDER = '127.0.0.100';

  before(async () => {
    for (let i = 0; i < CAP; i += 1) {
      const { socket, status } = await idleConnection(`127.0.0.${i + 2}`);
      sockets.push(socket);
      assert.equal(status, 200, `connection ${i + 1} of ${CAP} was not admitted`);
    }
    await sleep(100);
  });

  after(() => {
    for (const s of sockets) s.destroy();
  });

  it('the flood connections are all still open', () => {
    assert.equal(sockets.filter((s) => !s.destroyed && s.readyState === 'open').length, CAP);
  });

  it('an API request from another address → 503 service.unavailable with Retry-After', async () => {
    let res;
    try {
      res = await request(ctx.server, { path: '/api/v1/pipelines', localAddress: OUTSIDER,
        headers: keyHeader(ctx.server.adminKey), timeoutMs: 10_000 });
    } catch (err) {
      assert.fail(`the refusal must be an answer, not a dropped connection: ${err.message}`);
    }
    assertEnvelope(res, 503, 'service.unavailable');
    assertRetryAfter(res);
  });

  for (const path of ['/healthz', '/readyz', '/metrics']) {
    it(`GET ${path} from other addresses still answers 200 (reserved probe slots)`, async () => {
      // Twice, from two addresses, one after the other: a reserved slot is given back.
      for (const localAddress of ['127.0.0.101', '127.0.0.102']) {
        let res;
        try {
          res = await request(ctx.server, { path, localAddress, timeoutMs: 10_000 });
        } catch (err) {
          assert.fail(`${path} from ${localAddress}: ${err.message}`);
        }
        assert.equal(res.status, 200, `${path} from ${localAddress}: ${show(res)}`);
      }
    });
  }

  it('once the flood closes, the API request is served again', async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await sleep(200);
    const res = await request(ctx.server, { path: '/api/v1/pipelines', localAddress: OUTSIDER,
      headers: keyHeader(ctx.server.adminKey) });
    assert.equal(res.status, 200, show(res));
    // The probe addresses are loopback: /metrics answers them when no flood is on.
    const metrics = await request(ctx.server, { path: '/metrics', localAddress: '127.0.0.101' });
    assert.equal(metrics.status, 200, show(metrics));
  });
});
