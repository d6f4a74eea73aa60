// The real SMTP sink of the mail integration tests (tests/integration/mail/support/smtp_sink.mjs,
// nodemailer's smtp-server, its node_modules installed by `npm ci` there — scripts/test and
// tests/ui/run do it) for the UI tests: a throwaway CA and a certificate for localhost /
// 127.0.0.1 made with openssl (as tests/integration/mail/smtp_sink.hpp does), the sink spawned
// with STARTTLS and AUTH required on a loopback port in 57000-57999, and every accepted message
// read back from its out dir, the text part decoded (quoted-printable) for the test to read.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SINK_DIR = path.resolve(here, '../../integration/mail/support');

/** A port in [from, to] nobody listens on right now (bound then released). */
export async function portInRange(from = 57000, to = 57999) {
  const span = to - from + 1;
  const first = from + Math.floor(Math.random() * span);
  for (let i = 0; i < span; i += 1) {
    const port = from + ((first - from + i) % span);
    // eslint-disable-next-line no-await-in-loop
    const free = await new Promise((resolve) => {
      const srv = net.createServer();
      srv.unref();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free loopback port in ${from}-${to}`);
}

/** A CA (ca.pem) and a server certificate for localhost / 127.0.0.1 (server.pem, server.key). */
export function makeThrowawayCa(dir) {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const run = (args) => {
    const res = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`openssl ${args[0]} failed: ${res.stderr}`);
  };
  run(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1',
    '-subj', '/CN=dp-ui-test-ca', '-addext', 'basicConstraints=critical,CA:TRUE',
    '-addext', 'keyUsage=critical,keyCertSign']);
  run(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
  const ext = path.join(dir, 'ext.cnf');
  spawnSync('sh', ['-c', `printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\nbasicConstraints=CA:FALSE\\nextendedKeyUsage=serverAuth\\n' > '${ext}'`]);
  run(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial',
    '-out', 'server.pem', '-days', '1', '-extfile', 'ext.cnf']);
  return { ca: path.join(dir, 'ca.pem'), cert: path.join(dir, 'server.pem'), key: path.join(dir, 'server.key') };
}

function decodeQuotedPrintable(text) {
  const bytes = [];
  const soft = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i += 1) {
    if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeEncodedWords(value) {
  return value.replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, enc, data) => (enc.toUpperCase() === 'B'
    ? Buffer.from(data, 'base64').toString('utf8')
    : decodeQuotedPrintable(data.replace(/_/g, ' '))));
}

/** Headers (lower-case names, unfolded) and body of one MIME entity. */
function splitEntity(raw) {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decodeBody(entity) {
  const cte = (entity.headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (cte === 'quoted-printable') return decodeQuotedPrintable(entity.body);
  if (cte === 'base64') return Buffer.from(entity.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return entity.body;
}

/** One accepted message: envelope, subject, the decoded text and html parts, the raw source. */
export function parseMessage(record) {
  const top = splitEntity(record.message);
  const parsed = { ...record, raw: record.message, subject: decodeEncodedWords(top.headers.subject ?? ''),
    headers: top.headers, text: '', html: '' };
  const boundary = /boundary="?([^";]+)"?/i.exec(top.headers['content-type'] ?? '')?.[1];
  const parts = boundary
    ? top.body.split(`--${boundary}`).slice(1).filter((p) => !p.startsWith('--')).map((p) => splitEntity(p.replace(/^\r?\n/, '')))
    : [top];
  for (const part of parts) {
    const type = (part.headers['content-type'] ?? 'text/plain').toLowerCase();
    if (type.startsWith('text/plain')) parsed.text += decodeBody(part);
    else if (type.startsWith('text/html')) parsed.html += decodeBody(part);
  }
  return parsed;
}

/**
 * Starts the sink: STARTTLS under a fresh CA (unless starttls is false), AUTH as user/password.
 * Resolves { port, ca, user, password, messages(), waitFor(pred), close() }.
 */
export async function startMailSink({ user = 'dp-mailer', password = 'sink-Password-ui-1', starttls = true } = {}) {
  if (!existsSync(path.join(SINK_DIR, 'node_modules/smtp-server'))) {
    throw new Error(`smtp-server is not installed (cd ${SINK_DIR} && npm ci)`);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dp-ui-mail-'));
  const out = path.join(dir, 'out');
  mkdirSync(out);
  const certs = starttls ? makeThrowawayCa(dir) : {};
  const args = [path.join(SINK_DIR, 'smtp_sink.mjs'), '--out', out, '--user', user, '--password', password,
    '--port-from', '57000', '--port-to', '57999'];
  if (starttls) args.push('--cert', certs.cert, '--key', certs.key);
  else args.push('--no-starttls');
  const proc = spawn(process.execPath, args, { cwd: SINK_DIR, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (c) => { stderr += c; });
  const port = await new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`smtp sink did not start: ${stderr}`)), 15_000);
    proc.stdout.on('data', (c) => {
      stdout += c;
      const line = /\{"port":\s*(\d+)\}/.exec(stdout);
      if (line) {
        clearTimeout(timer);
        resolve(Number(line[1]));
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`smtp sink exited (${code}): ${stderr}`));
    });
  });
  const exited = new Promise((resolve) => proc.on('exit', resolve));
  const messages = () => readdirSync(out).filter((f) => f.endsWith('.json') && !f.startsWith('.')).sort()
    .map((f) => parseMessage(JSON.parse(readFileSync(path.join(out, f), 'utf8'))));
  return {
    port, ca: certs.ca, user, password, dir,
    get stderr() { return stderr; },
    messages,
    /** The first message matching pred, polled until timeoutMs. */
    async waitFor(pred, { timeoutMs = 15_000, what = 'a message' } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = messages().find(pred);
        if (hit) return hit;
        if (Date.now() > deadline) {
          throw new Error(`the sink got no ${what} in ${timeoutMs} ms; it has: ${JSON.stringify(messages().map((m) => [m.to, m.subject]))} ${stderr}`);
        }
        // eslint-disable-next-line no-await-in-loop
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async close() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The "One-time password: …" line of a credential mail's text part. */
export function oneTimePasswordOf(message) {
  return /^One-time password: (.+?)\s*$/m.exec(message.text)?.[1];
}
