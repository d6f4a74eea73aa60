// GET /metrics (issue 18): the Prometheus text format over real traffic — HTTP requests by
// route class and status, MCP tool calls by tool and outcome, executions and nodes, pools,
// the result store, build info — with closed-set labels only (no id, no path, no user), and
// the access rule: loopback-only by default, a bearer token when one is configured.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it, before, after } from 'node:test';
import { startDemoServer } from './support/demo_server.mjs';
import { startServer } from './support/server.mjs';
import { request, sdkClient } from './support/http.mjs';

/** {name{labels}: value} of every sample line. */
function samples(text) {
  const out = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    out.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return out;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe('/metrics', () => {
  let demo;
  let server;
  before(async () => {
    demo = await startDemoServer({ trips: 500 });
    server = demo.server;
  });
  after(async () => { if (demo) await demo.cleanup(); });

  it('counts real traffic under closed-set labels', async () => {
    const { client } = await sdkClient(server, server.adminKey);
    try {
      await client.listTools();
      await client.callTool({ name: 'docs_get', arguments: { name: 'skill' } });
      await client.callTool({ name: 'docs_get', arguments: { name: 'no-such-doc' } });
      const tmpl = await client.callTool({ name: 'templates_create', arguments: {
        id: 'metrics/zones', dialect: 'SQLITE', display_name: 'zones', confirm_new_root: true,
        description: 'Every zone.', body: 'SELECT id, name FROM zones ORDER BY id' } });
      assert.notEqual(tmpl.isError, true, JSON.stringify(tmpl));
      await client.callTool({ name: 'templates_render', arguments: { id: 'metrics/zones', context: {} } });
      await client.callTool({ name: 'datasources_get_columns', arguments: { name: 'demo', table: 'zones' } });
      const created = await client.callTool({ name: 'pipelines_create', arguments: {
        name: 'metrics/zones', display_name: 'Zones', description: 'Every zone, staged then read.',
        nodes: [
          { id: 'stage', description: 'Zones into tempdb.', type: 'DQL', source: 'demo',
            template: { id: 'metrics/zones', version: 1 },
            output: { target: 'tempdb', table: 'zones' }, depends_on: [] },
          { id: 'read', description: 'Read them back.', type: 'DQL', source: 'tempdb',
            template: { id: 'metrics/read', version: 1 }, depends_on: ['stage'] },
        ] } });
      // The second template is created after the body names it: the first save is refused,
      // which is itself a counted tool outcome.
      assert.equal(created.isError, true);
      await client.callTool({ name: 'templates_create', arguments: { id: 'metrics/read',
        dialect: 'SQLITE', display_name: 'read', description: 'Staged zones.',
        body: 'SELECT id, name FROM zones' } });
      await client.callTool({ name: 'templates_render', arguments: { id: 'metrics/read', context: {} } });
      const pipeline = JSON.parse((await client.callTool({ name: 'pipelines_create', arguments: {
        name: 'metrics/zones', display_name: 'Zones', description: 'Every zone, staged then read.',
        nodes: [
          { id: 'stage', description: 'Zones into tempdb.', type: 'DQL', source: 'demo',
            template: { id: 'metrics/zones', version: 1 },
            output: { target: 'tempdb', table: 'zones' }, depends_on: [] },
          { id: 'read', description: 'Read them back.', type: 'DQL', source: 'tempdb',
            template: { id: 'metrics/read', version: 1 }, depends_on: ['stage'] },
        ] } })).content[0].text);
      const run = await client.callTool({ name: 'pipelines_execute',
        arguments: { id: pipeline.id, parameters: {} } });
      assert.notEqual(run.isError, true, JSON.stringify(run));
      const zones = JSON.parse(run.content[0].text).rows.length;

      const res = await request(server, { path: '/metrics' });
      assert.equal(res.status, 200);
      assert.match(res.headers['content-type'], /^text\/plain; version=0\.0\.4/);
      const text = res.text;
      const m = samples(text);
      assert.ok(m.get('datapipelines_http_requests_total{route="mcp",method="POST",status="200"}') >= 8,
        text);
      assert.equal(m.get('datapipelines_mcp_tool_calls_total{tool_name="docs_get",status="success"}'), 1);
      assert.equal(m.get('datapipelines_mcp_tool_calls_total{tool_name="docs_get",status="error"}'), 1);
      assert.equal(m.get('datapipelines_mcp_tool_duration_seconds_count{tool_name="docs_get"}'), 2);
      assert.equal(m.get('datapipelines_executions_total{status="SUCCESS"}'), 1);
      assert.equal(m.get('datapipelines_executions_duration_seconds_count'), 1);
      assert.equal(m.get('datapipelines_nodes_total{type="DQL",status="SUCCESS"}'), 2);
      assert.equal(m.get('datapipelines_staging_rows_total'), zones);
      assert.equal(m.get('datapipelines_result_rows_delivered_total'), zones);
      assert.equal(m.get('datapipelines_datasource_pool_max{datasource_name="demo"}') > 0, true);
      assert.ok(m.has('datapipelines_datasource_pool_open{datasource_name="demo"}'));
      assert.equal(m.get('datapipelines_executions_concurrent'), 0);
      assert.ok(m.get('datapipelines_result_store_results{backend="memory"}') >= 1);
      assert.equal(m.get('datapipelines_audit_write_failures_total'), 0);
      assert.ok([...m.keys()].some((k) => k.startsWith('datapipelines_build_info{version="')));
      // Histogram buckets are cumulative and end at +Inf = count.
      const buckets = [...m.entries()].filter(([k]) =>
        k.startsWith('datapipelines_http_request_duration_seconds_bucket{route="mcp"'));
      for (let i = 1; i < buckets.length; ++i) assert.ok(buckets[i][1] >= buckets[i - 1][1]);
      assert.equal(buckets.at(-1)[0].includes('le="+Inf"'), true);
      assert.equal(buckets.at(-1)[1],
        m.get('datapipelines_http_request_duration_seconds_count{route="mcp"}'));
      // Bounded cardinality: no pipeline, execution or user id, no key, no raw path.
      assert.doesNotMatch(text, UUID);
      assert.ok(!text.includes(server.adminKey.slice(0, 16)));
      assert.ok(!text.includes('metrics/zones'));
      // The shipped Grafana dashboard charts only what the server exports (and documents).
      const dashboard = readFileSync(new URL('../../config/grafana-dashboard.json', import.meta.url), 'utf8');
      const operations = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
      const charted = new Set(dashboard.match(/datapipelines_[a-z_]+/g)
        .map((n) => n.replace(/_(bucket|sum|count)$/, '')));
      const lazy = new Set(['datapipelines_rate_limit_refusals_total']); // appears with the first 429
      for (const name of charted) {
        if (!lazy.has(name)) assert.match(text, new RegExp(`# TYPE ${name} `), name);
        const documented = name.replace(/_(open|idle|pending|max)$/, '_open')
          .replace(/_results$/, '_bytes');
        assert.ok(operations.includes(documented), `${name} is documented in docs/operations.md`);
      }
    } finally {
      await client.close();
    }
  });
});

describe('/metrics with a token', () => {
  let server;
  const token = 'metrics-token-e2e-0123456789';
  before(async () => { server = await startServer({ DATAPIPELINES_METRICS_TOKEN: token }); });
  after(async () => { await server.stop('SIGKILL'); server.cleanup(); });

  it('refuses a scrape without the token, or with another one, and serves it with the token',
    async () => {
      const none = await request(server, { path: '/metrics' });
      assert.equal(none.status, 401);
      assert.equal(none.json.error.code, 'auth.metrics_token.invalid');
      assert.match(none.headers['www-authenticate'], /^Bearer/);
      const wrong = await request(server, { path: '/metrics',
        headers: { Authorization: 'Bearer not-the-token' } });
      assert.equal(wrong.status, 401);
      const right = await request(server, { path: '/metrics',
        headers: { Authorization: `Bearer ${token}` } });
      assert.equal(right.status, 200);
      assert.match(right.text, /# TYPE datapipelines_http_requests_total counter/);
      assert.ok(!right.text.includes(token));
      assert.ok(!server.log.includes(token), 'the token is never logged');
    });
});

describe('/metrics disabled', () => {
  let server;
  before(async () => { server = await startServer({ DATAPIPELINES_METRICS_ENABLED: 'false' }); });
  after(async () => { await server.stop('SIGKILL'); server.cleanup(); });

  it('is not served', async () => {
    assert.equal((await request(server, { path: '/metrics' })).status, 404);
  });
});
