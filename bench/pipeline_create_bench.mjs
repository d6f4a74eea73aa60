// Pipeline save cost (bench/pipeline-create drives this against a server it started): over
// POST /mcp, sequential (c=1), keep-alive, loopback, per round and in this order:
//   ping   — JSON-RPC ping: this client's floor for one /mcp round trip (no tool, no audit);
//   render — one "10 renders" unit: templates_render of the 10 executable templates, one call
//            each, back to back, with the body's dry-render context (its parameter defaults);
//   create — one pipelines_create of a 10-node body pinning those same 10 template versions
//            (9 DQL nodes on the demo SQLite datasource staging to tempdb, one tempdb caller
//            node joining them), a fresh name per call (test/bench/p_<tag>_<n>), so every
//            call runs the full save path: structure, datasources, templates and dialects,
//            10 dry renders with their bind checks, the learned-tables gate, the insert;
//   create (low-history key) — the same with a second author key of the same user that makes
//            only its 4 datasources_get_columns and its own creates: the learned-tables gate
//            reads the key's mcp.tool.called audit rows (up to 20 000) on every save, so the
//            main key's save slows down as the run's own calls pile up behind it.
// Each kind runs BENCH_REQUESTS (default 200) times per round, BENCH_ROUNDS (default 3) rounds.
// Prints one JSON object with the summaries on stdout; progress on stderr. Every response is
// checked: an error or an isError tool result aborts the run (a fast refusal is not a save).
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const base = process.env.DP_BENCH_URL;
const key = process.env.DP_BENCH_KEY;
const lowKey = process.env.DP_BENCH_LOW_HISTORY_KEY;
const datasource = process.env.DP_BENCH_DATASOURCE ?? 'demo';
const requests = Number(process.env.BENCH_REQUESTS ?? 200);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const warmup = Number(process.env.BENCH_WARMUP ?? 20);
if (!base || !key || !lowKey) {
  throw new Error('DP_BENCH_URL, DP_BENCH_KEY and DP_BENCH_LOW_HISTORY_KEY are required');
}
if (!(requests >= 1 && requests <= 5000 && rounds >= 1 && rounds <= 20 && warmup <= 1000)) {
  throw new Error('BENCH_REQUESTS in 1..5000, BENCH_ROUNDS in 1..20, BENCH_WARMUP <= 1000');
}
const log = (...a) => console.error('  ', ...a);

// node:http with one keep-alive socket rather than fetch: the same requests, about half the
// client-side cost per round trip (measured here: ping p50 ~0.35 vs ~0.65 ms through undici).
const url = new URL(base);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function post(apiKey, message) {
  const payload = Buffer.from(JSON.stringify(message));
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname, port: url.port, path: '/mcp', method: 'POST', agent,
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-06-18',
        'DP-API-Key': apiKey,
        'Content-Length': payload.length,
      },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error('request timed out after 30 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

let rpcId = 0;
async function ping() {
  const { status, text } = await post(key, { jsonrpc: '2.0', id: ++rpcId, method: 'ping' });
  if (status !== 200 || !text.includes('"result":{}')) throw new Error(`ping: ${status} ${text.slice(0, 200)}`);
}
const calls = new Map(); // tools/call requests per key (each leaves one mcp.tool.called row)
async function tool(name, args, apiKey = key) {
  calls.set(apiKey, (calls.get(apiKey) ?? 0) + 1);
  const { status, text } = await post(apiKey, {
    jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args },
  });
  if (status !== 200) throw new Error(`${name}: HTTP ${status}: ${text.slice(0, 400)}`);
  const msg = JSON.parse(text);
  if (msg.error) throw new Error(`${name}: JSON-RPC error ${JSON.stringify(msg.error).slice(0, 400)}`);
  const payloadText = msg.result?.content?.[0]?.text ?? '';
  if (msg.result?.isError) throw new Error(`${name}: tool error ${payloadText.slice(0, 800)}`);
  return JSON.parse(payloadText);
}
const history = (apiKey) => calls.get(apiKey) ?? 0;

// ---- the fixture: one library, nine SELECTs over the demo tables, one tempdb join

const ROOT = 'test/bench';
const LIB = `${ROOT}/lib/filters.sql`;
const parameters = {
  year: { type: 'INTEGER', required: false, default: 2024, description: 'calendar year' },
  month: { type: 'INTEGER', required: false, default: 3, description: 'month 1-12, 0 = all' },
  borough: { type: 'STRING', required: false, default: 'Manhattan', description: 'pickup borough' },
  min_fare: {
    type: 'DECIMAL', precision: 10, scale: 2, required: false, default: 2.5,
    description: 'lowest fare counted',
  },
  payment_type: { type: 'STRING', required: false, default: 'card', description: "'' = all" },
  include_tips: { type: 'BOOLEAN', required: false, default: true, description: 'add tips' },
  wet_mm: {
    type: 'DECIMAL', precision: 5, scale: 1, required: false, default: 0.5,
    description: 'precipitation counted as wet',
  },
  top_n: { type: 'INTEGER', required: false, default: 10, description: 'rows kept by rankings' },
};
// What a pipeline save renders its templates against: the declared parameters, defaults applied.
const renderContext = Object.fromEntries(
  Object.entries(parameters).map(([name, p]) => [name, p.default]));

const libBody = `<#macro in_period col>CAST(strftime('%Y', ${'${col}'}) AS INTEGER) = :year<#if month gt 0> AND CAST(strftime('%m', ${'${col}'}) AS INTEGER) = :month</#if></#macro>
<#macro fare_floor alias="t">${'${alias}'}.fare >= :min_fare<#if payment_type?has_content> AND ${'${alias}'}.payment_type = :payment_type</#if></#macro>
<#function amount alias="t"><#if include_tips><#return "(" + alias + ".fare + COALESCE(" + alias + ".tip, 0))"><#else><#return alias + ".fare"></#if></#function>`;

const imports = [{ id: LIB, version: 1, alias: 'f' }];
// [id suffix, body, uses the library]: SELECTs a reporting pipeline over the demo data stages.
const stages = [
  ['daily_revenue', `SELECT date(t.pickup_at) AS day, COUNT(*) AS trips, SUM(\${f.amount("t")}) AS revenue
FROM trips t
WHERE <@f.in_period col="t.pickup_at"/> AND <@f.fare_floor alias="t"/>
GROUP BY date(t.pickup_at)
ORDER BY day`, true],
  ['zone_pickups', `SELECT z.id AS zone_id, z.name AS zone, z.borough, COUNT(t.id) AS pickups
FROM trips t JOIN zones z ON z.id = t.pickup_zone_id
WHERE <@f.in_period col="t.pickup_at"/><#if borough?has_content> AND z.borough = :borough</#if>
GROUP BY z.id, z.name, z.borough
ORDER BY pickups DESC
LIMIT :top_n`, true],
  ['zone_dropoffs', `SELECT z.id AS zone_id, z.name AS zone, COUNT(t.id) AS dropoffs, AVG(t.distance_km) AS avg_km
FROM trips t JOIN zones z ON z.id = t.dropoff_zone_id
WHERE CAST(strftime('%Y', t.dropoff_at) AS INTEGER) = :year
<#if borough?has_content>  AND z.borough = :borough
</#if>GROUP BY z.id, z.name
ORDER BY dropoffs DESC
LIMIT :top_n`, false],
  ['payment_mix', `SELECT t.payment_type, COUNT(*) AS trips, SUM(t.fare) AS fares<#if include_tips>, SUM(COALESCE(t.tip, 0)) AS tips</#if>
FROM trips t
WHERE <@f.in_period col="t.pickup_at"/> AND t.fare >= :min_fare
GROUP BY t.payment_type
ORDER BY trips DESC`, true],
  ['vendor_share', `SELECT t.vendor, COUNT(*) AS trips, ROUND(100.0 * COUNT(*) / SUM(COUNT(*)) OVER (), 2) AS share_pct
FROM trips t
WHERE <@f.in_period col="t.pickup_at"/><#if payment_type?has_content> AND t.payment_type = :payment_type</#if>
GROUP BY t.vendor
ORDER BY trips DESC`, true],
  ['weekday_profile', `SELECT c.weekday, c.is_weekend, COUNT(t.id) AS trips, AVG(t.fare) AS avg_fare
FROM trips t JOIN calendar c ON c.date = date(t.pickup_at)
WHERE c.year = :year<#if month gt 0> AND c.month = :month</#if>
  AND t.fare >= :min_fare
GROUP BY c.weekday, c.is_weekend
ORDER BY c.weekday`, false],
  ['holiday_effect', `SELECT c.is_holiday, COUNT(t.id) AS trips, AVG(t.distance_km) AS avg_km, AVG(\${f.amount("t")}) AS avg_amount
FROM calendar c LEFT JOIN trips t ON date(t.pickup_at) = c.date
WHERE c.year = :year<#if month gt 0> AND c.month = :month</#if>
GROUP BY c.is_holiday`, true],
  ['weather_hours', `SELECT w.conditions, CASE WHEN COALESCE(w.precip_mm, 0) >= :wet_mm THEN 1 ELSE 0 END AS wet,
       COUNT(t.id) AS trips, AVG(w.temp_c) AS avg_temp_c
FROM weather w LEFT JOIN trips t ON strftime('%Y-%m-%d %H', t.pickup_at) = strftime('%Y-%m-%d %H', w.ts)
WHERE CAST(strftime('%Y', w.ts) AS INTEGER) = :year<#if month gt 0> AND CAST(strftime('%m', w.ts) AS INTEGER) = :month</#if>
GROUP BY w.conditions, wet
ORDER BY trips DESC`, false],
  ['long_trips', `SELECT t.id, t.pickup_at, t.distance_km, t.fare, z.name AS pickup_zone
FROM trips t JOIN zones z ON z.id = t.pickup_zone_id
WHERE <@f.in_period col="t.pickup_at"/> AND <@f.fare_floor alias="t"/>
<#list ["distance_km", "fare"] as col>  AND t.\${col} IS NOT NULL
</#list>ORDER BY t.distance_km DESC
LIMIT :top_n`, true],
];
const reportBody = `SELECT d.day, d.trips, d.revenue,
       (SELECT zone FROM stg_zone_pickups ORDER BY pickups DESC LIMIT 1) AS top_pickup_zone,
       (SELECT zone FROM stg_zone_dropoffs ORDER BY dropoffs DESC LIMIT 1) AS top_dropoff_zone,
       (SELECT payment_type FROM stg_payment_mix ORDER BY trips DESC LIMIT 1) AS top_payment,
       (SELECT vendor FROM stg_vendor_share ORDER BY trips DESC LIMIT 1) AS top_vendor,
       (SELECT AVG(avg_fare) FROM stg_weekday_profile) AS avg_fare,
       (SELECT COUNT(*) FROM stg_holiday_effect) AS holiday_rows,
       (SELECT SUM(trips) FROM stg_weather_hours WHERE wet = 1) AS wet_trips,
       (SELECT MAX(distance_km) FROM stg_long_trips) AS longest_km
FROM stg_daily_revenue d
<#if month gt 0>WHERE CAST(strftime('%m', d.day) AS INTEGER) = :month
</#if>ORDER BY d.day`;

const templateIds = [...stages.map(([s]) => `${ROOT}/${s}.sql`), `${ROOT}/report.sql`];

function body(name) {
  const nodes = stages.map(([s]) => ({
    id: s,
    type: 'DQL',
    source: datasource,
    template: { id: `${ROOT}/${s}.sql`, version: 1 },
    output: { target: 'tempdb', table: `stg_${s}` },
    depends_on: [],
  }));
  nodes.push({
    id: 'report',
    type: 'DQL',
    source: 'tempdb',
    template: { id: `${ROOT}/report.sql`, version: 1 },
    depends_on: stages.map(([s]) => s),
  });
  return {
    name, display_name: 'Bench: monthly mobility report',
    description: 'pipeline-create bench fixture', parameters, nodes,
  };
}

async function setup() {
  await tool('templates_create', {
    id: LIB, dialect: 'SQLITE', display_name: 'Bench filters', is_library: true,
    description: 'in_period(col): year/month; fare_floor(alias): min_fare/payment_type; amount(alias)',
    body: libBody,
  });
  for (const [s, sql, usesLib] of stages) {
    await tool('templates_create', {
      id: `${ROOT}/${s}.sql`, dialect: 'SQLITE', display_name: `Bench ${s}`,
      description: 'year, month, borough, min_fare, payment_type, include_tips, wet_mm, top_n',
      ...(usesLib ? { imports } : {}), body: sql,
    });
  }
  await tool('templates_create', {
    id: `${ROOT}/report.sql`, dialect: 'SQLITE', display_name: 'Bench report',
    description: 'month (INTEGER); reads the stg_* tempdb tables', body: reportBody,
  });
  // The learned-tables gate: every demo table the templates name, read once by this key.
  for (const apiKey of [key, lowKey]) {
    for (const table of ['trips', 'zones', 'calendar', 'weather']) {
      const cols = await tool('datasources_get_columns', { name: datasource, table }, apiKey);
      if (!Array.isArray(cols) || cols.length === 0) throw new Error(`no columns for ${table}`);
    }
  }
  // Sanity: every render yields SQL with its binds, the library expanded.
  for (const id of templateIds) {
    const out = await tool('templates_render', { id, version: 1, context: renderContext });
    if (!/SELECT/.test(out.rendered) || /<[#@]/.test(out.rendered)) {
      throw new Error(`render of ${id} looks wrong: ${out.rendered}`);
    }
  }
  const first = await tool('pipelines_create', body(`${ROOT}/p_check`));
  if (first.status !== 'DRAFT' || first.version !== 1 || first.nodes?.length !== 10) {
    throw new Error(`pipelines_create did not land a 10-node DRAFT: ${JSON.stringify(first).slice(0, 400)}`);
  }
}

const now = () => performance.now();
async function renderUnit(perRender) {
  const t0 = now();
  for (const id of templateIds) {
    const s = now();
    await tool('templates_render', { id, version: 1, context: renderContext });
    perRender.push(now() - s);
  }
  return now() - t0;
}
let created = 0;
async function createOne(tag, apiKey = key) {
  const name = `${ROOT}/p_${tag}_${++created}`;
  const t0 = now();
  const out = await tool('pipelines_create', body(name), apiKey);
  const ms = now() - t0;
  if (out.status !== 'DRAFT' || out.name !== name) {
    throw new Error(`unexpected create result: ${JSON.stringify(out).slice(0, 300)}`);
  }
  return ms;
}
async function timed(fn) { const t0 = now(); await fn(); return now() - t0; }

function summary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { n: s.length, p50: at(0.5), p99: at(0.99), mean, min: s[0], max: s[s.length - 1] };
}

await setup();
log('setup done: 11 templates (1 library), 4 tables learned by each key, one 10-node create checked');
const scratch = [];
for (let i = 0; i < warmup; i++) {
  await ping();
  await renderUnit(scratch);
  await createOne('warm');
  await createOne('warm_low', lowKey);
}

const out = { requests, rounds, warmup, rounds_detail: [] };
const tenth = Math.max(1, Math.floor(requests / 10));
for (let r = 1; r <= rounds; r++) {
  const pings = [];
  const units = [];
  const perRender = [];
  const creates = [];
  const lowCreates = [];
  for (let i = 0; i < requests; i++) pings.push(await timed(ping));
  for (let i = 0; i < requests; i++) units.push(await renderUnit(perRender));
  const historyBeforeCreate = history(key);
  for (let i = 0; i < requests; i++) creates.push(await createOne(`r${r}`));
  const lowHistoryBefore = history(lowKey);
  for (let i = 0; i < requests; i++) lowCreates.push(await createOne(`r${r}_low`, lowKey));
  const round = {
    round: r,
    ping: summary(pings),
    render_unit: summary(units),
    render_one: summary(perRender),
    create: summary(creates),
    create_low: summary(lowCreates),
    history_before_create: historyBeforeCreate,
    history_after_create: history(key),
    low_history_before_create: lowHistoryBefore,
    low_history_after_create: history(lowKey),
    // The first and last tenth of the main key's create block (its history grows by one row
    // per call within the block, by 11 per render unit + create across the run).
    create_first_tenth: summary(creates.slice(0, tenth)),
    create_last_tenth: summary(creates.slice(-tenth)),
  };
  out.rounds_detail.push(round);
  log(`round ${r}: ping ${round.ping.p50.toFixed(3)} ms, 10 renders ${round.render_unit.p50.toFixed(2)} ms`
    + ` (one ${round.render_one.p50.toFixed(3)}), create ${round.create.p50.toFixed(2)} ms`
    + ` (key history ${historyBeforeCreate}), low-history create ${round.create_low.p50.toFixed(2)} ms`
    + ` (history ${lowHistoryBefore}) — p50s`);
}
out.total_calls = history(key) + history(lowKey);
out.pipelines_created = created + 1;
console.log(JSON.stringify(out));
