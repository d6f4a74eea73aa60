// OpenID Connect sign-in end to end (auth.md §4.2–§4.4, §5.1–§5.5): a real OpenID Provider on
// loopback (oidc-provider, support/oidc_provider.mjs) with two client registrations, a real
// server configured with both (a YAML file: the provider list cannot come from the environment
// alone), and Debian's chromium clicking "Sign in with Corp", typing an account id at the IdP
// and approving the consent. Every sign-in runs in its own browser context (its own cookie jar:
// a fresh IdP session, so the IdP asks who you are). The users and the audit log are read back
// through the operator CLI on the same store.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { freePort, startServer, USER_PASSWORD } from '../e2e/support/server.mjs';
import { keyHeader, request, sleep } from '../e2e/support/http.mjs';
import { recordSecret } from '../e2e/support/secrets.mjs';
import { ACCOUNTS, startProvider, subjectOf } from './support/oidc_provider.mjs';
import { portInRange } from './support/mail_sink.mjs';

const ARTIFACTS = process.env.DP_UI_ARTIFACTS ?? path.resolve('artifacts');
const REDIRECT = [302, 303];  // the server's redirects are 303 See Other; 302 would do as well
const PROVIDERS = [
  { name: 'corp', clientId: 'dp-corp', displayName: 'Sign in with Corp' },
  // The second registration's ID tokens are ES256 (the first's RS256): both algorithms the
  // server promises to verify are exercised.
  { name: 'other', clientId: 'dp-other', displayName: 'Sign in with Other', alg: 'ES256' },
];

let idp;
let server;
let browser;
let scratch;
const started = Date.now();
const secretsSeen = [];  // everything that must never reach the server log
const users = {};        // email → user id, as /auth/me reported it

function keep(value) {
  if (typeof value === 'string' && value.length >= 12) {
    recordSecret(value);
    secretsSeen.push(value);
  }
}

async function shot(p, name) {
  await p.screenshot({ path: path.join(ARTIFACTS, `oidc-${name}.png`), fullPage: true });
}

/** A page in a browser context of its own; close the context when done. */
async function freshPage() {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 860 });
  // Every callback the browser follows: its URL (code and state) and where it sent the browser.
  page.callbacks = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith('/login/oauth2/code/')) {
      keep(url.searchParams.get('code'));
      page.callbacks.push({ url: req.url() });
    }
    const redirect = req.redirectChain().at(-1);
    const prior = redirect && new URL(redirect.url());
    if (prior?.pathname.startsWith('/login/oauth2/code/')) {
      const entry = page.callbacks.findLast((c) => c.url === redirect.url());
      if (entry) {
        entry.status = redirect.response()?.status();
        entry.location = req.url();
      }
    }
  });
  return { context, page };
}

const cookie = async (page, name, at = '/') =>
  (await page.cookies(`${server.baseUrl}${at}`)).find((c) => c.name === name);

/**
 * Clicks the provider's button on /ui/login, signs in at the IdP as `account` (an id of
 * ACCOUNTS) and approves (or denies) the consent. Resolves the URL the browser ends on.
 */
async function signIn(page, provider, account, { deny = false, screenshots } = {}) {
  await page.goto(`${server.baseUrl}/ui/login`);
  const button = `a[data-provider="${provider}"]`;
  assert.ok(await page.$(button), `the login page offers ${provider}:\n${await page.content()}`);
  await Promise.all([page.waitForNavigation(), page.click(button)]);
  for (let step = 0; step < 4; step += 1) {
    if (new URL(page.url()).origin !== idp.issuer) break;
    if (await page.$('#approve')) {
      if (screenshots) await shot(page, `${screenshots}-idp-consent`);
      await Promise.all([page.waitForNavigation(), page.click(deny ? '#deny' : '#approve')]);
    } else if (await page.$('#login')) {
      if (screenshots) await shot(page, `${screenshots}-idp-login`);
      await page.type('#login', account);
      await Promise.all([page.waitForNavigation(), page.click('#sign-in')]);
    } else {
      break;
    }
  }
  const url = new URL(page.url());
  assert.equal(url.origin, server.baseUrl,
    `the IdP sent the browser back: ${page.url()}\n${await page.evaluate(() => document.body.innerText)}`);
  return url;
}

/** GET /api/v1/auth/me with the dp_session the browser holds (or the given one). */
async function me(sessionValue) {
  return request(server, { path: '/api/v1/auth/me', headers: { Cookie: `dp_session=${sessionValue}` } });
}

/** A signed-in browser: its session is live and names `email`; resolves the principal. */
async function assertSignedIn(page, email) {
  const url = new URL(page.url());
  assert.equal(url.pathname, '/ui/', `landed on ${page.url()}`);
  const session = await cookie(page, 'dp_session');
  const csrf = await cookie(page, 'dp_csrf');
  assert.ok(session?.value, 'dp_session set');
  assert.ok(csrf?.value, 'dp_csrf set');
  keep(session.value);
  assert.equal(session.httpOnly, true, 'dp_session is HttpOnly');
  assert.equal(session.sameSite, 'Lax', 'dp_session is SameSite=Lax (a Strict cookie would not survive the IdP redirect)');
  const res = await me(session.value);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.data.email, email);
  assert.equal(res.json.data.auth, 'session');
  users[email] = res.json.data.user_id;
  return { principal: res.json.data, session: session.value, csrf: csrf.value };
}

/** A refused sign-in: back on the login page with the code in the URL and in the banner. */
async function assertRefused(page, code) {
  const url = new URL(page.url());
  assert.equal(url.pathname, '/ui/login', `ended on ${page.url()}`);
  assert.equal(url.searchParams.get('error'), code);
  const banner = await page.$(`.alert.error[data-error="${code}"]`);
  assert.ok(banner, `a banner names ${code}:\n${await page.evaluate(() => document.body.innerHTML)}`);
  const session = await cookie(page, 'dp_session');
  assert.ok(!session?.value, 'no session cookie');
}

/** The audit rows of `event` written since this file started (newest first). */
function auditRows(event, since = started) {
  const out = server.cli(['audit', '--since', '1h', '--event', event, '--limit', '10000', '--json']).json;
  return out.items.filter((r) => r.event === event && Date.parse(r.timestamp) >= since);
}

function userRows(email) {
  return server.cli(['users', 'list', '--json']).json.filter((u) => u.email === email);
}

describe('OpenID Connect sign-in through a real OpenID Provider', () => {
  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    idp = await startProvider({ serverBase: base, providers: PROVIDERS });
    for (const { clientSecret } of Object.values(idp.clients)) keep(clientSecret);
    scratch = mkdtempSync(path.join(os.tmpdir(), 'dp-ui-oidc-'));
    const config = writeConfig('datapipelines.yaml', base);
    // Providers configured: password sign-in is off unless turned on (auth.md §5A); this file's
    // admin (the CLI bootstrap) and bob sign in with passwords, so it is on here.
    server = await startServer({ DATAPIPELINES_CONFIG: config, DATAPIPELINES_AUTH_LOCAL_ENABLED: 'true' }, { port });
    assert.equal(server.baseUrl, base);
    browser = await puppeteer.launch({
      executablePath: process.env.DP_CHROMIUM ?? '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
  });

  /** The YAML of a server at `base` with both providers; resolves its path. */
  function writeConfig(name, base) {
    const config = path.join(scratch, name);
    writeFileSync(config, [
      'datapipelines:',
      '  auth:',
      `    base-url: ${base}`,
      '    allowlist:',
      '      domains: example.com',
      '    bootstrap-admin-email: admin@example.com',
      '    api-keys:',
      '      cache-ttl-seconds: 1',
      '    oidc:',
      '      providers:',
      ...PROVIDERS.flatMap((p) => [
        `        - name: ${p.name}`,
        `          client-id: ${p.clientId}`,
        `          client-secret: ${idp.clients[p.name].clientSecret}`,
        `          issuer-uri: ${idp.issuer}`,
        `          display-name: ${p.displayName}`,
      ]),
      '',
    ].join('\n'), { mode: 0o600 });
    return config;
  }

  after(async () => {
    await browser?.close();
    if (server) {
      await server.stop('SIGKILL');
      server.cleanup();
    }
    await idp?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('the login page shows one button per provider beside the local sign-in form', async () => {
    const { context, page } = await freshPage();
    try {
      await page.goto(`${server.baseUrl}/ui/login`);
      for (const p of PROVIDERS) {
        const link = await page.$(`a[data-provider="${p.name}"]`);
        assert.ok(link, `a button for ${p.name}:\n${await page.content()}`);
        assert.equal((await link.evaluate((a) => a.textContent)).trim(), p.displayName);
        // The path is the contract's; a `next` query (where to land afterwards) may ride along.
        const href = new URL(await link.evaluate((a) => a.getAttribute('href')), server.baseUrl);
        assert.equal(href.origin, server.baseUrl);
        assert.equal(href.pathname, `/oauth2/authorization/${p.name}`);
      }
      assert.equal((await page.$$('a[data-provider]')).length, PROVIDERS.length);
      assert.ok(await page.$('#email'), 'the local form stays');
      assert.ok(await page.$('#password'));
      await shot(page, '01-login');
    } finally {
      await context.close();
    }
  });

  it('with providers and password sign-in not turned on, the login page has no password form, only the buttons', async () => {
    // A second server on the same IdP with the same providers and no DATAPIPELINES_AUTH_LOCAL_ENABLED:
    // unset means password sign-in is on exactly when no provider is configured (auth.md §5A).
    const port = await portInRange();
    const base = `http://127.0.0.1:${port}`;
    const config = writeConfig('oidc-only.yaml', base);
    const oidcOnly = await startServer({ DATAPIPELINES_CONFIG: config }, { port, bootstrap: false });
    const { context, page } = await freshPage();
    try {
      await page.goto(`${base}/ui/login`);
      assert.equal(await page.$('#password'), null, `no password field:\n${await page.content()}`);
      assert.equal(await page.$('#email'), null, 'no e-mail field');
      assert.equal(await page.$('button[data-verb=login]'), null, 'no Sign in button');
      assert.equal(await page.$('form[action^="/ui/login"]'), null, 'no password form at all');
      const buttons = await page.$$eval('a[data-provider]', (a) => a.map((e) => [e.dataset.provider, e.textContent.trim()]));
      assert.deepEqual(buttons, PROVIDERS.map((p) => [p.name, p.displayName]));
      await shot(page, '01b-login-oidc-only');
      // Nor does a hand-made password POST open a session, even with a password the account has.
      oidcOnly.cli(['users', 'create', '--email', 'pat@example.com', '--name', 'Pat',
        '--password-stdin', '--json'], { stdin: `${USER_PASSWORD}\n` });
      const posted = await request(oidcOnly, {
        method: 'POST', path: '/ui/login',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `email=${encodeURIComponent('pat@example.com')}&password=${encodeURIComponent(USER_PASSWORD)}`,
      });
      assert.notEqual(posted.status, 303, `a password POST is not a sign-in: ${posted.status}`);
      assert.ok(![].concat(posted.headers['set-cookie'] ?? []).some((c) => /^dp_session=[^;]/.test(c)),
        'no session cookie');
    } finally {
      await context.close();
      await oidcOnly.stop('SIGKILL');
      oidcOnly.cleanup();
    }
  });

  it('/oauth2/authorization/corp redirects to the IdP with code, PKCE S256, state and nonce', async () => {
    const authz = `${idp.issuer}/auth`;  // oidc-provider's authorization_endpoint (discovery)
    const seen = [];
    for (let i = 0; i < 2; i += 1) {
      const res = await request(server, { path: '/oauth2/authorization/corp' });
      assert.ok(REDIRECT.includes(res.status), `a redirect: ${res.status} ${res.text}`);
      const location = new URL(res.headers.location);
      assert.equal(`${location.origin}${location.pathname}`, authz);
      const q = location.searchParams;
      assert.equal(q.get('response_type'), 'code');
      assert.equal(q.get('client_id'), 'dp-corp');
      assert.equal(q.get('redirect_uri'), `${server.baseUrl}/login/oauth2/code/corp`);
      assert.deepEqual(q.get('scope').split(' ').sort(), ['email', 'openid', 'profile']);
      assert.equal(q.get('code_challenge_method'), 'S256');
      assert.match(q.get('code_challenge'), /^[A-Za-z0-9_-]{43}$/, 'a base64url SHA-256');
      assert.ok(q.get('state')?.length >= 16, 'a state of some entropy');
      assert.ok(q.get('nonce')?.length >= 16, 'a nonce of some entropy');
      const cookies = [].concat(res.headers['set-cookie'] ?? []);
      const authzCookie = cookies.find((c) => c.startsWith('dp_oauth2_authz='));
      assert.ok(authzCookie, `dp_oauth2_authz set: ${cookies.join(' | ')}`);
      assert.match(authzCookie, /HttpOnly/i);
      assert.match(authzCookie, /Max-Age=\d+|Expires=/i, 'short-lived');
      seen.push([q.get('state'), q.get('nonce'), q.get('code_challenge')]);
    }
    assert.notEqual(seen[0][0], seen[1][0], 'a fresh state per attempt');
    assert.notEqual(seen[0][1], seen[1][1], 'a fresh nonce per attempt');
    assert.notEqual(seen[0][2], seen[1][2], 'a fresh PKCE verifier per attempt');
    const unknown = await request(server, { path: '/oauth2/authorization/nosuch' });
    assert.equal(unknown.status, 404, `an unconfigured provider is not found: ${unknown.status} ${unknown.text}`);
  });

  it('first login: alice signs in at the IdP and lands on /ui/ signed in; audited with provider corp', async () => {
    const { context, page } = await freshPage();
    try {
      await signIn(page, 'corp', 'alice', { screenshots: '02' });
      const { principal } = await assertSignedIn(page, 'alice@example.com');
      assert.equal(principal.super_admin, false, 'alice is nobody special');
      assert.equal(principal.display_name, ACCOUNTS.alice.name, 'display name from the name claim');
      await shot(page, '02-first-login-landing');
      assert.equal(page.callbacks.length, 1);
      assert.ok(REDIRECT.includes(page.callbacks[0].status), `the callback redirected: ${page.callbacks[0].status}`);
      assert.equal(new URL(page.callbacks[0].location).pathname, '/ui/');
      const rows = auditRows('auth.login.success').filter((r) => r.user_id === principal.user_id);
      assert.equal(rows.length, 1, JSON.stringify(rows));
      assert.equal(rows[0].details.provider, 'corp', JSON.stringify(rows[0]));
      assert.equal(userRows('alice@example.com').length, 1);
      // The server verified what the IdP signed: RS256 for corp, with its current kid.
      const token = idp.idTokens.at(-1);
      assert.deepEqual([token.clientId, token.alg, token.claims.sub], ['dp-corp', 'RS256', subjectOf('alice')]);
    } finally {
      await context.close();
    }
  });

  it('linking: bob, created locally by the CLI, signs in through the IdP as the same user', async () => {
    const created = server.cli(['users', 'create', '--email', 'bob@example.com', '--name', 'Bob Local',
      '--password-stdin', '--json'], { stdin: `${USER_PASSWORD}\n` }).json;
    assert.ok(created.id, JSON.stringify(created));
    const { context, page } = await freshPage();
    try {
      await signIn(page, 'corp', 'bob');
      const { principal } = await assertSignedIn(page, 'bob@example.com');
      assert.equal(principal.user_id, created.id, 'the CLI-created row, not a second one');
      assert.equal(userRows('bob@example.com').length, 1);
      assert.equal(principal.display_name, ACCOUNTS.bob.name, 'the name refreshes from the ID token (§4.2)');
    } finally {
      await context.close();
    }
  });

  it('an unverified e-mail is refused: auth.login.oidc_error, no session, no user row, audited', async () => {
    const since = Date.now();
    const { context, page } = await freshPage();
    try {
      await signIn(page, 'corp', 'mallory');
      await assertRefused(page, 'auth.login.oidc_error');
      await shot(page, '04-unverified-refused');
      assert.equal(idp.idTokens.at(-1).claims.email_verified, false, 'the IdP did say unverified');
      assert.equal(userRows('mallory@example.com').length, 0, 'never reaches the linking step');
      const rows = auditRows('auth.login.oidc_error', since);
      assert.equal(rows.length, 1, JSON.stringify(rows));
      assert.ok(rows[0].details?.reason, `a reason: ${JSON.stringify(rows[0])}`);
    } finally {
      await context.close();
    }
  });

  it('outside the domain allowlist: auth.login.domain_not_allowed, no session, no user row', async () => {
    const since = Date.now();
    const { context, page } = await freshPage();
    try {
      await signIn(page, 'corp', 'eve');
      await assertRefused(page, 'auth.login.domain_not_allowed');
      await shot(page, '05-domain-refused');
      assert.equal(userRows('eve@elsewhere.test').length, 0);
      assert.equal(auditRows('auth.login.domain_not_allowed', since).length, 1);
    } finally {
      await context.close();
    }
  });

  it('the bootstrap admin e-mail becomes super admin at first login, once, audited with actor bootstrap', async () => {
    for (let round = 0; round < 2; round += 1) {
      const { context, page } = await freshPage();
      try {
        await signIn(page, 'corp', 'admin');
        const { principal } = await assertSignedIn(page, 'admin@example.com');
        assert.equal(principal.super_admin, true, JSON.stringify(principal));
      } finally {
        await context.close();
      }
    }
    const granted = auditRows('auth.user.admin_granted', 0)
      .filter((r) => r.user_id === users['admin@example.com'] || r.details?.email === 'admin@example.com');
    assert.equal(granted.length, 1, `exactly one grant after two sign-ins: ${JSON.stringify(granted)}`);
    assert.equal(granted[0].details.actor, 'bootstrap', JSON.stringify(granted[0]));
  });

  it('sign-out: the UI form ends the session; the old dp_session no longer opens /auth/me', async () => {
    // A member of a workspace, so the signed-in layout (with its sign-out form) renders.
    server.cli(['members', 'set', '--workspace', 'default', '--email', 'alice@example.com', '--role', 'author']);
    const { context, page } = await freshPage();
    try {
      await signIn(page, 'corp', 'alice');
      const { session } = await assertSignedIn(page, 'alice@example.com');
      await shot(page, '03-member-dashboard');
      await Promise.all([page.waitForNavigation(), page.click('button[data-verb=logout]')]);
      assert.equal(new URL(page.url()).pathname, '/ui/login');
      assert.ok(await page.$('.alert.ok'), 'says you are signed out');
      assert.ok(!(await cookie(page, 'dp_session'))?.value, 'the cookie is gone');
      const res = await me(session);
      assert.equal(res.status, 401, res.text);
      await page.goto(`${server.baseUrl}/ui/`);
      assert.equal(new URL(page.url()).pathname, '/ui/login', 'the UI asks to sign in again');
    } finally {
      await context.close();
    }
  });

  it('deactivation: alice\'s API key dies within the cache TTL and her next sign-in is refused', async () => {
    server.cli(['members', 'set', '--workspace', 'default', '--email', 'alice@example.com', '--role', 'author']);
    const { context, page } = await freshPage();
    let apiKey;
    let session;
    try {
      await signIn(page, 'corp', 'alice');
      const signedIn = await assertSignedIn(page, 'alice@example.com');
      session = signedIn.session;
      const minted = await request(server, {
        method: 'POST', path: '/api/v1/auth/api-keys',
        headers: { Cookie: `dp_session=${session}`, 'DP-CSRF-Token': signedIn.csrf, 'Content-Type': 'application/json' },
        body: { name: 'alice-agent', scope: 'read', workspace: 'default' },
      });
      assert.equal(minted.status, 201, minted.text);
      apiKey = minted.json.data.api_key;
      keep(apiKey);
      const works = await request(server, { path: '/api/v1/auth/me', headers: keyHeader(apiKey) });
      assert.equal(works.status, 200, works.text);
      assert.equal(works.json.data.email, 'alice@example.com');
    } finally {
      await context.close();
    }
    server.cli(['users', 'deactivate', '--email', 'alice@example.com']);
    // Within the cache TTL (1 s here): allow ten.
    const deadline = Date.now() + 10_000;
    let byKey;
    let bySession;
    while (Date.now() < deadline) {
      byKey = await request(server, { path: '/api/v1/auth/me', headers: keyHeader(apiKey) });
      bySession = await me(session);
      if (byKey.status === 401 && bySession.status === 401) break;
      await sleep(250);
    }
    assert.equal(byKey.status, 401, `the key still answers after 10 s: ${byKey.text}`);
    assert.equal(bySession.status, 401, `her session still answers after 10 s (§4.2): ${bySession.text}`);
    const since = Date.now();
    const again = await freshPage();
    try {
      await signIn(again.page, 'corp', 'alice');
      await assertRefused(again.page, 'auth.login.user_inactive');
      await shot(again.page, '06-inactive-refused');
      assert.equal(auditRows('auth.login.user_inactive', since).length, 1);
    } finally {
      await again.context.close();
    }
  });

  it('a replayed callback is refused and opens no session — in the same browser and in another', async () => {
    const since = Date.now();
    const { context, page } = await freshPage();
    let callback;
    try {
      await signIn(page, 'corp', 'carol');
      const { session } = await assertSignedIn(page, 'carol@example.com');
      callback = page.callbacks.at(-1).url;
      const replay = await page.goto(callback);
      const hop = replay.request().redirectChain()[0];
      assert.ok(hop, `the replayed callback redirected (${replay.status()} ${replay.url()})`);
      const location = new URL(hop.response().headers().location, server.baseUrl);
      assert.equal(location.pathname, '/ui/login', `replay sent to ${location}`);
      assert.equal(location.searchParams.get('error'), 'auth.login.oidc_error');
      // Still signed in as before (the login page sends a signed-in visitor on), or not at all —
      // never a new session.
      const after = (await cookie(page, 'dp_session'))?.value;
      assert.ok(!after || after === session, 'the replay minted no new session');
      if (new URL(page.url()).pathname === '/ui/login') {
        assert.ok(await page.$('.alert.error[data-error="auth.login.oidc_error"]'));
      }
      await shot(page, '07-replay-same-browser');
    } finally {
      await context.close();
    }
    const elsewhere = await freshPage();
    try {
      await elsewhere.page.goto(callback);
      await assertRefused(elsewhere.page, 'auth.login.oidc_error');
      await shot(elsewhere.page, '08-replay-other-browser');
    } finally {
      await elsewhere.context.close();
    }
    assert.ok(auditRows('auth.login.oidc_error', since).length >= 2, 'both replays audited');
  });

  it('a replayed callback WITH its dp_oauth2_authz cookie is refused too (the sign-in is single-use)', async () => {
    const { context, page } = await freshPage();
    let authzCookie;
    let callback;
    try {
      // Stop at the IdP's consent page: the browser then holds the server's authorization cookie.
      await page.goto(`${server.baseUrl}/ui/login`);
      await Promise.all([page.waitForNavigation(), page.click('a[data-provider="corp"]')]);
      await page.type('#login', 'carol');
      await Promise.all([page.waitForNavigation(), page.click('#sign-in')]);
      authzCookie = await cookie(page, 'dp_oauth2_authz', '/login/oauth2/code/corp');
      assert.ok(authzCookie?.value, 'dp_oauth2_authz in the jar during the round trip');
      keep(authzCookie.value);
      await Promise.all([page.waitForNavigation(), page.click('#approve')]);
      await assertSignedIn(page, 'carol@example.com');
      callback = page.callbacks.at(-1).url;
    } finally {
      await context.close();
    }
    // An attacker holding both the callback URL and the cookie, in a browser of their own.
    const since = Date.now();
    const attacker = await freshPage();
    try {
      await attacker.page.setCookie({
        name: 'dp_oauth2_authz', value: authzCookie.value, url: server.baseUrl, path: authzCookie.path,
        httpOnly: true, sameSite: 'Lax',
      });
      await attacker.page.goto(callback);
      await assertRefused(attacker.page, 'auth.login.oidc_error');
    } finally {
      await attacker.context.close();
    }
    assert.equal(auditRows('auth.login.oidc_error', since).length, 1, 'the replay is audited');
  });

  it('the second provider (ES256 ID tokens) signs carol in as the same user', async () => {
    const since = Date.now();
    const viaCorp = users['carol@example.com'];
    assert.ok(viaCorp, 'carol signed in through corp before');
    const { context, page } = await freshPage();
    try {
      await signIn(page, 'other', 'carol');
      const { principal } = await assertSignedIn(page, 'carol@example.com');
      assert.equal(principal.user_id, viaCorp, 'one person, whichever provider vouches');
      const token = idp.idTokens.at(-1);
      assert.deepEqual([token.clientId, token.alg], ['dp-other', 'ES256']);
      const rows = auditRows('auth.login.success', since).filter((r) => r.user_id === principal.user_id);
      assert.equal(rows.length, 1);
      assert.equal(rows[0].details.provider, 'other');
      assert.equal(userRows('carol@example.com').length, 1);
    } finally {
      await context.close();
    }
  });

  it('the user denies consent at the IdP: auth.login.oidc_error, no session', async () => {
    const since = Date.now();
    const { context, page } = await freshPage();
    try {
      await signIn(page, 'corp', 'bob', { deny: true });
      assert.equal(new URL(page.callbacks.at(-1).url).searchParams.get('error'), 'access_denied');
      await assertRefused(page, 'auth.login.oidc_error');
      const rows = auditRows('auth.login.oidc_error', since);
      assert.equal(rows.length, 1, JSON.stringify(rows));
    } finally {
      await context.close();
    }
  });

  it('key rotation: after the IdP rotates its signing keys the next sign-in still succeeds (JWKS re-fetched)', async () => {
    // A sign-in before the rotation: the server holds the old JWKS.
    const first = await freshPage();
    try {
      await signIn(first.page, 'corp', 'bob');
      await assertSignedIn(first.page, 'bob@example.com');
    } finally {
      await first.context.close();
    }
    const { before: oldKids, after: newKids } = idp.rotateKeys();
    const mark = idp.log.length;
    for (const provider of ['corp', 'other']) {
      const { context, page } = await freshPage();
      try {
        await signIn(page, provider, 'bob');
        await assertSignedIn(page, 'bob@example.com');
        const token = idp.idTokens.at(-1);
        assert.ok(newKids.includes(token.kid) && !oldKids.includes(token.kid),
          `signed with a new kid: ${token.kid}`);
      } finally {
        await context.close();
      }
    }
    const fetched = idp.log.slice(mark).filter((r) => r.path === '/jwks');
    assert.ok(fetched.length >= 1, 'the server fetched the JWKS again for the unknown kid');
  });

  it('no client secret, code, token, session or key reaches the server log', () => {
    assert.ok(secretsSeen.length >= 10, `recorded ${secretsSeen.length}`);
    const leaked = secretsSeen.filter((s) => server.log.includes(s));
    assert.deepEqual(leaked.map((s) => `${s.slice(0, 6)}…`), []);
    for (const t of idp.idTokens) assert.ok(!server.log.includes(t.raw), 'no ID token in the log');
  });
});
