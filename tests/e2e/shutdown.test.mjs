// SIGTERM (issue 2 "Server"): stop accepting, finish in-flight requests within the grace, exit 0.
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it, after } from 'node:test';
import { startServer } from './support/server.mjs';
import { sleep, request } from './support/http.mjs';

const servers = [];
after(async () => {
  for (const s of servers) {
    await s.stop('SIGKILL');
    s.cleanup();
  }
});

/** A raw connection that has been answered once (keep-alive) and now waits idle. */
async function idleKeepAlive(server) {
  const socket = net.connect(server.port, '127.0.0.1');
  const closed = new Promise((resolve) => socket.on('close', resolve));
  socket.on('error', () => {});
  await new Promise((resolve) => socket.on('connect', resolve));
  const answered = new Promise((resolve) => socket.once('data', resolve));
  socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
  await answered;
  return { socket, closed };
}

/** Opens a raw connection, sends the headers and half the body of a ping; returns the socket. */
function halfSentPing(server, key) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 'inflight', method: 'ping' });
  const head = [
    'POST /mcp HTTP/1.1',
    `Host: 127.0.0.1:${server.port}`,
    `DP-API-Key: ${key}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    `Content-Length: ${Buffer.byteLength(body)}`,
    '', '',
  ].join('\r\n');
  const half = Math.floor(body.length / 2);
  const socket = net.connect(server.port, '127.0.0.1');
  let received = '';
  const response = new Promise((resolve, reject) => {
    socket.on('data', (c) => { received += c.toString(); });
    socket.on('end', () => resolve(received));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
  const connected = new Promise((resolve) => socket.on('connect', resolve));
  return {
    socket,
    response,
    sendFirstHalf: async () => { await connected; socket.write(head + body.slice(0, half)); },
    sendRest: () => socket.write(body.slice(half)),
  };
}

describe('graceful shutdown', () => {
  it('SIGTERM with a request in flight: it completes, new connections are refused, exit 0', async () => {
    const server = await startServer({ DATAPIPELINES_SHUTDOWN_GRACE_SECONDS: '10' });
    servers.push(server);
    // Warm the key cache so the in-flight request is not waiting on Argon2.
    const warm = await request(server, {
      method: 'POST', path: '/mcp',
      headers: { 'DP-API-Key': server.adminKey, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 0, method: 'ping' },
    });
    assert.equal(warm.status, 200);

    const inflight = halfSentPing(server, server.adminKey);
    await inflight.sendFirstHalf();
    await sleep(300);
    server.proc.kill('SIGTERM');
    await sleep(500);

    assert.equal(server.proc.exitCode, null, 'the server must wait for the in-flight request');
    await assert.rejects(
      request(server, { path: '/healthz' }),
      (err) => ['ECONNREFUSED', 'ECONNRESET'].includes(err.code),
      'a new connection after SIGTERM must not be served',
    );

    inflight.sendRest();
    const raw = await inflight.response;
    assert.match(raw, /^HTTP\/1\.1 200 /, `in-flight response: ${raw}`);
    const payload = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    assert.deepEqual(payload, { jsonrpc: '2.0', id: 'inflight', result: {} });

    const timer = setTimeout(() => server.proc.kill('SIGKILL'), 10_000);
    const exit = await server.exit;
    clearTimeout(timer);
    assert.deepEqual(exit, { code: 0, signal: null }, `log:\n${server.log.slice(-2000)}`);
  });

  it('SIGTERM on an idle server exits 0 promptly', async () => {
    const server = await startServer();
    servers.push(server);
    const started = Date.now();
    const exit = await server.stop('SIGTERM', 10_000);
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  });

  it('SIGTERM with idle keep-alive connections closes them and exits 0', async () => {
    // Each session must end before the server stops: one still suspended when the I/O
    // context is destroyed once corrupted the heap (SIGABRT) at exit.
    for (let round = 0; round < 3; round += 1) {
      const server = await startServer();
      servers.push(server);
      const sockets = await Promise.all(Array.from({ length: 8 }, () => idleKeepAlive(server)));
      const exit = await server.stop('SIGTERM', 10_000);
      assert.deepEqual(exit, { code: 0, signal: null }, `log:\n${server.log.slice(-2000)}`);
      await Promise.all(sockets.map((s) => s.closed));
    }
  });
});
