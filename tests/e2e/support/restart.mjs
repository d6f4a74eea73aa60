// Restarting a server on the SAME data dir and config (crash_recovery.test.mjs): a new
// `datapipelines serve` process with the env of an earlier DpServer — same metadata store, same
// encryption key (file or env), same bootstrap files — on a fresh loopback port, no bootstrap.
import { recordEnvSecrets } from './secrets.mjs';
import { BINARY, DpServer, freePort } from './server.mjs';

/** Spawns `serve` with `env` on `dataDir`; resolves the healthy DpServer. */
export async function spawnOn(env, dataDir, { port } = {}) {
  const p = port ?? await freePort();
  const fullEnv = { ...env, SERVER_PORT: String(p) };
  recordEnvSecrets(fullEnv);
  const server = new DpServer(fullEnv, dataDir, p);
  await server.launch([BINARY, 'serve']);
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
