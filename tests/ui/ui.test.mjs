// The web UI in a real browser (issue 17): Debian's chromium, headless, driven by puppeteer-core
// against a real server with the demo datasource. A person signs in, walks every screen,
// releases what an agent built over MCP (and the agent sees it RELEASED), discards a draft,
// registers and tests a datasource, mints a key on Connect an agent and an MCP SDK client uses
// it, revokes it (MCP refuses it within the cache TTL); hostile names render as text; a POST
// without the CSRF token is refused; a viewer sees no release button and a forged release from
// the viewer is refused by the service. Every screen is screenshotted into the artifacts dir.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { startDemoServer } from '../e2e/support/demo_server.mjs';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BINARY, USER_PASSWORD } from '../e2e/support/server.mjs';
import { bearerHeader, request, sdkClient, toolPayload } from '../e2e/support/http.mjs';
import { recordSecret } from '../e2e/support/secrets.mjs';
import { watchedPage } from './support/watched_page.mjs';

const CACHE_TTL_SECONDS = 2;
const XSS = '<script>alert(1)</script>';
const ARTIFACTS = process.env.DP_UI_ARTIFACTS ?? path.resolve('artifacts');
const VIEWER = 'viewer@ui.test';
const NEWCOMER = 'newcomer@ui.test';
const MADE = 'made@ui.test';
const TEMPLATE_ID = 'test/ui/zones';
const PIPELINE_NAME = 'test/ui/zones';

let demo;
let server;
let browser;
let page;
let agent;
const dialogs = [];
const confirms = [];  // hx-confirm questions, accepted: a destructive verb asks first
const cspViolations = [];
let pipeline;
let scratch;

async function shot(p, name) {
  await p.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

async function newPage(context) {
  return watchedPage(context, { confirms, dialogs, cspViolations });
}

async function login(p, email, password, next = '/ui/') {
  await p.goto(`${server.baseUrl}${next}`);
  assert.match(p.url(), /\/ui\/login\?next=/, 'an anonymous visit lands on the sign-in page');
  await p.type('#email', email);
  await p.type('#password', password);
  await Promise.all([p.waitForNavigation(), p.click('button[data-verb=login]')]);
  assert.equal(new URL(p.url()).pathname, next);
}

// A plain page load (JavaScript off: no boost, no marker script).
async function submitAndWait(p, selector) {
  await Promise.all([p.waitForNavigation(), p.click(selector)]);
}

// Navigates like a person (a link or a form click): a marker inside <body> disappears when the
// boosted swap (or a full page load) replaces the content; then the network settles.
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

async function mcp(name, args, key = server.adminKey) {
  const { client } = await sdkClient(server, key);
  try {
    const result = await client.callTool({ name, arguments: args });
    return { isError: result.isError === true, payload: toolPayload(result) };
  } finally {
    await client.close().catch(() => {});
  }
}

async function ok(name, args, key) {
  const { isError, payload } = await mcp(name, args, key);
  assert.equal(isError, false, `${name}: ${JSON.stringify(payload)}`);
  return payload;
}

// An agent's edit over MCP: the next draft of the pipeline with a new description.
async function editDraft(description) {
  const current = await ok('pipelines_get', { id: pipeline.id });
  return ok('pipelines_update', {
    id: pipeline.id, expected_hash: current.body_hash, name: current.name,
    display_name: current.display_name, description, nodes: current.nodes,
  });
}

const text = (p, selector) => p.$eval(selector, (e) => e.textContent);

describe('the web UI in headless chromium', () => {
  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    ({ server, cleanup: demo } = await startDemoServer({
      env: { DATAPIPELINES_AUTH_API_KEYS_CACHE_TTL_SECONDS: String(CACHE_TTL_SECONDS) },
    }));
    server.createUser(VIEWER, 'viewer');
    server.createUser(NEWCOMER, null);
    scratch = mkdtempSync(path.join(os.tmpdir(), 'dp-ui-ds-'));
    const gen = spawnSync(BINARY, ['demo-data', '--sqlite', path.join(scratch, 'extra.sqlite'),
      '--trips', '100'], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(gen.status, 0, gen.stderr);
    browser = await puppeteer.launch({
      executablePath: process.env.DP_CHROMIUM ?? '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    page = await newPage(browser.defaultBrowserContext());
    // What an agent does over MCP: learn the table, author a template and a draft pipeline.
    await ok('datasources_get_columns', { name: 'demo', table: 'zones' });
    await ok('templates_create', {
      id: TEMPLATE_ID, dialect: 'SQLITE', display_name: XSS, description: 'Zones, for the UI test',
      body: 'SELECT id, name, borough\nFROM zones\nORDER BY id\nLIMIT 7',
    });
    pipeline = await ok('pipelines_create', {
      name: PIPELINE_NAME, display_name: XSS, description: `An agent wrote ${XSS} here.`,
      nodes: [{ id: 'zones', description: 'The first zones.', type: 'DQL', source: 'demo',
        template: { id: TEMPLATE_ID, version: 1 }, depends_on: [] }],
    });
    assert.equal(pipeline.status, 'DRAFT');
  });

  after(async () => {
    await browser?.close();
    if (demo) await demo();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('answers / with a redirect to /ui/, and every page with the security headers', async () => {
    const root = await request(server, { path: '/' });
    assert.equal(root.status, 303);
    assert.equal(root.headers.location, '/ui/');
    const loginPage = await request(server, { path: '/ui/login' });
    assert.equal(loginPage.status, 200);
    const csp = loginPage.headers['content-security-policy'];
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(loginPage.headers['x-frame-options'], 'DENY');
    assert.ok(loginPage.headers['referrer-policy']);
    const htmx = await request(server, { path: '/ui/static/htmx.min.js' });
    assert.equal(htmx.status, 200);
    assert.match(htmx.headers['cache-control'], /max-age=31536000/);
    assert.match(htmx.text, /htmx/);
  });

  it('signs in with the form; the session cookie is HttpOnly and SameSite=Lax', async () => {
    await page.goto(`${server.baseUrl}/ui/login`);
    await shot(page, '01-login');
    const bad = await request(server, {
      method: 'POST', path: '/ui/login',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `email=${encodeURIComponent(ADMIN_EMAIL)}&password=wrong`,
    });
    assert.equal(bad.status, 401);
    assert.match(bad.text, /auth\.login\.bad_credentials/);
    await login(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/ui/pipelines');
    const cookies = await page.cookies();
    const session = cookies.find((c) => c.name === 'dp_session');
    assert.ok(session, 'dp_session set');
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Lax');
  });

  it('dashboard: drafts awaiting review, recent executions, datasources', async () => {
    await page.goto(`${server.baseUrl}/ui/`);
    assert.match(await text(page, '#drafts'), /test\/ui\/zones/);
    assert.match(await text(page, '#datasource-health'), /demo/);
    await shot(page, '02-dashboard');
  });

  it('pipelines: the tree, then the draft with its DAG; hostile names render as text', async () => {
    await page.goto(`${server.baseUrl}/ui/pipelines`);
    await shot(page, '03-pipelines-root');
    await clickAndWait(page, '.folders a');
    await clickAndWait(page, '.folders a');
    const row = await page.$(`tr[data-pipeline="${PIPELINE_NAME}"]`);
    assert.ok(row, 'the pipeline is listed in its folder');
    assert.match(await text(page, `tr[data-pipeline="${PIPELINE_NAME}"]`), /DRAFT/);
    assert.deepEqual(await page.$$eval('.tree-crumbs a', (a) => a.map((e) => e.textContent)),
      ['All folders', 'test', 'ui'], 'breadcrumbs name every level');
    await shot(page, '04-pipelines-folder');
    await clickAndWait(page, `tr[data-pipeline="${PIPELINE_NAME}"] a`);
    assert.equal(new URL(page.url()).pathname, `/ui/pipelines/${pipeline.id}`);
    assert.equal(await text(page, 'h1'), XSS, 'the name is shown as text');
    assert.equal(await page.$$eval('script', (s) => s.filter((e) => !e.src).length), 0, 'no inline script');
    assert.equal(dialogs.length, 0, 'no alert ran');
    assert.ok(await page.$('svg.dag g[data-node="zones"]'), 'the DAG is drawn');
    assert.ok(await page.$('button[data-verb=release]'), 'an admin sees Release');
    await shot(page, '05-pipeline-draft');
  });

  it('release is refused while the pinned template is a draft: the error state names the code', async () => {
    await clickAndWait(page, 'button[data-verb=release]');
    assert.match(await text(page, '.alert.error'), /pipeline\.release\.template_not_released/);
    assert.match(await text(page, '.alert.error'), /correlation id/);
    await shot(page, '06-pipeline-release-refused');
  });

  it('templates: list and detail with line numbers; a person releases the template', async () => {
    await page.goto(`${server.baseUrl}/ui/templates?q=zones`);
    assert.ok(await page.$(`tr[data-template="${TEMPLATE_ID}"]`));
    await shot(page, '07-templates');
    await clickAndWait(page, `tr[data-template="${TEMPLATE_ID}"] a`);
    assert.equal(await text(page, 'h1'), XSS);
    assert.equal(await page.$$eval('#template-body div', (d) => d.length), 4, 'four numbered lines');
    assert.ok(await page.$(`#used-by tr[data-pinned-by="${PIPELINE_NAME}"] a[href="/ui/pipelines/${pipeline.id}"]`),
      'who pins it: the draft pipeline, linked');
    await shot(page, '08-template-draft');
    await clickAndWait(page, 'button[data-verb=release]');
    assert.equal(await page.$eval('[data-status]', (e) => e.dataset.status), 'RELEASED');
    await shot(page, '09-template-released');
  });

  it('releases the draft an agent made over MCP, and pipelines_get reports RELEASED', async () => {
    await page.goto(`${server.baseUrl}/ui/pipelines/${pipeline.id}`);
    const asked = confirms.length;
    await clickAndWait(page, 'button[data-verb=release]');
    assert.equal(confirms.length, asked + 1, 'Release asked first (hx-confirm)');
    assert.equal(confirms.at(-1), `Release v1 of pipeline “${PIPELINE_NAME}”? The version becomes current and locked.`);
    assert.match(await text(page, '.alert.ok'), /Released/);
    assert.equal(await page.$eval('[data-status]', (e) => e.dataset.status), 'RELEASED');
    const got = await ok('pipelines_get', { id: pipeline.id });
    assert.equal(got.status, 'RELEASED');
    assert.equal(got.current_version, 1);
    await shot(page, '10-pipeline-released');
  });

  it('shows the next draft against the release as a diff, then discards the draft', async () => {
    const next = await editDraft('A second thought the reviewer will reject.');
    assert.equal(next.status, 'DRAFT');
    assert.equal(next.version, 2);
    await page.goto(`${server.baseUrl}/ui/pipelines/${pipeline.id}`);
    assert.match(await text(page, '#diff .add'), /second thought/);
    assert.ok(await page.$('#diff .del'));
    await shot(page, '11-pipeline-diff');
    await clickAndWait(page, 'button[data-verb=discard]');
    assert.match(await text(page, '.alert.ok'), /discarded/);
    const got = await ok('pipelines_get', { id: pipeline.id });
    assert.equal(got.version, 1);
    assert.equal(got.status, 'RELEASED');
    assert.equal(got.draft, undefined);
  });

  it('executions: history with filters, detail with timeline, result preview and CSV', async () => {
    const run = await ok('pipelines_execute', { id: pipeline.id, parameters: {} });
    assert.equal(run.status, 'SUCCESS');
    await page.goto(`${server.baseUrl}/ui/executions`);
    assert.match(await text(page, '#execution-list'), /SUCCESS/);
    await page.select('#status', 'FAILED');
    await page.waitForFunction(() => location.search.includes('status=FAILED'), { timeout: 10_000 });
    await page.waitForNetworkIdle({ idleTime: 150 });
    assert.match(await text(page, '#execution-list'), /No executions match/);
    await page.select('#status', 'SUCCESS');
    await page.waitForFunction(() => location.search.includes('status=SUCCESS'), { timeout: 10_000 });
    await page.waitForNetworkIdle({ idleTime: 150 });
    await shot(page, '12-executions');
    // The time filter is the store's: the total counts matching runs only, REST shares it.
    await page.goto(`${server.baseUrl}/ui/executions?started_before=2000-01-01T00:00`);
    assert.match(await text(page, '#execution-list'), /No executions match/);
    await page.goto(`${server.baseUrl}/ui/executions?started_after=2000-01-01T00:00&status=SUCCESS`);
    assert.match(await text(page, '#execution-list'), /SUCCESS/);
    assert.match(await text(page, '#execution-total'), /^1 matching run$/);
    assert.equal(await page.$eval('#started_after', (e) => e.value), '2000-01-01T00:00');
    const future = await request(server, {
      path: '/api/v1/executions?started_after=2999-01-01T00:00:00Z', headers: bearerHeader(server.adminKey),
    });
    assert.equal(future.status, 200, future.text);
    assert.deepEqual([future.json.data.items.length, future.json.data.total], [0, 0]);
    const past = await request(server, {
      path: `/api/v1/executions?started_after=2000-01-01T00:00:00.000Z&started_before=2999-01-01T00:00:00Z&pipeline_id=${pipeline.id}`,
      headers: bearerHeader(server.adminKey),
    });
    assert.equal(past.json.data.total, 1, past.text);
    const bad = await request(server, {
      path: '/api/v1/executions?started_after=yesterday', headers: bearerHeader(server.adminKey),
    });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /request\.validation\.invalid/);
    await page.goto(`${server.baseUrl}/ui/executions/${run.execution_id}`);
    assert.ok(await page.$('svg.timeline g[data-node="zones"]'));
    assert.equal(await page.$$eval('#result tbody tr', (r) => r.length), 7);
    const csvHref = await page.$eval('a[data-verb=download-csv]', (a) => a.href);
    const csv = await page.evaluate(async (href) => (await fetch(href)).text(), csvHref);
    assert.equal(csv.trim().split(/\r?\n/).length, 8, 'header + 7 rows');
    await shot(page, '13-execution');
  });

  it('a failed execution shows its failure record with the root cause highlighted', async () => {
    await ok('templates_create', {
      id: 'test/ui/broken', dialect: 'SQLITE', display_name: 'Broken', description: 'A missing column.',
      body: 'SELECT no_such_column FROM zones',
    });
    await ok('templates_render', { id: 'test/ui/broken', context: {} });
    const broken = await ok('pipelines_create', {
      name: 'test/ui/broken', display_name: 'Broken column', description: 'Fails on purpose.',
      nodes: [{ id: 'bad', description: 'A missing column.', type: 'DQL', source: 'demo',
        template: { id: 'test/ui/broken', version: 1 }, depends_on: [] }],
    });
    const { isError, payload } = await mcp('pipelines_execute', { id: broken.id, parameters: {} });
    assert.equal(isError, true);
    assert.ok(payload.error.execution_id, JSON.stringify(payload));
    await page.goto(`${server.baseUrl}/ui/executions/${payload.error.execution_id}`);
    const problem = await page.$eval('body', (b) => b.querySelector('[data-error]')?.textContent ?? '');
    assert.equal(problem, '', 'the page renders');
    assert.equal(await page.$eval('[data-status]', (e) => e.dataset.status), 'FAILED');
    const root = await text(page, '.root-cause');
    assert.match(root, /no such column: no_such_column/);
    assert.match(root, /bad/, 'the failed node is named');
    assert.match(root, /pipeline\.node\.query_execution_failed/, 'no SQLSTATE from SQLite: the code');
    assert.ok(await page.$('svg.timeline rect.FAILED'));
    await shot(page, '13b-execution-failed');
  });

  it('datasources: registers one with a write-only password and tests it', async () => {
    await page.goto(`${server.baseUrl}/ui/datasources`);
    await shot(page, '14-datasources');
    await page.type('#ds-name', 'extra');
    await page.type('#ds-display', XSS);
    await page.select('#ds-dialect', 'SQLITE');
    await page.type('#ds-url', `jdbc:sqlite:${path.join(scratch, 'extra.sqlite')}`);
    await page.type('#ds-password', 'never-shown-again');
    await clickAndWait(page, 'button[data-verb=register]');
    const refusal = await page.$('.alert.error');
    assert.equal(refusal, null, refusal ? await refusal.evaluate((e) => e.textContent) : '');
    assert.equal(new URL(page.url()).pathname, '/ui/datasources/extra');
    assert.equal(await text(page, 'h1'), XSS);
    const html = await page.content();
    assert.doesNotMatch(html, /never-shown-again/, 'the password is never echoed');
    assert.match(await text(page, '[data-health="extra"]'), /never tested/);
    await clickAndWait(page, 'button[data-verb=test]');
    assert.equal(await page.$eval('#test-result', (e) => e.dataset.connected), 'true');
    assert.equal(await page.$eval('[data-health="extra"] [data-last-test]', (e) => e.dataset.lastTest), 'ok');
    await shot(page, '15-datasource-tested');
    // Stored, so the list and the dashboard show it (and MCP's datasources_get carries it).
    await page.goto(`${server.baseUrl}/ui/datasources`);
    assert.equal(await page.$eval('[data-health="extra"] [data-last-test]', (e) => e.dataset.lastTest), 'ok');
    await page.goto(`${server.baseUrl}/ui/`);
    assert.equal(await page.$eval('#datasource-health [data-health="extra"] [data-last-test]',
      (e) => e.dataset.lastTest), 'ok');
    await shot(page, '15b-dashboard-health');
    const got = await ok('datasources_get', { name: 'extra' });
    assert.equal(got.last_test.ok, true, JSON.stringify(got.last_test));
    assert.equal(got.last_test.error_code, null);
  });

  it('Connect an agent: a key minted here works from the MCP SDK client, then revoked is refused', async () => {
    await page.goto(`${server.baseUrl}/ui/connect`);
    assert.match(await text(page, '#scope-sentence'), /read.*browse.*execute.*run.*author.*create/s);
    assert.match(await text(page, '#scope-sentence'), /can never exceed yours/);
    assert.match(await text(page, '#mcp-url'), /\/mcp$/);
    await shot(page, '16-connect');
    await page.type('#key-name', 'ui-test agent');
    await page.click('input[name=scope][value=execute]');
    await Promise.all([page.waitForNavigation(), page.click('button[data-verb=create-key]')]);
    const key = await page.$eval('#new-key', (e) => e.dataset.key);
    assert.match(key, /^dpk_/);
    recordSecret(key);
    assert.match(await text(page, '#snippet-cursor'), new RegExp(key));
    assert.match(await text(page, '#snippet-claude-desktop'), new RegExp(`Bearer ${key}`));
    assert.match(await text(page, '#snippet-claude-code'), new RegExp(`DP-API-Key: ${key}`));
    assert.match(await text(page, '#snippet-generic'), new RegExp(`DP-API-Key: ${key}`), 'both header forms');
    assert.match(await text(page, '#snippet-generic'), new RegExp(`Authorization: Bearer ${key}`));
    await shot(page, '17-connect-key-issued');
    const listed = await ok('pipelines_list', {}, key);
    assert.ok(JSON.stringify(listed).includes(PIPELINE_NAME));
    // The form is read by the service's parser, as POST /api/v1/keys is: a forged admin scope
    // gets the same catalogued refusal, and no key.
    const csrf = (await page.cookies()).find((c) => c.name === 'dp_csrf').value;
    const forged = await page.evaluate(async (token) => {
      const r = await fetch('/ui/keys', {
        method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `_csrf=${token}&name=forged-admin&scope=admin`,
      });
      return r.text();
    }, csrf);
    assert.match(forged, /auth\.key_scope_unavailable/);
    assert.doesNotMatch(forged, /id="new-key"/);
    await page.goto(`${server.baseUrl}/ui/keys`);
    await shot(page, '18-keys');
    const rows = await page.$$eval('#key-list tr[data-key-id]', (r) => r.map((e) => e.textContent));
    assert.ok(rows.some((r) => r.includes('ui-test agent')));
    const keyRow = await page.$$('#key-list tr[data-key-id]');
    let target;
    for (const r of keyRow) if ((await r.evaluate((e) => e.textContent)).includes('ui-test agent')) target = r;
    const keyId = await target.evaluate((e) => e.dataset.keyId);
    await clickAndWait(page, `tr[data-key-id="${keyId}"] button[data-verb=revoke]`);
    assert.match(confirms.at(-1), /^Revoke the key “ui-test agent”\?/);
    assert.match(await text(page, '.alert.ok'), /Revoked/);
    await new Promise((r) => setTimeout(r, (CACHE_TTL_SECONDS + 1) * 1000));
    let refused = false;
    try {
      const { isError } = await mcp('pipelines_list', {}, key);
      refused = isError;
    } catch {
      refused = true;  // the transport refuses the connection: 401 auth.api_key.*
    }
    assert.equal(refused, true, 'MCP refuses the revoked key within the cache TTL');
  });

  it('settings and the 404 error page', async () => {
    await page.goto(`${server.baseUrl}/ui/settings`);
    await shot(page, '19-settings');
    const res = await page.goto(`${server.baseUrl}/ui/no/such/page`);
    assert.equal(res.status(), 404);
    assert.match(await text(page, '[data-error]'), /request\.route_not_found/);
    assert.match(await text(page, '[data-error]'), /correlation id/);
    await shot(page, '20-error-404');
  });

  it('refuses a POST without the CSRF token, from the browser and from outside', async () => {
    const status = await page.evaluate(async (id) => (await fetch(`/ui/pipelines/${id}/delete`, {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'confirm=x',
    })).status, pipeline.id);
    assert.equal(status, 403);
    const cookie = (await page.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const forged = await request(server, {
      method: 'POST', path: `/ui/pipelines/${pipeline.id}/delete`,
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: '_csrf=0000',
    });
    assert.equal(forged.status, 403);
    assert.match(forged.text, /auth\.csrf\.invalid/);
    const crossSite = await request(server, {
      method: 'POST', path: '/ui/login',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `email=${encodeURIComponent(ADMIN_EMAIL)}&password=${encodeURIComponent(ADMIN_PASSWORD)}`,
    });
    assert.equal(crossSite.status, 403, 'another origin cannot sign a browser in (login CSRF)');
    assert.equal(crossSite.headers['set-cookie'], undefined);
    const still = await ok('pipelines_get', { id: pipeline.id });
    assert.equal(still.status, 'RELEASED', 'nothing was deleted');
  });

  it('a viewer sees no release button, and a forged release from the viewer is refused by the service', async () => {
    const next = await editDraft('Draft for the viewer.');
    const context = await browser.createBrowserContext();
    const viewer = await newPage(context);
    await login(viewer, VIEWER, USER_PASSWORD, `/ui/pipelines/${pipeline.id}`);
    assert.equal(await viewer.$('button[data-verb=release]'), null, 'no Release for a viewer');
    assert.equal(await viewer.$('button[data-verb=discard]'), null);
    assert.equal(await viewer.$('button[data-verb=register]'), null);
    await shot(viewer, '21-viewer-pipeline');
    const csrf = (await viewer.cookies()).find((c) => c.name === 'dp_csrf').value;
    const answer = await viewer.evaluate(async (args) => {
      const r = await fetch(`/ui/pipelines/${args.id}/release`, {
        method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `_csrf=${args.csrf}&confirmed=yes&body_hash=${args.hash}`,
      });
      return { status: r.status, text: await r.text() };
    }, { id: pipeline.id, csrf, hash: next.body_hash });
    assert.equal(answer.status, 403);
    assert.match(answer.text, /auth\.role_required/);
    const got = await ok('pipelines_get', { id: pipeline.id });
    assert.equal(got.status, 'DRAFT', 'the draft stays a draft');
    await viewer.goto(`${server.baseUrl}/ui/datasources`);
    await shot(viewer, '22-viewer-datasources');
    await viewer.goto(`${server.baseUrl}/ui/admin`);
    assert.equal(await viewer.$('button[data-verb=set-flags]'), null, 'a viewer changes no flags');
    const promote = await viewer.evaluate(async (args) => {
      const r = await fetch('/ui/admin/members', {
        method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `_csrf=${args.csrf}&email=${encodeURIComponent(args.email)}&author=on&admin=on`,
      });
      return { status: r.status, text: await r.text() };
    }, { csrf, email: VIEWER });
    assert.equal(promote.status, 403, 'a viewer cannot promote themselves');
    assert.match(promote.text, /auth\.role_required/);
    // Change password (§4.14): the current one is checked first, then the new one replaces it,
    // and the viewer's OTHER sessions end (this one stays).
    const elsewhere = await browser.createBrowserContext();
    const other = await newPage(elsewhere);
    await login(other, VIEWER, USER_PASSWORD, '/ui/settings');
    await viewer.goto(`${server.baseUrl}/ui/settings`);
    await viewer.type('#current_password', 'not-my-password');
    await viewer.type('#new_password', 'a-brand-new-password-42');
    await viewer.type('#confirm_password', 'a-brand-new-password-42');
    await clickAndWait(viewer, 'button[data-verb=change-password]');
    assert.match(await text(viewer, '.alert.error'), /auth\.login\.bad_credentials/);
    await viewer.type('#current_password', USER_PASSWORD);
    await viewer.type('#new_password', 'a-brand-new-password-42');
    await viewer.type('#confirm_password', 'a-brand-new-password-42');
    await clickAndWait(viewer, 'button[data-verb=change-password]');
    assert.match(await text(viewer, '.alert.ok'), /Password changed/);
    await shot(viewer, '24-settings-password-changed');
    await viewer.goto(`${server.baseUrl}/ui/settings`);
    assert.equal(new URL(viewer.url()).pathname, '/ui/settings', 'the session that changed it stays');
    await other.goto(`${server.baseUrl}/ui/settings`);
    assert.match(other.url(), /\/ui\/login\?next=/, 'the other session ended');
    assert.ok(await other.$('[data-expired=true]'), 'the sign-in page says the session ended (§6, 401)');
    await elsewhere.close();
    const relogin = await request(server, {
      method: 'POST', path: '/ui/login',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `email=${encodeURIComponent(VIEWER)}&password=a-brand-new-password-42`,
    });
    assert.equal(relogin.status, 303, 'the new password signs in');
    await context.close();
  });

  it('with JavaScript off, a destructive verb asks on a confirmation page first', async () => {
    assert.equal((await ok('pipelines_get', { id: pipeline.id })).status, 'DRAFT');
    const context = await browser.createBrowserContext();
    const plain = await newPage(context);
    await plain.setJavaScriptEnabled(false);
    await login(plain, ADMIN_EMAIL, ADMIN_PASSWORD, `/ui/pipelines/${pipeline.id}`);
    await submitAndWait(plain, 'button[data-verb=discard]');
    const url = new URL(plain.url());
    assert.equal(url.pathname, `/ui/pipelines/${pipeline.id}/discard`, 'a GET confirmation page');
    assert.equal(await text(plain, 'h1'), 'Are you sure?');
    assert.match(await text(plain, '#confirm-question'), /^Discard the draft v\d+ of pipeline “test\/ui\/zones”\? Its edits are lost\.$/);
    assert.equal(await plain.$eval('#confirm input[name=_csrf]', (e) => e.value.length > 0), true);
    assert.equal((await ok('pipelines_get', { id: pipeline.id })).status, 'DRAFT', 'nothing happened yet');
    await shot(plain, '25-confirm-no-js');
    await submitAndWait(plain, 'a[data-verb=cancel-confirm]');
    assert.equal(new URL(plain.url()).pathname, `/ui/pipelines/${pipeline.id}`);
    await submitAndWait(plain, 'button[data-verb=discard]');
    await submitAndWait(plain, 'button[data-verb=confirm]');
    assert.match(await text(plain, '.alert.ok'), /discarded/);
    const got = await ok('pipelines_get', { id: pipeline.id });
    assert.equal(got.status, 'RELEASED');
    assert.equal(got.draft, undefined);
    await context.close();
  });

  it('admin: a workspace admin adds a member, sets their flags, removes them', async () => {
    await page.goto(`${server.baseUrl}/ui/admin`);
    assert.ok(await page.$(`tr[data-member="${VIEWER}"]`));
    await page.type('#m-email', NEWCOMER);
    await clickAndWait(page, 'button[data-verb=add-member]');
    assert.match(await text(page, '.alert.ok'), /Saved/);
    const flags = () => page.$eval(`tr[data-member="${NEWCOMER}"]`, (tr) =>
      ['author', 'promoter', 'admin'].filter((f) => tr.querySelector(`input[name=${f}]`).checked)
        .join('+') || 'viewer');
    assert.equal(await flags(), 'viewer', 'no flag ticked: a viewer');
    await page.click(`tr[data-member="${NEWCOMER}"] input[name=promoter]`);
    await clickAndWait(page, `tr[data-member="${NEWCOMER}"] button[data-verb=set-flags]`);
    assert.equal(await flags(), 'promoter', 'someone who only releases is one row');
    await page.click(`tr[data-member="${NEWCOMER}"] input[name=admin]`);
    await clickAndWait(page, `tr[data-member="${NEWCOMER}"] button[data-verb=set-flags]`);
    assert.equal(await flags(), 'author+promoter+admin', 'an admin always authors');
    // Someone with no account yet is invited, listed apart from the members.
    await page.type('#m-email', 'later@ui.test');
    await page.click('#m-promoter');
    await clickAndWait(page, 'button[data-verb=add-member]');
    assert.match(await text(page, '.alert.ok'), /Invited/);
    assert.equal(await page.$('tr[data-member="later@ui.test"]'), null, 'an invitation is no member');
    assert.match(await text(page, 'li[data-invitation="later@ui.test"]'), /promoter/);
    assert.ok(await page.$('#users'), 'an instance admin sees the users');
    await shot(page, '23-admin');
    await clickAndWait(page, `tr[data-member="${NEWCOMER}"] button[data-verb=remove-member]`);
    assert.match(confirms.at(-1), /^Remove newcomer@ui\.test from workspace/);
    assert.equal(await page.$(`tr[data-member="${NEWCOMER}"]`), null);
  });

  it('admin: an instance admin creates a workspace and a user, whose one-time password signs in to the forced change; deactivation stops it', async () => {
    await page.goto(`${server.baseUrl}/ui/admin`);
    await page.type('#w-name', 'ui-team');
    await page.type('#w-display', XSS);
    await clickAndWait(page, 'button[data-verb=create-workspace]');
    assert.match(await text(page, '.alert.ok'), /Workspace created/);
    assert.equal(await text(page, 'tr[data-workspace="ui-team"] .muted'), XSS, 'the name renders as text');
    await page.type('#w-name', 'ui-team');
    await clickAndWait(page, 'button[data-verb=create-workspace]');
    assert.match(await text(page, '.alert.error'), /workspace\.validation\.duplicate_name/);

    await page.type('#u-email', MADE);
    await page.type('#u-name', 'Made Here');
    await page.type('#u-workspace', 'ui-team');
    await page.click('#u-author');
    await clickAndWait(page, 'button[data-verb=create-user]');
    const password = await text(page, '#one-time-password');
    recordSecret(password);
    assert.ok(password.length >= 24, password.length);
    assert.doesNotMatch(page.url(), new RegExp(password), 'the password is in no URL');
    assert.match(await text(page, '#admin-notice'), /Member of workspace ui-team/);
    assert.ok(await page.$(`tr[data-user="${MADE}"]`));
    await shot(page, '23b-admin-user-created');
    await page.goto(`${server.baseUrl}/ui/admin`);
    assert.equal(await page.$('#one-time-password'), null, 'shown once');
    await page.type('#u-email', MADE.toUpperCase());
    await clickAndWait(page, 'button[data-verb=create-user]');
    assert.match(await text(page, '.alert.error'), /user\.validation\.duplicate_email/);
    assert.equal(await page.$(`tr[data-user="${ADMIN_EMAIL}"] button[data-verb=deactivate]`), null,
      'no deactivate on oneself');

    const signIn = (pw) => request(server, {
      method: 'POST', path: '/ui/login',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `email=${encodeURIComponent(MADE)}&password=${encodeURIComponent(pw)}`,
    });
    const context = await browser.createBrowserContext();
    const made = await newPage(context);
    // The generated password is one-time (auth.md §5A.4): its session is held at the change.
    await made.goto(`${server.baseUrl}/ui/settings`);
    assert.match(made.url(), /\/ui\/login\?next=/);
    await made.type('#email', MADE);
    await made.type('#password', password);
    await Promise.all([made.waitForNavigation(), made.click('button[data-verb=login]')]);
    assert.equal(new URL(made.url()).pathname, '/ui/settings/password', 'held at the forced change');
    assert.ok(await made.$('#one-time-warning'), 'the page says why');
    assert.ok(await made.$('button[data-verb=logout]'), 'and offers to sign out');
    await shot(made, '23c-forced-password-change');
    const held = await made.goto(`${server.baseUrl}/ui/pipelines`);
    assert.equal(new URL(made.url()).pathname, '/ui/settings/password', 'another page sends it back');
    assert.equal(held.request().redirectChain()[0]?.response()?.status(), 303);
    const madeCsrf = (await made.cookies()).find((c) => c.name === 'dp_csrf').value;
    const elsewhere = await made.evaluate(async (token) => {
      const r = await fetch('/ui/keys', {
        method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `_csrf=${token}&name=held&scope=read`,
      });
      return { status: r.status, text: await r.text() };
    }, madeCsrf);
    assert.equal(elsewhere.status, 403, 'a POST elsewhere is refused until the change');
    assert.match(elsewhere.text, /auth\.password\.change_required/);
    const chosen = 'made-chose-this-password-7';
    recordSecret(chosen);
    await made.type('#current_password', password);
    await made.type('#new_password', chosen);
    await made.type('#confirm_password', chosen);
    await clickAndWait(made, 'button[data-verb=change-password]');
    assert.equal(new URL(made.url()).pathname, '/ui/', 'the change opens the product');
    assert.equal(new URL(made.url()).searchParams.get('ok'), 'password_changed');
    await made.goto(`${server.baseUrl}/ui/settings`);
    assert.equal(new URL(made.url()).pathname, '/ui/settings', 'every page opens now');
    assert.match(await text(made, 'main'), /ui-team/, 'a member of the workspace named at creation');
    assert.notEqual((await signIn(password)).status, 303, 'the one-time password is spent');
    assert.equal((await signIn(chosen)).status, 303, 'the chosen password signs in');
    await clickAndWait(page, `tr[data-user="${MADE}"] button[data-verb=deactivate]`);
    assert.match(await text(page, '.alert.ok'), /User deactivated/);
    assert.notEqual((await signIn(chosen)).status, 303, 'a deactivated user cannot sign in');
    await new Promise((r) => setTimeout(r, (CACHE_TTL_SECONDS + 1) * 1000));
    await made.goto(`${server.baseUrl}/ui/settings`);
    assert.match(made.url(), /\/ui\/login/, 'their open session ends within the cache TTL');
    await context.close();
    await clickAndWait(page, `tr[data-user="${MADE}"] button[data-verb=activate]`);
    assert.match(await text(page, '.alert.ok'), /User activated/);
    assert.equal((await signIn(chosen)).status, 303, 'activated again, the password signs in');
  });

  it('datasources: deleting one asks for its name, and then it is gone', async () => {
    await page.goto(`${server.baseUrl}/ui/datasources/extra`);
    await page.type('#delete input[name=confirm]', 'extra');
    await clickAndWait(page, 'button[data-verb=delete]');
    assert.match(confirms.at(-1), /^Delete datasource “extra”\?/);
    assert.equal(new URL(page.url()).pathname, '/ui/datasources');
    assert.match(await text(page, '.alert.ok'), /Deleted/);
    assert.equal(await page.$('[data-health="extra"]'), null, 'no longer listed');
    const { isError, payload } = await mcp('datasources_get', { name: 'extra' });
    assert.equal(isError, true);
    assert.equal(payload.error.code, 'datasource.not_found', JSON.stringify(payload));
  });

  it('signs out; the old session no longer opens a page', async () => {
    await page.goto(`${server.baseUrl}/ui/`);
    await clickAndWait(page, 'button[data-verb=logout]');
    assert.match(page.url(), /\/ui\/login/);
    await page.goto(`${server.baseUrl}/ui/`);
    assert.match(page.url(), /\/ui\/login\?next=/);
  });

  it('ran no alert and violated no Content-Security-Policy on any screen', () => {
    assert.deepEqual(dialogs, []);
    assert.deepEqual(cspViolations, []);
  });
});
