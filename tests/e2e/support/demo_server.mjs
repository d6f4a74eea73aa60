// A server with the demo datasource registered, as demo.test.mjs starts it: `datapipelines
// demo-data` writes the deterministic city-mobility SQLite file, a bootstrap datasources file
// registers it readonly as `demo` and grants it to `default`. Returns the DpServer plus a
// cleanup that stops it and removes the generated file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BINARY, startServer } from './server.mjs';

export async function startDemoServer({ trips = 2000, env = {} } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dp-e2e-demo-'));
  const db = path.join(dir, 'demo.sqlite');
  const gen = spawnSync(BINARY, ['demo-data', '--sqlite', db, '--trips', String(trips)],
    { encoding: 'utf8', timeout: 60_000 });
  if (gen.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`demo-data failed: ${gen.stdout}${gen.stderr}`);
  }
  const bootstrapFile = path.join(dir, 'bootstrap-datasources.yaml');
  writeFileSync(bootstrapFile, [
    'datasources:',
    '  - name: demo',
    '    display_name: Demo — city mobility',
    '    description: Deterministic demo data',
    '    dialect: SQLITE',
    `    jdbc_url: jdbc:sqlite:${db}`,
    '    readonly: true',
    '    grants: [default]',
    '',
  ].join('\n'));
  let server;
  try {
    server = await startServer({ DATAPIPELINES_BOOTSTRAP_DATASOURCES_FILE: bootstrapFile, ...env });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const cleanup = async () => {
    await server.stop('SIGKILL');
    server.cleanup();
    rmSync(dir, { recursive: true, force: true });
  };
  return { server, cleanup };
}
