// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against a real
// datapipelines server: starts one like tests/e2e does (fresh data dir, bootstrap admin key),
// puts a small local proxy in front of it that adds the DP-API-Key header (the suite's client
// sends no credentials), and runs every active server scenario with expected-failures.yml as
// the baseline. Exit code: the suite's (0 = every applicable scenario passed and every listed
// one still fails).
import http from 'node:http';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../e2e/support/server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const suite = path.join(here, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** Forwards every request to `target` with the key header added; streams answers (SSE). */
function keyProxy(target, apiKey) {
  return http.createServer((req, res) => {
    const headers = { ...req.headers, 'dp-api-key': apiKey };
    const upstream = http.request(
      { host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`proxy: ${err.message}`);
    });
    req.pipe(upstream);
  });
}

const server = await startServer();
const proxy = keyProxy(server, server.adminKey);
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${proxy.address().port}/mcp`;
const results = mkdtempSync(path.join(os.tmpdir(), 'dp-conformance-'));
let code = 1;
try {
  code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [suite, 'server', '--url', url,
      '--expected-failures', path.join(here, 'expected-failures.yml'), '-o', results],
    { stdio: 'inherit' });
    child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
  });
} finally {
  proxy.close();
  await server.stop('SIGKILL');
  if (code !== 0) process.stderr.write(`conformance: server log:\n${server.log}\n`);
  server.cleanup();
  rmSync(results, { recursive: true, force: true });
}
process.exit(code);
