// Pipelines as versioned entities, end to end on the demo datasource: the official SDK client
// walks the authoring loop (introspect → template → render → create a DRAFT → read back →
// update with expected_hash → browse), every save-time refusal comes back as an isError result
// with its catalogued code, and a person releases over REST once the pinned templates are
// released. Executing a pipeline is not part of this build and is not exercised here.
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ADMIN_EMAIL } from './support/server.mjs';
import { startDemoServer } from './support/demo_server.mjs';
import { request, sdkClient, toolPayload, keyHeader, UUID_RE } from './support/http.mjs';

const SRC = 'city/mobility/sql/trips_by_borough.sql';
const TOP = 'city/mobility/sql/top_boroughs.sql';
const BETWEEN = 'city/mobility/sql/trips_between.sql';
const PG = 'city/mobility/sql/postgres_only.sql';
const NAME = 'city/mobility/busiest_boroughs';
const SRC_BODY = 'SELECT z.borough AS borough, COUNT(*) AS trips FROM trips t '
  + 'JOIN zones z ON z.id = t.pickup_zone_id '
  + 'WHERE date(t.pickup_at) BETWEEN :window_start AND :window_end'
  + '<#if min_passengers??> AND t.passenger_count >= :min_passengers</#if> GROUP BY z.borough';
const TOP_BODY = 'SELECT borough, trips FROM stg_trips ORDER BY trips DESC LIMIT :top_n';
const enc = (id) => encodeURIComponent(id);

let demo;
let server;
let client; // the admin's author key
let readClient; // a read-scope key of the same person

async function call(name, args, c = client) {
  const result = await c.callTool({ name, arguments: args });
  assert.match(result._meta?.correlation_id ?? '', UUID_RE);
  const payload = toolPayload(result);
  if (result.isError === true && result.structuredContent !== undefined) {
    assert.deepEqual(result.structuredContent, payload, 'structuredContent mirrors the text');
  }
  return { isError: result.isError === true, payload };
}

async function ok(name, args, c = client) {
  const { isError, payload } = await call(name, args, c);
  assert.equal(isError, false, `${name}: ${JSON.stringify(payload)}`);
  return payload;
}

async function refused(name, args, code, c = client) {
  const { isError, payload } = await call(name, args, c);
  assert.equal(isError, true, `${name} should be refused: ${JSON.stringify(payload)}`);
  assert.equal(payload.error.code, code, JSON.stringify(payload));
  assert.ok(payload.error.message.length > 0);
  return payload.error;
}

// The two-node pipeline plus its calculator; `over` replaces top-level fields.
function body(over = {}) {
  return {
    name: NAME,
    display_name: 'Busiest boroughs this quarter',
    description: 'Question: which pickup boroughs had the most trips this quarter? '
      + 'Grain: one row per borough. Parameters: top_n, min_passengers.',
    parameters: {
      top_n: { type: 'INTEGER', required: false, default: 5, description: 'Rows to return.' },
      min_passengers: { type: 'INTEGER', required: false, default: 1,
        description: 'Only trips with at least this many passengers.' },
    },
    nodes: [
      { id: 'window', description: 'This calendar quarter, first and last day.',
        type: 'CALCULATOR', kind: 'period_bounds',
        inputs: { date: '$current_date', unit: 'quarter' },
        context_keys: { start: 'window_start', end: 'window_end' }, depends_on: [] },
      { id: 'stg_trips', description: 'Trips per pickup borough in the window, at the source.',
        type: 'DQL', source: 'demo', template: { id: SRC, version: 1 },
        output: { target: 'tempdb', table: 'stg_trips' }, depends_on: ['window'] },
      { id: 'top', description: 'The top_n boroughs by trips.', type: 'DQL', source: 'tempdb',
        template: { id: TOP, version: 1 }, depends_on: ['stg_trips'] },
    ],
    ...over,
  };
}

const withNodes = (nodes, over = {}) => body({ nodes, ...over });
const node = (id) => body().nodes.find((n) => n.id === id);

async function rest(method, path, { json, headers = {}, key = server.adminKey } = {}) {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { ...keyHeader(key), ...(json === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  let parsed;
  try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
  return { status: res.status, headers: res.headers, text, json: parsed };
}

before(async () => {
  demo = await startDemoServer({ trips: 2000 });
  server = demo.server;
  ({ client } = await sdkClient(server, server.adminKey));
  const read = server.createKey(ADMIN_EMAIL, { scope: 'read' });
  ({ client: readClient } = await sdkClient(server, read.api_key));
});

after(async () => {
  await client?.close().catch(() => {});
  await readClient?.close().catch(() => {});
  if (demo) await demo.cleanup();
});

describe('calculators over MCP', () => {
  it('calculators_list serves the 25 kinds and the org/platform Context keys', async () => {
    const list = await ok('calculators_list', {});
    assert.equal(list.count, 25);
    assert.equal(list.kinds.length, 25);
    assert.deepEqual(list.context_keys.platform.map((k) => `${k.name}:${k.type}`),
      ['current_date:DATE', 'current_timestamp:TIMESTAMP', 'execution_id:STRING']);
    assert.ok(list.context_keys.org.some((k) => k.name === 'org_fiscal_start_date'));
    const bounds = list.kinds.find((k) => k.kind === 'period_bounds');
    assert.ok(bounds, JSON.stringify(list.kinds.map((k) => k.kind)));
    const inputs = bounds.inputs.map((i) => i.name);
    assert.ok(inputs.includes('date') && inputs.includes('unit'), JSON.stringify(bounds.inputs));
    assert.equal(bounds.output, null, 'a multi-output kind has no single output type');
    assert.deepEqual(bounds.outputs.map((o) => `${o.name}:${o.type}`), ['start:DATE', 'end:DATE']);
    const quarter = list.kinds.find((k) => k.kind === 'quarter_of_year');
    assert.equal(quarter.output, 'INTEGER');
  });

  it('calculators_get returns one kind, and an unknown kind is calculator_unknown', async () => {
    const got = await ok('calculators_get', { kind: 'period_bounds' });
    assert.equal(got.kind, 'period_bounds');
    assert.equal(got.docs, 'datapipelines://docs/skill/calculators');
    const unknown = await refused('calculators_get', { kind: 'fiscal_week' },
      'pipeline.validation.calculator_unknown');
    assert.equal(unknown.details.kind, 'fiscal_week');
    assert.equal(unknown.details.known_kinds.length, 25);
    assert.ok(unknown.details.known_kinds.includes('period_bounds'));
  });
});

describe('the pipeline authoring loop over MCP', () => {
  let created;

  it('introspects the demo tables and reads the columns the templates will name', async () => {
    const tables = await ok('datasources_get_tables', { name: 'demo' });
    const names = tables.tables.map((t) => t.name);
    for (const t of ['calendar', 'trips', 'weather', 'zones']) assert.ok(names.includes(t), t);
    const trips = await ok('datasources_get_columns', { name: 'demo', table: 'trips' });
    for (const c of ['pickup_zone_id', 'pickup_at', 'passenger_count']) {
      assert.ok(trips.some((col) => col.name === c), c);
    }
    const zones = await ok('datasources_get_columns', { name: 'demo', table: 'zones' });
    assert.deepEqual(zones.filter((c) => ['id', 'borough'].includes(c.name)).map((c) => c.type),
      ['INTEGER', 'STRING']);
  });

  it('authors SQLITE templates under a confirmed root and renders them', async () => {
    const root = await refused('templates_create', {
      id: SRC, dialect: 'SQLITE', display_name: 'Trips by borough',
      description: 'Binds window_start, window_end (DATE); min_passengers (INTEGER, optional).',
      body: SRC_BODY,
    }, 'template.validation.new_root_requires_confirmation');
    assert.equal(root.details.root, 'city');

    const src = await ok('templates_create', {
      id: SRC, dialect: 'SQLITE', display_name: 'Trips by borough', confirm_new_root: true,
      description: 'Binds window_start, window_end (DATE); min_passengers (INTEGER, optional).',
      body: SRC_BODY,
    });
    assert.equal(src.status, 'DRAFT');
    assert.equal(src.dialect, 'SQLITE');
    // tempdb is an in-memory SQLite database: its templates are written in SQLITE.
    const top = await ok('templates_create', {
      id: TOP, dialect: 'SQLITE', display_name: 'Top boroughs',
      description: 'Reads tempdb table stg_trips; binds top_n (INTEGER).', body: TOP_BODY,
    });
    assert.equal(top.draft.version, 1);

    const rendered = await ok('templates_render', { id: SRC, context: { min_passengers: 2 } });
    assert.equal(rendered.rendered, 'SELECT z.borough AS borough, COUNT(*) AS trips FROM trips t '
      + 'JOIN zones z ON z.id = t.pickup_zone_id WHERE date(t.pickup_at) BETWEEN :window_start '
      + 'AND :window_end AND t.passenger_count >= :min_passengers GROUP BY z.borough');
    const bare = await ok('templates_render', { id: SRC, context: {} });
    assert.doesNotMatch(bare.rendered, /passenger_count/);
    assert.equal((await ok('templates_render', { id: TOP, context: {} })).rendered, TOP_BODY);
  });

  it('creates the two-node pipeline with a calculator as a version-1 DRAFT', async () => {
    created = await ok('pipelines_create', body());
    assert.match(created.id, UUID_RE);
    assert.equal(created.name, NAME);
    assert.equal(created.version, 1);
    assert.equal(created.status, 'DRAFT');
    assert.equal(created.current_version, null);
    assert.equal(created.draft.version, 1);
    assert.equal(created.draft.body_hash, created.body_hash);
    assert.match(created.body_hash, /^[0-9a-f]{64}$/);
    assert.deepEqual(created.nodes.map((n) => `${n.id}:${n.type}`),
      ['window:CALCULATOR', 'stg_trips:DQL', 'top:DQL']);
  });

  it('reads it back with derived calculator parameters, as a tool and as resources', async () => {
    const got = await ok('pipelines_get', { id: created.id });
    assert.equal(got.version, 1);
    assert.equal(got.status, 'DRAFT');
    assert.equal(got.body_hash, created.body_hash);
    assert.deepEqual(got.parameters.window_start, { type: 'DATE', required: false, derived: true });
    assert.deepEqual(got.parameters.window_end, { type: 'DATE', required: false, derived: true });
    assert.deepEqual(got.parameters.top_n,
      { type: 'INTEGER', required: false, default: 5, description: 'Rows to return.' });
    assert.deepEqual(got.nodes.find((n) => n.id === 'stg_trips').output,
      { target: 'tempdb', table: 'stg_trips' });

    const resource = await client.readResource({ uri: `datapipelines://pipelines/${created.id}` });
    assert.equal(resource.contents[0].mimeType, 'application/json');
    const viaResource = JSON.parse(resource.contents[0].text);
    assert.equal(viaResource.body_hash, created.body_hash);
    assert.equal(viaResource.name, NAME);
    const v1 = JSON.parse((await client.readResource(
      { uri: `datapipelines://pipelines/${created.id}/versions/1` })).contents[0].text);
    assert.equal(v1.version, 1);
    const params = JSON.parse((await client.readResource(
      { uri: `datapipelines://pipelines/${created.id}/parameters` })).contents[0].text);
    assert.equal(params.id, created.id);
    assert.equal(params.status, 'DRAFT');
    assert.deepEqual(Object.keys(params.parameters).sort(),
      ['min_passengers', 'top_n', 'window_end', 'window_start']);
    assert.equal(params.parameters.window_start.derived, true);
  });

  it('updates with the current hash in place, and refuses a stale hash', async () => {
    const updated = await ok('pipelines_update', {
      id: created.id, expected_hash: created.body_hash,
      ...body({ display_name: 'Busiest pickup boroughs this quarter' }),
    });
    assert.equal(updated.version, 1, 'a draft is overwritten in place');
    assert.equal(updated.status, 'DRAFT');
    assert.equal(updated.display_name, 'Busiest pickup boroughs this quarter');
    assert.notEqual(updated.body_hash, created.body_hash);

    const conflict = await refused('pipelines_update', {
      id: created.id, expected_hash: created.body_hash, ...body({ display_name: 'Stale' }),
    }, 'pipeline.version.conflict');
    assert.equal(conflict.details.current_body_hash, updated.body_hash);
    assert.equal(conflict.details.current_version, 1);
    assert.equal(conflict.details.expected_hash, created.body_hash);
    const still = await ok('pipelines_get', { id: created.id });
    assert.equal(still.display_name, 'Busiest pickup boroughs this quarter');
    created = still;
  });

  it('refuses a derived parameter echoed back from a read', async () => {
    const got = await ok('pipelines_get', { id: created.id });
    const echoed = await refused('pipelines_update', {
      id: created.id, expected_hash: got.body_hash, name: got.name,
      display_name: got.display_name, description: got.description,
      parameters: got.parameters, nodes: got.nodes,
    }, 'pipeline.validation.derived_parameter_echoed');
    assert.match(echoed.details.parameter, /^window_(start|end)$/);
    assert.equal((await ok('pipelines_get', { id: created.id })).body_hash, got.body_hash);
  });

  it('browses by folder prefix and searches flat with q', async () => {
    await ok('pipelines_create', body({ name: 'test/scratch/busiest', display_name: 'Scratch',
      description: 'An experiment under the scratch root.' }));
    const top = await ok('pipelines_list', { prefix: '' });
    assert.equal(top.prefix, '');
    assert.deepEqual(top.folders, [
      { path: 'city', segment: 'city', pipeline_count: 1 },
      { path: 'test', segment: 'test', pipeline_count: 1 },
    ]);
    assert.deepEqual(top.pipelines, []);
    const city = await ok('pipelines_list', { prefix: 'city' });
    assert.deepEqual(city.folders, [{ path: 'city/mobility', segment: 'mobility', pipeline_count: 1 }]);
    assert.deepEqual(city.pipelines, []);
    const mobility = await ok('pipelines_list', { prefix: 'city/mobility' });
    assert.deepEqual(mobility.folders, []);
    assert.deepEqual(mobility.pipelines.map((p) => [p.name, p.version, p.status]),
      [[NAME, 1, 'DRAFT']]);
    assert.equal(mobility.total, 1);

    const flat = await ok('pipelines_list', { q: 'pickup boroughs' });
    assert.deepEqual(flat.map((p) => p.name), [NAME]);
    assert.equal(flat[0].id, created.id);
    const all = await ok('pipelines_list', {});
    assert.deepEqual(all.map((p) => p.name).sort(), [NAME, 'test/scratch/busiest']);
    assert.deepEqual(await ok('pipelines_list', { q: 'no such words' }), []);
  });
});

describe('save-time refusals over MCP', () => {
  before(async () => {
    // Pinned by the refusals below: a tempdb-shaped template in the wrong dialect, and one
    // that binds two raw dates.
    await ok('templates_create', {
      id: PG, dialect: 'POSTGRES', display_name: 'Postgres only', description: 'none',
      body: 'SELECT borough FROM stg_trips',
    });
    await ok('templates_create', {
      id: BETWEEN, dialect: 'SQLITE', display_name: 'Trips between two dates',
      description: 'Binds start_date, end_date (DATE).',
      body: 'SELECT COUNT(*) AS trips FROM trips WHERE date(pickup_at) BETWEEN :start_date AND :end_date',
    });
  });

  it('name_invalid: a bare name is folder_required (MCP and REST) and an over-long path is refused', async () => {
    // The spec names a domain code for the bare name: an isError result, not the schema's -32602.
    const mcp = await refused('pipelines_create', body({ name: 'busiest' }),
      'pipeline.validation.name_invalid');
    assert.equal(mcp.details.reason, 'folder_required');
    const res = await rest('POST', '/api/v1/pipelines', { json: body({ name: 'busiest' }) });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json.error.code, 'pipeline.validation.name_invalid');
    assert.equal(res.json.error.details.reason, 'folder_required');
    // Passes the schema's segment pattern but breaks the 200-character bound (208 here).
    const long = ['test', ...['a', 'b', 'c', 'd'].map((c) => c.repeat(50))].join('/');
    assert.equal(long.length, 208);
    const grammar = await refused('pipelines_create', body({ name: long }),
      'pipeline.validation.name_invalid');
    assert.equal(grammar.details.reason, 'grammar');
    // The name is the identity: an update may not change it.
    const current = (await ok('pipelines_list', { prefix: 'city/mobility' })).pipelines[0];
    const got = await ok('pipelines_get', { id: current.id });
    const renamed = await refused('pipelines_update', { id: got.id, expected_hash: got.body_hash,
      ...body({ name: 'city/mobility/renamed' }) }, 'pipeline.validation.name_invalid');
    assert.equal(renamed.details.reason, 'immutable');
    assert.equal(renamed.details.established, NAME);
  });

  it('new_root_requires_confirmation names the existing roots', async () => {
    const err = await refused('pipelines_create', body({ name: 'acme/mobility/busiest' }),
      'pipeline.validation.new_root_requires_confirmation');
    assert.equal(err.details.root, 'acme');
    assert.deepEqual(err.details.existing_roots, ['city', 'test']);
    const res = await ok('pipelines_list', { prefix: 'acme' });
    assert.deepEqual(res.pipelines, []);
  });

  it('duplicate_name', async () => {
    const err = await refused('pipelines_create', body(), 'pipeline.validation.duplicate_name');
    assert.equal(err.details.name, NAME);
  });

  it('cycle_detected, dangling_dependency and multiple_caller_nodes', async () => {
    const cyc = await refused('pipelines_create', withNodes([
      node('window'),
      { ...node('stg_trips'), depends_on: ['window', 'top'] },
      node('top'),
    ], { name: 'test/refusals/cycle' }), 'pipeline.validation.cycle_detected');
    assert.equal(cyc.details.cycle.at(0), cyc.details.cycle.at(-1), 'a cycle closes on itself');
    assert.ok(cyc.details.cycle.includes('stg_trips') && cyc.details.cycle.includes('top'),
      JSON.stringify(cyc.details));

    const dangling = await refused('pipelines_create', withNodes([
      node('window'), node('stg_trips'), { ...node('top'), depends_on: ['stg_trips', 'ghost'] },
    ], { name: 'test/refusals/dangling' }), 'pipeline.validation.dangling_dependency');
    assert.equal(dangling.details.node, 'top');
    assert.equal(dangling.details.depends_on, 'ghost');
    assert.equal(dangling.details.path, 'nodes[2].depends_on[1]');

    const callers = await refused('pipelines_create', withNodes([
      node('window'), { ...node('stg_trips'), output: undefined }, node('top'),
    ], { name: 'test/refusals/callers' }), 'pipeline.validation.multiple_caller_nodes');
    assert.deepEqual(callers.details.nodes, ['stg_trips', 'top']);
  });

  it('unknown_datasource, template_not_found, template_version_not_found, template_dialect_mismatch',
    async () => {
      const ds = await refused('pipelines_create', withNodes([
        node('window'), { ...node('stg_trips'), source: 'nowhere' }, node('top'),
      ], { name: 'test/refusals/ds' }), 'pipeline.validation.unknown_datasource');
      assert.equal(ds.details.datasource, 'nowhere');
      assert.equal(ds.details.path, 'nodes[1].source');

      const missing = await refused('pipelines_create', withNodes([
        node('window'), node('stg_trips'),
        { ...node('top'), template: { id: 'city/mobility/sql/absent.sql', version: 1 } },
      ], { name: 'test/refusals/tmpl' }), 'pipeline.validation.template_not_found');
      assert.equal(missing.details.template_id, 'city/mobility/sql/absent.sql');

      const version = await refused('pipelines_create', withNodes([
        node('window'), node('stg_trips'), { ...node('top'), template: { id: TOP, version: 9 } },
      ], { name: 'test/refusals/tmplv' }), 'pipeline.validation.template_version_not_found');
      assert.equal(version.details.version, 9);

      // tempdb speaks SQLITE: a POSTGRES template on a tempdb node is refused.
      const dialect = await refused('pipelines_create', withNodes([
        node('window'), node('stg_trips'), { ...node('top'), template: { id: PG, version: 1 } },
      ], { name: 'test/refusals/dialect' }), 'pipeline.validation.template_dialect_mismatch');
      assert.equal(dialect.details.template_dialect, 'POSTGRES');
      assert.equal(dialect.details.source_dialect, 'SQLITE');
      assert.match(dialect.message, /tempdb/);
    });

  it('template_parameter_undeclared: a bind nothing declares', async () => {
    // The caller template binds :top_n; without the parameter nothing provides it.
    const params = { ...body().parameters };
    delete params.top_n;
    const err = await refused('pipelines_create', body({ name: 'test/refusals/undeclared',
      parameters: params }), 'pipeline.validation.template_parameter_undeclared');
    assert.equal(err.details.node, 'top');
    assert.equal(err.details.parameter, 'top_n');
    assert.equal(err.details.reason, 'bind_undeclared');
  });

  it('calculator_unknown, calculator_input_unordered, calculator_output_shape_mismatch', async () => {
    const unknown = await refused('pipelines_create', withNodes([
      { ...node('window'), kind: 'fiscal_week' }, node('stg_trips'), node('top'),
    ], { name: 'test/refusals/calc' }), 'pipeline.validation.calculator_unknown');
    assert.equal(unknown.details.kind, 'fiscal_week');
    assert.equal(unknown.details.known_kinds.length, 25);
    assert.ok(unknown.details.known_kinds.includes('period_bounds'));

    // stg_trips binds :window_start but no longer depends on the calculator writing it.
    const unordered = await refused('pipelines_create', withNodes([
      node('window'), { ...node('stg_trips'), depends_on: [] }, node('top'),
    ], { name: 'test/refusals/unordered' }), 'pipeline.validation.calculator_input_unordered');
    assert.equal(unordered.details.producer, 'window');
    assert.match(unordered.details.key, /^window_(start|end)$/);

    const shape = await refused('pipelines_create', withNodes([
      { ...node('window'), context_keys: undefined, context_key: 'window_start' },
      node('stg_trips'), node('top'),
    ], { name: 'test/refusals/shape' }), 'pipeline.validation.calculator_output_shape_mismatch');
    assert.equal(shape.details.reason, 'multi_output_kind');
    assert.equal(shape.details.kind, 'period_bounds');
  });

  it('default_type_mismatch and check_invalid', async () => {
    const params = body().parameters;
    const def = await refused('pipelines_create', body({ name: 'test/refusals/default',
      parameters: { ...params, top_n: { type: 'INTEGER', required: false, default: '5' } } }),
    'pipeline.validation.default_type_mismatch');
    assert.equal(def.details.parameter, 'top_n');
    assert.equal(def.details.type, 'INTEGER');

    const check = await refused('pipelines_create', body({ name: 'test/refusals/check', checks: [
      { id: 'some_trips', name: 'Some trips', datasource: 'tempdb',
        sql: 'SELECT COUNT(*) FROM stg_trips', expected: { kind: 'range', min: 1, max: 100000 } },
    ] }), 'pipeline.validation.check_invalid');
    assert.equal(check.details.path, 'checks[0].datasource');
  });

  it('door_unacknowledged for two raw DATE parameters, cleared by door_acknowledged', async () => {
    const doorBody = {
      name: 'test/refusals/door', display_name: 'Trips between', description: 'Two fixed dates.',
      parameters: {
        start_date: { type: 'DATE', required: true },
        end_date: { type: 'DATE', required: true },
      },
      nodes: [{ id: 'trips', description: 'Trips in the range.', type: 'DQL', source: 'demo',
        template: { id: BETWEEN, version: 1 }, depends_on: [] }],
    };
    const door = await refused('pipelines_create', doorBody, 'pipeline.validation.door_unacknowledged');
    assert.deepEqual(door.details.parameters, ['start_date', 'end_date']);
    assert.equal(door.details.alternatives.length, 2);
    const acknowledged = await ok('pipelines_create', { ...doorBody, door_acknowledged: true });
    assert.equal(acknowledged.status, 'DRAFT');
    assert.equal('door_acknowledged' in acknowledged, false, 'a tool flag is never stored');
  });

  it('table_not_learned for a key that never read the columns, cleared by the listed calls',
    async () => {
      const fresh = server.createKey(ADMIN_EMAIL, { scope: 'author' });
      const { client: freshClient } = await sdkClient(server, fresh.api_key);
      try {
        const name = 'test/refusals/learned';
        const err = await refused('pipelines_create', body({ name }),
          'pipeline.validation.table_not_learned', freshClient);
        const tables = err.details.tables.map((t) => t.table).sort();
        assert.deepEqual(tables, ['trips', 'zones']);
        for (const entry of err.details.tables) {
          assert.equal(entry.datasource, 'demo');
          assert.equal(entry.node, 'stg_trips');
          assert.deepEqual(entry.clearing_call, {
            tool: 'datasources_get_columns', arguments: { name: 'demo', table: entry.table } });
          await ok(entry.clearing_call.tool, entry.clearing_call.arguments, freshClient);
        }
        const saved = await ok('pipelines_create', body({ name }), freshClient);
        assert.equal(saved.status, 'DRAFT');
      } finally {
        await freshClient.close().catch(() => {});
      }
    });

  it('a read-scope key may read but not create (auth.scope.insufficient)', async () => {
    const listed = await ok('pipelines_list', { prefix: 'city/mobility' }, readClient);
    assert.deepEqual(listed.pipelines.map((p) => p.name), [NAME]);
    await refused('pipelines_create', body({ name: 'test/refusals/read_key' }),
      'auth.scope.insufficient', readClient);
    const all = await ok('pipelines_list', { q: 'read_key' });
    assert.deepEqual(all, []);
  });
});

describe('pipelines over REST', () => {
  const RNAME = 'city/mobility/rest_busiest';
  let id;
  let hash;

  it('creates with POST and reads it, its versions and its parameters', async () => {
    const res = await rest('POST', '/api/v1/pipelines', { json: body({ name: RNAME }) });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json.data.status, 'DRAFT');
    assert.equal(res.json.data.version, 1);
    ({ id, body_hash: hash } = res.json.data);
    const got = await rest('GET', `/api/v1/pipelines/${id}`);
    assert.equal(got.status, 200);
    assert.equal(got.json.data.body_hash, hash);
    const versions = await rest('GET', `/api/v1/pipelines/${id}/versions`);
    assert.deepEqual(versions.json.data.items.map((v) => [v.version, v.status, v.body_hash]),
      [[1, 'DRAFT', hash]]);
    const params = await rest('GET', `/api/v1/pipelines/${id}/parameters`);
    assert.equal(params.json.data.parameters.window_end.derived, true);
    const list = await rest('GET', `/api/v1/pipelines?q=${enc('rest_busiest')}`);
    assert.deepEqual(list.json.data.items.map((p) => p.id), [id]);
    assert.equal(list.json.data.pagination.total, 1);
    const browse = await rest('GET', `/api/v1/pipelines?prefix=${enc('city/mobility')}`);
    assert.deepEqual(browse.json.data.pipelines.map((p) => p.name).sort(), [NAME, RNAME].sort());
    const byDs = await rest('GET', '/api/v1/pipelines?datasource=demo&limit=1');
    assert.equal(byDs.json.data.items.length, 1);
    assert.equal(byDs.json.data.pagination.has_more, true);
  });

  it('PUT needs If-Match with the current body_hash', async () => {
    const missing = await rest('PUT', `/api/v1/pipelines/${id}`, { json: body({ name: RNAME }) });
    assert.equal(missing.status, 400, missing.text);
    assert.equal(missing.json.error.details.reason, 'precondition_missing');
    const stale = await rest('PUT', `/api/v1/pipelines/${id}`, {
      json: body({ name: RNAME, display_name: 'x' }), headers: { 'If-Match': '"0000"' } });
    assert.equal(stale.status, 409, stale.text);
    assert.equal(stale.json.error.code, 'pipeline.version.conflict');
    assert.equal(stale.json.error.details.current_body_hash, hash);
    const put = await rest('PUT', `/api/v1/pipelines/${id}`, {
      json: body({ name: RNAME, display_name: 'Busiest boroughs (REST)' }),
      headers: { 'If-Match': `"${hash}"` } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.json.data.version, 1);
    assert.equal(put.json.data.display_name, 'Busiest boroughs (REST)');
    assert.notEqual(put.json.data.body_hash, hash);
    hash = put.json.data.body_hash;
  });

  it('release waits for the pinned templates, then a person releases the pipeline', async () => {
    const gated = await rest('POST', `/api/v1/pipelines/${id}/release`,
      { headers: { 'If-Match': hash } });
    assert.equal(gated.status, 409, gated.text);
    assert.equal(gated.json.error.code, 'pipeline.release.template_not_released');
    assert.deepEqual(gated.json.error.details.templates.map((t) => t.template_id).sort(),
      [SRC, TOP].sort());

    for (const tmpl of [SRC, TOP]) {
      const rel = await rest('POST', `/api/v1/templates/${enc(tmpl)}/release`);
      assert.equal(rel.status, 200, rel.text);
      assert.equal(rel.json.data.status, 'RELEASED');
    }
    const released = await rest('POST', `/api/v1/pipelines/${id}/release`,
      { headers: { 'If-Match': hash } });
    assert.equal(released.status, 200, released.text);
    assert.equal(released.json.data.status, 'RELEASED');
    assert.equal(released.json.data.current_version, 1);
    assert.equal(released.json.data.draft, undefined);

    // The first edit after a release opens version 2 as a draft; version 1 stays readable.
    const next = await rest('PUT', `/api/v1/pipelines/${id}`, {
      json: body({ name: RNAME, display_name: 'Busiest boroughs v2' }),
      headers: { 'If-Match': hash } });
    assert.equal(next.status, 200, next.text);
    assert.equal(next.json.data.version, 2);
    assert.equal(next.json.data.status, 'DRAFT');
    assert.equal(next.json.data.current_version, 1);
    const v1 = await rest('GET', `/api/v1/pipelines/${id}/versions/1`);
    assert.equal(v1.json.data.status, 'RELEASED');
    assert.equal(v1.json.data.display_name, 'Busiest boroughs (REST)');
    const mcpView = await ok('pipelines_get', { id });
    assert.equal(mcpView.version, 2);
    assert.equal(mcpView.draft.version, 2);

    const discard = await rest('POST', `/api/v1/pipelines/${id}/draft/discard`);
    assert.equal(discard.status, 204, discard.text);
    const after = await rest('GET', `/api/v1/pipelines/${id}`);
    assert.equal(after.json.data.version, 1);
    assert.equal(after.json.data.status, 'RELEASED');
    const del = await rest('DELETE', `/api/v1/pipelines/${id}`);
    assert.equal(del.status, 409, del.text);
    assert.equal(del.json.error.code, 'pipeline.version.last_release');
  });

  it('DELETE purges a never-released pipeline; it is then not found', async () => {
    const scratch = (await ok('pipelines_list', { prefix: 'test/scratch' })).pipelines[0];
    assert.equal(scratch.name, 'test/scratch/busiest');
    const del = await rest('DELETE', `/api/v1/pipelines/${scratch.id}`);
    assert.equal(del.status, 200, del.text);
    assert.equal(del.json.data.purged, true);
    const gone = await rest('GET', `/api/v1/pipelines/${scratch.id}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.json.error.code, 'pipeline.not_found');
    await refused('pipelines_get', { id: scratch.id }, 'pipeline.not_found');
  });
});
