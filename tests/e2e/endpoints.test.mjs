// Published endpoints end to end (issue 15, spec §6.2.23–26, REST API §19): a released pipeline
// published with a {variable} path through the MCP SDK client, called with plain fetch through
// an endpoint key (JSON and CSV, ETag / Cache-Control), the overlap refusal, the not-readonly
// refusal for a write-back pipeline, every request defect at once, the 202 on a forced timeout
// and its result read back with the same key, the key-kind confinement, pipeline.in_use on
// delete, and 404 after unpublishing. Runs on the demo SQLite datasource alone.
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDemoServer } from './support/demo_server.mjs';
import { UUID_RE } from './support/http.mjs';
import { adminSession, rest, agent, parseCsv, until } from './support/executions_env.mjs';

const enc = (id) => encodeURIComponent(id);
const T = {
  zones: 'e2e/ep/sql/zones_in_borough.sql',
  count: 'e2e/ep/sql/count_to.sql',
  copy: 'e2e/ep/sql/zone_copy.sql',
};
const BODIES = {
  [T.zones]: 'SELECT id AS zone_id, name AS zone_name FROM zones '
    + 'WHERE borough = :borough AND id >= :min_id ORDER BY id',
  [T.count]: 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < :upto) '
    + 'SELECT COUNT(*) AS n FROM c',
  [T.copy]: 'SELECT id, name FROM zones',
};

let demo;
let server;
let session;
let a; // the admin's author key over MCP
let scratchDir;
const pipelines = {};
let endpointKey; // kind endpoint, bound at /e2e
let otherEndpointKey; // kind endpoint, bound nowhere

async function x(pathAndQuery, key, headers = {}) {
  const res = await fetch(`${server.baseUrl}/api/x${pathAndQuery}`,
    { headers: { ...(key ? { 'DP-API-Key': key } : {}), ...headers } });
  const text = await res.text();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.status, headers: res.headers, text, json };
}

async function createReleased(name, body) {
  const created = await a.ok('pipelines_create', { name, display_name: name.split('/').pop(),
    description: 'e2e published endpoint pipeline', ...body });
  const released = await rest(server, 'POST', `/api/v1/pipelines/${created.id}/release`,
    { auth: server.adminKey, headers: { 'If-Match': `"${created.body_hash}"` } });
  assert.equal(released.status, 200, released.text);
  return released.json.data;
}

describe('published endpoints end to end', () => {
  before(async () => {
    demo = await startDemoServer({ trips: 500 });
    server = demo.server;
    session = await adminSession(server);
    scratchDir = mkdtempSync(path.join(os.tmpdir(), 'dp-e2e-ep-'));
    const ds = await rest(server, 'POST', '/api/v1/datasources', { auth: session, json: {
      name: 'scratch', display_name: 'scratch', description: 'a writable SQLite file',
      dialect: 'SQLITE', jdbc_url: `jdbc:sqlite:${path.join(scratchDir, 'scratch.sqlite')}`,
      readonly: false, workspace: 'default' } });
    assert.equal(ds.status, 201, ds.text);
    a = await agent(server, server.adminKey);
    await a.ok('datasources_get_columns', { name: 'demo', table: 'zones' });
    let first = true;
    for (const [id, body] of Object.entries(BODIES)) {
      await a.ok('templates_create', { id, dialect: 'SQLITE', display_name: id.split('/').pop(),
        description: 'e2e endpoint template', body, ...(first ? { confirm_new_root: true } : {}) });
      first = false;
      const rel = await rest(server, 'POST', `/api/v1/templates/${enc(id)}/release`,
        { auth: server.adminKey });
      assert.equal(rel.status, 200, rel.text);
    }
    pipelines.zones = await createReleased('e2e/ep/zones_in_borough', {
      confirm_new_root: true,
      parameters: {
        borough: { type: 'STRING', required: true, description: 'The borough.' },
        min_id: { type: 'INTEGER', required: false, default: 0, description: 'Lowest zone id.' },
      },
      nodes: [{ id: 'zones', description: 'The zones of one borough.', type: 'DQL',
        source: 'demo', template: { id: T.zones, version: 1 }, depends_on: [] }],
    });
    pipelines.count = await createReleased('e2e/ep/count_to', {
      parameters: { upto: { type: 'INTEGER', required: true, description: 'Count to this.' } },
      nodes: [{ id: 'count', description: 'Counts with a recursive CTE.', type: 'DQL',
        source: 'tempdb', template: { id: T.count, version: 1 }, depends_on: [] }],
    });
    pipelines.copy = await createReleased('e2e/ep/zone_copy', {
      nodes: [{ id: 'copy', description: 'Copies the zones into the scratch file.', type: 'DQL',
        source: 'demo', template: { id: T.copy, version: 1 },
        output: { target: 'datasource', datasource: 'scratch', table: 'zone_copy', mode: 'append' },
        depends_on: [] }],
    });
  });

  after(async () => {
    await a?.close();
    if (demo) await demo.cleanup();
    if (scratchDir) rmSync(scratchDir, { recursive: true, force: true });
  });

  it('lists the four endpoint tools', async () => {
    const { tools } = await a.client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['endpoints_create', 'endpoints_list', 'endpoints_get', 'endpoints_delete']) {
      assert.ok(names.includes(name), name);
    }
  });

  it('publishes a released pipeline under a {variable} path', async () => {
    const created = await a.ok('endpoints_create', { path: '/e2e/zones/{borough}',
      pipeline: 'e2e/ep/zones_in_borough', timeout_seconds: 100000, description: 'Zones by borough' });
    assert.equal(created.path, '/e2e/zones/{borough}');
    assert.equal(created.pipeline, 'e2e/ep/zones_in_borough');
    assert.equal(created.timeout_seconds, 300, 'clamped to timeout-max-seconds');
    assert.equal(created.enabled, true);
    assert.deepEqual(created.path_variables, ['borough']);
    assert.equal(created.url, '/api/x/e2e/zones/{borough}');
    const got = await a.ok('endpoints_get', { path: '/e2e/zones/{borough}' });
    assert.deepEqual(got, created);
    const listed = await a.ok('endpoints_list', {});
    assert.deepEqual(listed.endpoints.map((e) => e.path), ['/e2e/zones/{borough}']);
    const viaRest = await rest(server, 'GET', `/api/v1/endpoints?path=${enc('/e2e/zones/{borough}')}`,
      { auth: server.adminKey });
    assert.equal(viaRest.status, 200, viaRest.text);
    assert.deepEqual(viaRest.json.data, created, 'the REST twin answers the same shape');
    const shown = await a.ok('pipelines_get', { id: pipelines.zones.id });
    assert.deepEqual(shown.endpoints, ['/e2e/zones/{borough}']);
  });

  it('refuses an overlapping pattern, naming the published one', async () => {
    const refused = await a.refused('endpoints_create',
      { path: '/e2e/zones/old-town', pipeline: 'e2e/ep/zones_in_borough' }, 'endpoint.path_conflict');
    assert.equal(refused.details.conflicting_path, '/e2e/zones/{borough}');
    const viaRest = await rest(server, 'POST', '/api/v1/endpoints', { auth: server.adminKey,
      json: { path: '/e2e/zones/{min_id}', pipeline: 'e2e/ep/zones_in_borough' } });
    assert.equal(viaRest.status, 409, viaRest.text);
    assert.equal(viaRest.json.error.code, 'endpoint.path_conflict');
  });

  it('refuses a write-back pipeline, naming the node', async () => {
    const refused = await a.refused('endpoints_create',
      { path: '/e2e/copy', pipeline: 'e2e/ep/zone_copy' }, 'endpoint.pipeline_not_readonly');
    assert.equal(refused.details.node_id, 'copy');
  });

  it('refuses bad paths, unknown variables and unreleased pipelines', async () => {
    await a.refused('endpoints_create', { path: '/E2E/Bad/', pipeline: 'e2e/ep/count_to' },
      'endpoint.path_invalid');
    const unknown = await a.refused('endpoints_create',
      { path: '/e2e/count/{nope}', pipeline: 'e2e/ep/count_to' }, 'endpoint.path_variable_unknown');
    assert.equal(unknown.details.variable, 'nope');
    await a.refused('endpoints_create', { path: '/e2e/none', pipeline: 'e2e/ep/no_such' },
      'pipeline.not_found');
    await a.ok('pipelines_create', { name: 'e2e/ep/draft_only', display_name: 'draft only',
      description: 'never released',
      nodes: [{ id: 'zones', description: 'Zones.', type: 'DQL', source: 'demo',
        template: { id: T.copy, version: 1 }, depends_on: [] }] });
    await a.refused('endpoints_create', { path: '/e2e/draft', pipeline: 'e2e/ep/draft_only' },
      'pipeline.version.not_released');
  });

  it('mints endpoint keys bound over REST, never with scopes, and confines them', async () => {
    const scoped = await rest(server, 'POST', '/api/v1/auth/api-keys', { auth: server.adminKey,
      json: { name: 'ep-scoped', kind: 'endpoint', scope: 'execute', bindings: ['/e2e'] } });
    assert.equal(scoped.status, 403, scoped.text);
    assert.equal(scoped.json.error.code, 'endpoint.key_kind_refused');
    const badNode = await rest(server, 'POST', '/api/v1/auth/api-keys', { auth: server.adminKey,
      json: { name: 'ep-bad', kind: 'endpoint', bindings: ['/E2E/'] } });
    assert.equal(badNode.status, 400, badNode.text);
    assert.equal(badNode.json.error.code, 'endpoint.path_invalid');
    const minted = await rest(server, 'POST', '/api/v1/auth/api-keys', { auth: server.adminKey,
      json: { name: 'ep-dashboard', kind: 'endpoint', bindings: ['/e2e'] } });
    assert.equal(minted.status, 201, minted.text);
    assert.equal(minted.json.data.kind, 'endpoint');
    assert.deepEqual(minted.json.data.bindings, ['/e2e']);
    endpointKey = minted.json.data.api_key;
    const other = await rest(server, 'POST', '/api/v1/auth/api-keys', { auth: server.adminKey,
      json: { name: 'ep-unbound', kind: 'endpoint' } });
    assert.equal(other.status, 201, other.text);
    otherEndpointKey = other.json.data.api_key;
    // Refused on /api/v1 (but its own executions) and on /mcp.
    const onApi = await rest(server, 'GET', '/api/v1/pipelines', { auth: endpointKey });
    assert.equal(onApi.status, 403, onApi.text);
    assert.equal(onApi.json.error.code, 'endpoint.key_kind_refused');
    const onMcp = await fetch(server.mcpUrl, { method: 'POST', headers: {
      'DP-API-Key': endpointKey, 'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    assert.equal(onMcp.status, 403);
    const bindings = await rest(server, 'GET', '/api/v1/endpoints/bindings', { auth: server.adminKey });
    assert.equal(bindings.status, 200, bindings.text);
    assert.ok(bindings.json.data.bindings.some((b) => b.path === '/e2e' && b.key_name === 'ep-dashboard'));
  });

  it('serves JSON through the endpoint key, with ETag and Cache-Control from the result TTL', async () => {
    const expected = await a.ok('sql_probe', { name: 'demo', limit: 500,
      sql: "SELECT id, name FROM zones WHERE borough = 'Old Town' AND id >= 3 ORDER BY id" });
    const res = await x('/e2e/zones/Old%20Town?min_id=3', endpointKey,
      { 'DP-Result-TTL-Seconds': '120' });
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type'), /^application\/json/);
    const data = res.json.data;
    assert.match(data.execution_id, UUID_RE);
    assert.equal(res.headers.get('dp-execution-id'), data.execution_id);
    assert.deepEqual(data.schema.map((c) => c.name), ['zone_id', 'zone_name']);
    assert.deepEqual(data.rows, expected.rows.map((r) => [Number(r.id), r.name]));
    assert.equal(data.total_rows, expected.rows.length);
    assert.equal(data.has_more, false);
    assert.equal(data.ttl_seconds, 120);
    assert.equal(data.result_url, `/api/v1/executions/${data.execution_id}/result`);
    const etag = res.headers.get('etag');
    assert.match(etag, /^"[0-9a-f]{32}"$/);
    const cache = res.headers.get('cache-control');
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(cache)?.[1]);
    assert.ok(maxAge > 100 && maxAge <= 120, cache);
    // The same rows again: the same ETag, and If-None-Match answers 304.
    const again = await x('/e2e/zones/Old%20Town?min_id=3', endpointKey, { 'If-None-Match': etag });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('etag'), etag);
    // The execution is recorded as an endpoint run, and the key reads its own result.
    const cursor = await rest(server, 'GET', data.result_url, { auth: endpointKey });
    assert.equal(cursor.status, 200, cursor.text);
    assert.deepEqual(cursor.json.data.rows, data.rows);
    const record = await rest(server, 'GET', `/api/v1/executions/${data.execution_id}`,
      { auth: server.adminKey });
    assert.equal(record.json.data.via, 'endpoint');
    // Another endpoint key may not read it.
    const foreign = await rest(server, 'GET', data.result_url, { auth: otherEndpointKey });
    assert.equal(foreign.status, 404, foreign.text);
  });

  it('serves CSV by Accept and by ?format=csv', async () => {
    const byAccept = await x('/e2e/zones/Old%20Town', endpointKey, { Accept: 'text/csv' });
    assert.equal(byAccept.status, 200, byAccept.text);
    assert.match(byAccept.headers.get('content-type'), /^text\/csv/);
    const [header, ...lines] = parseCsv(byAccept.text);
    assert.deepEqual(header, ['zone_id', 'zone_name']);
    assert.ok(lines.length > 0);
    const json = await x('/e2e/zones/Old%20Town', endpointKey);
    assert.deepEqual(lines, json.json.data.rows.map((r) => r.map(String)));
    const byQuery = await x('/e2e/zones/Old%20Town?format=csv', endpointKey);
    assert.equal(byQuery.status, 200);
    assert.equal(byQuery.text, byAccept.text);
    const refused = await x('/e2e/zones/Old%20Town', endpointKey, { Accept: 'application/xml' });
    assert.equal(refused.status, 406, refused.text);
    assert.equal(refused.json.error.code, 'endpoint.not_acceptable');
  });

  it('names every request defect at once', async () => {
    const res = await x('/e2e/zones/Old%20Town?min_id=three&mni_id=1&format=xml', endpointKey);
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json.error.code, 'endpoint.request.invalid');
    assert.deepEqual(res.json.error.details.errors.map((e) => [e.parameter, e.code]).sort(), [
      ['format', 'result.format_unsupported'],
      ['min_id', 'pipeline.execution.invalid_parameter_type'],
      ['mni_id', 'endpoint.request.parameter_unknown'],
    ]);
    const repeated = await x('/e2e/zones/Old%20Town?borough=Harbour', endpointKey);
    assert.equal(repeated.json.error.details.errors[0].code, 'endpoint.request.parameter_repeated');
  });

  it('refuses unbound endpoint keys, sessions, missing keys and other methods', async () => {
    const unbound = await x('/e2e/zones/Old%20Town', otherEndpointKey);
    assert.equal(unbound.status, 403, unbound.text);
    assert.equal(unbound.json.error.code, 'endpoint.key_not_bound');
    // A user key is refused below a bound node too: the bound node decides for every key.
    const userKey = await x('/e2e/zones/Old%20Town', server.adminKey);
    assert.equal(userKey.status, 403, userKey.text);
    assert.equal(userKey.json.error.code, 'endpoint.key_not_bound');
    const none = await x('/e2e/zones/Old%20Town');
    assert.equal(none.status, 401);
    const cookie = await fetch(`${server.baseUrl}/api/x/e2e/zones/Old%20Town`,
      { headers: session.headers });
    assert.equal(cookie.status, 401);
    const post = await fetch(`${server.baseUrl}/api/x/e2e/zones/Old%20Town`,
      { method: 'POST', headers: { 'DP-API-Key': endpointKey } });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET');
  });

  it('answers 202 on a forced timeout while the execution keeps running', async () => {
    // Outside every bound node: the unbound rule takes user keys holding execute.
    await a.ok('endpoints_create', { path: '/slow/count', pipeline: 'e2e/ep/count_to',
      timeout_seconds: 1 });
    const refused = await x('/slow/count?upto=3', endpointKey);
    assert.equal(refused.status, 403);
    assert.equal(refused.json.error.code, 'endpoint.key_kind_refused');
    const quick = await x('/slow/count?upto=3', server.adminKey);
    assert.equal(quick.status, 200, quick.text);
    assert.deepEqual(quick.json.data.rows, [[3]]);
    const started = Date.now();
    const slow = await x('/slow/count?upto=30000000', server.adminKey);
    assert.equal(slow.status, 202, slow.text);
    assert.ok(Date.now() - started < 5000, 'answered at the timeout, not at the end');
    const { execution_id: id, result_url: resultUrl, status_url: statusUrl } = slow.json.data;
    assert.match(id, UUID_RE);
    assert.equal(slow.headers.get('location'), statusUrl);
    const early = await rest(server, 'GET', statusUrl, { auth: server.adminKey });
    assert.equal(early.json.data.status, 'RUNNING');
    const done = await until(async () => {
      const r = await rest(server, 'GET', statusUrl, { auth: server.adminKey });
      return r.json.data.status !== 'RUNNING' && r.json.data;
    }, { timeoutMs: 120_000, intervalMs: 250, what: 'the endpoint execution' });
    assert.equal(done.status, 'SUCCESS');
    const result = await rest(server, 'GET', resultUrl, { auth: server.adminKey });
    assert.deepEqual(result.json.data.rows, [[30000000]]);
  });

  it('refuses to delete a published pipeline, and answers 404 after unpublishing', async () => {
    const purge = await rest(server, 'DELETE', `/api/v1/pipelines/${pipelines.zones.id}`,
      { auth: session });
    assert.equal(purge.status, 409, purge.text);
    assert.equal(purge.json.error.code, 'pipeline.in_use');
    assert.deepEqual(purge.json.error.details.endpoints, ['/e2e/zones/{borough}']);
    const deleted = await a.ok('endpoints_delete', { path: '/e2e/zones/{borough}' });
    assert.deepEqual(deleted, { path: '/e2e/zones/{borough}', deleted: true });
    const gone = await x('/e2e/zones/Old%20Town', endpointKey);
    const never = await x('/e2e/never/published', endpointKey);
    assert.equal(gone.status, 404);
    assert.equal(never.status, 404);
    assert.equal(gone.json.error.code, 'endpoint.not_found');
    assert.equal(never.json.error.code, gone.json.error.code);
    await a.refused('endpoints_get', { path: '/e2e/zones/{borough}' }, 'endpoint.not_found');
    const shown = await a.ok('pipelines_get', { id: pipelines.zones.id });
    assert.deepEqual(shown.endpoints, []);
    // Now the other pattern publishes: nothing overlaps any more.
    await a.ok('endpoints_create', { path: '/e2e/zones/old-town', pipeline: 'e2e/ep/zones_in_borough' });
  });
});
