// `datapipelines mcp --server URL` (issue 18): the official SDK's StdioClientTransport spawns
// the bridge as Claude Desktop would, and everything an HTTP client gets arrives over stdio —
// the handshake, tool calls, the progress notifications of a long pipelines_execute — with
// nothing but protocol on stdout and exit status 0 when stdin closes.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { describe, it, before, after } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BINARY, sanitizerEnv } from './support/server.mjs';
import { startDemoServer } from './support/demo_server.mjs';
import { sdkClient } from './support/http.mjs';

const UPTO = 1_500_000; // each count takes well over the 200 ms after which execute streams SSE
let demo;
let server;
let chainId;

async function bridgeClient(key, extraEnv = {}) {
  const errors = [];
  const transport = new StdioClientTransport({
    command: BINARY,
    args: ['mcp', '--server', server.baseUrl],
    env: { ...sanitizerEnv, PATH: process.env.PATH, DATAPIPELINES_API_KEY: key, ...extraEnv },
    stderr: 'pipe',
  });
  transport.onerror = (e) => errors.push(e);
  const client = new Client({ name: 'e2e-stdio', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, errors, process: transport._process };
}

/** Runs the bridge with raw stdin lines; resolves {code, stdout, stderr} once it exits. */
function runBridge(lines, env, args = ['mcp', '--server', server.baseUrl]) {
  return new Promise((resolve) => {
    const proc = spawn(BINARY, args, { env: { ...sanitizerEnv, PATH: process.env.PATH, ...env } });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => { stdout += d; });
    proc.stderr.on('data', (d) => { stderr += d; });
    proc.on('close', (code) => resolve({ code, stdout, stderr }));
    proc.stdin.end(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  });
}

const initialize = (id) => ({ jsonrpc: '2.0', id, method: 'initialize', params: {
  protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

describe('stdio bridge', () => {
  before(async () => {
    demo = await startDemoServer({ trips: 500 });
    server = demo.server;
  });
  after(async () => { if (demo) await demo.cleanup(); });

  it('serves the same handshake and tool list as the HTTP transport', async () => {
    const bridged = await bridgeClient(server.adminKey);
    const direct = await sdkClient(server, server.adminKey);
    try {
      assert.deepEqual(bridged.client.getServerVersion(), direct.client.getServerVersion());
      assert.deepEqual(bridged.client.getServerCapabilities(),
        direct.client.getServerCapabilities());
      const viaBridge = (await bridged.client.listTools()).tools.map((t) => t.name);
      const viaHttp = (await direct.client.listTools()).tools.map((t) => t.name);
      assert.deepEqual(viaBridge, viaHttp);
      const doc = await bridged.client.callTool({ name: 'docs_get', arguments: { name: 'skill' } });
      assert.notEqual(doc.isError, true);
      assert.deepEqual(bridged.errors, [], 'every stdout line was a protocol message');
    } finally {
      await direct.client.close();
      const proc = bridged.process;
      await bridged.client.close();
      assert.equal(proc.exitCode, 0, 'the bridge exits 0 when stdin closes');
    }
  });

  it('forwards the progress notifications of a long pipelines_execute, then its result',
    async () => {
      const { client, errors } = await bridgeClient(server.adminKey);
      try {
        const call = async (name, args) => {
          const result = await client.callTool({ name, arguments: args }, undefined,
            { timeout: 120_000 });
          assert.notEqual(result.isError, true, JSON.stringify(result));
          return JSON.parse(result.content[0].text);
        };
        await call('templates_create', { id: 'bridge/count_to', dialect: 'SQLITE',
          display_name: 'count_to', description: 'Counts to :upto.', confirm_new_root: true,
          body: 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c '
            + 'WHERE n < :upto) SELECT COUNT(*) AS n FROM c' });
        await call('templates_create', { id: 'bridge/sum', dialect: 'SQLITE',
          display_name: 'sum', description: 'Adds both counts.',
          body: 'SELECT (SELECT n FROM stg_a) + (SELECT n FROM stg_b) AS total' });
        // The authoring loop the server enforces: render each draft before running it.
        await call('templates_render', { id: 'bridge/count_to', context: { upto: 3 } });
        await call('templates_render', { id: 'bridge/sum', context: {} });
        const pipeline = await call('pipelines_create', {
          name: 'bridge/two_counts', display_name: 'Two counts added',
          description: 'Counts to upto twice and adds the counts. Parameter: upto.',
          parameters: { upto: { type: 'INTEGER', required: false, default: UPTO } },
          nodes: [
            { id: 'count_a', description: 'The first count.', type: 'DQL', source: 'demo',
              template: { id: 'bridge/count_to', version: 1 },
              output: { target: 'tempdb', table: 'stg_a' }, depends_on: [] },
            { id: 'count_b', description: 'The second count.', type: 'DQL', source: 'demo',
              template: { id: 'bridge/count_to', version: 1 },
              output: { target: 'tempdb', table: 'stg_b' }, depends_on: ['count_a'] },
            { id: 'total', description: 'Both counts added.', type: 'DQL', source: 'tempdb',
              template: { id: 'bridge/sum', version: 1 }, depends_on: ['count_b'] },
          ],
        });
        const events = [];
        const result = await client.callTool(
          { name: 'pipelines_execute', arguments: { id: pipeline.id, parameters: {} } },
          undefined, { onprogress: (p) => events.push(p), timeout: 120_000 });
        chainId = pipeline.id;
        assert.notEqual(result.isError, true, JSON.stringify(result));
        assert.deepEqual(JSON.parse(result.content[0].text).rows, [[2 * UPTO]]);
        // The SDK runs notification handlers a microtask late, so progress that arrives in the
        // same stdout read as the response is dropped by the client (on a fast machine the
        // last two nodes finish together); what it did see is an in-order prefix. The raw case
        // below proves the bridge wrote every notification, in order.
        const expected = ['node count_a: SUCCESS', 'node count_b: SUCCESS', 'node total: SUCCESS'];
        assert.ok(events.length >= 1, 'the first node\'s progress arrives on its own');
        assert.deepEqual(events.map((e) => e.message), expected.slice(0, events.length));
        assert.deepEqual(errors, []);
      } finally {
        await client.close();
      }
    });

  it('writes each SSE event of the answer as one stdout line, in order', async () => {
    assert.ok(chainId, 'the pipeline of the case above');
    const { code, stdout } = await runBridge([initialize(1), { jsonrpc: '2.0', id: 2,
      method: 'tools/call', params: { name: 'pipelines_execute',
        arguments: { id: chainId, parameters: {} }, _meta: { progressToken: 'raw' } } }],
    { DATAPIPELINES_API_KEY: server.adminKey });
    assert.equal(code, 0);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines[0].id, 1);
    assert.deepEqual(lines.slice(1, 4).map((l) => [l.method, l.params.progress, l.params.message]),
      [1, 2, 3].map((n) => ['notifications/progress', n,
        `node ${['count_a', 'count_b', 'total'][n - 1]}: SUCCESS`]));
    assert.equal(lines[4].id, 2);
    assert.deepEqual(JSON.parse(lines[4].result.content[0].text).rows, [[2 * UPTO]]);
    assert.equal(lines.length, 5, 'nothing but protocol on stdout');
  });

  it('answers every request with its id when the server refuses the key', async () => {
    const { code, stdout } = await runBridge([initialize(7), { jsonrpc: '2.0', id: 'x', method: 'ping' }],
      { DATAPIPELINES_API_KEY: 'dpk_NOTAKEY0000_notasecretatall' });
    assert.equal(code, 0);
    const answers = stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(answers.map((a) => a.id).sort(), [7, 'x'].sort());
    for (const answer of answers) {
      assert.equal(answer.jsonrpc, '2.0');
      assert.match(answer.error.message, /HTTP 401/);
      assert.ok(!answer.error.message.includes('notasecret'), 'the key is never echoed');
    }
  });

  it('answers a JSON-RPC error when the server is unreachable, and exits 0 at end of input',
    async () => {
      const { code, stdout, stderr } = await runBridge([initialize(1)],
        { DATAPIPELINES_API_KEY: server.adminKey },
        ['mcp', '--server', 'http://127.0.0.1:1']);
      assert.equal(code, 0);
      const answer = JSON.parse(stdout.trim());
      assert.equal(answer.id, 1);
      assert.equal(answer.error.code, -32603);
      assert.match(stderr, /connecting to 127\.0\.0\.1:1 failed/);
      assert.ok(!stderr.includes(server.adminKey) && !stdout.includes(server.adminKey));
    });

  it('refuses to start without the key variable, and never takes the key as a flag', async () => {
    const missing = await runBridge([], {});
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /DATAPIPELINES_API_KEY/);
    assert.equal(missing.stdout, '');
    const named = await runBridge([], { MY_KEY: server.adminKey },
      ['mcp', '--server', server.baseUrl, '--key-env', 'MY_KEY']);
    assert.equal(named.code, 0);
    const flag = await runBridge([], {}, ['mcp', '--server', server.baseUrl, '--key', 'dpk_x']);
    assert.notEqual(flag.code, 0);
    const ftp = await runBridge([], { DATAPIPELINES_API_KEY: 'k' },
      ['mcp', '--server', 'ftp://example.test']);
    assert.equal(ftp.code, 2);
    assert.match(ftp.stderr, /http:\/\/ or https:\/\//);
  });

  it('speaks TLS to an https:// server, verifying its certificate and host name', async () => {
    // A throwaway certificate for localhost and a TLS front that forwards to the server.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dp-e2e-tls-'));
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile,
      '-out', certFile, '-days', '1', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost'], { stdio: 'ignore' });
    const front = https.createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) },
      (req, res) => {
        const upstream = http.request({ host: '127.0.0.1', port: server.port, path: req.url,
          method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode, answer.headers);
          answer.pipe(res);
        });
        req.pipe(upstream);
      });
    await new Promise((resolve) => front.listen(0, '127.0.0.1', resolve));
    const url = `https://localhost:${front.address().port}`;
    try {
      const trusted = await runBridge([initialize(1)], { DATAPIPELINES_API_KEY: server.adminKey },
        ['mcp', '--server', url, '--ca-file', certFile]);
      assert.equal(trusted.code, 0, trusted.stderr);
      assert.equal(JSON.parse(trusted.stdout).result.serverInfo.name, 'datapipelines');
      const untrusted = await runBridge([initialize(2)], { DATAPIPELINES_API_KEY: server.adminKey },
        ['mcp', '--server', url]);
      const refused = JSON.parse(untrusted.stdout);
      assert.equal(refused.id, 2);
      assert.match(refused.error.message, /TLS handshake/);
      assert.match(untrusted.stderr, /certificate verify failed/);
    } finally {
      front.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
