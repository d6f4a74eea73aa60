// Raw HTTP against POST /mcp and the plain routes: statuses, JSON-RPC error codes, protocol
// negotiation, Host/Origin policy, correlation ids (spec §3, §5.1, §9; issue 2).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from './support/server.mjs';
import {
  request, mcpPost, rpc, keyHeader, callToolRaw, UUID_RE, MCP_HEADERS,
} from './support/http.mjs';

const ctx = useServer();
const key = () => keyHeader(ctx.server.adminKey);
const initParams = (protocolVersion) => ({
  protocolVersion, capabilities: {}, clientInfo: { name: 'raw-e2e', version: '1.0.0' },
});

function assertNoSession(res) {
  assert.equal(res.headers['mcp-session-id'], undefined, 'no Mcp-Session-Id is ever issued');
}

function assertRpcError(res, code, id) {
  assert.equal(res.json?.jsonrpc, '2.0', `body: ${res.text}`);
  assert.equal(res.json?.error?.code, code, `body: ${res.text}`);
  assert.equal(typeof res.json.error.message, 'string');
  if (id !== undefined) assert.deepEqual(res.json.id, id);
  assert.equal(res.json.result, undefined);
  assertNoSession(res);
}

describe('plain routes', () => {
  it('GET /healthz and /readyz answer 200', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const res = await request(ctx.server, { path });
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      assert.match(res.headers['dp-correlation-id'], UUID_RE);
    }
    // /healthz is the bare body docs/rest.md shows, not an envelope.
    const health = await request(ctx.server, { path: '/healthz' });
    assert.equal(health.json.status, 'UP', health.text);
    assert.equal(typeof health.json.version, 'string');
    assert.equal(health.json.data, undefined);
  });

  it('GET /skill.md is anonymous text/markdown', async () => {
    const res = await request(ctx.server, { path: '/skill.md' });
    assert.equal(res.status, 200);
    assert.match(res.headers['content-type'], /^text\/markdown/);
    assert.match(res.text, /^# /m);
  });

  it('GET /skill/{reference}.md serves a reference, unknown → 404 envelope', async () => {
    const ok = await request(ctx.server, { path: '/skill/authoring-playbook.md' });
    assert.equal(ok.status, 200);
    assert.match(ok.headers['content-type'], /^text\/markdown/);
    const res = await request(ctx.server, { path: '/skill/nope.md' });
    assert.equal(res.status, 404);
    assert.match(res.headers['content-type'], /^application\/json/);
    assert.equal(typeof res.json?.error?.code, 'string', res.text);
    assert.equal(res.json.error.details?.reason, 'skill_reference_not_found', res.text);
  });
});

describe('POST /mcp transport', () => {
  for (const method of ['GET', 'DELETE']) {
    it(`${method} /mcp → 405 Allow: POST`, async () => {
      const res = await request(ctx.server, { method, path: '/mcp', headers: { ...MCP_HEADERS, ...key() } });
      assert.equal(res.status, 405);
      assert.equal(res.headers.allow, 'POST');
      assertNoSession(res);
    });
  }

  it('a body over 1 MiB → 413', async () => {
    const filler = 'x'.repeat(1024 * 1024 + 16);
    const body = JSON.stringify(rpc('tools/call', { name: 'docs_get', arguments: { name: filler } }));
    let res;
    try {
      res = await mcpPost(ctx.server, body, key());
    } catch (err) {
      assert.fail(`expected 413, the connection was closed with no response (${err.code ?? err.message})`);
    }
    assert.equal(res.status, 413);
    assert.equal(typeof res.json?.error?.code, 'string', `413 body is the error envelope: ${res.text}`);
  });

  it('a chunked body growing over 1 MiB → 413', async () => {
    const filler = 'x'.repeat(1024 * 1024 + 16);
    const body = JSON.stringify(rpc('tools/call', { name: 'docs_get', arguments: { name: filler } }));
    let res;
    try {
      res = await mcpPost(ctx.server, body, key(), { chunked: true });
    } catch (err) {
      assert.fail(`expected 413, the connection was closed with no response (${err.code ?? err.message})`);
    }
    assert.equal(res.status, 413);
    assert.equal(typeof res.json?.error?.code, 'string', `413 body is the error envelope: ${res.text}`);
  });

  it('a body just under 1 MiB is not refused as too large', async () => {
    const base = JSON.stringify(rpc('tools/call', { name: 'docs_get', arguments: { name: '' } }));
    const filler = 'x'.repeat(1024 * 1024 - base.length - 64);
    const body = JSON.stringify(rpc('tools/call', { name: 'docs_get', arguments: { name: filler } }));
    assert.ok(Buffer.byteLength(body) < 1024 * 1024);
    const res = await mcpPost(ctx.server, body, key());
    assert.equal(res.status, 200, res.text.slice(0, 300));
  });

  it('malformed JSON → -32700 with id null', async () => {
    const res = await mcpPost(ctx.server, '{"jsonrpc":"2.0","id":1,"method":', key());
    assertRpcError(res, -32700, null);
  });

  it('a batch (JSON array) → -32600', async () => {
    const res = await mcpPost(ctx.server, [rpc('ping'), rpc('ping')], key());
    assertRpcError(res, -32600);
  });

  it('not JSON-RPC 2.0 → -32600', async () => {
    const cases = [
      { jsonrpc: '1.0', id: 7, method: 'ping' },
      { id: 8, method: 'ping' },
      { jsonrpc: '2.0', id: 9 },
      { jsonrpc: '2.0', id: 10, method: 42 },
      'just a string',
    ];
    for (const body of cases) {
      const res = await mcpPost(ctx.server, JSON.stringify(body), key());
      assertRpcError(res, -32600);
    }
  });

  it('unknown method → -32601 with the request id', async () => {
    const msg = rpc('tools/frobnicate', {});
    const res = await mcpPost(ctx.server, msg, key());
    assertRpcError(res, -32601, msg.id);
  });

  it('unknown tool → -32602', async () => {
    const msg = rpc('tools/call', { name: 'no_such_tool', arguments: {} });
    const res = await mcpPost(ctx.server, msg, key());
    assertRpcError(res, -32602, msg.id);
    assert.match(res.json.error.message, /no_such_tool/);
  });

  it('docs_get without name → -32602 naming the field', async () => {
    const msg = rpc('tools/call', { name: 'docs_get', arguments: {} });
    const res = await mcpPost(ctx.server, msg, key());
    assertRpcError(res, -32602, msg.id);
    assert.match(res.json.error.message, /\bname\b/);
  });

  it('docs_get with a wrongly typed name → -32602 naming the field', async () => {
    const msg = rpc('tools/call', { name: 'docs_get', arguments: { name: 42 } });
    const res = await mcpPost(ctx.server, msg, key());
    assertRpcError(res, -32602, msg.id);
    assert.match(res.json.error.message, /\bname\b/);
  });

  it('an extra property → -32602 naming it', async () => {
    const msg = rpc('tools/call', { name: 'docs_list', arguments: { bogus_field: 1 } });
    const res = await mcpPost(ctx.server, msg, key());
    assertRpcError(res, -32602, msg.id);
    assert.match(res.json.error.message, /bogus_field/);
  });

  it('notifications and client responses → 202 with an empty body', async () => {
    const bodies = [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', id: 99, result: {} },
      { jsonrpc: '2.0', id: 100, error: { code: -32601, message: 'nope' } },
    ];
    for (const body of bodies) {
      const res = await mcpPost(ctx.server, body, key());
      assert.equal(res.status, 202, `${JSON.stringify(body)} → ${res.status} ${res.text}`);
      assert.equal(res.text, '');
      assertNoSession(res);
    }
  });

  it('requests are answered application/json with no Mcp-Session-Id', async () => {
    for (const method of ['initialize', 'ping', 'tools/list', 'resources/list']) {
      const params = method === 'initialize' ? initParams('2025-06-18') : undefined;
      const res = await mcpPost(ctx.server, rpc(method, params), key());
      assert.equal(res.status, 200, `${method}: ${res.text}`);
      assert.match(res.headers['content-type'], /^application\/json/);
      assert.ok(res.json.result, `${method}: ${res.text}`);
      assertNoSession(res);
    }
  });

  it('ping → {}', async () => {
    const msg = rpc('ping');
    const res = await mcpPost(ctx.server, msg, key());
    assert.deepEqual(res.json, { jsonrpc: '2.0', id: msg.id, result: {} });
  });
});

describe('protocol version negotiation', () => {
  for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
    it(`initialize in ${version} is answered in ${version}`, async () => {
      const res = await mcpPost(ctx.server, rpc('initialize', initParams(version)), key());
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.result.protocolVersion, version);
      assert.equal(res.json.result.serverInfo.name, 'datapipelines');
      assert.equal(res.json.result.capabilities.logging, undefined);
    });
  }

  it('initialize with an unknown protocolVersion → the newest supported', async () => {
    for (const version of ['2099-01-01', '2024-11-05']) {
      const res = await mcpPost(ctx.server, rpc('initialize', initParams(version)), key());
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.result.protocolVersion, '2025-11-25', `offered ${version}`);
    }
  });

  it('an unsupported MCP-Protocol-Version header → 400', async () => {
    const res = await mcpPost(ctx.server, rpc('ping'), { ...key(), 'MCP-Protocol-Version': '1999-01-01' });
    assert.equal(res.status, 400, res.text);
    assertNoSession(res);
  });

  it('a supported MCP-Protocol-Version header is accepted', async () => {
    for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
      const res = await mcpPost(ctx.server, rpc('ping'), { ...key(), 'MCP-Protocol-Version': version });
      assert.equal(res.status, 200, `${version}: ${res.text}`);
    }
  });
});

describe('Host and Origin policy', () => {
  it('a Host that is not allowed → 403, loopback names pass', async () => {
    const bad = await mcpPost(ctx.server, rpc('ping'), { ...key(), Host: 'evil.example' });
    assert.equal(bad.status, 403, bad.text);
    const rebinding = await request(ctx.server, { path: '/healthz', headers: { Host: `attacker.test:${ctx.server.port}` } });
    assert.equal(rebinding.status, 403);
    for (const host of [`localhost:${ctx.server.port}`, `127.0.0.1:${ctx.server.port}`]) {
      const ok = await mcpPost(ctx.server, rpc('ping'), { ...key(), Host: host });
      assert.equal(ok.status, 200, `${host}: ${ok.text}`);
    }
  });

  it('an Origin that is not allowed → 403; no Origin and a loopback Origin pass', async () => {
    const bad = await mcpPost(ctx.server, rpc('ping'), { ...key(), Origin: 'https://evil.example' });
    assert.equal(bad.status, 403, bad.text);
    const none = await mcpPost(ctx.server, rpc('ping'), key());
    assert.equal(none.status, 200);
    const local = await mcpPost(ctx.server, rpc('ping'), { ...key(), Origin: `http://localhost:${ctx.server.port}` });
    assert.equal(local.status, 200, local.text);
  });
});

describe('correlation id', () => {
  it('a valid DP-Correlation-Id is echoed on the response and in _meta', async () => {
    const id = '0b5e4a8c-6a57-4a2f-9d59-1f6b2c3d4e5f';
    const res = await callToolRaw(ctx.server, ctx.server.adminKey, 'docs_list', {}, { 'DP-Correlation-Id': id });
    assert.equal(res.status, 200);
    assert.equal(res.headers['dp-correlation-id'], id);
    assert.equal(res.result._meta.correlation_id, id);
  });

  it('a garbage DP-Correlation-Id is replaced by a minted uuid', async () => {
    const res = await callToolRaw(ctx.server, ctx.server.adminKey, 'docs_list', {},
      { 'DP-Correlation-Id': 'not-a-uuid; drop table' });
    const minted = res.headers['dp-correlation-id'];
    assert.match(minted, UUID_RE);
    assert.equal(res.result._meta.correlation_id, minted);
  });

  it('an error result carries the correlation id too', async () => {
    const id = '1c6f5b9d-7b68-4b3a-8e6a-2a7c3d4e5f60';
    const res = await callToolRaw(ctx.server, ctx.server.adminKey, 'docs_get', { name: 'nope' },
      { 'DP-Correlation-Id': id });
    assert.equal(res.result.isError, true);
    assert.equal(res.result._meta.correlation_id, id);
    assert.equal(res.payload.error.code, 'mcp.doc_not_found');
  });
});
