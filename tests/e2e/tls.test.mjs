// Native TLS (issue 18, spec §13 "all MCP traffic over TLS"): the official SDK client over
// https with a throwaway certificate, HSTS and Secure cookies, a plain-HTTP request to the TLS
// port answered 400, TLS < 1.2 refused, the certificate reloaded on SIGHUP without dropping an
// open connection, and a non-loopback bind without TLS refused at start.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { describe, it, before, after } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BINARY, ADMIN_EMAIL, ADMIN_PASSWORD, startServer, freePort, sanitizerEnv } from './support/server.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'dp-e2e-tls-'));
const certFile = path.join(dir, 'cert.pem');
const keyFile = path.join(dir, 'key.pem');

/** A self-signed certificate for localhost written to certFile/keyFile (atomically). */
function makeCertificate(commonName) {
  const cert = path.join(dir, `${commonName}.cert.pem`);
  const key = path.join(dir, `${commonName}.key.pem`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256',
    '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', `/CN=${commonName}`,
    '-addext', 'subjectAltName=DNS:localhost'], { stdio: 'ignore' });
  return { cert, key, pem: readFileSync(cert) };
}

/** The certificate a fresh TLS connection is served, as a fingerprint. */
function servedFingerprint(port, ca) {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername: 'localhost', ca }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
    socket.on('error', reject);
  });
}

/** GET over https; {status, headers, body}. */
function httpsGet(port, pathName, { ca, agent, headers = {}, method = 'GET', body } = {}) {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', servername: 'localhost', port, path: pathName,
      method, ca, agent: agent ?? false, headers }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let server;
let first;
const caBundle = [];

describe('native TLS', () => {
  before(async () => {
    first = makeCertificate('dp-first');
    renameSync(first.cert, certFile);
    renameSync(first.key, keyFile);
    caBundle.push(first.pem);
    server = await startServer({ SERVER_TLS_CERTIFICATE_FILE: certFile,
      SERVER_TLS_PRIVATE_KEY_FILE: keyFile }, { tls: { ca: caBundle } });
  });
  after(async () => {
    if (server) {
      await server.stop('SIGKILL');
      server.cleanup();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the MCP SDK client over https', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
      requestInit: { headers: { 'DP-API-Key': server.adminKey } }, fetch: server.fetch });
    const client = new Client({ name: 'e2e-tls', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'docs_get'));
      const doc = await client.callTool({ name: 'docs_get', arguments: { name: 'skill' } });
      assert.notEqual(doc.isError, true);
    } finally {
      await client.close();
    }
  });

  it('sends HSTS, and marks the session cookie Secure', async () => {
    const health = await httpsGet(server.port, '/healthz', { ca: caBundle });
    assert.equal(health.status, 200);
    assert.match(health.headers['strict-transport-security'], /^max-age=\d+/);
    const login = await httpsGet(server.port, '/api/v1/auth/login', { ca: caBundle,
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }) });
    assert.equal(login.status, 200, login.body);
    const session = login.headers['set-cookie'].find((c) => c.startsWith('dp_session='));
    assert.match(session, /; Secure/);
  });

  it('answers plain HTTP on the TLS port with 400 and closes', async () => {
    const answer = await new Promise((resolve, reject) => {
      const socket = net.connect(server.port, '127.0.0.1', () => {
        socket.write(`GET /healthz HTTP/1.1\r\nHost: localhost:${server.port}\r\n\r\n`);
      });
      let text = '';
      socket.on('data', (d) => { text += d; });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.match(answer, /HTTPS only/);
  });

  it('refuses TLS 1.1', async () => {
    // SECLEVEL=0 lets this client offer TLS 1.0/1.1, so the refusal is the server's; the same
    // client capped at TLS 1.2 connects (the control that proves the options work).
    const connect = (maxVersion) => new Promise((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port: server.port, servername: 'localhost',
        ca: caBundle, minVersion: 'TLSv1', maxVersion, ciphers: 'DEFAULT:@SECLEVEL=0' }, () => {
        resolve(socket.getProtocol());
        socket.end();
      });
      socket.on('error', reject);
    });
    assert.equal(await connect('TLSv1.2'), 'TLSv1.2');
    await assert.rejects(connect('TLSv1.1'), /protocol version|alert|handshake/i);
  });

  it('reloads the certificate on SIGHUP without dropping an open connection', async () => {
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
    const before = await httpsGet(server.port, '/healthz', { ca: caBundle, agent });
    assert.equal(before.status, 200);
    const oldPrint = await servedFingerprint(server.port, caBundle);
    const second = makeCertificate('dp-second');
    caBundle.push(second.pem);
    renameSync(second.cert, certFile);
    renameSync(second.key, keyFile);
    server.proc.kill('SIGHUP');
    let newPrint = oldPrint;
    for (let i = 0; i < 100 && newPrint === oldPrint; ++i) {
      await new Promise((r) => setTimeout(r, 50));
      newPrint = await servedFingerprint(server.port, caBundle);
    }
    assert.notEqual(newPrint, oldPrint, 'new connections get the reloaded certificate');
    assert.match(server.log, /tls: certificate reloaded/);
    // The keep-alive connection opened before the reload still serves requests.
    const afterReload = await httpsGet(server.port, '/healthz', { ca: caBundle, agent });
    assert.equal(afterReload.status, 200);
    agent.destroy();
  });

  it('keeps serving the old certificate when the reloaded files are bad', async () => {
    const printBefore = await servedFingerprint(server.port, caBundle);
    const bad = path.join(dir, 'bad.pem');
    execFileSync('sh', ['-c', `echo not-a-certificate > ${bad}`]);
    renameSync(bad, certFile);
    server.proc.kill('SIGHUP');
    for (let i = 0; i < 100 && !/tls: reload failed/.test(server.log); ++i) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.match(server.log, /tls: reload failed, still serving the previous certificate/);
    assert.equal(await servedFingerprint(server.port, caBundle), printBefore);
  });
});

describe('binding beyond loopback', () => {
  it('refuses to start without TLS unless a proxy terminates it', async () => {
    const data = mkdtempSync(path.join(os.tmpdir(), 'dp-e2e-bind-'));
    try {
      const env = { ...sanitizerEnv, PATH: process.env.PATH, DATAPIPELINES_DATA_DIR: data,
        SERVER_ADDRESS: '0.0.0.0', SERVER_PORT: String(await freePort()) };
      const refused = spawnSync(BINARY, ['migrate'], { env, encoding: 'utf8', timeout: 30_000 });
      assert.equal(refused.status, 2, refused.stderr);
      assert.match(refused.stderr, /not loopback and TLS is off/);
      const proxied = spawnSync(BINARY, ['migrate'], { env: { ...env,
        SERVER_TLS_TERMINATED_UPSTREAM: 'true' }, encoding: 'utf8', timeout: 30_000 });
      assert.equal(proxied.status, 0, proxied.stderr);
      const half = spawnSync(BINARY, ['migrate'], { env: { ...env,
        SERVER_TLS_CERTIFICATE_FILE: certFile }, encoding: 'utf8', timeout: 30_000 });
      assert.equal(half.status, 2);
      assert.match(half.stderr, /server\.tls\.private-key-file' is missing/);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
