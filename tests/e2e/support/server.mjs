// Spawns a real datapipelines server for one test file: a free loopback port, a fresh temp
// data dir, chosen env; operator CLI calls share the same env so they hit the same SQLite file.
import { spawn, spawnSync } from 'node:child_process';
import { before, after } from 'node:test';
import { mkdtempSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordEnvSecrets, recordSecret } from './secrets.mjs';
import { tlsFetch } from './tls_fetch.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const BINARY =
  process.env.DP_BINARY ?? path.resolve(here, '../../../build/datapipelines');

export const ADMIN_EMAIL = 'admin@e2e.test';
export const ADMIN_PASSWORD = 'e2e-admin-password-123';
export const USER_PASSWORD = 'e2e-user-password-1234';
recordSecret(ADMIN_PASSWORD);
recordSecret(USER_PASSWORD);

/** A port nobody listens on right now (bound then released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export class DpServer {
  constructor(env, dataDir, port) {
    this.env = env;
    this.dataDir = dataDir;
    this.port = port;
    this.baseUrl = `http://127.0.0.1:${port}`;
    this.mcpUrl = `${this.baseUrl}/mcp`;
    this.log = '';
    this.proc = null;
    this.exit = null; // resolves to {code, signal}
    this.issuedKeys = []; // plaintext keys, to prove none reaches the log
  }

  /** Runs an operator CLI command against the same data dir; --json output is parsed. */
  cli(args, { stdin, allowFail = false } = {}) {
    const res = spawnSync(BINARY, args, {
      env: this.env,
      input: stdin ?? '',
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (res.status !== 0 && !allowFail) {
      throw new Error(`CLI ${args[0]} ${args[1] ?? ''} failed (${res.status ?? res.signal}): `
        + `${res.error?.message ?? ''}${res.stdout ?? ''}${res.stderr ?? ''}`);
    }
    if (args.includes('--json') && res.stdout.trim()) {
      try {
        return { status: res.status, json: JSON.parse(res.stdout), stderr: res.stderr };
      } catch {
        /* fall through: not JSON */
      }
    }
    return { status: res.status, stdout: res.stdout, stderr: res.stderr };
  }

  /** First admin, workspace "default" and its author key (printed once). */
  bootstrap() {
    const out = this.cli([
      'bootstrap', '--admin-email', ADMIN_EMAIL, '--admin-password', ADMIN_PASSWORD, '--json',
    ]).json;
    this.adminKey = out.key.api_key;
    this.issuedKeys.push(this.adminKey);
    recordSecret(this.adminKey);
    this.workspace = 'default';
    return out;
  }

  createUser(email, role = 'author,promoter', { workspace = 'default' } = {}) {
    this.cli(['users', 'create', '--email', email, '--name', email.split('@')[0],
      '--password-stdin', '--json'], { stdin: `${USER_PASSWORD}\n` });
    if (role) this.cli(['members', 'set', '--workspace', workspace, '--email', email, '--flags', role]);
  }

  /** Returns {id, api_key, ...} of a newly issued key. */
  createKey(email, { scope = 'read', kind = 'user', name, expiresAt, workspace = 'default' } = {}) {
    const args = ['keys', 'create', '--email', email, '--workspace', workspace,
      '--name', name ?? `k-${Math.random().toString(36).slice(2, 8)}`,
      '--scope', scope, '--kind', kind, '--json'];
    if (expiresAt) args.push('--expires-at', expiresAt);
    const key = this.cli(args).json;
    this.issuedKeys.push(key.api_key);
    recordSecret(key.api_key);
    return key;
  }

  /** Spawns `command` (the binary and its arguments) with this server's env; resolves once
   * healthy, or kills it and rejects. The log is kept whole: auth.test.mjs scans it for leaked
   * secrets, and scripts/test sweeps every log of the run for the test services' password. */
  async launch([command, ...args]) {
    this.proc = spawn(command, args, { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const append = (chunk) => { this.log += chunk.toString(); };
    this.proc.stdout.on('data', append);
    this.proc.stderr.on('data', append);
    this.exit = new Promise((resolve) => {
      this.proc.on('exit', (code, signal) => {
        if (process.env.DP_E2E_LOG_DIR) {
          writeFileSync(path.join(process.env.DP_E2E_LOG_DIR,
            `server-${this.port}-${Date.now()}.log`), this.log);
        }
        resolve({ code, signal });
      });
      this.proc.on('error', (err) => {
        this.log += `spawn error: ${err.message}\n`;
        resolve({ code: -1, signal: null });
      });
    });
    try {
      await this.waitHealthy();
    } catch (err) {
      await this.stop('SIGKILL');
      throw err;
    }
  }

  async waitHealthy(timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.proc.exitCode !== null || this.log.includes('spawn error:')) {
        throw new Error(`server exited early (${this.proc.exitCode}):\n${this.log}`);
      }
      try {
        const res = await (this.fetch ?? fetch)(`${this.baseUrl}/healthz`);
        if (res.status === 200) return;
      } catch {
        /* not listening yet */
      }
      await sleep(50);
    }
    throw new Error(`server not healthy within ${timeoutMs} ms:\n${this.log}`);
  }

  /** Sends a signal and waits for exit; SIGKILL after timeoutMs. */
  async stop(signal = 'SIGTERM', timeoutMs = 10_000) {
    if (!this.proc || this.proc.exitCode !== null || this.proc.signalCode !== null) {
      return this.exit;
    }
    this.proc.kill(signal);
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), timeoutMs);
    const result = await this.exit;
    clearTimeout(timer);
    return result;
  }

  cleanup() {
    if (existsSync(this.dataDir)) rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * Starts `datapipelines serve` with a fresh data dir. Rate limits default high so that tests
 * measure behaviour, not the limiter; pass env to override anything.
 */
/**
 * `wrapper` runs the server under a command that execs it (e.g. ['prlimit', '--nofile=96:96']),
 * so the process (and proc.pid) is the server itself.
 */
// A ThreadSanitizer run (scripts/test --tsan) hands its suppressions and exit code to every
// server it starts; the servers get a chosen env, so they are passed on explicitly.
export const sanitizerEnv = process.env.TSAN_OPTIONS ? { TSAN_OPTIONS: process.env.TSAN_OPTIONS } : {};

// `port` fixes the port (a config naming the server's own URL needs it before the start).
export async function startServer(env = {}, { bootstrap = true, tls, wrapper = [], port: fixedPort } = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dp-e2e-'));
  const port = fixedPort ?? await freePort();
  const fullEnv = {
    ...sanitizerEnv,
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? dataDir,
    DATAPIPELINES_DATA_DIR: dataDir,
    SERVER_PORT: String(port),
    DATAPIPELINES_RATE_LIMIT_REQUESTS_PER_SECOND: '100000',
    DATAPIPELINES_RATE_LIMIT_REQUESTS_PER_MINUTE: '1000000',
    DATAPIPELINES_AUTH_RATE_LIMIT_LOGIN_PER_MINUTE: '1000000',
    DATAPIPELINES_SHUTDOWN_GRACE_SECONDS: '10',
    ...env,
  };
  recordEnvSecrets(fullEnv);
  const server = new DpServer(fullEnv, dataDir, port);
  if (tls) { // {ca}: the server serves TLS with a certificate for localhost signed by ca
    server.baseUrl = `https://localhost:${port}`;
    server.mcpUrl = `${server.baseUrl}/mcp`;
    server.fetch = tlsFetch(tls.ca);
  }
  try {
    if (bootstrap) server.bootstrap();
  } catch (err) {
    server.cleanup();
    throw err;
  }
  try {
    await server.launch([...wrapper, BINARY, 'serve']);
  } catch (err) {
    server.cleanup();
    throw err;
  }
  return server;
}

/** Registers before/after hooks of node:test that start and stop one server. */
export function useServer(env = {}, opts = {}) {
  const holder = {};
  before(async () => {
    holder.server = await startServer(env, opts);
  });
  after(async () => {
    if (holder.server) {
      await holder.server.stop('SIGKILL');
      holder.server.cleanup();
    }
  });
  return holder;
}
