// The agent-facing surface end to end with the official SDK client (issue 12): resources/list
// paged to the end over more than 250 resources (§7.3 order, opaque signed cursor, per-key
// visibility), one read of every §7.1 URI form, the three §8 prompts and their admission rule,
// the manual's bytes identical through every delivery (§15), and an agent-style walk that
// follows create_pipeline_for_question step by step against the demo datasource.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, before, after } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startDemoServer } from './support/demo_server.mjs';
import { request, UUID_RE } from './support/http.mjs';
import { adminSession, agent, rest } from './support/executions_env.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const repoFile = (...parts) => readFileSync(path.join(repo, ...parts), 'utf8');
const TEMPLATES = 260; // with the rest, well past two pages and a half
const isMcpError = (code) => (err) => err instanceof McpError && err.code === code;
const KIND_ORDER = ['docs', 'pipelines', 'templates', 'datasources', 'executions'];
const kindOf = (uri) => uri.slice('datapipelines://'.length).split('/')[0];

let demo;
let server;
let admin; // bootstrap admin's author key in `default`
let bob; // an author of `default` who is not a workspace admin
let rhea; // a read-only key pinned to workspace `other`
let walk; // what the create_pipeline_for_question walk produced

/** Every page of resources/list, asserting the §7.3 page rules on the way. */
async function allResources(client) {
  const pages = [];
  let cursor;
  for (;;) {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    pages.push(page);
    if (page.nextCursor === undefined) break;
    assert.equal(page.resources.length, 100, 'every page but the last holds 100');
    assert.equal(typeof page.nextCursor, 'string');
    cursor = page.nextCursor;
    assert.ok(pages.length < 20, 'the cursor never ends');
  }
  return { pages, resources: pages.flatMap((p) => p.resources) };
}

function assertSpecOrder(resources) {
  const uris = resources.map((r) => r.uri);
  assert.equal(new Set(uris).size, uris.length, 'no duplicates');
  const ranks = uris.map((u) => KIND_ORDER.indexOf(kindOf(u)));
  assert.ok(ranks.every((r) => r >= 0), `unknown kind in ${uris}`);
  for (let i = 1; i < ranks.length; i += 1) {
    assert.ok(ranks[i - 1] <= ranks[i], `kind order broken at ${uris[i - 1]} → ${uris[i]}`);
    if (ranks[i - 1] === ranks[i] && ranks[i] > 0) {
      assert.ok(uris[i - 1] < uris[i], `not by id: ${uris[i - 1]} → ${uris[i]}`);
    }
  }
  for (const r of resources) {
    for (const field of ['uri', 'name', 'description', 'mimeType']) {
      assert.equal(typeof r[field], 'string', `${r.uri} lacks ${field}`);
    }
  }
}

describe('resources, prompts and the manual over the SDK client', () => {
  before(async () => {
    demo = await startDemoServer({ trips: 2000 });
    server = demo.server;
    admin = await agent(server, server.adminKey);
    server.createUser('bob@e2e.test', 'author');
    bob = await agent(server, server.createKey('bob@e2e.test', { scope: 'author' }).api_key);
    server.createUser('rhea@e2e.test', null);
    server.cli(['workspaces', 'create', '--name', 'other']);
    server.cli(['members', 'set', '--workspace', 'other', '--email', 'rhea@e2e.test',
      '--role', 'viewer']);
    rhea = await agent(server, server.createKey('rhea@e2e.test', { scope: 'read', workspace: 'other' })
      .api_key);
  });
  after(async () => {
    for (const a of [admin, bob, rhea]) await a?.close();
    await demo?.cleanup();
  });

  it('walks create_pipeline_for_question to an executed pipeline on the demo data', async () => {
    const question = 'How many trips were paid with each payment type?';
    const prompt = await admin.client.getPrompt({
      name: 'create_pipeline_for_question', arguments: { question },
    });
    const text = prompt.messages[0].content.text;
    assert.ok(text.includes(`\n<<<QUESTION\n${question}\nQUESTION>>>\n`), text);
    // Each step below calls only what the prompt's own text names.
    const step = (n) => {
      const at = text.indexOf(`\n${n}. `);
      assert.ok(at >= 0, `step ${n} missing`);
      const next = text.indexOf(`\n${n + 1}. `, at + 1);
      return text.slice(at, next < 0 ? undefined : next);
    };
    const named = (n, ...tools) => tools.forEach((t) => assert.ok(step(n).includes(t), `${n}: ${t}`));

    assert.ok(text.includes('docs_get'));
    const manual = await admin.ok('docs_get', { name: 'skill' });
    assert.ok(manual.markdown.includes('## The golden path'));

    named(1, 'datasources_list');
    const datasources = await admin.ok('datasources_list', {});
    const source = datasources.find((d) => d.name === 'demo');
    assert.ok(source, JSON.stringify(datasources));

    named(2, 'datasources_get_schemas', 'datasources_get_tables', 'datasources_get_columns');
    const schemas = await admin.ok('datasources_get_schemas', { name: source.name });
    const ns = schemas.entries?.[0]?.namespace;
    const tables = await admin.ok('datasources_get_tables',
      { name: source.name, ...(ns ? { namespace: ns } : {}) });
    const table = tables.tables.find((t) => t.name === 'trips');
    assert.ok(table, JSON.stringify(tables));
    const columns = await admin.ok('datasources_get_columns', {
      name: source.name, table: table.name, ...(table.namespace ? { namespace: table.namespace } : {}),
    });
    const columnNames = columns.map((c) => c.name);
    for (const c of ['payment_type', 'passenger_count']) assert.ok(columnNames.includes(c), c);

    named(3, 'sql_probe');
    const sql = 'SELECT payment_type, COUNT(*) AS trips FROM trips '
      + 'WHERE COALESCE(passenger_count, 0) >= :min_passengers GROUP BY payment_type '
      + 'ORDER BY payment_type';
    const probe = await admin.ok('sql_probe', {
      name: source.name, sql, parameters: { min_passengers: { type: 'INTEGER', value: '0' } },
    });
    assert.ok(probe.rows.length > 0);

    named(4, 'pipelines_list', 'templates_list', 'test/');
    await admin.ok('pipelines_list', { prefix: '' });
    await admin.ok('templates_list', { prefix: '' });

    named(5, 'templates_create', 'templates_render');
    const templateId = 'test/walk/trips_by_payment.sql';
    await admin.ok('templates_create', {
      id: templateId, dialect: source.dialect, display_name: 'Trips by payment type',
      description: 'Trips per payment type. Variables: min_passengers (INTEGER, bound).', body: sql,
    });
    const rendered = await admin.ok('templates_render',
      { id: templateId, context: { min_passengers: 0 } });
    assert.match(JSON.stringify(rendered), /:min_passengers/);

    named(6, 'pipelines_create');
    const created = await admin.ok('pipelines_create', {
      name: 'test/walk/trips_by_payment', display_name: 'Trips by payment type',
      description: 'Answers: how many trips were paid with each payment type? Grain: one row per '
        + 'payment type.',
      parameters: { min_passengers: { type: 'INTEGER', required: false, default: 0,
        description: 'Only trips with at least this many passengers.' } },
      nodes: [{ id: 'answer', description: 'Trips per payment type.', type: 'DQL',
        source: source.name, template: { id: templateId, version: 1 }, depends_on: [] }],
    });
    assert.equal(created.status, 'DRAFT');

    named(7, 'pipelines_execute', 'executions_get_result');
    const run = await admin.ok('pipelines_execute', { id: created.id, parameters: {} });
    assert.equal(run.status, 'SUCCESS', JSON.stringify(run));
    assert.deepEqual(run.schema.map((c) => c.name), ['payment_type', 'trips']);
    // Result rows are positional per schema; sql_probe rows are objects.
    assert.deepEqual(run.rows.map(([type, n]) => [type, String(n)]),
      probe.rows.map((r) => [r.payment_type, String(r.trips)]));
    const total = run.rows.reduce((n, [, count]) => n + Number(count), 0);
    assert.equal(total, 2000);
    walk = { pipelineId: created.id, templateId, executionId: run.execution_id };
    assert.match(walk.executionId, UUID_RE);
  });

  it('lists more than 250 resources page by page in the §7.3 order', async () => {
    for (let i = 0; i < TEMPLATES; i += 1) {
      await admin.ok('templates_create', {
        id: `test/bulk/t_${String(i).padStart(3, '0')}.sql`, dialect: 'SQLITE',
        display_name: `Bulk ${i}`, description: 'bulk template', body: `SELECT ${i} AS n`,
      });
    }
    // §7.2.2's three examples.
    await admin.ok('templates_create', { id: 'acme/finance/daily_orders.sql', dialect: 'SQLITE',
      display_name: 'Daily', description: 'd', body: 'SELECT 1 AS v', confirm_new_root: true });
    await admin.ok('templates_create', { id: 'acme/versions/report.sql', dialect: 'SQLITE',
      display_name: 'Report', description: 'r', body: "SELECT 'v1' AS v" });
    const session = await adminSession(server);
    const released = await rest(server, 'POST',
      `/api/v1/templates/${encodeURIComponent('acme/versions/report.sql')}/release`, { auth: session });
    assert.equal(released.status, 200, released.text);
    const v1 = await admin.ok('templates_get', { id: 'acme/versions/report.sql' });
    await admin.ok('templates_update', { id: 'acme/versions/report.sql',
      expected_hash: v1.body_hash, display_name: 'Report', description: 'r', body: "SELECT 'v2' AS v" });
    // Another user's execution in the same workspace (its key renders the draft template first).
    await bob.ok('templates_render', { id: walk.templateId, context: { min_passengers: 0 } });
    const bobRun = await bob.ok('pipelines_execute', { id: walk.pipelineId, parameters: {} });
    walk.bobExecutionId = bobRun.execution_id;

    const { pages, resources } = await allResources(admin.client);
    assert.ok(resources.length > 250, `${resources.length}`);
    assert.ok(pages.length >= 3);
    assertSpecOrder(resources);
    const uris = resources.map((r) => r.uri);
    assert.equal(uris[0], 'datapipelines://docs/skill');
    for (const uri of [`datapipelines://pipelines/${walk.pipelineId}`,
      `datapipelines://templates/${walk.templateId}`, 'datapipelines://datasources',
      'datapipelines://datasources/demo', `datapipelines://executions/${walk.executionId}`,
      `datapipelines://executions/${walk.bobExecutionId}`, // a super admin reads every run
      'datapipelines://templates/acme/versions/report.sql']) {
      assert.ok(uris.includes(uri), uri);
    }
    assert.equal(uris.filter((u) => u.startsWith('datapipelines://templates/test/bulk/')).length,
      TEMPLATES);

    // The cursor is opaque and signed: an edited one is invalid params.
    const cursor = pages[0].nextCursor;
    const [payload, mac] = cursor.split('.');
    const position = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
    const edited = Buffer.from(JSON.stringify({ ...position, k: `${position.k}0` }))
      .toString('base64');
    for (const bad of [`${edited}.${mac}`, 'eyJvIjoxMDB9', `${cursor}x`]) {
      await assert.rejects(admin.client.listResources({ cursor: bad }), isMcpError(-32602), bad);
    }
    // Another key cannot page with it.
    await assert.rejects(bob.client.listResources({ cursor }), isMcpError(-32602));
  });

  it('filters the listing per key: workspace, scope and execution ownership', async () => {
    const adminUris = (await allResources(admin.client)).resources.map((r) => r.uri);
    const bobList = (await allResources(bob.client)).resources;
    assertSpecOrder(bobList);
    const bobUris = bobList.map((r) => r.uri);
    assert.ok(bobUris.includes(`datapipelines://executions/${walk.bobExecutionId}`));
    assert.ok(!bobUris.includes(`datapipelines://executions/${walk.executionId}`),
      "another user's execution is not listed");
    await assert.rejects(
      bob.client.readResource({ uri: `datapipelines://executions/${walk.executionId}` }),
      isMcpError(-32002));
    await assert.rejects(
      bob.client.readResource({ uri: `datapipelines://executions/${walk.executionId}/events` }),
      isMcpError(-32002));

    const rheaList = (await allResources(rhea.client)).resources;
    assertSpecOrder(rheaList);
    const rheaUris = rheaList.map((r) => r.uri);
    assert.ok(rheaUris.length < adminUris.length, `${rheaUris.length} vs ${adminUris.length}`);
    assert.ok(rheaUris.every((u) => !u.startsWith('datapipelines://templates/')
      && !u.startsWith('datapipelines://pipelines/') && !u.startsWith('datapipelines://executions/')
      && u !== 'datapipelines://datasources/demo'), `${rheaUris}`);
    for (const uri of [`datapipelines://pipelines/${walk.pipelineId}`,
      `datapipelines://templates/${walk.templateId}`, 'datapipelines://datasources/demo']) {
      await assert.rejects(rhea.client.readResource({ uri }), isMcpError(-32002), uri);
    }
  });

  it('reads one of every URI form with its content type', async () => {
    const read = async (uri, mimeType) => {
      const { contents } = await admin.client.readResource({ uri });
      assert.equal(contents.length, 1, uri);
      assert.equal(contents[0].uri, uri);
      assert.equal(contents[0].mimeType, mimeType, uri);
      return contents[0].text;
    };
    const P = `datapipelines://pipelines/${walk.pipelineId}`;
    assert.equal(JSON.parse(await read(P, 'application/json')).name, 'test/walk/trips_by_payment');
    assert.equal(JSON.parse(await read(`${P}/versions/1`, 'application/json')).version, 1);
    const params = JSON.parse(await read(`${P}/parameters`, 'application/json'));
    assert.match(JSON.stringify(params), /min_passengers/);
    const T = 'datapipelines://templates/';
    assert.equal(JSON.parse(await read(`${T}${walk.templateId}`, 'application/json')).id,
      walk.templateId);
    assert.match(await read(`${T}${walk.templateId}/versions/1`, 'text/x-freemarker-sql'),
      /GROUP BY payment_type/);
    assert.equal(JSON.parse(await read(`${T}acme/finance/daily_orders.sql`, 'application/json')).id,
      'acme/finance/daily_orders.sql');
    const report = JSON.parse(await read(`${T}acme/versions/report.sql`, 'application/json'));
    assert.equal(report.id, 'acme/versions/report.sql');
    assert.equal(report.version, 2);
    assert.equal(await read(`${T}acme/versions/report.sql/versions/2`, 'text/x-freemarker-sql'),
      "SELECT 'v2' AS v");
    assert.equal(await read(`${T}acme/versions/report.sql/versions/1`, 'text/x-freemarker-sql'),
      "SELECT 'v1' AS v");
    const list = JSON.parse(await read('datapipelines://datasources', 'application/json'));
    assert.ok(list.some((d) => d.name === 'demo'));
    const one = await read('datapipelines://datasources/demo', 'application/json');
    assert.equal(JSON.parse(one).name, 'demo');
    assert.ok(!/"password"/.test(one), one);
    const E = `datapipelines://executions/${walk.executionId}`;
    assert.equal(JSON.parse(await read(E, 'application/json')).status, 'SUCCESS');
    const events = await read(`${E}/events`, 'text/event-stream');
    assert.match(events, /^id: 1\nevent: execution_started\ndata: /);
    assert.match(events, /\nevent: node_completed\n/);
    assert.match(events, /\nevent: data_ready\n/);
    const core = await read('datapipelines://docs/skill', 'text/markdown');
    assert.equal(core, repoFile('skill', 'SKILL.md'));
    assert.equal(await read('datapipelines://docs/skill/errors', 'text/markdown'),
      await read('datapipelines://docs/skill/errors.md', 'text/markdown'));
    for (const uri of ['datapipelines://docs/skill/nope', 'datapipelines://docs/skill/../SKILL',
      `${P.slice(0, -4)}0000`, `${T}acme/versions/report.sql/versions/9`, `${T}acme/versions`,
      'datapipelines://datasources/nope', 'datapipelines://executions/not-an-id',
      'datapipelines://elsewhere/x']) {
      await assert.rejects(admin.client.readResource({ uri }), isMcpError(-32002), uri);
    }
    const { resourceTemplates } = await admin.client.listResourceTemplates();
    const forms = resourceTemplates.map((t) => t.uriTemplate);
    for (const form of ['datapipelines://docs/skill/{reference}', 'datapipelines://pipelines/{id}',
      'datapipelines://pipelines/{id}/versions/{version}', 'datapipelines://pipelines/{id}/parameters',
      'datapipelines://templates/{+id}', 'datapipelines://templates/{+id}/versions/{version}',
      'datapipelines://datasources/{name}', 'datapipelines://executions/{execution_id}',
      'datapipelines://executions/{execution_id}/events']) {
      assert.ok(forms.includes(form), `${form} not in ${forms}`);
    }
  });

  it('gets each prompt, naming only served tools and resource forms', async () => {
    const { prompts } = await admin.client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name),
      ['analyze_pipeline', 'create_pipeline_for_question', 'debug_failed_execution']);
    const served = new Set((await admin.client.listTools()).tools.map((t) => t.name));
    const { resourceTemplates } = await admin.client.listResourceTemplates();
    const forms = resourceTemplates.map((t) => new RegExp(`^${t.uriTemplate
      .replace(/[.]/g, '\\.').replace(/\{\+[a-z_]+\}/g, '[^{}]+').replace(/\{[a-z_]+\}/g, '[^/{}]+')}$`));
    forms.push(/^datapipelines:\/\/docs\/skill$/, /^datapipelines:\/\/datasources$/);
    const args = {
      analyze_pipeline: { pipeline_id: walk.pipelineId },
      create_pipeline_for_question: { question: 'Which payment type is most common?' },
      debug_failed_execution: { execution_id: walk.executionId },
    };
    for (const { name } of prompts) {
      const got = await admin.client.getPrompt({ name, arguments: args[name] });
      const text = got.messages[0].content.text;
      const tools = text.match(/\b(pipelines|templates|datasources|executions|calculators|docs|sql|semantics|endpoints|lake)_[a-z_]+\b/g);
      assert.ok(tools.length >= 4, name);
      for (const tool of tools) assert.ok(served.has(tool), `${name} names ${tool}, not served`);
      for (const uri of text.match(/datapipelines:\/\/[A-Za-z0-9_./{}+-]*[A-Za-z0-9_}]/g) ?? []) {
        assert.ok(forms.some((f) => f.test(uri)), `${name} names ${uri}, not a resource form`);
      }
    }
    // Unknown (well-formed) ids: the prompt renders and says what pipelines_get will answer.
    const ghost = '0b9d6a3e-1c2f-4e5a-9b8c-7d6e5f4a3b2c';
    const analyze = await admin.client.getPrompt({ name: 'analyze_pipeline',
      arguments: { pipeline_id: ghost } });
    assert.match(analyze.messages[0].content.text, /pipeline\.not_found/);
    await admin.refused('pipelines_get', { id: ghost }, 'pipeline.not_found');
    const debug = await admin.client.getPrompt({ name: 'debug_failed_execution',
      arguments: { execution_id: ghost } });
    assert.match(debug.messages[0].content.text, /pipeline\.execution\.not_found/);
    await admin.refused('executions_get', { execution_id: ghost }, 'pipeline.execution.not_found');
    for (const [name, bad] of [['analyze_pipeline', { pipeline_id: 'x' }],
      ['debug_failed_execution', {}], ['create_pipeline_for_question', { question: '   ' }],
      ['create_pipeline_for_question', { question: 'x'.repeat(2001) }],
      ['create_pipeline_for_question', { question: 'a\nQUESTION>>>\nb' }], ['nope', {}]]) {
      await assert.rejects(admin.client.getPrompt({ name, arguments: bad }), isMcpError(-32602),
        `${name} ${JSON.stringify(bad).slice(0, 40)}`);
    }
  });

  it('serves the same manual bytes through every delivery', async () => {
    assert.equal(admin.client.getInstructions(), repoFile('skill', 'INSTRUCTIONS.md'));
    assert.ok(Buffer.byteLength(admin.client.getInstructions()) <= 4096);
    const catalog = await admin.ok('docs_list', {});
    const references = readdirSync(path.join(repo, 'skill', 'references'))
      .filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3)).sort();
    assert.deepEqual(catalog.map((d) => d.name).slice(1).sort(), references,
      'every map line has a file and every file a map line');
    for (const { name } of catalog) {
      const file = name === 'skill' ? ['SKILL.md'] : ['references', `${name}.md`];
      const bytes = repoFile('skill', ...file);
      const uri = name === 'skill' ? 'datapipelines://docs/skill' : `datapipelines://docs/skill/${name}`;
      const { contents } = await admin.client.readResource({ uri });
      assert.equal(contents[0].text, bytes, `resource ${name}`);
      assert.equal((await admin.ok('docs_get', { name })).markdown, bytes, `docs_get ${name}`);
      const http = await request(server, { path: name === 'skill' ? '/skill.md' : `/skill/${name}.md` });
      assert.equal(http.status, 200);
      assert.match(http.headers['content-type'], /^text\/markdown/);
      assert.equal(http.text, bytes, `GET ${name}`);
      assert.equal(repoFile('plugins', 'datapipelines', 'skills', 'datapipelines', ...file), bytes,
        `plugin copy ${name}`);
    }
    const missing = await request(server, { path: '/skill/nope.md' });
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error.details.reason, 'skill_reference_not_found');
  });
});
