// /mcp authentication over raw HTTP (spec §4, issue 2 "Auth"): the 401/403/400 refusals, the
// refused human credentials, and revocation / demotion within the key-validation cache TTL.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer, ADMIN_EMAIL, ADMIN_PASSWORD, USER_PASSWORD } from './support/server.mjs';
import {
  request, mcpPost, rpc, keyHeader, bearerHeader, callToolRaw, sleep,
} from './support/http.mjs';

const CACHE_TTL_SECONDS = 2;
const ctx = useServer({ DATAPIPELINES_AUTH_API_KEYS_CACHE_TTL_SECONDS: String(CACHE_TTL_SECONDS) });

function assertEnvelope(res, status, code) {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status}: ${res.text}`);
  assert.match(res.headers['content-type'] ?? '', /^application\/json/);
  assert.equal(res.json?.error?.code, code, res.text);
  assert.equal(typeof res.json.error.message, 'string');
  assert.equal(res.headers['mcp-session-id'], undefined);
}

/** Polls `probe` until it returns true or `ms` elapse; returns the elapsed milliseconds. */
async function within(ms, probe) {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await probe()) return Date.now() - start;
    await sleep(100);
  }
  return -1;
}

const isoAt = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

let userSeq = 0;
const sessionTokens = [];
function newUser(role = 'author,promoter') {
  const email = `user${++userSeq}-${Date.now()}@e2e.test`;
  ctx.server.createUser(email, role);
  return email;
}

describe('/mcp credentials', () => {
  it('accepts a user key in DP-API-Key and in Authorization: Bearer', async () => {
    for (const header of [keyHeader(ctx.server.adminKey), bearerHeader(ctx.server.adminKey)]) {
      const res = await mcpPost(ctx.server, rpc('ping'), header);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json.result, {});
    }
  });

  it('both carriers at once → 400 auth.api_key.ambiguous (exactly one is accepted)', async () => {
    const key = ctx.server.adminKey;
    for (const bearer of [key, 'dpk_ZZZZZZZZZZZZ.AAAA']) {
      const res = await mcpPost(ctx.server, rpc('ping'), { ...keyHeader(key), ...bearerHeader(bearer) });
      assertEnvelope(res, 400, 'auth.api_key.ambiguous');
    }
  });

  it('no credential → 401 auth.api_key.missing', async () => {
    assertEnvelope(await mcpPost(ctx.server, rpc('ping')), 401, 'auth.api_key.missing');
  });

  it('an unknown or malformed key → 401 auth.api_key.invalid (both header forms)', async () => {
    const real = ctx.server.adminKey;
    const wrongSecret = `${real.slice(0, real.indexOf('.') + 1)}${'A'.repeat(52)}`;
    for (const bad of [wrongSecret, 'dpk_ZZZZZZZZZZZZ.AAAAAAAAAAAAAAAA', 'dpk_garbage']) {
      assertEnvelope(await mcpPost(ctx.server, rpc('ping'), keyHeader(bad)), 401, 'auth.api_key.invalid');
      assertEnvelope(await mcpPost(ctx.server, rpc('ping'), bearerHeader(bad)), 401, 'auth.api_key.invalid');
    }
  });

  it('an expired key → 401 auth.api_key.expired', async () => {
    // The CLI takes whole seconds and refuses a past expiry: leave it time to run under load.
    const expiry = Math.ceil((Date.now() + 3000) / 1000) * 1000;
    const key = ctx.server.createKey(ADMIN_EMAIL, { scope: 'read', expiresAt: isoAt(expiry) });
    await sleep(Math.max(0, expiry - Date.now()) + 1000);
    assertEnvelope(await mcpPost(ctx.server, rpc('ping'), keyHeader(key.api_key)), 401, 'auth.api_key.expired');
  });

  for (const kind of ['endpoint', 'server']) {
    it(`${kind === 'endpoint' ? 'an' : 'a'} ${kind} key → 403 endpoint.key_kind_refused (both header forms)`, async () => {
      const key = ctx.server.createKey(ADMIN_EMAIL, { scope: 'read', kind });
      assertEnvelope(await mcpPost(ctx.server, rpc('tools/list'), keyHeader(key.api_key)), 403, 'endpoint.key_kind_refused');
      assertEnvelope(await mcpPost(ctx.server, rpc('tools/list'), bearerHeader(key.api_key)), 403, 'endpoint.key_kind_refused');
    });
  }

  it('a DP-Workspace header → 400 workspace.header_forbidden', async () => {
    const res = await mcpPost(ctx.server, rpc('ping'),
      { ...keyHeader(ctx.server.adminKey), 'DP-Workspace': 'default' });
    assertEnvelope(res, 400, 'workspace.header_forbidden');
  });

  it('a valid dp_session cookie is refused on /mcp (401), though it works on /api/v1', async () => {
    const login = await request(ctx.server, {
      method: 'POST', path: '/api/v1/auth/login',
      headers: { 'Content-Type': 'application/json' },
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    assert.equal(login.status, 200, login.text);
    const cookies = (login.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
    const session = cookies.find((c) => c.startsWith('dp_session='));
    assert.ok(session, `cookies: ${cookies}`);
    const cookieHeader = cookies.join('; ');
    const me = await request(ctx.server, { path: '/api/v1/auth/me', headers: { Cookie: cookieHeader } });
    assert.equal(me.status, 200, `the session itself is valid: ${me.text}`);

    const csrf = cookies.find((c) => c.startsWith('dp_csrf='))?.split('=')[1];
    const headers = { Cookie: cookieHeader, ...(csrf ? { 'DP-CSRF-Token': csrf } : {}) };
    assertEnvelope(await mcpPost(ctx.server, rpc('ping'), headers), 401, 'auth.api_key.missing');

    // The session token as a Bearer is a non-dpk_ bearer: never accepted either.
    const token = session.slice('dp_session='.length);
    sessionTokens.push(token);
    assertEnvelope(await mcpPost(ctx.server, rpc('ping'), bearerHeader(token)), 401, 'auth.api_key.missing');
  });

  it('a non-dpk_ Bearer token is refused with 401', async () => {
    for (const token of ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', 'sk-abcdef']) {
      assertEnvelope(await mcpPost(ctx.server, rpc('ping'), bearerHeader(token)), 401, 'auth.api_key.missing');
    }
  });
});

describe('validation cache TTL', () => {
  it(`a revoked key stops working within the cache TTL (${CACHE_TTL_SECONDS} s)`, async () => {
    const email = newUser('author');
    const key = ctx.server.createKey(email, { scope: 'read' });
    const ok = await callToolRaw(ctx.server, key.api_key, 'docs_list');
    assert.equal(ok.status, 200, ok.text);
    assert.notEqual(ok.result.isError, true);

    ctx.server.cli(['keys', 'revoke', '--id', key.id]);
    const elapsed = await within(CACHE_TTL_SECONDS * 1000 + 1500, async () => {
      const res = await mcpPost(ctx.server, rpc('ping'), keyHeader(key.api_key));
      return res.status === 401;
    });
    assert.ok(elapsed >= 0, 'revoked key still accepted after the cache TTL');
    assertEnvelope(await mcpPost(ctx.server, rpc('ping'), keyHeader(key.api_key)), 401, 'auth.api_key.invalid');
  });

  it('a deactivated owner\'s key stops working within the cache TTL', async () => {
    const email = newUser('author');
    const key = ctx.server.createKey(email, { scope: 'read' });
    assert.equal((await mcpPost(ctx.server, rpc('ping'), keyHeader(key.api_key))).status, 200);
    ctx.server.cli(['users', 'deactivate', '--email', email]);
    const elapsed = await within(CACHE_TTL_SECONDS * 1000 + 1500, async () =>
      (await mcpPost(ctx.server, rpc('ping'), bearerHeader(key.api_key))).status === 401);
    assert.ok(elapsed >= 0, 'deactivated owner\'s key still accepted after the cache TTL');
    assertEnvelope(await mcpPost(ctx.server, rpc('ping'), keyHeader(key.api_key)), 401, 'auth.api_key.invalid');
  });

  it('an issuer removed from the workspace → isError auth.key_issuer_role_lost after the TTL', async () => {
    const email = newUser('author');
    const key = ctx.server.createKey(email, { scope: 'read' });
    const before = await callToolRaw(ctx.server, key.api_key, 'docs_list');
    assert.notEqual(before.result?.isError, true, before.text);

    ctx.server.cli(['members', 'remove', '--workspace', 'default', '--email', email]);
    let last;
    const elapsed = await within(CACHE_TTL_SECONDS * 1000 + 1500, async () => {
      last = await callToolRaw(ctx.server, key.api_key, 'docs_list');
      return last.result?.isError === true;
    });
    assert.ok(elapsed >= 0, `issuer removal not noticed within the TTL: ${last?.text}`);
    assert.equal(last.status, 200);
    assert.equal(last.payload.error.code, 'auth.key_issuer_role_lost', last.text);
    assert.ok(last.result._meta?.correlation_id);
  });

  // A viewer-level tool stays open to a demoted issuer whose key never exceeded read.
  it('a demoted issuer keeps viewer-level tools', async () => {
    const email = newUser('author');
    const key = ctx.server.createKey(email, { scope: 'read' });
    ctx.server.cli(['members', 'set', '--workspace', 'default', '--email', email, '--role', 'viewer']);
    await sleep(CACHE_TTL_SECONDS * 1000 + 500);
    const res = await callToolRaw(ctx.server, key.api_key, 'docs_get', { name: 'skill' });
    assert.notEqual(res.result?.isError, true, res.text);
    assert.equal(res.payload.name, 'skill');
  });

  it('an author key demoted to viewer → isError auth.key_issuer_role_lost on an author tool', async () => {
    const email = newUser('author');
    const key = ctx.server.createKey(email, { scope: 'author' });
    const args = { id: 'test/no_such_template.sql', context: {} };
    const before = await callToolRaw(ctx.server, key.api_key, 'templates_render', args);
    assert.equal(before.payload.error.code, 'template.not_found', before.text);
    ctx.server.cli(['members', 'set', '--workspace', 'default', '--email', email, '--role', 'viewer']);
    let last;
    const elapsed = await within(CACHE_TTL_SECONDS * 1000 + 1500, async () => {
      last = await callToolRaw(ctx.server, key.api_key, 'templates_render', args);
      return last.payload?.error?.code !== 'template.not_found';
    });
    assert.ok(elapsed >= 0, `demotion not noticed within the TTL: ${last?.text}`);
    assert.equal(last.result.isError, true);
    assert.equal(last.payload.error.code, 'auth.key_issuer_role_lost', last.text);
  });

  it('a read key calling an author tool → isError auth.scope.insufficient, nothing runs', async () => {
    const email = newUser('author');
    const key = ctx.server.createKey(email, { scope: 'read' });
    const res = await callToolRaw(ctx.server, key.api_key, 'templates_create', {
      id: 'test/scope_probe.sql', dialect: 'POSTGRES', display_name: 'x', description: 'x',
      body: 'SELECT 1',
    });
    assert.equal(res.status, 200);
    assert.equal(res.result.isError, true);
    assert.equal(res.payload.error.code, 'auth.scope.insufficient', res.text);
    const author = ctx.server.createKey(email, { scope: 'author' });
    const get = await callToolRaw(ctx.server, author.api_key, 'templates_get', { id: 'test/scope_probe.sql' });
    assert.equal(get.payload.error.code, 'template.not_found', 'the refused create wrote nothing');
  });
});

describe('secrets', () => {
  it('no key secret, password or session token ever reaches the server log', async () => {
    await sleep(200); // let the last access-log lines flush through the pipe
    const { log, issuedKeys } = ctx.server;
    assert.ok(log.includes('/mcp'), 'the access log is captured');
    assert.ok(issuedKeys.length >= 5);
    for (const key of issuedKeys) {
      const secret = key.slice(key.indexOf('.') + 1);
      assert.ok(!log.includes(secret), 'a key secret appears in the log');
    }
    for (const secret of [ADMIN_PASSWORD, USER_PASSWORD, ...sessionTokens]) {
      assert.ok(!log.includes(secret), 'a password or session token appears in the log');
    }
  });
});
