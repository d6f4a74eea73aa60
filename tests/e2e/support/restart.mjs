// Restarting a server on the SAME data dir and config (crash_recovery.test.mjs): a new
// `datapipelines serve` process with the env of an earlier DpServer — same metadata store, same
// encryption key (file or env), same bootstrap files — on a fresh loopback port, no bootstrap.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { recordEnvSecrets } from './secrets.mjs';
import { BINARY, DpServer, freePort } from './server.mjs';

/** Spawns `serve` with `env` on `dataDir`; resolves the healthy DpServer. */
export async function spawnOn(env, dataDir, { port } = {}) {
  const p = port ?? await freePort();
  const fullEnv = { ...env, SERVER_PORT: String(p) };
  recordEnvSecrets(fullEnv);
  const server = new DpServer(fullEnv, dataDir, p);
  server.proc = spawn(BINARY, ['serve'], { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const append = (chunk) => { server.log += chunk.toString(); };
  server.proc.stdout.on('data', append);
  server.proc.stderr.on('data', append);
  server.exit = new Promise((resolve) => {
    server.proc.on('exit', (code, signal) => {
      if (process.env.DP_E2E_LOG_DIR) {
        writeFileSync(path.join(process.env.DP_E2E_LOG_DIR, `server-${p}-${Date.now()}.log`),
          server.log);
      }
      resolve({ code, signal });
    });
    server.proc.on('error', (err) => {
      server.log += `spawn error: ${err.message}\n`;
      resolve({ code: -1, signal: null });
    });
  });
  try {
    await server.waitHealthy();
  } catch (err) {
    await server.stop('SIGKILL');
    throw err;
  }
  return server;
}

/**
 * A new process for `old` (already dead): same env and data dir, the same credentials
 * (adminKey, workspace) carried over. `envOverrides` may only add knobs the test needs.
 */
export async function restart(old, envOverrides = {}) {
  const { SERVER_PORT: _ignored, ...env } = old.env;
  const server = await spawnOn({ ...env, ...envOverrides }, old.dataDir);
  server.adminKey = old.adminKey;
  server.workspace = old.workspace;
  server.issuedKeys = [...old.issuedKeys];
  return server;
}
