// Entity resources end to end (spec §7): the official SDK client creates a template with
// templates_create, finds it in resources/list after the docs, reads its working version and
// a specific version, and gets -32002 for another workspace's template.
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { useServer } from './support/server.mjs';
import { sdkClient, toolPayload } from './support/http.mjs';

const ctx = useServer();
let client;
let otherClient;
const ID = 'acme/versions/report.sql'; // a folder named `versions` stays a folder (§7.2.2)
const URI = `datapipelines://templates/${ID}`;

describe('template resources over the SDK client', () => {
  before(async () => {
    ({ client } = await sdkClient(ctx.server, ctx.server.adminKey));
    ctx.server.createUser('rhea@e2e.test', null);
    ctx.server.cli(['workspaces', 'create', '--name', 'other']);
    ctx.server.cli(['members', 'set', '--workspace', 'other', '--email', 'rhea@e2e.test',
      '--role', 'author']);
    const key = ctx.server.createKey('rhea@e2e.test', { scope: 'author', workspace: 'other' });
    ({ client: otherClient } = await sdkClient(ctx.server, key.api_key));
  });
  after(async () => {
    await client?.close().catch(() => {});
    await otherClient?.close().catch(() => {});
  });

  it('lists, reads and scopes a template created with templates_create', async () => {
    const created = await client.callTool({
      name: 'templates_create',
      arguments: {
        id: ID, dialect: 'POSTGRES', display_name: 'Report', description: 'monthly report',
        confirm_new_root: true, body: "SELECT 'report' AS r",
      },
    });
    assert.notEqual(created.isError, true, JSON.stringify(toolPayload(created)));

    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    assert.equal(uris[0], 'datapipelines://docs/skill');
    const at = uris.indexOf(URI);
    assert.ok(at > 0, `missing ${URI}: ${uris}`);
    assert.ok(uris.slice(0, at).every((u) => u.startsWith('datapipelines://docs/')),
      `docs must lead: ${uris}`);
    assert.ok(uris.includes('datapipelines://datasources'), `${uris}`);
    const descriptor = resources[at];
    assert.equal(descriptor.name, ID);
    assert.equal(descriptor.title, 'Report');
    assert.equal(descriptor.mimeType, 'application/json');

    const working = await client.readResource({ uri: URI });
    assert.equal(working.contents[0].uri, URI);
    assert.equal(working.contents[0].mimeType, 'application/json');
    const projection = JSON.parse(working.contents[0].text);
    assert.equal(projection.id, ID);
    assert.equal(projection.version, 1);
    assert.equal(projection.status, 'DRAFT');
    assert.equal(projection.body, "SELECT 'report' AS r");

    const v1 = await client.readResource({ uri: `${URI}/versions/1` });
    assert.equal(v1.contents[0].mimeType, 'text/x-freemarker-sql');
    assert.equal(v1.contents[0].text, "SELECT 'report' AS r");

    const other = await otherClient.listResources();
    assert.ok(!other.resources.some((r) => r.uri === URI), 'another workspace must not list it');
    for (const uri of [URI, `${URI}/versions/1`, `${URI}/versions/2`]) {
      await assert.rejects(
        (uri.endsWith('/2') ? client : otherClient).readResource({ uri }),
        (err) => err instanceof McpError && err.code === -32002,
        uri,
      );
    }
  });
});
