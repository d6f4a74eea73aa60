// Per-user rate limiting on /mcp (issue 2 "Auth"; spec §9.3): over budget → 429
// rate_limit.exceeded with Retry-After; a limiter that cannot decide → fail closed with 429
// rate_limit.unavailable.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer, freePort } from './support/server.mjs';
import { mcpPost, rpc, keyHeader, bearerHeader, request } from './support/http.mjs';

const limited = useServer({
  DATAPIPELINES_RATE_LIMIT_REQUESTS_PER_SECOND: '3',
  DATAPIPELINES_RATE_LIMIT_REQUESTS_PER_MINUTE: '1000',
});

// A loopback port with nothing listening: the Redis limiter can never answer.
const closedRedisPort = await freePort();
const unavailable = useServer({
  DATAPIPELINES_RATE_LIMIT_URL: `redis://127.0.0.1:${closedRedisPort}/0`,
});

function assert429(res, code) {
  assert.equal(res.status, 429, res.text);
  assert.equal(res.json?.error?.code, code, res.text);
  const retryAfter = res.headers['retry-after'];
  assert.match(retryAfter ?? '', /^\d+$/, `Retry-After must be delay-seconds, got ${retryAfter}`);
  assert.ok(Number(retryAfter) >= 1);
}

describe('rate limit', () => {
  it('a burst over the per-second budget → 429 rate_limit.exceeded with Retry-After', async () => {
    const key = limited.server.adminKey;
    const results = [];
    for (let i = 0; i < 12; i++) {
      // Alternate the header forms: the budget is per user, not per carrier.
      const header = i % 2 ? bearerHeader(key) : keyHeader(key);
      results.push(await mcpPost(limited.server, rpc('ping'), header));
    }
    const statuses = results.map((r) => r.status);
    assert.equal(statuses[0], 200, results[0].text);
    const refused = results.filter((r) => r.status === 429);
    assert.ok(refused.length > 0, `no 429 in ${statuses}`);
    assert.ok(statuses.every((s) => s === 200 || s === 429), `statuses: ${statuses}`);
    assert429(refused[0], 'rate_limit.exceeded');
  });

  it('the budget refills: after Retry-After the user is served again', async () => {
    const key = limited.server.adminKey;
    let res;
    for (let i = 0; i < 12; i++) res = await mcpPost(limited.server, rpc('ping'), keyHeader(key));
    assert.equal(res.status, 429);
    await new Promise((r) => setTimeout(r, Number(res.headers['retry-after']) * 1000 + 200));
    const again = await mcpPost(limited.server, rpc('ping'), keyHeader(key));
    assert.equal(again.status, 200, again.text);
  });

  it('the budget is per user and shared by REST and MCP', async () => {
    const key = limited.server.adminKey;
    await new Promise((r) => setTimeout(r, 2000)); // a full bucket again
    const rest = [];
    for (let i = 0; i < 10; i++) {
      rest.push(await request(limited.server, { path: '/api/v1/auth/me', headers: keyHeader(key) }));
    }
    assert.equal(rest[0].status, 200, rest[0].text);
    assert.ok(rest.some((r) => r.status === 429), `REST statuses: ${rest.map((r) => r.status)}`);
    const mcp = await mcpPost(limited.server, rpc('ping'), keyHeader(key));
    assert429(mcp, 'rate_limit.exceeded');

    // Another user's budget is untouched.
    limited.server.createUser('other-rl@e2e.test', 'viewer');
    const other = limited.server.createKey('other-rl@e2e.test', { scope: 'read' });
    const res = await mcpPost(limited.server, rpc('ping'), keyHeader(other.api_key));
    assert.equal(res.status, 200, res.text);
  });

  it('an unreachable limiter fails closed → 429 rate_limit.unavailable with Retry-After', async () => {
    const res = await mcpPost(unavailable.server, rpc('ping'), keyHeader(unavailable.server.adminKey));
    assert429(res, 'rate_limit.unavailable');
  });
});
