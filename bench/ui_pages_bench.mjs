// Web UI render cost (bench/ui-pages drives this against a server it started): seeds 1,000
// pipelines over REST (one template, one DQL node each, all in the folder test/bench/), signs
// in through /ui/login, then GETs each page BENCH_REQUESTS times, sequentially (c=1), kind by
// kind in this order: dashboard, browse (the folder's 1,000 leaves), search (q matching all
// 1,000), detail (one pipeline). The server's own elapsed_ms per request is read from its
// access log by the shell script (in this order); this prints the client-side timings as JSON.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const base = new URL(process.env.DP_BENCH_URL);
const key = process.env.DP_BENCH_KEY;
const email = process.env.DP_BENCH_EMAIL;
const password = process.env.DP_BENCH_PASSWORD;
const count = Number(process.env.BENCH_PIPELINES ?? 1000);
const requests = Number(process.env.BENCH_REQUESTS ?? 100);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function call(method, path, { headers = {}, body } = {}) {
  const payload = body === undefined ? null : Buffer.from(body);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: base.hostname, port: base.port, path, method, agent,
      headers: { ...headers, ...(payload ? { 'Content-Length': payload.length } : {}) },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers,
        text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload ?? undefined);
  });
}

const json = (method, path, value) => call(method, path, {
  headers: { 'Content-Type': 'application/json', 'DP-API-Key': key }, body: JSON.stringify(value),
});

function summary(ms) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, p50: at(0.5), p99: at(0.99), mean: s.reduce((a, b) => a + b, 0) / s.length };
}

const template = await json('POST', '/api/v1/templates', {
  id: 'test/bench/zones', dialect: 'SQLITE', display_name: 'Zones', description: 'bench',
  body: 'SELECT zone_id, zone_name FROM zones',
});
if (template.status !== 201) throw new Error(`template: ${template.status} ${template.text}`);
let firstId;
for (let i = 0; i < count; i += 1) {
  const name = `test/bench/p_${String(i).padStart(4, '0')}`;
  const res = await json('POST', '/api/v1/pipelines', {
    name, display_name: `Bench pipeline ${i}`, description: 'A UI bench pipeline.',
    nodes: [{ id: 'zones', description: 'Zones.', type: 'DQL', source: 'demo',
      template: { id: 'test/bench/zones', version: 1 }, depends_on: [] }],
  });
  if (res.status !== 201) throw new Error(`pipeline ${i}: ${res.status} ${res.text}`);
  firstId ??= JSON.parse(res.text).data.id;
  if (i % 250 === 249) console.error(`   ${i + 1} pipelines`);
}

const login = await call('POST', '/ui/login', {
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: `email=${encodeURIComponent(email)}&password=${encodeURIComponent(password)}`,
});
if (login.status !== 303) throw new Error(`login: ${login.status}`);
const cookie = login.headers['set-cookie'].map((c) => c.split(';')[0]).join('; ');

const kinds = [
  ['dashboard', '/ui/', 'test/bench/p_0000'],
  ['browse', '/ui/pipelines?prefix=test%2Fbench', 'test/bench/p_0000'],
  ['search', '/ui/pipelines?q=bench', 'test/bench/p_0000'],
  ['detail', `/ui/pipelines/${firstId}`, 'svg class="dag"'],
];
const out = { pipelines: count, requests, kinds: {} };
for (const [kind, path, expected] of kinds) {
  const ms = [];
  for (let i = 0; i < requests; i += 1) {
    const t0 = performance.now();
    const res = await call('GET', path, { headers: { Cookie: cookie } });
    ms.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`${kind}: ${res.status}`);
    if (i === 0) {
      // A fast wrong page is not a render: each page must show what it lists.
      if (!res.text.includes(expected)) throw new Error(`${kind}: the page lacks ${expected}`);
      out.kinds[kind] = { path, bytes: res.text.length };
    }
  }
  out.kinds[kind].client = summary(ms);
  console.error(`   ${kind}: client p50 ${out.kinds[kind].client.p50.toFixed(2)} ms`);
}
console.log(JSON.stringify(out));
agent.destroy();
