// A datasource's database server restarted under a running server (PostgreSQL: pg_ctl -m fast
// stop + start; MariaDB: mariadbd killed and started again). The connection the server keeps
// pooled for that datasource is dead afterwards; the FIRST execution after the restart must
// still succeed — the server notices the stale connection and retries once on a fresh one —
// rather than fail the run with a driver error the user can do nothing about.
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { startServer } from '../e2e/support/server.mjs';
import {
  adminSession, assertAlive, execute, oneNodePipeline, registerDatasource, rest, show,
} from './support/client.mjs';
import {
  MYSQL_URL, PG_URL, mariadbPing, postgresRunning, restartMariadb, restartPostgres,
  servicesMissing, startPostgres,
} from './support/faults.mjs';

const missing = servicesMissing();

let server;
const pipelines = {};

async function runOk(name, what) {
  const res = await execute(server, server.adminKey, pipelines[name].id, { timeoutMs: 30_000 })
    .catch((err) => { assertAlive(server); throw err; });
  assert.equal(res.status, 200, `${what}: ${show(res)}`);
  assert.equal(res.json.data.status, 'SUCCESS', `${what}: ${show(res)}`);
  const page = await rest(server, 'GET', `/api/v1/executions/${res.json.data.execution_id}/result`,
    { auth: server.adminKey });
  assert.equal(page.status, 200, show(page));
  return res.json.data;
}

describe('datasource database servers restarted under a running server', { skip: missing ?? false }, () => {
  before(async () => {
    server = await startServer();
    const session = await adminSession(server);
    await registerDatasource(server, session, { name: 'pg', url: PG_URL, dialect: 'POSTGRES' });
    pipelines.pg = await oneNodePipeline(server, server.adminKey, {
      name: 'faults/ds/pg', source: 'pg', dialect: 'POSTGRES',
      sql: 'SELECT g AS n, current_setting(\'server_version\') AS v FROM generate_series(1, 100) AS g',
    });
    if (MYSQL_URL) {
      await registerDatasource(server, session, { name: 'maria', url: MYSQL_URL, dialect: 'MYSQL' });
      pipelines.maria = await oneNodePipeline(server, server.adminKey, {
        name: 'faults/ds/maria', source: 'maria', dialect: 'MYSQL',
        sql: 'SELECT 1 AS one, VERSION() AS v',
      });
    }
  });

  after(async () => {
    if (!postgresRunning()) startPostgres();
    if (server) {
      await server.stop('SIGTERM');
      server.cleanup();
    }
  });

  describe('PostgreSQL', () => {
    it('an execution against it succeeds (its connection is pooled)', async () => {
      await runOk('pg', 'before the restart');
      await runOk('pg', 'before the restart, again');
    });

    it('after a restart, the FIRST execution succeeds', async () => {
      restartPostgres();
      await runOk('pg', 'the first execution after the restart');
    });

    it('and the next ones too', async () => {
      await runOk('pg', 'the second execution after the restart');
    });

    it('two restarts in a row, then two executions at once: both succeed', async () => {
      // Two pooled connections this time, both stale.
      await Promise.all([runOk('pg', 'warm 1'), runOk('pg', 'warm 2')]);
      restartPostgres();
      restartPostgres();
      await Promise.all([runOk('pg', 'concurrent 1 after the restarts'),
        runOk('pg', 'concurrent 2 after the restarts')]);
    });
  });

  describe('MariaDB', { skip: MYSQL_URL ? false : 'no DP_TEST_MYSQL_URL' }, () => {
    it('an execution against it succeeds (its connection is pooled)', async () => {
      await runOk('maria', 'before the restart');
    });

    it('after a restart, the FIRST execution succeeds', async () => {
      await restartMariadb();
      assert.ok(mariadbPing());
      await runOk('maria', 'the first execution after the restart');
    });

    it('and the next one too', async () => {
      await runOk('maria', 'the second execution after the restart');
    });
  });
});
