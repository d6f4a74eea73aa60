// Descriptor exhaustion for real (issue 9): the server runs with a small RLIMIT_NOFILE and the
// connection caps above it, so a flood of idle connections makes accept() fail with EMFILE.
// The accept loop must back off instead of spinning, keep serving the connections it already
// has, and accept again once descriptors are free.
import assert from 'node:assert/strict';
import net from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it, before, after } from 'node:test';
import { startServer } from './support/server.mjs';
import { mcpPost, rpc, keyHeader } from './support/http.mjs';

const NOFILE = 96;
const FLOOD = 300; // well past NOFILE
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds (user + system) the process has used so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

function connect(port) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** One keep-alive GET /healthz on an open socket; resolves the status code. */
function healthzOn(socket) {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk) => {
      text += chunk.toString();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (m && text.includes('\r\n\r\n')) { socket.off('data', onData); resolve(Number(m[1])); }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe(`accept() failing with EMFILE (RLIMIT_NOFILE ${NOFILE})`, () => {
  let server;
  let kept; // a connection opened before the flood
  const flood = [];

  before(async () => {
    server = await startServer({
      DATAPIPELINES_HTTP_MAX_CONNECTIONS: '4096',
      DATAPIPELINES_HTTP_MAX_CONNECTIONS_PER_CLIENT: '4096',
    }, { wrapper: ['prlimit', `--nofile=${NOFILE}:${NOFILE}`] });
    const limits = readFileSync(`/proc/${server.proc.pid}/limits`, 'utf8');
    assert.match(limits, new RegExp(`Max open files\\s+${NOFILE}\\s+${NOFILE}`), limits);
    kept = await connect(server.port);
    assert.equal(await healthzOn(kept), 200);
  });

  after(async () => {
    for (const s of flood) s.destroy();
    kept?.destroy();
    if (server) {
      await server.stop('SIGKILL');
      server.cleanup();
    }
  });

  it('backs off instead of spinning, and keeps serving the connections it has', async () => {
    // The kernel completes handshakes into the backlog whether or not accept() succeeds.
    for (let i = 0; i < FLOOD; i += 1) {
      flood.push(await connect(server.port).catch(() => null));
    }
    await sleep(500);
    // It really is out of descriptors, and said so.
    const open = readdirSync(`/proc/${server.proc.pid}/fd`).length;
    assert.ok(open >= NOFILE - 1, `the server holds ${open} of ${NOFILE} descriptors`);
    assert.match(server.log, /accept failed \(Too many open files\); backing off/);
    const before = cpuSeconds(server.proc.pid);
    await sleep(2000);
    const used = cpuSeconds(server.proc.pid) - before;
    // A spinning accept loop burns a whole core (~2 s here); backing off costs next to nothing.
    assert.ok(used < 0.5, `the server used ${used.toFixed(2)} s of CPU in 2 s while out of descriptors`);
    assert.equal(server.proc.exitCode, null, 'the server is still running');
    assert.equal(await healthzOn(kept), 200, 'an existing connection is still served');
  });

  it('accepts again once descriptors are free', async () => {
    for (const s of flood) s?.destroy();
    flood.length = 0;
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await mcpPost(server, rpc('ping'), keyHeader(server.adminKey)).catch(() => ({}))).status;
      if (status === 200) break;
      await sleep(100);
    }
    assert.equal(status, 200, 'a new connection is accepted and served after the flood');
  });
});
