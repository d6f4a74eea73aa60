// Fault injection against the suite's own throwaway services (tests/faults/run starts them with
// scripts/test-services under $DP_SERVICES_DIR): PostgreSQL stopped, started, restarted with the
// options scripts/test-services uses; Redis killed and started again with its own arguments, or
// frozen with SIGSTOP; MariaDB killed and started again; a small tmpfs filled to the last byte.
// Every fault is undone by the caller in a finally, and — should the test process die first —
// by the exit hook below (Redis thawed, tmpfs unmounted) and by tests/faults/run's trap.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sleep } from './client.mjs';

export const SERVICES_DIR = process.env.DP_SERVICES_DIR;
export const PG_URL = process.env.DP_TEST_PG_URL;
export const PG_META_URL = process.env.DP_TEST_PG_META_URL;
export const REDIS_URL = process.env.DP_TEST_REDIS_URL;
export const MYSQL_URL = process.env.DP_TEST_MYSQL_URL;
export const IS_ROOT = process.getuid?.() === 0;

/** Why the suite cannot inject faults here, or null. */
export function servicesMissing() {
  if (!SERVICES_DIR || !existsSync(path.join(SERVICES_DIR, 'env'))) {
    return 'DP_SERVICES_DIR is not set to a directory scripts/test-services started (run tests/faults/run)';
  }
  if (!PG_URL || !REDIS_URL) return 'DP_TEST_PG_URL / DP_TEST_REDIS_URL are not set';
  return null;
}

function run(cmd, args, { timeout = 60_000, allowFail = false, input } = {}) {
  const res = spawnSync(cmd, args, { encoding: 'utf8', timeout, input });
  if (!allowFail && res.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${res.status ?? res.signal}): `
      + `${res.error?.message ?? ''}${res.stdout ?? ''}${res.stderr ?? ''}`);
  }
  return res;
}

const portOf = (url) => new URL(url).port;

// ---------------------------------------------------------------- PostgreSQL

function pgBin() {
  const root = '/usr/lib/postgresql';
  const versions = readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(a) - Number(b));
  return path.join(root, versions.at(-1), 'bin');
}

function asPostgres(cmd, args, opts) {
  return IS_ROOT ? run('runuser', ['-u', 'postgres', '--', cmd, ...args], opts) : run(cmd, args, opts);
}

const pgData = () => path.join(SERVICES_DIR, 'pg');

/** The same server options scripts/test-services starts PostgreSQL with. */
function pgOptions() {
  const data = pgData();
  return `-c listen_addresses=127.0.0.1 -p ${portOf(PG_URL)} -k ${data} -c fsync=off `
    + '-c synchronous_commit=off -c full_page_writes=off -c max_connections=200';
}

export function postgresRunning() {
  return run('pg_isready', ['-h', '127.0.0.1', '-p', portOf(PG_URL), '-t', '1'], { allowFail: true }).status === 0;
}

/** `pg_ctl -m fast stop`: every open connection is closed, new ones refused. */
export function stopPostgres() {
  asPostgres(path.join(pgBin(), 'pg_ctl'), ['-D', pgData(), '-m', 'fast', '-w', '-t', '30', 'stop']);
}

export function startPostgres() {
  if (postgresRunning()) return;
  asPostgres(path.join(pgBin(), 'pg_ctl'), ['-D', pgData(), '-l', path.join(pgData(), 'server.log'),
    '-w', '-t', '60', '-o', pgOptions(), 'start']);
}

export function restartPostgres() {
  stopPostgres();
  startPostgres();
}

/** psql against a URL; tuples only. */
export function psql(url, sql) {
  return run('psql', [url, '-v', 'ON_ERROR_STOP=1', '-At', '-c', sql], { timeout: 30_000 }).stdout.trim();
}

/**
 * A session of its own holding pg_advisory_lock(lockKey) on `url` until release(): a query
 * that takes pg_advisory_xact_lock(lockKey) waits exactly as long as the test wants.
 */
export async function holdAdvisoryLock(url, lockKey) {
  const holder = spawn('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q'], { stdio: ['pipe', 'ignore', 'ignore'] });
  holder.stdin.write(`SELECT pg_advisory_lock(${lockKey});\n`);
  const granted = () => psql(url, 'SELECT count(*) FROM pg_locks WHERE locktype = \'advisory\' '
    + `AND objid = ${lockKey} AND granted`) === '1';
  const deadline = Date.now() + 10_000;
  while (!granted()) {
    if (Date.now() > deadline) { holder.kill('SIGKILL'); throw new Error('advisory lock not taken'); }
    await sleep(50);
  }
  const exited = new Promise((r) => holder.on('exit', r));
  return {
    async release() {
      if (holder.exitCode === null && holder.signalCode === null) holder.kill('SIGKILL');
      await exited;
    },
  };
}

// ---------------------------------------------------------------- Redis

const redisDir = () => path.join(SERVICES_DIR, 'redis');
const redisPidFile = () => path.join(redisDir(), 'redis.pid');
let frozenPid = null;

export function redisPid() {
  return Number(readFileSync(redisPidFile(), 'utf8').trim());
}

const alive = (pid) => {
  try { process.kill(pid, 0); return true; } catch { return false; }
};

export function redisPing() {
  return run('redis-cli', ['-p', portOf(REDIS_URL), 'ping'], { allowFail: true, timeout: 2000 })
    .stdout?.trim() === 'PONG';
}

/** Kills Redis (SIGTERM, SIGKILL after 5 s) and waits for the process to go. */
export async function stopRedis() {
  const pid = redisPid();
  thawRedis();
  try { process.kill(pid, 'SIGTERM'); } catch { return; }
  const deadline = Date.now() + 5000;
  while (alive(pid) && Date.now() < deadline) await sleep(50);
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  while (alive(pid)) await sleep(20);
  if (existsSync(redisPidFile())) unlinkSync(redisPidFile());
}

/** Starts Redis with the arguments scripts/test-services uses; resolves once it answers PING. */
export async function startRedis() {
  if (redisPing()) return;
  const dir = redisDir();
  run('redis-server', ['--port', portOf(REDIS_URL), '--bind', '127.0.0.1', '--daemonize', 'yes',
    '--save', '', '--appendonly', 'no', '--dir', dir, '--pidfile', redisPidFile(),
    '--logfile', path.join(dir, 'redis.log')]);
  const deadline = Date.now() + 10_000;
  while (!redisPing()) {
    if (Date.now() > deadline) throw new Error('redis did not answer PING within 10 s of its start');
    await sleep(50);
  }
  while (!existsSync(redisPidFile())) await sleep(20);
}

export async function restartRedis() {
  await stopRedis();
  await startRedis();
}

/** SIGSTOP: the socket stays open, every command hangs. Always thawRedis() in a finally. */
export function freezeRedis() {
  frozenPid = redisPid();
  process.kill(frozenPid, 'SIGSTOP');
}

export function thawRedis() {
  const pid = frozenPid ?? (existsSync(redisPidFile()) ? redisPid() : null);
  frozenPid = null;
  if (pid) { try { process.kill(pid, 'SIGCONT'); } catch { /* gone */ } }
}

// ---------------------------------------------------------------- MariaDB

const mysqlPidFile = () => path.join(SERVICES_DIR, 'mysql.pid');
const mysqlSock = () => path.join(SERVICES_DIR, 'mysql.sock');

export function mariadbPing() {
  return run('mariadb-admin', [`--socket=${mysqlSock()}`, '-uroot', 'ping'],
    { allowFail: true, timeout: 3000 }).status === 0;
}

/** Kills mariadbd and starts it again with scripts/test-services' arguments. */
export async function restartMariadb() {
  const pid = Number(readFileSync(mysqlPidFile(), 'utf8').trim());
  try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ }
  let deadline = Date.now() + 20_000;
  while (alive(pid) && Date.now() < deadline) await sleep(50);
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  while (alive(pid)) await sleep(20);
  const child = spawn('mariadbd', ['--user=root', `--datadir=${path.join(SERVICES_DIR, 'mysql')}`,
    `--port=${portOf(MYSQL_URL)}`, '--bind-address=127.0.0.1', `--socket=${mysqlSock()}`,
    `--pid-file=${mysqlPidFile()}`, '--skip-log-bin', '--innodb-flush-log-at-trx-commit=0',
    `--log-error=${path.join(SERVICES_DIR, 'mysql.err')}`], { detached: true, stdio: 'ignore' });
  child.unref();
  deadline = Date.now() + 60_000;
  while (!mariadbPing()) {
    if (Date.now() > deadline) throw new Error('mariadbd did not answer within 60 s of its restart');
    await sleep(100);
  }
}

// ---------------------------------------------------------------- a small, full disk

const mounts = new Set();

/** null when a tmpfs can be mounted here (tried once: mount, unmount), else the reason. */
export function tmpfsUnavailable() {
  if (!IS_ROOT) return 'mounting a tmpfs needs root';
  const dir = mkdtempSync(path.join(process.env.DP_FAULTS_MOUNT_DIR ?? os.tmpdir(), 'dp-faults-probe-'));
  try {
    const res = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { encoding: 'utf8' });
    if (res.status !== 0) return `cannot mount a tmpfs here: ${(res.stderr || res.error?.message || '').trim()}`;
    spawnSync('umount', [dir]);
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Mounts a tmpfs of `sizeMiB` on a fresh directory and runs fn(dir); unmounts in a finally.
 * Resolves {skipped: reason} without running fn when mounting is impossible here.
 */
export async function withTmpfs(sizeMiB, fn) {
  const base = process.env.DP_FAULTS_MOUNT_DIR ?? os.tmpdir();
  const dir = mkdtempSync(path.join(base, 'dp-faults-tmpfs-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m,mode=0700`, 'tmpfs', dir],
    { encoding: 'utf8' });
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { skipped: `cannot mount a tmpfs here (${(mounted.stderr || mounted.error?.message || '').trim()})` };
  }
  mounts.add(dir);
  try {
    return await fn(dir);
  } finally {
    unmount(dir);
  }
}

function unmount(dir) {
  for (let i = 0; i < 20; i += 1) {
    if (spawnSync('umount', [dir]).status === 0) break;
    spawnSync('sleep', ['0.1']);
    if (i === 19) spawnSync('umount', ['-l', dir]);
  }
  mounts.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}

/** Bytes still free on the file system holding `dir`. */
export function freeBytes(dir) {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}

/**
 * Fills the file system of `dir` with `file` until not one more byte fits: fallocate of the
 * free space, then 4 KiB appends until ENOSPC (tmpfs rounds to pages).
 */
export function fillDisk(file) {
  const dir = path.dirname(file);
  const free = freeBytes(dir);
  if (free > 0) run('fallocate', ['-l', String(free), file], { allowFail: true });
  // Whatever is left (fallocate may have been refused for a byte or two): append until full.
  run('dd', ['if=/dev/zero', `of=${file}`, 'bs=4096', 'oflag=append', 'conv=notrunc'],
    { allowFail: true, timeout: 30_000 });
  return freeBytes(dir);
}

export function freeDisk(file) {
  rmSync(file, { force: true });
}

// Should the test process end with a fault still in place, undo it.
process.on('exit', () => {
  thawRedis();
  for (const dir of [...mounts]) unmount(dir);
});
