// The environment executions.test.mjs runs in: the demo server (SQLite `demo` datasource) plus
// the test services' PostgreSQL (schema `demo`) and MariaDB (tables `demo_*`) registered over
// REST by the signed-in admin, and small helpers around the SDK client and the test databases.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { BINARY, ADMIN_EMAIL, ADMIN_PASSWORD } from './server.mjs';
import { request, sdkClient, toolPayload, keyHeader } from './http.mjs';

export const PG_URL = process.env.DP_TEST_PG_URL;
export const MYSQL_URL = process.env.DP_TEST_MYSQL_URL;

/** psql against DP_TEST_PG_URL; returns the unaligned, tuples-only output. */
export function psql(sql, url = PG_URL) {
  const res = spawnSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-At', '-F', '|', '-c', sql],
    { encoding: 'utf8', timeout: 60_000 });
  if (res.status !== 0) throw new Error(`psql failed: ${res.stderr}`);
  return res.stdout.trim();
}

/**
 * Loads the deterministic demo dataset into PostgreSQL (schema demo) and MariaDB (prefix
 * demo_) unless this scale is already recorded there (`demo-data` skips then).
 */
export function ensureDemoData() {
  const loads = [
    ['DP_TEST_PG_URL', ['--schema', 'demo']],
    ['DP_TEST_MYSQL_URL', ['--table-prefix', 'demo_']],
  ];
  for (const [env, extra] of loads) {
    const res = spawnSync(BINARY, ['demo-data', '--url-env', env, ...extra, '--json'], {
      env: { ...process.env }, encoding: 'utf8', timeout: 300_000,
    });
    if (res.status !== 0) throw new Error(`demo-data (${env}) failed: ${res.stdout}${res.stderr}`);
  }
}

/** A signed-in browser session of the bootstrap admin: {headers} with cookie and CSRF token. */
export async function adminSession(server) {
  const login = await request(server, {
    method: 'POST', path: '/api/v1/auth/login',
    headers: { 'Content-Type': 'application/json' },
    body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  assert.equal(login.status, 200, login.text);
  const cookies = (login.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
  const csrf = cookies.find((c) => c.startsWith('dp_csrf=')).split('=')[1];
  return { headers: { Cookie: cookies.join('; '), 'DP-CSRF-Token': csrf } };
}

/** JSON REST call; `auth` is a session ({headers}) or an API key string. */
export async function rest(server, method, path, { json, auth, headers = {} } = {}) {
  const authHeaders = typeof auth === 'string' ? keyHeader(auth) : (auth?.headers ?? {});
  return request(server, {
    method, path, body: json,
    headers: { ...(json === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...authHeaders, ...headers },
  });
}

/** Registers a datasource from a postgresql:// or mysql:// URL and grants it to default. */
export async function registerDatasource(server, session, { name, url, dialect, readonly }) {
  const u = new URL(url);
  const scheme = dialect === 'POSTGRES' ? 'postgresql' : 'mariadb';
  const res = await rest(server, 'POST', '/api/v1/datasources', {
    auth: session,
    json: {
      name, display_name: name, description: `e2e ${dialect}`, dialect,
      jdbc_url: `jdbc:${scheme}://${u.hostname}:${u.port}${u.pathname}${u.search}`,
      username: decodeURIComponent(u.username), password: decodeURIComponent(u.password),
      readonly, workspace: 'default',
    },
  });
  assert.equal(res.status, 201, res.text);
  return res.json.data;
}

/** The SDK client with ok / refused / raw helpers bound to it. */
export async function agent(server, key) {
  const { client } = await sdkClient(server, key);
  const raw = async (name, args, options) => {
    const result = await client.callTool({ name, arguments: args }, undefined, options);
    return { result, isError: result.isError === true, payload: toolPayload(result) };
  };
  return {
    client,
    raw,
    async ok(name, args, options) {
      const { isError, payload } = await raw(name, args, options);
      assert.equal(isError, false, `${name}: ${JSON.stringify(payload)}`);
      return payload;
    },
    async refused(name, args, code, options) {
      const { isError, payload } = await raw(name, args, options);
      assert.equal(isError, true, `${name} should fail: ${JSON.stringify(payload)}`);
      assert.equal(payload.error.code, code, JSON.stringify(payload));
      return payload.error;
    },
    close: () => client.close().catch(() => {}),
  };
}

/** Saves SQLITE templates ({id: body}; the first confirms the new root) and renders each once. */
export async function saveSqliteTemplates(client, bodies, description) {
  let first = true;
  for (const [id, body] of Object.entries(bodies)) {
    await client.ok('templates_create', { id, dialect: 'SQLITE', display_name: id.split('/').pop(),
      description, body, ...(first ? { confirm_new_root: true } : {}) });
    first = false;
    await client.ok('templates_render', { id, context: {} });
  }
}

/** Creates a one-node DQL pipeline over version 1 of `template` on the `demo` datasource. */
export function oneNodePipeline(client, name, template, description) {
  return client.ok('pipelines_create', {
    name, display_name: name.split('/').pop(), description,
    nodes: [{ id: 'q', description: 'One query.', type: 'DQL', source: 'demo',
      template: { id: template, version: 1 }, depends_on: [] }],
  });
}

/** RFC 4180 CSV (CRLF rows, "" escapes) → array of string arrays. */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i += 1; } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(field); field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field); rows.push(row); row = []; field = ''; i += 1;
    } else if (c === '\n') {
      row.push(field); rows.push(row); row = []; field = '';
    } else {
      field += c;
    }
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  return rows;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls fn until it returns a truthy value (then returns it) or the deadline passes. */
export async function until(fn, { timeoutMs = 15_000, intervalMs = 100, what = 'condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}
