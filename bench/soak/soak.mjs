// The soak driver (bench/soak/run starts the server and hands it over through the env): a mixed
// load of N clients — execute a pipeline returning SOAK_ROWS rows of the demo trips (with a
// short result TTL), page one of the client's own results, list pipelines — for two phases,
// then idle until every result's TTL and a sweep interval have passed. The server's RSS
// (/proc/<pid>/status VmRSS) is read idle before, at the end of each phase and after the
// expiry; the result store's gauges from /metrics beside it. Prints the report (markdown) on
// stdout and the verdict "RSS after expiry < 2 × idle RSS" as PASS/FAIL (exit 0 either way: a
// bench reports, the caller decides; exit 1 only when the driver itself fails).
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const env = process.env;
const base = new URL(env.DP_SOAK_URL);
const key = env.DP_SOAK_KEY;
const pid = Number(env.DP_SOAK_PID);
const phases = [
  { name: 'phase 1', clients: Number(env.SOAK_PHASE1_CLIENTS ?? 32), seconds: Number(env.SOAK_PHASE1_SECONDS ?? 480) },
  { name: 'phase 2', clients: Number(env.SOAK_PHASE2_CLIENTS ?? 64), seconds: Number(env.SOAK_PHASE2_SECONDS ?? 120) },
];
const ttl = Number(env.SOAK_TTL_SECONDS ?? 60);
const sweep = Number(env.SOAK_SWEEP_SECONDS ?? 10);
const rows = Number(env.SOAK_ROWS ?? 3000);
const pageRows = Number(env.SOAK_PAGE_ROWS ?? 500);
const settle = Number(env.SOAK_EXPIRY_MARGIN_SECONDS ?? 5);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function call(agent, method, path, { headers = {}, body, parse = true } = {}) {
  const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request({
      host: base.hostname, port: base.port, path, method, agent,
      headers: { 'DP-API-Key': key, ...headers,
        ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}) },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const ms = performance.now() - started;
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        if (parse || res.statusCode >= 400) { try { json = JSON.parse(text); } catch { /* not JSON */ } }
        resolve({ status: res.statusCode, json, text, ms });
      });
      res.on('error', (err) => resolve({ status: 0, error: err.message, ms: performance.now() - started }));
    });
    req.setTimeout(120_000, () => req.destroy(new Error('timeout 120 s')));
    req.on('error', (err) => resolve({ status: 0, error: err.message, ms: performance.now() - started }));
    req.end(payload ?? undefined);
  });
}

function rssKb() {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return { rss: Number(/VmRSS:\s+(\d+)/.exec(status)[1]), hwm: Number(/VmHWM:\s+(\d+)/.exec(status)[1]) };
  } catch {
    return { rss: NaN, hwm: NaN };
  }
}

async function storeGauges() {
  const res = await call(undefined, 'GET', '/metrics', { parse: false });
  const pick = (name) => {
    const m = new RegExp(`^${name}\\{[^}]*\\}\\s+(\\S+)`, 'm').exec(res.text ?? '');
    return m ? Number(m[1]) : NaN;
  };
  return { bytes: pick('datapipelines_result_store_bytes'), results: pick('datapipelines_result_store_results') };
}

const mb = (kb) => (kb / 1024).toFixed(1);
const samples = [];
async function sample(label) {
  const { rss, hwm } = rssKb();
  const store = await storeGauges();
  samples.push({ label, rss, hwm, store, at: new Date().toISOString() });
  process.stderr.write(`soak: ${label}: RSS ${mb(rss)} MB (peak ${mb(hwm)} MB), result store `
    + `${(store.bytes / 1048576).toFixed(1)} MiB in ${store.results} results\n`);
}

// ------------------------------------------------------------------ setup
const setupAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const templateId = `soak/trips_${Date.now()}.sql`;
const t = await call(setupAgent, 'POST', '/api/v1/templates', { body: {
  id: templateId, dialect: 'SQLITE', display_name: 'trips', description: 'soak: the first trips',
  body: `SELECT id, pickup_zone_id, dropoff_zone_id, pickup_at, dropoff_at, passenger_count, distance_km, fare, tip, payment_type, vendor FROM trips ORDER BY id LIMIT ${rows}`,
} });
if (t.status !== 201) throw new Error(`template: ${t.status} ${t.text}`);
const p = await call(setupAgent, 'POST', '/api/v1/pipelines', { body: {
  name: `soak/trips_${Date.now()}`, display_name: 'Soak trips', description: `The first ${rows} trips.`,
  nodes: [{ id: 'trips', description: 'The first trips.', type: 'DQL', source: 'demo',
    template: { id: templateId, version: 1 }, depends_on: [] }],
} });
if (p.status !== 201) throw new Error(`pipeline: ${p.status} ${p.text}`);
const pipelineId = p.json.data.id;
const warm = await call(setupAgent, 'POST', `/api/v1/pipelines/${pipelineId}/execute`, {
  body: {}, headers: { 'DP-Result-TTL-Seconds': String(ttl) } });
if (warm.status !== 200 || warm.json?.data?.total_rows !== rows) {
  throw new Error(`warm-up execute: ${warm.status} ${warm.text.slice(0, 300)}`);
}
setupAgent.destroy();
// Idle before the load: the warm-up's result expires with the others.
await sleep(2000);
await sample('idle before the load');

// ------------------------------------------------------------------ load
const ops = ['execute', 'page', 'list'];
const stats = {}; // phase -> op -> {ms: [], ok, refused: {code: n}, errors: {..}}
function record(phase, op, res) {
  stats[phase] ??= {};
  const s = (stats[phase][op] ??= { ms: [], ok: 0, refused: {}, failed: {} });
  s.ms.push(res.ms);
  if (res.status === 200) { s.ok += 1; return; }
  const code = res.json?.error?.code ?? (res.status === 0 ? `transport: ${res.error}` : `HTTP ${res.status}`);
  // Refusals are answers the server chose (limits, a full store, an expired result); anything
  // else (5xx that is not a refusal, transport errors) is a failure.
  const refusal = [429, 503, 507, 410, 409].includes(res.status)
    || code === 'result.storage_unavailable';
  const bucket = refusal ? s.refused : s.failed;
  bucket[`${res.status} ${code}`] = (bucket[`${res.status} ${code}`] ?? 0) + 1;
}

async function client(phase, until) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const mine = []; // this client's recent execution ids
  let i = 0;
  while (performance.now() < until) {
    // execute : page : list = 2 : 2 : 1; with no stored result of its own to page (none yet,
    // or every execute refused) a client lists instead.
    let op = ['execute', 'page', 'execute', 'page', 'list'][i % 5];
    if (op === 'page' && mine.length === 0) op = 'list';
    i += 1;
    let res;
    if (op === 'execute') {
      res = await call(agent, 'POST', `/api/v1/pipelines/${pipelineId}/execute`,
        { body: {}, headers: { 'DP-Result-TTL-Seconds': String(ttl) } });
      const id = res.json?.data?.execution_id;
      if (res.status === 200 && id) {
        mine.push(id);
        if (mine.length > 8) mine.shift();
      }
    } else if (op === 'page') {
      const id = mine[Math.floor(Math.random() * mine.length)];
      const offset = Math.floor(Math.random() * Math.max(1, rows - pageRows));
      res = await call(agent, 'GET', `/api/v1/executions/${id}/result?offset=${offset}&limit=${pageRows}`,
        { parse: false });
    } else {
      res = await call(agent, 'GET', '/api/v1/pipelines?limit=50', { parse: false });
    }
    record(phase, op, res);
  }
  agent.destroy();
}

const loadStarted = Date.now();
for (const phase of phases) {
  if (phase.seconds <= 0 || phase.clients <= 0) continue;
  process.stderr.write(`soak: ${phase.name}: ${phase.clients} clients × ${phase.seconds} s\n`);
  const until = performance.now() + phase.seconds * 1000;
  let hwmDuring = 0;
  const watcher = setInterval(() => { hwmDuring = Math.max(hwmDuring, rssKb().rss); }, 1000);
  await Promise.all(Array.from({ length: phase.clients }, () => client(phase.name, until)));
  clearInterval(watcher);
  phase.peakRss = Math.max(hwmDuring, rssKb().rss);
  await sample(`end of ${phase.name} (${phase.clients} clients × ${phase.seconds} s)`);
}
const loadEnded = Date.now();

// ------------------------------------------------------------------ expiry, idle
const waitS = ttl + sweep + settle;
process.stderr.write(`soak: idle ${waitS} s (result TTL ${ttl} s + sweep interval ${sweep} s + ${settle} s)\n`);
await sleep(Math.max(0, loadEnded + waitS * 1000 - Date.now()));
await sample(`idle, ${waitS} s after the load (TTL + sweep passed)`);

// ------------------------------------------------------------------ report
const pct = (arr, q) => {
  if (!arr.length) return NaN;
  const s = [...arr].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const idle = samples[0].rss;
const after = samples.at(-1).rss;
const pass = after < 2 * idle;
const out = [];
out.push(`# soak — ${new Date().toISOString()}`);
out.push('');
out.push(`Server pid ${pid}; embedded default (SQLite metadata, memory result store `
  + `${env.DATAPIPELINES_RESULTS_URL || 'memory (256 MiB cap)'}), demo datasources; `
  + `execute = \`SELECT … FROM trips ORDER BY id LIMIT ${rows}\` on \`demo\` with DP-Result-TTL-Seconds: ${ttl}; `
  + `page = ${pageRows} rows of one of the client's last 8 results; list = GET /api/v1/pipelines?limit=50; `
  + 'mix execute:page:list = 2:2:1 per client, keep-alive, no think time.');
out.push(`Host: ${env.SOAK_HOST ?? ''}; load ran ${((loadEnded - loadStarted) / 1000).toFixed(0)} s; `
  + `server config: ${env.SOAK_CONFIG ?? ''}.`);
out.push('');
out.push('| phase | op | n | ok | p50 ms | p99 ms | refused (status code: n) | failed |');
out.push('|---|---|---:|---:|---:|---:|---|---|');
for (const phase of phases) {
  for (const op of ops) {
    const s = stats[phase.name]?.[op];
    if (!s) continue;
    const fmt = (o) => Object.entries(o).map(([k, v]) => `${k}: ${v}`).join('; ') || '0';
    out.push(`| ${phase.name} (${phase.clients}×${phase.seconds}s) | ${op} | ${s.ms.length} | ${s.ok} | `
      + `${pct(s.ms, 0.5).toFixed(1)} | ${pct(s.ms, 0.99).toFixed(1)} | ${fmt(s.refused)} | ${fmt(s.failed)} |`);
  }
}
out.push('');
out.push('| when | RSS MB | peak RSS so far (VmHWM) MB | result store MiB | results held |');
out.push('|---|---:|---:|---:|---:|');
for (const s of samples) {
  out.push(`| ${s.label} | ${mb(s.rss)} | ${mb(s.hwm)} | ${(s.store.bytes / 1048576).toFixed(1)} | ${s.store.results} |`);
}
out.push('');
out.push(`Verdict: RSS after expiry ${mb(after)} MB < 2 × idle RSS (${mb(2 * idle)} MB): ${pass ? 'PASS' : 'FAIL'}`);
console.log(out.join('\n'));
