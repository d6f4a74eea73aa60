// Driver of bench/executor: pipeline execution over POST /mcp against a server whose
// PostgreSQL datasource `DP_BENCH_DATASOURCE` (default `pg`) sees the demo dataset (schema demo,
// 1M trips). Sections (BENCH_SECTIONS, comma-separated, default "latency,big,staged,dag"):
//   latency — a one-node `SELECT … LIMIT 1` pipeline (`pipelines_execute`) next to `sql_probe`
//             of the SAME statement on the same datasource (same HTTP + auth + JSON-RPC path and
//             the same pooled driver session, no executor) and a JSON-RPC ping (the client's
//             round-trip floor), alternating call by call, BENCH_CALLS of each per round;
//   big     — one pipeline whose caller node is `SELECT * FROM demo.trips` (BENCH_BIG_ROWS,
//             default all 1M): wall time of pipelines_execute until it answers (the whole result
//             is in the result store by then) → rows/s; with DP_BENCH_REDIS_URL set, each round
//             also times `redis-cli --pipe` of the same bytes (the rows the server stored, read
//             back from Redis for their count and total length) as RPUSH batches of 1000 — the
//             store's own write shape — and as SETs of 1 MiB values;
//   staged  — the same SELECT into `output: tempdb` and a tempdb caller node `SELECT count(*)`;
//   dag     — 9 independent nodes of ~100 ms on PostgreSQL (`pg_sleep(0.1)`), each staged to
//             tempdb, plus one tempdb node joining the nine, against the same 10 nodes with
//             the 9 chained (each depends on the previous).
// Rounds (BENCH_ROUNDS, default 3) interleave every section; the report takes medians. Prints one
// JSON object on stdout; progress on stderr. Every response is checked (an error or isError
// aborts the run). Loopback only: the URL must be 127.0.0.1.
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const base = process.env.DP_BENCH_URL;
const key = process.env.DP_BENCH_KEY;
const ds = process.env.DP_BENCH_DATASOURCE ?? 'pg';
const redisUrl = process.env.DP_BENCH_REDIS_URL ?? '';
const sections = new Set((process.env.BENCH_SECTIONS ?? 'latency,big,staged,dag').split(','));
const calls = Number(process.env.BENCH_CALLS ?? 200);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const warmup = Number(process.env.BENCH_WARMUP ?? 20);
const bigRows = Number(process.env.BENCH_BIG_ROWS ?? 1_000_000);
const prefix = process.env.BENCH_PREFIX ?? 'test/bench/exec';
if (!base || !key) throw new Error('DP_BENCH_URL and DP_BENCH_KEY are required');
const url = new URL(base);
if (url.hostname !== '127.0.0.1') throw new Error('loopback only: DP_BENCH_URL must be 127.0.0.1');
if (!(calls >= 1 && calls <= 5000 && rounds >= 1 && rounds <= 20 && warmup >= 0 && warmup <= 1000
  && bigRows >= 1 && bigRows <= 1_000_000)) {
  throw new Error('BENCH_CALLS 1..5000, BENCH_ROUNDS 1..20, BENCH_WARMUP 0..1000, BENCH_BIG_ROWS 1..1000000');
}
const log = (...a) => console.error('  ', ...a);

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function post(message) {
  const payload = Buffer.from(JSON.stringify(message));
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname, port: url.port, path: '/mcp', method: 'POST', agent,
      headers: {
        'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-06-18', 'DP-API-Key': key, 'Content-Length': payload.length,
      },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(660_000, () => req.destroy(new Error('request timed out after 660 s')));
    req.on('error', reject);
    req.end(payload);
  });
}
let rpcId = 0;
async function ping() {
  const { status, text } = await post({ jsonrpc: '2.0', id: ++rpcId, method: 'ping' });
  if (status !== 200 || !text.includes('"result":{}')) throw new Error(`ping: ${status} ${text.slice(0, 200)}`);
}
// pipelines_execute answers as an SSE stream (event: message, one data: line per JSON-RPC
// message); everything else as plain JSON. Returns the response with our id.
function parseRpc(text, id) {
  if (!text.startsWith('event:') && !text.startsWith('data:')) return JSON.parse(text);
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const m = JSON.parse(line.slice(5));
    if (m.id === id) return m;
  }
  throw new Error(`no JSON-RPC response with id ${id} in the SSE stream: ${text.slice(0, 300)}`);
}
async function tool(name, args) {
  const id = ++rpcId;
  const { status, text } = await post({
    jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args },
  });
  if (status !== 200) throw new Error(`${name}: HTTP ${status}: ${text.slice(0, 400)}`);
  const msg = parseRpc(text, id);
  if (msg.error) throw new Error(`${name}: JSON-RPC error ${JSON.stringify(msg.error).slice(0, 400)}`);
  const body = msg.result?.content?.[0]?.text ?? '';
  if (msg.result?.isError) throw new Error(`${name}: tool error ${body.slice(0, 800)}`);
  return JSON.parse(body);
}
const now = () => performance.now();
function summary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { n: s.length, p50: at(0.5), p99: at(0.99), mean: s.reduce((a, b) => a + b, 0) / s.length,
    min: s[0], max: s[s.length - 1] };
}

// ---- fixture

const ONE_SQL = 'SELECT id, pickup_zone_id, fare FROM demo.trips WHERE id = 1 LIMIT 1';
const ALL_SQL = bigRows >= 1_000_000 ? 'SELECT * FROM demo.trips'
  : `SELECT * FROM demo.trips ORDER BY id LIMIT ${bigRows}`;
const T = {
  one: [`${prefix}/sql/one_row.sql`, 'POSTGRES', ONE_SQL],
  all: [`${prefix}/sql/all_trips.sql`, 'POSTGRES', ALL_SQL],
  count: [`${prefix}/sql/count_staged.sql`, 'SQLITE', 'SELECT count(*) AS n FROM stg_trips'],
  sleep: [`${prefix}/sql/sleep_100ms.sql`, 'POSTGRES',
    'SELECT s.one FROM (SELECT 1 AS one, pg_sleep(0.1)) s'],
  join: [`${prefix}/sql/join_nine.sql`, 'SQLITE', `SELECT ${
    Array.from({ length: 9 }, (_, i) => `(SELECT one FROM stg_${i + 1})`).join(' + ')} AS total`],
};
const node = (id, tpl, source, dependsOn = [], output) => ({
  id, description: `bench node ${id}`, type: 'DQL', source, template: { id: T[tpl][0], version: 1 },
  depends_on: dependsOn, ...(output ? { output: { target: 'tempdb', table: output } } : {}),
});
const pipelines = {};
async function create(tag, nodes) {
  const p = await tool('pipelines_create', {
    name: `${prefix}/${tag}`, display_name: `Bench ${tag}`, description: 'executor bench fixture', nodes,
  });
  if (p.status !== 'DRAFT') throw new Error(`pipelines_create ${tag}: ${JSON.stringify(p).slice(0, 300)}`);
  pipelines[tag] = p.id;
}
async function setup() {
  await tool('datasources_get_columns', { name: ds, schema: 'demo', table: 'trips' });
  let first = true;
  for (const [id, dialect, body] of Object.values(T)) {
    await tool('templates_create', { id, dialect, display_name: id.split('/').pop(),
      description: 'executor bench template', body, ...(first ? { confirm_new_root: true } : {}) });
    first = false;
    await tool('templates_render', { id, context: {} });
  }
  await create('one_row', [node('q', 'one', ds)]);
  await create('big', [node('q', 'all', ds)]);
  await create('staged', [node('stage', 'all', ds, [], 'stg_trips'), node('n', 'count', 'tempdb', ['stage'])]);
  const nine = Array.from({ length: 9 }, (_, i) => i + 1);
  await create('fan', [...nine.map((i) => node(`s${i}`, 'sleep', ds, [], `stg_${i}`)),
    node('join', 'join', 'tempdb', nine.map((i) => `s${i}`))]);
  await create('chain', [...nine.map((i) => node(`s${i}`, 'sleep', ds, i === 1 ? [] : [`s${i - 1}`], `stg_${i}`)),
    node('join', 'join', 'tempdb', nine.map((i) => `s${i}`))]);
}
const execute = (tag) => tool('pipelines_execute', { id: pipelines[tag], parameters: {} });
function check(run, tag, rows) {
  if (run.status !== 'SUCCESS') throw new Error(`${tag}: ${JSON.stringify(run).slice(0, 400)}`);
  if (rows !== undefined && run.total_rows !== rows) throw new Error(`${tag}: total_rows ${run.total_rows} != ${rows}`);
}

// ---- Redis baseline

function redisCli(args, input) {
  const res = spawnSync('redis-cli', ['-u', redisUrl, ...args], {
    encoding: 'utf8', input, timeout: 300_000, maxBuffer: 64 << 20,
  });
  if (res.status !== 0) throw new Error(`redis-cli ${args[0]} failed: ${res.stderr}${res.stdout}`);
  return res.stdout.trim();
}
const SUM_LEN = "local s = 0 for _, v in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do s = s + #v end return s";
const resp = (parts) => `*${parts.length}\r\n${parts.map((p) => `$${Buffer.byteLength(p)}\r\n${p}\r\n`).join('')}`;
let pipeDir;
async function writeFile(name, gen) {
  const file = path.join(pipeDir, name);
  const out = createWriteStream(file);
  for (const chunk of gen()) if (!out.write(chunk)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  return file;
}
async function baselineFiles(rowCount, totalBytes) {
  pipeDir = mkdtempSync(path.join(os.tmpdir(), 'dp-bench-redis-'));
  const rowLen = Math.max(1, Math.round(totalBytes / rowCount));
  const row = 'x'.repeat(rowLen);
  const listKey = `dp:bench:${process.pid}:rows`;
  const push = await writeFile('rpush.resp', function* gen() {
    for (let b = 0; b < rowCount; b += 1000) {
      yield resp(['RPUSH', listKey, ...Array(Math.min(1000, rowCount - b)).fill(row)]);
    }
  });
  const mib = 1 << 20;
  const value = 'y'.repeat(mib);
  const setKeys = Math.ceil(totalBytes / mib);
  const setPrefix = `dp:bench:${process.pid}:set:`;
  const sets = await writeFile('set.resp', function* gen() {
    for (let i = 0; i < setKeys; i++) yield resp(['SET', `${setPrefix}${i}`, value]);
  });
  const clear = () => {
    redisCli(['DEL', listKey]);
    for (let i = 0; i < setKeys; i += 500) {
      redisCli(['DEL', ...Array.from({ length: Math.min(500, setKeys - i) }, (_, j) => `${setPrefix}${i + j}`)]);
    }
  };
  return { push, sets, clear, rowLen, setKeys };
}
function pipe(file) {
  const t0 = now();
  const res = spawnSync('sh', ['-c', 'redis-cli -u "$U" --pipe < "$F"'], {
    env: { ...process.env, U: redisUrl, F: file }, encoding: 'utf8', timeout: 300_000,
  });
  const ms = now() - t0;
  if (res.status !== 0 || !/errors: 0/.test(res.stdout)) throw new Error(`redis-cli --pipe: ${res.stdout}${res.stderr}`);
  return ms;
}

// ---- run

await setup();
log(`setup done: ${Object.keys(pipelines).length} pipelines on ${ds}; sections ${[...sections].join(',')}`);
for (const [tag, rows] of [['one_row', 1], ['fan', 1], ['chain', 1]]) check(await execute(tag), tag, rows);
if (sections.has('latency')) {
  for (let i = 0; i < warmup; i++) {
    await ping();
    await tool('sql_probe', { name: ds, sql: ONE_SQL, limit: 1 });
    check(await execute('one_row'), 'one_row', 1);
  }
}
const out = { calls, rounds, warmup, big_rows: bigRows, sections: [...sections], rounds_detail: [] };
let redisBase = null;
try {
  for (let r = 1; r <= rounds; r++) {
    const round = { round: r };
    if (sections.has('latency')) {
      const pings = []; const probes = []; const execs = []; const serverMs = [];
      for (let i = 0; i < calls; i++) {
        let t0 = now(); await ping(); pings.push(now() - t0);
        t0 = now();
        const probe = await tool('sql_probe', { name: ds, sql: ONE_SQL, limit: 1 });
        probes.push(now() - t0);
        if (!Array.isArray(probe.rows) || probe.rows.length !== 1) throw new Error(`sql_probe: ${JSON.stringify(probe).slice(0, 300)}`);
        t0 = now();
        const run = await execute('one_row');
        execs.push(now() - t0);
        check(run, 'one_row', 1);
        serverMs.push(run.duration_ms);
      }
      round.ping = summary(pings); round.probe = summary(probes); round.execute = summary(execs);
      round.execute_duration_ms = summary(serverMs);
      log(`round ${r} latency: ping ${round.ping.p50.toFixed(2)}, sql_probe ${round.probe.p50.toFixed(2)},`
        + ` execute ${round.execute.p50.toFixed(2)} ms p50`);
    }
    if (sections.has('big')) {
      const t0 = now();
      const run = await execute('big');
      const ms = now() - t0;
      check(run, 'big', bigRows);
      round.big = { ms, duration_ms: run.duration_ms, rows: run.total_rows, node_ms: run.node_stats[0].duration_ms };
      if (redisUrl) {
        // The store prefixes the executor's key `dp:result:<id>` once more (seen on this build:
        // `dp:result:dp:result:<id>:rows`); take whichever exists.
        let stem = `dp:result:dp:result:${run.execution_id}`;
        if (Number(redisCli(['EXISTS', `${stem}:rows`])) === 0) stem = `dp:result:${run.execution_id}`;
        const rowsKey = `${stem}:rows`;
        const n = Number(redisCli(['LLEN', rowsKey]));
        const bytes = Number(redisCli(['EVAL', SUM_LEN, '1', rowsKey]));
        if (n !== bigRows) throw new Error(`redis holds ${n} rows under ${rowsKey}, expected ${bigRows}`);
        round.big.stored_bytes = bytes;
        redisCli(['DEL', rowsKey, `${stem}:schema`]); // do not hold 1M rows × rounds
        if (!redisBase) redisBase = await baselineFiles(n, bytes);
        round.redis_rpush_ms = pipe(redisBase.push); redisBase.clear();
        round.redis_set_ms = pipe(redisBase.sets); redisBase.clear();
      }
      log(`round ${r} big: ${bigRows} rows in ${ms.toFixed(0)} ms (${(bigRows / ms * 1000).toFixed(0)} rows/s)`
        + (redisUrl ? `, ${round.big.stored_bytes} B; redis-cli --pipe RPUSH ${round.redis_rpush_ms.toFixed(0)} ms,`
          + ` SET 1 MiB ${round.redis_set_ms.toFixed(0)} ms` : ''));
    }
    if (sections.has('staged')) {
      const t0 = now();
      const run = await execute('staged');
      const ms = now() - t0;
      check(run, 'staged', 1);
      const n = Number(run.rows[0][0]);
      if (n !== bigRows) throw new Error(`staged count ${n} != ${bigRows}`);
      const stage = run.node_stats.find((s) => s.node_id === 'stage');
      round.staged = { ms, duration_ms: run.duration_ms, stage_ms: stage.duration_ms, rows: stage.rows_out };
      log(`round ${r} staged: ${n} rows in ${ms.toFixed(0)} ms (stage node ${stage.duration_ms} ms)`);
    }
    if (sections.has('dag')) {
      const dag = {};
      for (const tag of (r % 2 ? ['fan', 'chain'] : ['chain', 'fan'])) {
        const t0 = now();
        const run = await execute(tag);
        dag[tag] = now() - t0;
        check(run, tag, 1);
        if (Number(run.rows[0][0]) !== 9) throw new Error(`${tag}: total ${run.rows[0][0]} != 9`);
        dag[`${tag}_duration_ms`] = run.duration_ms;
      }
      round.dag = dag;
      log(`round ${r} dag: fan-out ${dag.fan.toFixed(0)} ms, chain ${dag.chain.toFixed(0)} ms`);
    }
    out.rounds_detail.push(round);
  }
} finally {
  if (pipeDir) rmSync(pipeDir, { recursive: true, force: true });
}
if (redisBase) { out.redis_row_len = redisBase.rowLen; out.redis_set_keys = redisBase.setKeys; }
console.log(JSON.stringify(out));
