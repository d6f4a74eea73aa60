// Every secret an e2e or UI run uses or is handed — passwords, encryption keys, minted API
// keys, session tokens — is appended to DP_E2E_SECRETS_FILE (one per line), so scripts/test
// can prove that no server log of the whole run carries any of them (observability §9).
// The file lives outside the log dir the sweep reads.
import { appendFileSync } from 'node:fs';

const file = process.env.DP_E2E_SECRETS_FILE;
const seen = new Set();
// Names of environment variables whose values are secrets.
const SECRET_ENV = /(ENCRYPTION_KEY|TOKEN|PASSWORD|SECRET|API_KEY)$/;

/** Records one secret; short strings are skipped (they would match innocent text). */
export function recordSecret(value) {
  if (!file || typeof value !== 'string' || value.length < 12 || seen.has(value)) return;
  seen.add(value);
  appendFileSync(file, `${value}\n`);
}

/** The secret-named values of a server's environment. */
export function recordEnvSecrets(env) {
  for (const [name, value] of Object.entries(env)) {
    if (SECRET_ENV.test(name)) recordSecret(value);
  }
}

/** What a response hands out: `api_key` plaintexts anywhere in its JSON, the session cookie. */
export function recordResponseSecrets(headers, json) {
  for (const cookie of [].concat(headers?.['set-cookie'] ?? [])) {
    const session = /^dp_session=([^;]+)/.exec(cookie);
    if (session) recordSecret(session[1]);
  }
  const walk = (value) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'api_key' && typeof inner === 'string') recordSecret(inner);
        else walk(inner);
      }
    }
  };
  walk(json);
}
