// Templates end to end (issue 4): the official SDK client authors a library and a template,
// edits it with expected_hash, renders it, browses by prefix and purges it; a person releases
// over REST; refusals come back as isError results with the catalogued codes.
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { useServer } from './support/server.mjs';
import { request, sdkClient, toolPayload, keyHeader, UUID_RE } from './support/http.mjs';

const ctx = useServer();
let client;
let otherClient;
const LIB = 'acme/lib/dates.sql';
const ORDERS = 'acme/finance/orders.sql';
const enc = (id) => id.replaceAll('/', '%2F');

async function call(name, args, c = client) {
  const result = await c.callTool({ name, arguments: args });
  assert.match(result._meta?.correlation_id ?? '', UUID_RE);
  return { isError: result.isError === true, payload: toolPayload(result) };
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
  return payload.error;
}

describe('templates over MCP and REST', () => {
  before(async () => {
    ({ client } = await sdkClient(ctx.server, ctx.server.adminKey));
    // A second workspace with its own author, to prove isolation.
    ctx.server.createUser('bea@e2e.test', null);
    ctx.server.cli(['workspaces', 'create', '--name', 'other']);
    ctx.server.cli(['members', 'set', '--workspace', 'other', '--email', 'bea@e2e.test',
      '--role', 'author']);
    const key = ctx.server.createKey('bea@e2e.test', { scope: 'author', workspace: 'other' });
    ({ client: otherClient } = await sdkClient(ctx.server, key.api_key));
  });
  after(async () => {
    await client?.close().catch(() => {});
    await otherClient?.close().catch(() => {});
  });

  it('serves the seven template tools', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['templates_list', 'templates_get', 'templates_create', 'templates_update',
      'templates_render', 'templates_used_by', 'templates_purge_draft']) {
      assert.ok(names.includes(name), `missing ${name}`);
    }
  });

  it('create → get → update with expected_hash → render → list by prefix → purge', async () => {
    // A new root needs the person's say-so; the refusal names the existing roots.
    const root = await refused('templates_create', {
      id: LIB, dialect: 'POSTGRES', display_name: 'Dates', description: 'range(col, from, to)',
      is_library: true, body: '<#macro range col from to>${col} BETWEEN :${from} AND :${to}</#macro>',
    }, 'template.validation.new_root_requires_confirmation');
    assert.equal(root.details.root, 'acme');
    assert.deepEqual(root.details.existing_roots, []);

    const lib = await ok('templates_create', {
      id: LIB, dialect: 'POSTGRES', display_name: 'Dates', description: 'range(col, from, to)',
      is_library: true, confirm_new_root: true,
      body: '<#macro range col from to>${col} BETWEEN :${from} AND :${to}</#macro>',
    });
    assert.equal(lib.version, 1);
    assert.equal(lib.status, 'DRAFT');

    const created = await ok('templates_create', {
      id: ORDERS, dialect: 'POSTGRES', display_name: 'Orders',
      description: 'region (STRING)',
      imports: [{ id: LIB, version: 1, alias: 'd' }],
      body: "SELECT * FROM orders WHERE <@d.range col=\"day\" from=\"start\" to=\"end\"/> AND region = '${region}'",
    });
    assert.equal(created.status, 'DRAFT');
    assert.equal(created.current_version, null);
    assert.equal(created.draft.version, 1);

    const got = await ok('templates_get', { id: ORDERS });
    assert.equal(got.body_hash, created.body_hash);
    assert.deepEqual(got.imports, [{ id: LIB, version: 1, alias: 'd' }]);

    const updated = await ok('templates_update', {
      id: ORDERS, expected_hash: got.body_hash, display_name: 'Orders',
      description: 'region (STRING)', imports: got.imports,
      body: `${got.body} ORDER BY day`,
    });
    assert.equal(updated.version, 1, 'a draft is overwritten in place');
    assert.equal(updated.status, 'DRAFT');
    assert.equal(updated.dialect, 'POSTGRES', 'dialect inherited');
    assert.notEqual(updated.body_hash, got.body_hash);

    // The hash we started from is stale now.
    const conflict = await refused('templates_update', {
      id: ORDERS, expected_hash: got.body_hash, display_name: 'Orders', description: 'x',
      body: 'SELECT 1',
    }, 'template.version.conflict');
    assert.equal(conflict.details.current.body_hash, updated.body_hash);

    const rendered = await ok('templates_render', { id: ORDERS, context: { region: 'EU' } });
    assert.equal(rendered.rendered,
      "SELECT * FROM orders WHERE day BETWEEN :start AND :end AND region = 'EU' ORDER BY day");
    assert.deepEqual(rendered.binds, ['start', 'end'], 'the binds the SQL needs, in order');
    // A trailing slash names the same folder.
    const folder = ORDERS.split('/').slice(0, -1).join('/');
    const browse = await ok('templates_list', { prefix: `${folder}/` });
    assert.equal(browse.prefix, folder);
    assert.ok(browse.templates.some((t) => t.id === ORDERS), JSON.stringify(browse));
    const missing = await refused('templates_render', { id: ORDERS, context: {} },
      'pipeline.node.template_render_failed');
    assert.equal(missing.details.reason, 'undefined_variable');

    const top = await ok('templates_list', { prefix: '' });
    assert.deepEqual(top.folders, [{ path: 'acme', segment: 'acme', template_count: 2 }]);
    const acme = await ok('templates_list', { prefix: 'acme' });
    assert.deepEqual(acme.folders.map((f) => f.path), ['acme/finance', 'acme/lib']);
    const finance = await ok('templates_list', { prefix: 'acme/finance' });
    assert.deepEqual(finance.templates.map((t) => t.id), [ORDERS]);
    assert.equal(finance.templates[0].status, 'DRAFT');
    const flat = await ok('templates_list', { q: 'orders' });
    assert.deepEqual(flat.map((t) => t.id), [ORDERS]);

    const usedBy = await ok('templates_used_by', { id: ORDERS, version: 1 });
    assert.deepEqual(usedBy, {
      template: { id: ORDERS, version: 1 }, scan: 'working_version', pipeline_count: 0,
      references: [],
    });

    assert.deepEqual(await ok('templates_purge_draft', { id: ORDERS }), { id: ORDERS, purged: true });
    await refused('templates_get', { id: ORDERS }, 'template.not_found');
  });

  it('a person releases over REST; released templates are not purgeable', async () => {
    const res = await request(ctx.server, {
      method: 'POST', path: `/api/v1/templates/${enc(LIB)}/release`,
      headers: keyHeader(ctx.server.adminKey),
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.data.status, 'RELEASED');
    assert.equal(res.json.data.current_version, 1);
    await refused('templates_purge_draft', { id: LIB }, 'template.version.last_release');
    const rest = await request(ctx.server, {
      method: 'GET', path: `/api/v1/templates/${enc(LIB)}`, headers: keyHeader(ctx.server.adminKey),
    });
    assert.equal(rest.status, 200);
    assert.equal(rest.json.data.id, LIB);
  });

  it("another workspace's template is not-found, and the id is free there", async () => {
    await refused('templates_get', { id: LIB }, 'template.not_found', otherClient);
    const listed = await ok('templates_list', {}, otherClient);
    assert.deepEqual(listed, []);
    const theirs = await ok('templates_create', {
      id: LIB, dialect: 'SQLITE', display_name: 'Theirs', description: 'd',
      confirm_new_root: true, body: 'SELECT 1',
    }, otherClient);
    assert.equal(theirs.dialect, 'SQLITE');
    assert.equal((await ok('templates_get', { id: LIB })).dialect, 'POSTGRES');
  });

  it('refuses a bare id with its domain code and dangerous bodies at save', async () => {
    const bare = await refused('templates_create', {
      id: 'orders.sql', dialect: 'POSTGRES', display_name: 'x', description: 'x', body: 'x',
    }, 'template.validation.id_invalid');
    assert.equal(bare.details.reason, 'folder_required');
    // An undeclared argument is refused naming the nearest declared one.
    await assert.rejects(client.callTool({ name: 'templates_list', arguments: { prefx: '' } }),
      (err) => err instanceof McpError && err.code === -32602 && /did you mean 'prefix'/.test(err.message));
    const danger = await refused('templates_create', {
      id: 'test/x/eval.sql', dialect: 'POSTGRES', display_name: 'x', description: 'x',
      body: 'SELECT ${x?eval}',
    }, 'template.validation.dangerous_construct');
    assert.ok(danger.message.length > 0);
    await refused('templates_create', {
      id: 'test/x/page.html', type: 'html', dialect: 'POSTGRES', display_name: 'x',
      description: 'x', body: '<p/>',
    }, 'template.validation.dialect_invalid');
  });
});
