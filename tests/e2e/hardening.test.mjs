// Issue 9 at the HTTP edge, over raw sockets (what a hostile client sends, byte for byte):
// invalid UTF-8, HEAD, duplicate Host, malformed framing, nesting bombs, NUL in fields,
// non-string key fields and connection details in a failed datasources_test.
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { useServer } from './support/server.mjs';
import { request, mcpPost, rpc, keyHeader, callToolRaw } from './support/http.mjs';
import { adminSession, rest } from './support/executions_env.mjs';

const ctx = useServer();
const key = () => keyHeader(ctx.server.adminKey);

/** Writes `bytes` on a fresh connection; resolves with everything read until close/timeout. */
function raw(bytes, { waitMs = 3000 } = {}) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(ctx.server.port, '127.0.0.1');
    const chunks = [];
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    socket.write(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes, 'latin1'));
  });
}

const statusOf = (buf) => Number(/^HTTP\/1\.1 (\d{3})/.exec(buf.toString('latin1'))?.[1]);

describe('invalid UTF-8 enters nowhere', () => {
  const cases = [
    ['a header value', 'POST /mcp HTTP/1.1\r\nHost: localhost\r\nMCP-Protocol-Version: \xff\r\n'
      + 'Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}'],
    ['the path', 'GET /\xff HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'],
    ['a skill reference', 'GET /skill/\xff.md HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'],
    ['a percent-encoded path segment', 'GET /api/v1/datasources/%ff HTTP/1.1\r\nHost: localhost\r\n'
      + 'Connection: close\r\n\r\n'],
  ];
  for (const [what, bytes] of cases) {
    it(`${what} → 400, never 500`, async () => {
      const res = await raw(bytes);
      const status = statusOf(res);
      assert.ok(status === 400 || status === 401, `got ${status}: ${res.toString('latin1')}`);
    });
  }
});

describe('framing', () => {
  it('HEAD /mcp answers with no body (keep-alive stays in sync)', async () => {
    const res = await raw('HEAD /mcp HTTP/1.1\r\nHost: localhost\r\n\r\n'
      + 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    const text = res.toString('latin1');
    const first = text.indexOf('HTTP/1.1 405');
    const second = text.indexOf('HTTP/1.1 200');
    assert.ok(first === 0, text);
    assert.ok(second > 0, `the next response follows at once: ${text}`);
    const headEnd = text.indexOf('\r\n\r\n') + 4;
    assert.equal(headEnd, second, `no body bytes between the two responses: ${text}`);
  });

  const malformed = [
    ['two Host headers', 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n'],
    ['Content-Length with Transfer-Encoding', 'POST /mcp HTTP/1.1\r\nHost: localhost\r\n'
      + 'Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['duplicate Content-Length', 'POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n'
      + 'Content-Length: 3\r\n\r\n{}'],
    ['negative Content-Length', 'POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n'],
    // With a valid key, so the headers are admitted and the body's framing is what fails.
    ['a bad chunk size', () => 'POST /mcp HTTP/1.1\r\nHost: localhost\r\n'
      + `DP-API-Key: ${ctx.server.adminKey}\r\nTransfer-Encoding: chunked\r\n\r\n`
      + 'zz\r\n{}\r\n0\r\n\r\n'],
  ];
  for (const [what, bytes] of malformed) {
    it(`${what} → 400 before the close`, async () => {
      const res = await raw(typeof bytes === 'function' ? bytes() : bytes);
      assert.equal(statusOf(res), 400, res.toString('latin1'));
      assert.match(res.toString('latin1'), /request\.validation\.invalid/);
    });
  }
});

describe('request bodies', () => {
  const nest = (n) => '['.repeat(n) + ']'.repeat(n);

  it('a 90,000-level JSON-RPC id → -32700, and the server stays up', async () => {
    const body = `{"jsonrpc":"2.0","id":${nest(90000)},"method":"ping"}`;
    const res = await mcpPost(ctx.server, body, key());
    assert.equal(res.status, 400);
    assert.equal(res.json?.error?.code, -32700, res.text);
    const health = await request(ctx.server, { path: '/healthz' });
    assert.equal(health.status, 200);
  });

  it('a nested login body with no credential → 400 request.validation.invalid, fast', async () => {
    const started = Date.now();
    const res = await request(ctx.server, {
      method: 'POST', path: '/api/v1/auth/login',
      headers: { 'Content-Type': 'application/json' }, body: `{"email":${nest(3000)}}`,
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json?.error?.code, 'request.validation.invalid');
    assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
  });

  it('the 8,000-level login bomb is over the login body cap → 413, fast', async () => {
    const started = Date.now();
    const res = await request(ctx.server, {
      method: 'POST', path: '/api/v1/auth/login',
      headers: { 'Content-Type': 'application/json' }, body: `{"email":${nest(8000)}}`,
    });
    assert.equal(res.status, 413, res.text);
    assert.equal(res.json?.error?.code, 'request.body_too_large');
    assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
  });

  it('non-string scope / kind / workspace on key creation → 400', async () => {
    for (const field of ['scope', 'kind', 'workspace']) {
      const res = await request(ctx.server, {
        method: 'POST', path: '/api/v1/auth/api-keys',
        headers: { 'Content-Type': 'application/json', ...key() },
        body: JSON.stringify({ name: 'x', [field]: { nested: 1 } }),
      });
      assert.equal(res.status, 400, `${field}: ${res.text}`);
      assert.equal(res.json?.error?.code, 'request.validation.invalid');
    }
  });

  it('a NUL inside a tool argument is refused, not cut', async () => {
    const res = await mcpPost(ctx.server, JSON.stringify(rpc('tools/call', {
      name: 'datasources_get_columns', arguments: { name: 'x', table: 'orders\u0000; DROP' },
    })), key());
    assert.equal(res.json?.error?.code, -32602, res.text);
  });

  it('a failed datasources_test names no user, host, port or database', async () => {
    const session = await adminSession(ctx.server);
    const created = await rest(ctx.server, 'POST', '/api/v1/datasources', {
      auth: session,
      json: {
        name: 'unreachable-pg', display_name: 'unreachable', description: 'e2e', dialect: 'POSTGRES',
        jdbc_url: 'jdbc:postgresql://127.0.0.1:1/secretdb', username: 'sneakyuser',
        password: 'pw-123456', workspace: 'default',
      },
    });
    assert.equal(created.status, 201, created.text);
    const tested = await callToolRaw(ctx.server, ctx.server.adminKey, 'datasources_test',
      { name: 'unreachable-pg' });
    assert.equal(tested.payload?.connected, false, tested.text);
    const text = tested.text;
    for (const detail of ['sneakyuser', '127.0.0.1', ':1/', 'secretdb', 'pw-123456']) {
      assert.ok(!text.includes(detail), `${detail} leaked: ${text}`);
    }
  });
});
