// HTTP helpers of the fault suite: plain node:http and node:net, no npm module, so the suite
// runs whatever state tests/e2e/node_modules is in (the e2e stage may be running `npm ci`
// beside it). Server spawning and secret recording are tests/e2e/support's own.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../../e2e/support/server.mjs';
import { recordResponseSecrets } from '../../e2e/support/secrets.mjs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const keyHeader = (key) => ({ 'DP-API-Key': key });

/**
 * One HTTP request on a connection of its own. Resolves {status, headers, text, json, ms};
 * rejects after timeoutMs (default 30 s) so a wedged server fails the test instead of the
 * whole suite. `localAddress` picks the loopback source address.
 */
export function request(server, {
  method = 'GET', path = '/', headers = {}, body, localAddress, timeoutMs = 30_000,
} = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined
      : Buffer.isBuffer(body) ? body
        : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const allHeaders = { ...headers };
    if (payload !== undefined) allHeaders['Content-Length'] = String(payload.length);
    const started = performance.now();
    const req = http.request({
      host: '127.0.0.1', port: server.port, method, path, headers: allHeaders, agent: false,
      ...(localAddress ? { localAddress } : {}),
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
        recordResponseSecrets(res.headers, json);
        resolve({ status: res.statusCode, headers: res.headers, text, json,
          ms: performance.now() - started });
      });
      res.on('error', reject);
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (err) => { clearTimeout(timer); reject(err); });
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** JSON REST call; `auth` is an API key string or a session ({headers}). */
export function rest(server, method, path, { auth, json, headers = {}, timeoutMs } = {}) {
  const authHeaders = typeof auth === 'string' ? keyHeader(auth) : (auth?.headers ?? {});
  return request(server, {
    method, path, body: json, timeoutMs,
    headers: { ...(json === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...authHeaders, ...headers },
  });
}

let nextId = 1;

/**
 * tools/call over POST /mcp. A long call (pipelines_execute past ~200 ms) answers as an SSE
 * stream whose last `data:` line is the JSON-RPC response; both shapes are read. Resolves
 * {status, headers, text, message, result, isError, payload, ms} — payload is the tool's JSON
 * (structuredContent, else the first text block parsed).
 */
export async function mcpCall(server, key, name, args = {}, { headers = {}, timeoutMs } = {}) {
  const res = await request(server, {
    method: 'POST', path: '/mcp', timeoutMs,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
      ...(key ? keyHeader(key) : {}), ...headers },
    body: { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } },
  });
  let message = res.json;
  if (/^text\/event-stream/.test(res.headers['content-type'] ?? '')) {
    const data = res.text.split(/\r?\n/).filter((l) => l.startsWith('data:')).pop();
    try { message = data ? JSON.parse(data.slice(5)) : undefined; } catch { message = undefined; }
  }
  const result = message?.result;
  let payload = result?.structuredContent;
  if (payload === undefined && typeof result?.content?.[0]?.text === 'string') {
    try { payload = JSON.parse(result.content[0].text); } catch { payload = undefined; }
  }
  return { ...res, message, result, isError: result?.isError === true, payload };
}

/** A tool call that must succeed; returns its payload. */
export async function mcpOk(server, key, name, args, opts) {
  const res = await mcpCall(server, key, name, args, opts);
  assert.equal(res.status, 200, `${name}: HTTP ${res.status} ${res.text.slice(0, 500)}`);
  assert.equal(res.isError, false, `${name}: ${res.text.slice(0, 800)}`);
  return res.payload;
}

/** The bootstrap admin signed in: {headers} with the session cookie and the CSRF token. */
export async function adminSession(server) {
  const login = await request(server, {
    method: 'POST', path: '/api/v1/auth/login',
    headers: { 'Content-Type': 'application/json' },
    body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  assert.equal(login.status, 200, login.text);
  const cookies = (login.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
  const csrf = cookies.find((c) => c.startsWith('dp_csrf=')).split('=')[1];
  return { cookie: cookies.join('; '), headers: { Cookie: cookies.join('; '), 'DP-CSRF-Token': csrf } };
}

/** Registers a postgresql:// or mysql:// URL as a datasource granted to `default`. */
export async function registerDatasource(server, session, { name, url, dialect, readonly = true }) {
  const u = new URL(url);
  const scheme = dialect === 'POSTGRES' ? 'postgresql' : 'mariadb';
  const res = await rest(server, 'POST', '/api/v1/datasources', {
    auth: session,
    json: {
      name, display_name: name, description: `faults ${dialect}`, dialect,
      jdbc_url: `jdbc:${scheme}://${u.hostname}:${u.port}${u.pathname}`,
      username: decodeURIComponent(u.username), password: decodeURIComponent(u.password),
      readonly, workspace: 'default',
    },
  });
  assert.equal(res.status, 201, res.text);
  return res.json.data;
}

/** POST /api/v1/templates; returns the response (201 expected by the caller). */
export function createTemplate(server, key, { id, dialect, body, description = 'faults template' }) {
  return rest(server, 'POST', '/api/v1/templates', {
    auth: key, json: { id, dialect, display_name: id.split('/').pop(), description, body },
  });
}

/** A template and a one-node DQL pipeline over it on `source`, both over REST; the pipeline. */
export async function oneNodePipeline(server, key, { name, source, dialect, sql }) {
  const templateId = `${name}/q.sql`;
  const t = await createTemplate(server, key, { id: templateId, dialect, body: sql });
  assert.equal(t.status, 201, t.text);
  const p = await rest(server, 'POST', '/api/v1/pipelines', {
    auth: key,
    json: {
      name, display_name: name.split('/').pop(), description: `faults: ${sql.slice(0, 60)}`,
      nodes: [{ id: 'q', description: 'One query.', type: 'DQL', source,
        template: { id: templateId, version: 1 }, depends_on: [] }],
    },
  });
  assert.equal(p.status, 201, p.text);
  return p.json.data;
}

/** POST /api/v1/pipelines/{id}/execute (blocking). */
export function execute(server, key, pipelineId, { ttlSeconds, timeoutMs = 60_000, parameters } = {}) {
  return rest(server, 'POST', `/api/v1/pipelines/${pipelineId}/execute`, {
    auth: key, json: parameters ? { parameters } : {}, timeoutMs,
    headers: ttlSeconds ? { 'DP-Result-TTL-Seconds': String(ttlSeconds) } : {},
  });
}

/** Polls fn until it returns a truthy value (returned) or timeoutMs passes (throws). */
export async function until(fn, { timeoutMs = 15_000, intervalMs = 100, what = 'condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`
        + `${last instanceof Error ? ` (last error: ${last.message})` : ''}`);
    }
    await sleep(intervalMs);
  }
}

/** A short description of a response for assertion messages. */
export const show = (res) => `HTTP ${res.status} `
  + `retry-after=${res.headers?.['retry-after'] ?? '-'} ${(res.text ?? '').slice(0, 600)}`;

/** Asserts `res` is the REST error envelope with `status` and `code`. */
export function assertEnvelope(res, status, code) {
  assert.equal(res.status, status, show(res));
  assert.equal(res.json?.schema_version, 1, show(res));
  assert.equal(typeof res.json?.correlation_id, 'string', show(res));
  assert.equal(res.json?.error?.code, code, show(res));
  assert.equal(typeof res.json?.error?.message, 'string', show(res));
}

/** Asserts a positive integer Retry-After header. */
export function assertRetryAfter(res) {
  const value = res.headers?.['retry-after'];
  assert.match(String(value ?? ''), /^[1-9][0-9]*$/, `Retry-After must be a positive integer: ${show(res)}`);
}

/**
 * A raw HTTP/1.1 request written byte for byte over node:net (fetch and node:http refuse
 * header bytes outside Latin-1). Resolves {status, headers, text} of the first response.
 */
export function rawRequest(server, head, { body = Buffer.alloc(0), timeoutMs = 10_000 } = {}) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: server.port });
    const chunks = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`raw request: no complete answer within ${timeoutMs} ms: `
        + Buffer.concat(chunks).toString('latin1').slice(0, 300)));
    }, timeoutMs);
    const finish = () => {
      const data = Buffer.concat(chunks);
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return false;
      const lines = data.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0])?.[1]);
      const headers = {};
      for (const line of lines.slice(1)) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const length = Number(headers['content-length'] ?? NaN);
      const bodyBytes = data.subarray(end + 4);
      if (Number.isFinite(length) && bodyBytes.length < length) return false;
      const text = bodyBytes.subarray(0, Number.isFinite(length) ? length : undefined).toString('utf8');
      let json;
      try { json = JSON.parse(text); } catch { json = undefined; }
      clearTimeout(timer);
      socket.destroy();
      resolve({ status, headers, text, json });
      return true;
    };
    socket.on('data', (c) => { chunks.push(c); finish(); });
    socket.on('end', () => { if (!finish()) { clearTimeout(timer); reject(new Error(`raw request: closed early: ${Buffer.concat(chunks).toString('latin1').slice(0, 300)}`)); } });
    socket.on('error', (err) => { clearTimeout(timer); reject(err); });
    socket.write(Buffer.concat([Buffer.isBuffer(head) ? head : Buffer.from(head, 'latin1'), body]));
  });
}

/** The value of one sample of a Prometheus text exposition (first match), or undefined. */
export function metricValue(text, name, labels = {}) {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})?\s+(\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[4]);
  }
  return undefined;
}

/**
 * Replaces the global fetch (which tests/e2e/support/server.mjs polls /healthz with) by one
 * that closes its connection after each answer: fetch's keep-alive pool would otherwise hold
 * a connection of 127.0.0.1 open for seconds, one slot of a deliberately tiny connection cap.
 * Enough for `waitHealthy`: status only.
 */
export function installClosingFetch() {
  globalThis.fetch = (url) => new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: { Connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ok: res.statusCode < 300 }));
    });
    req.on('error', reject);
  });
}

/**
 * Runs every check of `cases` ([label, async fn]) and fails once, listing each that failed,
 * so one run reports every surface that misbehaves, not just the first.
 */
export async function checkAll(cases) {
  const failures = [];
  for (const [label, fn] of cases) {
    try {
      await fn();
    } catch (err) {
      failures.push(`- ${label}: ${err.message.split('\n')[0]}`);
    }
  }
  if (failures.length) {
    assert.fail(`${failures.length} of ${cases.length} failed:\n${failures.join('\n')}`);
  }
}

/** Fails with the exit status and the log's tail when the server process has died. */
export function assertAlive(server) {
  const { exitCode, signalCode } = server.proc;
  if (exitCode === null && signalCode === null) return;
  assert.fail(`the server died (exit ${exitCode}, signal ${signalCode}); its log ends:\n`
    + server.log.split('\n').slice(-8).join('\n'));
}
