// The official MCP TypeScript SDK client against a real server (issue 2 "Shows": connect,
// list tools, call docs_get), with both credential header forms.
import assert from 'node:assert/strict';
import { describe, it, after } from 'node:test';
import { LATEST_PROTOCOL_VERSION, McpError } from '@modelcontextprotocol/sdk/types.js';
import { useServer } from './support/server.mjs';
import { request, sdkClient, toolPayload, UUID_RE } from './support/http.mjs';

const ctx = useServer();
const clients = [];
after(async () => {
  for (const { client } of clients) await client.close().catch(() => {});
});

async function connect(form = 'dp-api-key') {
  const c = await sdkClient(ctx.server, ctx.server.adminKey, form);
  clients.push(c);
  return c.client;
}

describe('MCP SDK client', () => {
  for (const form of ['dp-api-key', 'bearer']) {
    it(`connects with the ${form} header and negotiates the SDK's protocol version`, async () => {
      const client = await connect(form);
      assert.deepEqual(client.getServerVersion()?.name, 'datapipelines');
      assert.equal(typeof client.getServerVersion()?.version, 'string');
      // The SDK offers its newest revision; the server supports 2025-11-25, so it answers in it.
      const { transport } = clients.at(-1);
      assert.equal(transport.protocolVersion, LATEST_PROTOCOL_VERSION);
      assert.equal(transport.sessionId, undefined, 'stateless server: no Mcp-Session-Id');
      const tools = await client.listTools();
      assert.ok(tools.tools.some((t) => t.name === 'docs_get'));
    });
  }

  it('advertises exactly the §5.1 capabilities and bounded instructions', async () => {
    const client = await connect();
    assert.deepEqual(client.getServerCapabilities(), {
      tools: { listChanged: false },
      resources: { listChanged: false, subscribe: false },
      prompts: { listChanged: false },
    });
    const instructions = client.getInstructions();
    assert.equal(typeof instructions, 'string');
    assert.ok(instructions.length > 0);
    assert.ok(Buffer.byteLength(instructions, 'utf8') <= 4096, 'instructions ≤ 4096 bytes');
  });

  it('lists the docs tools, each with an object inputSchema', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes('docs_list'), `tools: ${names}`);
    assert.ok(names.includes('docs_get'), `tools: ${names}`);
    for (const tool of tools) {
      assert.equal(tool.inputSchema?.type, 'object', `${tool.name} inputSchema`);
      assert.equal(typeof tool.description, 'string', `${tool.name} description`);
    }
    const docsGet = tools.find((t) => t.name === 'docs_get');
    assert.deepEqual(docsGet.inputSchema.required, ['name']);
    assert.equal(docsGet.inputSchema.additionalProperties, false);
    assert.equal(docsGet.inputSchema.properties.name.type, 'string');
    const docsList = tools.find((t) => t.name === 'docs_list');
    assert.deepEqual(docsList.inputSchema.properties, {});
    assert.equal(docsList.inputSchema.additionalProperties, false);
  });

  it('docs_list returns the catalog, skill first, with correlation id', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'docs_list', arguments: {} });
    assert.notEqual(result.isError, true);
    assert.match(result._meta?.correlation_id ?? '', UUID_RE);
    const docs = toolPayload(result);
    assert.ok(Array.isArray(docs) && docs.length >= 1);
    assert.equal(docs[0].name, 'skill');
    for (const doc of docs) {
      assert.deepEqual(Object.keys(doc).sort(), ['name', 'purpose', 'title']);
      assert.equal(typeof doc.title, 'string');
    }
  });

  it('docs_get returns {name,title,markdown} for every listed doc, .md suffix tolerated', async () => {
    const client = await connect();
    const docs = toolPayload(await client.callTool({ name: 'docs_list', arguments: {} }));
    for (const { name, title } of docs) {
      const result = await client.callTool({ name: 'docs_get', arguments: { name } });
      assert.notEqual(result.isError, true, name);
      assert.match(result._meta?.correlation_id ?? '', UUID_RE);
      const doc = toolPayload(result);
      assert.deepEqual(Object.keys(doc).sort(), ['markdown', 'name', 'title']);
      assert.equal(doc.name, name);
      assert.equal(doc.title, title);
      assert.ok(doc.markdown.length > 0);
    }
    const suffixed = toolPayload(await client.callTool({
      name: 'docs_get', arguments: { name: `${docs.at(-1).name}.md` },
    }));
    assert.equal(suffixed.name, docs.at(-1).name);
  });

  it('docs_get skill is the same bytes as GET /skill.md and the resource', async () => {
    const client = await connect();
    const tool = toolPayload(await client.callTool({ name: 'docs_get', arguments: { name: 'skill' } }));
    const http = await request(ctx.server, { path: '/skill.md' });
    assert.equal(http.status, 200);
    assert.equal(tool.markdown, http.text);
    const resource = await client.readResource({ uri: 'datapipelines://docs/skill' });
    assert.equal(resource.contents[0].text, http.text);
  });

  it('docs_get with an unknown name is an isError mcp.doc_not_found with known_docs', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'docs_get', arguments: { name: 'no-such-doc' } });
    assert.equal(result.isError, true);
    assert.match(result._meta?.correlation_id ?? '', UUID_RE);
    const { error } = toolPayload(result);
    assert.equal(error.code, 'mcp.doc_not_found');
    assert.equal(typeof error.message, 'string');
    assert.ok(Array.isArray(error.details?.known_docs));
    assert.ok(error.details.known_docs.includes('skill'));
  });

  it('lists and reads the skill resources', async () => {
    const client = await connect();
    const { resources } = await client.listResources();
    const skill = resources.find((r) => r.uri === 'datapipelines://docs/skill');
    assert.ok(skill, `resources: ${resources.map((r) => r.uri)}`);
    assert.equal(skill.mimeType, 'text/markdown');
    const docs = toolPayload(await client.callTool({ name: 'docs_list', arguments: {} }));
    for (const doc of docs.slice(1)) {
      const uri = `datapipelines://docs/skill/${doc.name}`;
      assert.ok(resources.some((r) => r.uri === uri), `missing resource ${uri}`);
    }
    const read = await client.readResource({ uri: 'datapipelines://docs/skill' });
    assert.equal(read.contents.length, 1);
    assert.equal(read.contents[0].uri, 'datapipelines://docs/skill');
    assert.equal(read.contents[0].mimeType, 'text/markdown');
    assert.ok(read.contents[0].text.length > 0);
  });

  it('reads a reference resource with or without .md; an unknown one is -32002', async () => {
    const client = await connect();
    const plain = await client.readResource({ uri: 'datapipelines://docs/skill/authoring-playbook' });
    const suffixed = await client.readResource({ uri: 'datapipelines://docs/skill/authoring-playbook.md' });
    assert.equal(plain.contents[0].mimeType, 'text/markdown');
    assert.equal(plain.contents[0].text, suffixed.contents[0].text);
    const http = await request(ctx.server, { path: '/skill/authoring-playbook.md' });
    assert.equal(plain.contents[0].text, http.text);
    await assert.rejects(
      client.readResource({ uri: 'datapipelines://docs/skill/no-such-reference' }),
      (err) => err instanceof McpError && err.code === -32002,
    );
  });

  it('lists prompts and resource templates (possibly empty) without error', async () => {
    const client = await connect();
    const { prompts } = await client.listPrompts();
    assert.ok(Array.isArray(prompts));
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.ok(Array.isArray(resourceTemplates));
  });

  it('answers ping with an empty result', async () => {
    const client = await connect();
    assert.deepEqual(await client.ping(), {});
  });
});
