// Local password accounts end to end (auth.md §5A, ui-screens §4.12, §4.14) in headless chromium
// against a real server and a real SMTP server on loopback (the mail integration tests' sink,
// nodemailer's smtp-server: STARTTLS under a CA made here, AUTH required; support/mail_sink.mjs).
//
// One server seeded from configuration (bootstrap e-mail + bootstrap password) with mail on:
// the seeded admin is held at the forced change until they choose a password, which survives a
// restart on the same config; then, on the restarted server, the admin creates a user (welcome
// mail with the one-time password, the New user notice to operators without it), resets a
// password (sessions end, reset mail), sees a lockout and clears it, and removes a password.
// A second server with mail off: the one-time password is shown once, on the page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, USER_PASSWORD } from '../e2e/support/server.mjs';
import { spawnOn } from '../e2e/support/restart.mjs';
import { request } from '../e2e/support/http.mjs';
import { recordSecret } from '../e2e/support/secrets.mjs';
import { oneTimePasswordOf, portInRange, startMailSink } from './support/mail_sink.mjs';
import { watchedPage } from './support/watched_page.mjs';

const ARTIFACTS = process.env.DP_UI_ARTIFACTS ?? path.resolve('artifacts');
const SEED_EMAIL = 'owner@local.test';
const SEED_PASSWORD = 'seeded-from-config-pw-1';
const OWNER_PASSWORD = 'owner-chose-this-password-2';
const NEWBIE = 'newbie@local.test';
const NEWBIE_PASSWORD = 'newbie-chose-this-password-3';
const LOCKY = 'locky@local.test';
const GONE = 'gone@local.test';
const OPS = 'ops@local.test';
const SHOWN = 'shown@local.test';
const HELD_PAGE = '/ui/settings/password';
for (const s of [SEED_PASSWORD, OWNER_PASSWORD, NEWBIE_PASSWORD]) recordSecret(s);

let browser;
let sink;
let server;     // the seeded, mail-on server (replaced by its restart)
let offServer;  // mail off
let admin;      // the seeded admin's page, signed in after the restart
let shownPassword;  // f's one-time password, not yet changed
const retired = [];  // the seeded server's first process (its log is checked at the end)
const confirms = [];
const dialogs = [];
const cspViolations = [];

async function shot(p, name) {
  await p.screenshot({ path: path.join(ARTIFACTS, `local-${name}.png`), fullPage: true });
}

async function freshPage() {
  const context = await browser.createBrowserContext();
  const p = await watchedPage(context, { confirms, dialogs, cspViolations });
  p.context = context;
  return p;
}

/** The sign-in form, typed and submitted; resolves the URL the browser lands on. */
async function signIn(p, base, email, password, next = '/ui/') {
  await p.goto(`${base}${next}`);
  assert.match(p.url(), /\/ui\/login/, 'an anonymous visit lands on the sign-in page');
  await p.type('#email', email);
  await p.type('#password', password);
  await Promise.all([p.waitForNavigation(), p.click('button[data-verb=login]')]);
  return new URL(p.url());
}

/** A form POST of the sign-in, outside the browser: the status and the refusal's code. */
async function postSignIn(srv, email, password) {
  const res = await request(srv, {
    method: 'POST', path: '/ui/login',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `email=${encodeURIComponent(email)}&password=${encodeURIComponent(password)}`,
  });
  return { status: res.status, code: /data-error="([^"]+)"/.exec(res.text)?.[1], text: res.text };
}

// A link or a form click, boosted or not: waits until the body was replaced and the network settled.
async function clickAndWait(p, selector) {
  await p.evaluate(() => {
    const marker = document.createElement('i');
    marker.id = 'ui-test-marker';
    document.body.appendChild(marker);
  });
  await p.click(selector);
  await p.waitForFunction(() => !document.getElementById('ui-test-marker')
    && !document.querySelector('.htmx-request'), { timeout: 15_000 });
  await p.waitForNetworkIdle({ idleTime: 150, timeout: 15_000 });
}

/** Fills the change form (held or voluntary) and submits it; the browser's length check off. */
async function changePassword(p, current, next, confirm = next) {
  await p.$eval('#password form', (f) => { f.noValidate = true; });
  for (const [id, value] of [['#current_password', current], ['#new_password', next], ['#confirm_password', confirm]]) {
    await p.$eval(id, (e) => { e.value = ''; });
    await p.type(id, value);
  }
  await clickAndWait(p, 'button[data-verb=change-password]');
}

const inlineError = (p) => p.$eval('.alert.error[data-error]', (e) => e.dataset.error).catch(() => null);
const pathOf = (p) => new URL(p.url()).pathname;

async function until(fn, what, timeoutMs = 8_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > deadline) assert.fail(`${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Instance admin's create-user form on /ui/admin. */
async function createUser(p, base, email, name) {
  await p.goto(`${base}/ui/admin`);
  await p.type('#u-email', email);
  await p.type('#u-name', name);
  await clickAndWait(p, 'button[data-verb=create-user]');
  const notice = await p.$(`#admin-notice[data-created-user="${email}"]`);
  assert.ok(notice, `the created notice for ${email}:\n${await p.evaluate(() => document.querySelector('main')?.innerText)}`);
}

describe('local password accounts in headless chromium', () => {
  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    sink = await startMailSink();
    const port = await portInRange();
    server = await startServer({
      DATAPIPELINES_AUTH_BOOTSTRAP_ADMIN_EMAIL: SEED_EMAIL,
      DATAPIPELINES_AUTH_LOCAL_BOOTSTRAP_PASSWORD: SEED_PASSWORD,
      DATAPIPELINES_AUTH_API_KEYS_CACHE_TTL_SECONDS: '1',
      DATAPIPELINES_AUTH_BASE_URL: `http://127.0.0.1:${port}`,
      DATAPIPELINES_MAIL_HOST: '127.0.0.1',
      DATAPIPELINES_MAIL_PORT: String(sink.port),
      DATAPIPELINES_MAIL_FROM: 'datapipelines <dp@local.test>',
      DATAPIPELINES_MAIL_USERNAME: sink.user,
      DATAPIPELINES_MAIL_PASSWORD: sink.password,
      DATAPIPELINES_MAIL_OPS_TO: OPS,
      SSL_CERT_FILE: sink.ca,
    }, { port, bootstrap: false });
    browser = await puppeteer.launch({
      executablePath: process.env.DP_CHROMIUM ?? '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
  });

  after(async () => {
    await browser?.close();
    for (const s of [server, offServer]) {
      if (s) {
        await s.stop('SIGKILL');
        s.cleanup();
      }
    }
    await sink?.close();
  });

  it('a: the admin seeded from configuration is held at the change until they choose a password; a restart keeps it', async () => {
    const p = await freshPage();
    try {
      const landed = await signIn(p, server.baseUrl, SEED_EMAIL, SEED_PASSWORD, '/ui/pipelines');
      assert.equal(landed.pathname, HELD_PAGE, 'the seeded password opens the forced change only');
      assert.ok(await p.$('#one-time-warning'), 'the page says why');
      assert.ok(await p.$('button[data-verb=logout]'), 'a held session can sign out');
      assert.equal(await p.$('nav a[href="/ui/pipelines"]'), null, 'no app shell to wander off through');
      await shot(p, '01-seeded-held');
      const held = await p.goto(`${server.baseUrl}/ui/pipelines`);
      assert.equal(pathOf(p), HELD_PAGE, '/ui/pipelines sends the held session back');
      assert.equal(held.request().redirectChain()[0]?.response()?.status(), 303);
      const rest = await p.evaluate(async () => {
        const r = await fetch('/api/v1/pipelines', { headers: { Accept: 'application/json' } });
        return { status: r.status, body: await r.text() };
      });
      assert.equal(rest.status, 403, rest.body);
      assert.equal(JSON.parse(rest.body).error?.code, 'auth.password.change_required', rest.body);
      // The change itself stays reachable over REST (here with a wrong current password).
      const csrf = (await p.cookies()).find((c) => c.name === 'dp_csrf')?.value;
      const change = await p.evaluate(async (token) => {
        const r = await fetch('/api/v1/auth/password', {
          method: 'POST', headers: { 'Content-Type': 'application/json', 'DP-CSRF-Token': token },
          body: JSON.stringify({ current_password: 'not-the-seeded-password', new_password: 'whatever-long-enough-9' }),
        });
        return { status: r.status, body: await r.text() };
      }, csrf);
      assert.equal(JSON.parse(change.body).error?.code, 'auth.login.bad_credentials',
        `POST /api/v1/auth/password is not held: ${change.status} ${change.body}`);

      await changePassword(p, SEED_PASSWORD, 'too-short');
      assert.equal(pathOf(p), HELD_PAGE);
      assert.equal(await inlineError(p), 'user.validation.password_too_short');
      assert.ok(await p.$('#one-time-warning'), 'still the forced change');
      await changePassword(p, 'not-the-seeded-password', OWNER_PASSWORD);
      assert.equal(pathOf(p), HELD_PAGE);
      assert.equal(await inlineError(p), 'auth.login.bad_credentials');
      await shot(p, '02-seeded-wrong-current');
      await changePassword(p, SEED_PASSWORD, OWNER_PASSWORD);
      assert.equal(pathOf(p), '/ui/', `the change opens the product: ${p.url()}`);
      assert.equal(new URL(p.url()).searchParams.get('ok'), 'password_changed');
      const pipelines = await p.goto(`${server.baseUrl}/ui/pipelines`);
      assert.equal(pathOf(p), '/ui/pipelines', 'every page opens now');
      assert.equal(pipelines.status(), 200);
    } finally {
      await p.context.close();
    }

    // The same data dir and configuration, the same port: the seed does not fire again.
    const { SERVER_PORT: port, ...env } = server.env;
    await server.stop('SIGTERM');
    retired.push(server);
    server = await spawnOn(env, server.dataDir, { port: Number(port) });
    const p2 = await freshPage();
    try {
      const landed = await signIn(p2, server.baseUrl, SEED_EMAIL, OWNER_PASSWORD, '/ui/settings');
      assert.equal(landed.pathname, '/ui/settings', 'the chosen password signs in, and is not held');
    } finally {
      await p2.context.close();
    }
    const seeded = await postSignIn(server, SEED_EMAIL, SEED_PASSWORD);
    assert.equal(seeded.status, 401, 'the seeded password was not put back');
    assert.equal(seeded.code, 'auth.login.bad_credentials');
  });

  it('a2: on the fresh seeded server (no workspace yet) the instance admin opens user administration', async () => {
    // Zero setup (auth.md §5A): the seeded admin is the only way in, and creating the users is
    // theirs to do on the admin screen (§4.12 is instance-level, not a workspace's).
    const p = await freshPage();
    try {
      await signIn(p, server.baseUrl, SEED_EMAIL, OWNER_PASSWORD, '/ui/settings');
      const res = await p.goto(`${server.baseUrl}/ui/admin`);
      await shot(p, '02b-seeded-admin-screen');
      assert.equal(res.status(), 200, `/ui/admin answers ${res.status()}: ${await p.evaluate(() => document.body.innerText)}`);
      assert.ok(await p.$('#users'), 'the users table');
      assert.ok(await p.$('#u-email'), 'the create-user form');
    } finally {
      await p.context.close();
    }
  });

  it('b: with mail on, a created user gets the welcome mail (not the page), operators the notice; its password signs in to the change', async () => {
    // The operator makes a first workspace with the CLI, so the admin screen below does not
    // depend on a2 (which checks the screen without one).
    server.cli(['workspaces', 'create', '--name', 'team', '--display-name', 'Team', '--owner-email', SEED_EMAIL, '--json']);
    admin = await freshPage();
    const landed = await signIn(admin, server.baseUrl, SEED_EMAIL, OWNER_PASSWORD, '/ui/admin');
    assert.equal(landed.pathname, '/ui/admin');

    await createUser(admin, server.baseUrl, NEWBIE, 'New Bie');
    assert.ok(await admin.$('#admin-notice #mail-outcome[data-mail="sent"]'),
      `the notice says it was mailed:\n${await admin.$eval('#admin-notice', (e) => e.outerHTML)}`);
    assert.equal(await admin.$('#one-time-password'), null, 'the password is not on the page');
    await shot(admin, '03-created-mailed');
    const welcome = await sink.waitFor((m) => m.to.includes(NEWBIE) && m.subject === 'Your datapipelines account',
      { what: `welcome mail to ${NEWBIE}` });
    const password = oneTimePasswordOf(welcome);
    assert.ok(password && password.length >= 16, `a generated password in the mail:\n${welcome.text}`);
    recordSecret(password);
    assert.ok(!(await admin.content()).includes(password), 'the page does not carry it anywhere');
    assert.ok(welcome.text.includes(`${server.baseUrl}/ui/login`), `the login URL:\n${welcome.text}`);
    assert.equal(welcome.secure, true, 'sent over STARTTLS');
    assert.equal(welcome.user, sink.user, 'after AUTH');
    const notice = await sink.waitFor((m) => m.to.includes(OPS) && m.subject === `New user: ${NEWBIE} (local)`,
      { what: 'the New user notice' });
    assert.ok(!notice.raw.includes(password) && !notice.text.includes(password), 'no password in the notice');
    assert.ok(!notice.to.includes(NEWBIE));

    const p = await freshPage();
    try {
      const landed = await signIn(p, server.baseUrl, NEWBIE, password);
      assert.equal(landed.pathname, HELD_PAGE, 'the mailed password is one-time');
      await changePassword(p, password, NEWBIE_PASSWORD);
      assert.equal(pathOf(p), '/ui/');
      assert.equal(new URL(p.url()).searchParams.get('ok'), 'password_changed');
    } finally {
      await p.context.close();
    }
    assert.equal((await postSignIn(server, NEWBIE, password)).code, 'auth.login.bad_credentials', 'spent');
  });

  it('c: a reset from the admin screen ends the user\'s session, mails a new one-time password, held at the change', async () => {
    const p = await freshPage();
    try {
      assert.equal((await signIn(p, server.baseUrl, NEWBIE, NEWBIE_PASSWORD, '/ui/settings')).pathname, '/ui/settings');
      await admin.goto(`${server.baseUrl}/ui/admin`);
      const before = sink.messages().length;
      const asked = confirms.length;
      await clickAndWait(admin, `tr[data-user="${NEWBIE}"] button[data-verb=reset-password]`);
      assert.equal(confirms.length, asked + 1, 'the reset asked first (hx-confirm)');
      assert.match(confirms.at(-1), /^Reset the password of newbie@local\.test\?/);
      assert.ok(await admin.$(`#admin-notice[data-reset-user="${NEWBIE}"] #mail-outcome[data-mail="sent"]`),
        `the reset notice says it was mailed:\n${await admin.evaluate(() => document.querySelector('main')?.innerText)}`);
      assert.equal(await admin.$('#one-time-password'), null, 'no password on the page');
      assert.ok(await admin.$(`tr[data-user="${NEWBIE}"] [data-one-time="true"]`), 'the one-time badge');
      await shot(admin, '04-reset-mailed');
      await until(async () => {
        await p.goto(`${server.baseUrl}/ui/settings`);
        return pathOf(p) === '/ui/login';
      }, 'the reset ends the session');
      const reset = await sink.waitFor((m) => m.to.includes(NEWBIE)
        && m.subject === 'Your datapipelines password was reset', { what: 'the reset mail' });
      assert.ok(sink.messages().length > before);
      const password = oneTimePasswordOf(reset);
      assert.ok(password && password.length >= 16, reset.text);
      recordSecret(password);
      assert.equal((await postSignIn(server, NEWBIE, NEWBIE_PASSWORD)).code, 'auth.login.bad_credentials',
        'the old password is replaced');
      const landed = await signIn(p, server.baseUrl, NEWBIE, password, '/ui/pipelines');
      assert.equal(landed.pathname, HELD_PAGE, 'the reset password is one-time');
      await shot(p, '05-reset-held');
    } finally {
      await p.context.close();
    }
  });

  it('d: five wrong sign-ins lock the account, even to the right password; the admin sees it and unlocks', async () => {
    server.cli(['users', 'create', '--email', LOCKY, '--name', 'Locky', '--password-stdin', '--json'],
      { stdin: `${USER_PASSWORD}\n` });
    const p = await freshPage();
    try {
      for (let i = 1; i <= 5; i += 1) {
        await signIn(p, server.baseUrl, LOCKY, `wrong-password-number-${i}`);
        assert.equal(pathOf(p), '/ui/login');
        if (i < 5) assert.equal(await inlineError(p), 'auth.login.bad_credentials', `attempt ${i}`);
      }
      await signIn(p, server.baseUrl, LOCKY, USER_PASSWORD);
      assert.equal(pathOf(p), '/ui/login', 'the right password is refused while locked');
      assert.equal(await inlineError(p), 'auth.login.locked');
      await shot(p, '06-locked');
      await admin.goto(`${server.baseUrl}/ui/admin`);
      assert.ok(await admin.$(`tr[data-user="${LOCKY}"] [data-locked="true"]`), 'the locked badge');
      await shot(admin, '07-admin-locked');
      await clickAndWait(admin, `tr[data-user="${LOCKY}"] button[data-verb=unlock]`);
      assert.equal(await admin.$(`tr[data-user="${LOCKY}"] [data-locked="true"]`), null, 'unlocked');
      assert.equal(await admin.$(`tr[data-user="${LOCKY}"] button[data-verb=unlock]`), null, 'no Unlock any more');
      const landed = await signIn(p, server.baseUrl, LOCKY, USER_PASSWORD);
      assert.equal(landed.pathname, '/ui/', 'the right password signs in after the unlock');
      assert.ok(!(await p.$('#one-time-warning')), 'an operator-chosen password is not one-time');
    } finally {
      await p.context.close();
    }
  });

  it('e: the admin removes a user\'s password; it no longer signs in', async () => {
    server.cli(['users', 'create', '--email', GONE, '--name', 'Gone', '--password-stdin', '--json'],
      { stdin: `${USER_PASSWORD}\n` });
    assert.equal((await postSignIn(server, GONE, USER_PASSWORD)).status, 303, 'it signs in before');
    await admin.goto(`${server.baseUrl}/ui/admin`);
    const asked = confirms.length;
    await clickAndWait(admin, `tr[data-user="${GONE}"] button[data-verb=disable-local]`);
    assert.equal(confirms.length, asked + 1, 'the removal asked first (hx-confirm)');
    assert.match(confirms.at(-1), /^Remove the password of gone@local\.test\?/);
    assert.match(await admin.$eval(`tr[data-user="${GONE}"]`, (e) => e.textContent), /no password/);
    assert.equal(await admin.$(`tr[data-user="${GONE}"] button[data-verb=disable-local]`), null);
    const p = await freshPage();
    try {
      await signIn(p, server.baseUrl, GONE, USER_PASSWORD);
      assert.equal(pathOf(p), '/ui/login');
      assert.equal(await inlineError(p), 'auth.login.bad_credentials');
      await shot(p, '08-password-removed');
    } finally {
      await p.context.close();
    }
  });

  it('f: with mail off, the created user\'s password is shown once on the page, not again', async () => {
    offServer = await startServer({}, { port: await portInRange() });
    const p = await freshPage();
    try {
      const landed = await signIn(p, offServer.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD, '/ui/admin');
      assert.equal(landed.pathname, '/ui/admin', 'the operator\'s --admin-password is not one-time');
      await createUser(p, offServer.baseUrl, SHOWN, 'Shown Once');
      assert.equal(await p.$('#mail-outcome'), null, 'nothing about mail');
      const password = await p.$eval('#one-time-password', (e) => e.textContent.trim());
      recordSecret(password);
      shownPassword = password;
      assert.ok(password.length >= 16, password.length);
      assert.doesNotMatch(p.url(), new RegExp(password.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'in no URL');
      await shot(p, '09-created-shown');
      await p.goto(`${offServer.baseUrl}/ui/admin`);
      assert.equal(await p.$('#one-time-password'), null, 'shown once');
      assert.ok(!(await p.content()).includes(password), 'nowhere on the reloaded page');
      const held = await freshPage();
      try {
        assert.equal((await signIn(held, offServer.baseUrl, SHOWN, password)).pathname, HELD_PAGE);
      } finally {
        await held.context.close();
      }
    } finally {
      await p.context.close();
    }
  });

  it('f2: the CLI\'s users create without --password generates a one-time password', async () => {
    const out = offServer.cli(['users', 'create', '--email', 'cli@local.test', '--name', 'Cli', '--json'],
      { allowFail: true });
    assert.equal(out.status, 0, `users create without --password: ${JSON.stringify(out.json ?? out.stdout)}`);
    const password = out.json?.one_time_password;
    assert.ok(typeof password === 'string' && password.length >= 16, JSON.stringify(out.json));
    recordSecret(password);
    const p = await freshPage();
    try {
      assert.equal((await signIn(p, offServer.baseUrl, 'cli@local.test', password)).pathname, HELD_PAGE);
    } finally {
      await p.context.close();
    }
  });

  it('g1: layout — the held change form sits inside its ceremony card', async () => {
    const p = await freshPage();
    try {
      await signIn(p, offServer.baseUrl, SHOWN, shownPassword);
      assert.equal(pathOf(p), HELD_PAGE);
      const held = await p.evaluate(() => {
        const outer = document.querySelector('.ceremony > .card').getBoundingClientRect();
        const inner = document.querySelector('#password').getBoundingClientRect();
        return { outer: [outer.left, outer.right], inner: [inner.left, inner.right] };
      });
      assert.ok(held.inner[0] >= held.outer[0] - 1 && held.inner[1] <= held.outer[1] + 1,
        `the change form (x ${held.inner.map(Math.round)}) spills out of the ceremony card (x ${held.outer.map(Math.round)})`);
    } finally {
      await p.context.close();
    }
  });

  it('g2: layout — the users table shows its row buttons whole at 1360 px', async () => {
    const a = await freshPage();
    try {
      await signIn(a, offServer.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD, '/ui/admin');
      const clipped = await a.evaluate(() => {
        const card = document.querySelector('#users').getBoundingClientRect();
        return [...document.querySelectorAll('#users tr[data-user] button')]
          .filter((b) => b.getBoundingClientRect().right > card.right + 1)
          .map((b) => `${b.closest('tr').dataset.user} ${b.dataset.verb}: right ${Math.round(b.getBoundingClientRect().right)} > ${Math.round(card.right)}`);
      });
      assert.deepEqual(clipped, [], 'row buttons cut off at the edge of the users card (1360 px wide)');
    } finally {
      await a.context.close();
    }
  });

  it('ran no alert and violated no Content-Security-Policy on any screen; no secret in the server logs', () => {
    assert.deepEqual(dialogs, []);
    assert.deepEqual(cspViolations, []);
    for (const s of [...retired, server, offServer].filter(Boolean)) {
      for (const secret of [SEED_PASSWORD, OWNER_PASSWORD, NEWBIE_PASSWORD, USER_PASSWORD, sink.password]) {
        assert.ok(!s.log.includes(secret), `a password in the log of ${s.baseUrl}`);
      }
    }
  });
});
