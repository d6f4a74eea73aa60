// The HTTP policy keys reach the running server through environment overrides (issue 2
// "Server": Host allowlist and Origin policy "more via config", body limit).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from './support/server.mjs';
import { mcpPost, rpc, keyHeader, request } from './support/http.mjs';

const ctx = useServer({
  DATAPIPELINES_HTTP_ALLOWED_HOSTS: 'mcp.example.test,other.example.test',
  DATAPIPELINES_HTTP_ALLOWED_ORIGINS: 'https://app.example.test',
  DATAPIPELINES_HTTP_MAX_BODY_BYTES: '4096',
});
const key = () => keyHeader(ctx.server.adminKey);

describe('configured HTTP policy', () => {
  it('a configured Host is allowed, others still refused', async () => {
    for (const host of ['mcp.example.test', `other.example.test:${ctx.server.port}`]) {
      const res = await mcpPost(ctx.server, rpc('ping'), { ...key(), Host: host });
      assert.equal(res.status, 200, `${host}: ${res.text}`);
    }
    const bad = await mcpPost(ctx.server, rpc('ping'), { ...key(), Host: 'unlisted.example.test' });
    assert.equal(bad.status, 403);
  });

  it('a configured Origin is allowed, others still refused', async () => {
    const ok = await mcpPost(ctx.server, rpc('ping'), { ...key(), Origin: 'https://app.example.test' });
    assert.equal(ok.status, 200, ok.text);
    const bad = await mcpPost(ctx.server, rpc('ping'), { ...key(), Origin: 'https://evil.example.test' });
    assert.equal(bad.status, 403);
  });

  it('the configured body limit applies (413 above, served below)', async () => {
    const small = await mcpPost(ctx.server, rpc('tools/call', { name: 'docs_get', arguments: { name: 'x'.repeat(3000) } }), key());
    assert.equal(small.status, 200, small.text);
    let big;
    try {
      big = await mcpPost(ctx.server, rpc('tools/call', { name: 'docs_get', arguments: { name: 'x'.repeat(5000) } }), key());
    } catch (err) {
      assert.fail(`expected 413, the connection was closed with no response (${err.code ?? err.message})`);
    }
    assert.equal(big.status, 413);
  });

  it('the plain routes obey the same Host policy', async () => {
    const ok = await request(ctx.server, { path: '/skill.md', headers: { Host: 'mcp.example.test' } });
    assert.equal(ok.status, 200);
    const bad = await request(ctx.server, { path: '/skill.md', headers: { Host: 'unlisted.example.test' } });
    assert.equal(bad.status, 403);
  });
});
