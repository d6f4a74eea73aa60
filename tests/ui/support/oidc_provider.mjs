// A real OpenID Provider on loopback for the browser tests: `oidc-provider` (the certified Node
// implementation), in-process, plain http at http://127.0.0.1:<port>. Confidential clients
// (client_secret_basic, authorization code, PKCE S256 required), scopes openid profile email,
// claims email email_verified name picture — in the ID token itself (conformIdTokenClaims off,
// as Google and most IdPs do) and at userinfo. The sign-in is a minimal interaction of our own
// built on the provider's interaction API: a login page where one types an account id, then a
// consent page (approve or deny). rotateKeys() swaps in a provider signing with new keys (new
// kids) on the same port, so a relying party holding the old JWKS meets an unknown kid.
import { randomBytes, generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import Provider from 'oidc-provider';
import { recordSecret } from '../../e2e/support/secrets.mjs';

/** The people at the IdP, by account id (what one types on its login page). */
export const ACCOUNTS = {
  alice: { email: 'alice@example.com', email_verified: true, name: 'Alice Liddell' },
  bob: { email: 'bob@example.com', email_verified: true, name: 'Bob Builder' },
  carol: { email: 'carol@example.com', email_verified: true, name: 'Carol Danvers' },
  mallory: { email: 'mallory@example.com', email_verified: false, name: 'Mallory Unverified' },
  eve: { email: 'eve@elsewhere.test', email_verified: true, name: 'Eve Outsider' },
  admin: { email: 'admin@example.com', email_verified: true, name: 'Ada Admin' },
};

export const subjectOf = (accountId) => `sub-${accountId}-7f3a9c`;
const BY_SUBJECT = Object.fromEntries(Object.keys(ACCOUNTS).map((id) => [subjectOf(id), id]));

function signingKeys(generation) {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const tag = randomBytes(4).toString('hex');
  return [
    { ...rsa, kid: `rsa-${generation}-${tag}`, alg: 'RS256', use: 'sig' },
    { ...ec, kid: `ec-${generation}-${tag}`, alg: 'ES256', use: 'sig' },
  ];
}

const escapeHtml = (s) => String(s).replace(/[&<>"']/g,
  (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

function page(res, status, title, body) {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>`
    + `</head><body><main id="idp" data-page="${escapeHtml(title)}">${body}</main></body></html>`;
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(html);
}

async function readForm(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function decodeJwtHeader(token) {
  try {
    return JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8'));
  } catch {
    return {};
  }
}

/**
 * Starts the IdP. `serverBase` is the datapipelines base-url; `providers` lists the
 * registrations the server will be configured with: [{name, clientId, alg?}] (alg is the ID
 * token signing algorithm, RS256 unless said). Resolves {issuer, port, clients, close(),
 * rotateKeys(), log, idTokens}: clients[name] = {clientId, clientSecret}; log holds every
 * request the IdP answered ({method, path, at}); idTokens every ID token it issued
 * ({clientId, kid, alg, claims, raw}).
 */
export async function startProvider({ serverBase, providers, port = 0 }) {
  const clients = {};
  for (const p of providers) {
    const clientSecret = `cs-${p.name}-${randomBytes(24).toString('base64url')}`;
    recordSecret(clientSecret);
    clients[p.name] = { clientId: p.clientId, clientSecret, alg: p.alg ?? 'RS256' };
  }
  const cookieKey = randomBytes(32).toString('base64url');
  const log = [];
  const idTokens = [];
  let generation = 0;
  let current;
  let issuer;

  // The provider's state (sessions, interactions, codes, grants) in this closure: it outlives a
  // key rotation, as a real IdP's store would, and spares the quick-start adapter's warning.
  const store = new Map();
  const grants = new Map();
  const key = (model, id) => `${model}:${id}`;
  class Adapter {
    constructor(model) { this.model = model; }
    async upsert(id, payload, expiresIn) {
      store.set(key(this.model, id), { payload, exp: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
      if (payload.grantId) {
        const ids = grants.get(payload.grantId) ?? [];
        ids.push(key(this.model, id));
        grants.set(payload.grantId, ids);
      }
    }
    async find(id) {
      const entry = store.get(key(this.model, id));
      if (!entry || entry.exp < Date.now()) return undefined;
      return entry.payload;
    }
    async findByUid(uid) {
      for (const [k, entry] of store) {
        if (k.startsWith(`${this.model}:`) && entry.payload.uid === uid && entry.exp >= Date.now()) return entry.payload;
      }
      return undefined;
    }
    async findByUserCode() { return undefined; }
    async consume(id) {
      const entry = store.get(key(this.model, id));
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id) { store.delete(key(this.model, id)); }
    async revokeByGrantId(grantId) {
      for (const k of grants.get(grantId) ?? []) store.delete(k);
      grants.delete(grantId);
    }
  }

  function build() {
    generation += 1;
    const jwks = { keys: signingKeys(generation) };
    const provider = new Provider(issuer, {
      clients: providers.map((p) => ({
        client_id: p.clientId,
        client_secret: clients[p.name].clientSecret,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [`${serverBase}/login/oauth2/code/${p.name}`],
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: clients[p.name].alg,
      })),
      pkce: { required: () => true },  // S256 is the only method oidc-provider 9 knows
      scopes: ['openid', 'profile', 'email'],
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name', 'picture'],
      },
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
      cookies: { keys: [cookieKey] },
      adapter: Adapter,
      ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
      jwks,
      async findAccount(ctx, sub) {
        const accountId = BY_SUBJECT[sub];
        if (!accountId) return undefined;
        const account = ACCOUNTS[accountId];
        return {
          accountId: sub,
          async claims() {
            return {
              sub,
              email: account.email,
              email_verified: account.email_verified,
              name: account.name,
              picture: `https://pictures.example.com/${accountId}.png`,
            };
          },
        };
      },
      renderError(ctx, out) {
        ctx.type = 'html';
        ctx.body = `<!doctype html><html><body><main id="idp-error" data-error="${escapeHtml(out.error)}">`
          + `${escapeHtml(out.error)}: ${escapeHtml(out.error_description ?? '')}</main></body></html>`;
      },
    });
    provider.on('grant.success', (ctx) => {
      const token = ctx.body?.id_token;
      if (typeof token !== 'string') return;
      recordSecret(token);
      if (typeof ctx.body.access_token === 'string') recordSecret(ctx.body.access_token);
      const header = decodeJwtHeader(token);
      let claims = {};
      try { claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')); } catch { /* */ }
      idTokens.push({ clientId: ctx.oidc?.client?.clientId, kid: header.kid, alg: header.alg, claims, raw: token });
    });
    const publicKeys = jwks.keys.map(({ kid, alg }) => ({ kid, alg }));
    return { provider, callback: provider.callback(), publicKeys };
  }

  // The interaction pages: login (type an account id), then consent (approve or deny).
  async function interaction(req, res, url) {
    const { provider } = current;
    const [, , uid, action] = url.pathname.split('/');
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.uid !== uid) throw new Error('interaction mismatch');
      const { prompt, params } = details;
      if (req.method === 'GET' && !action) {
        if (prompt.name === 'login') {
          return page(res, 200, 'login', `<h1>Sign in at the test IdP</h1>`
            + `<p>Client <code id="client">${escapeHtml(params.client_id)}</code></p>`
            + `<form method="post" action="/interaction/${uid}/login">`
            + '<label>Account id <input id="login" name="login" autocomplete="off"></label>'
            + '<button id="sign-in" type="submit">Sign in</button></form>');
        }
        return page(res, 200, 'consent', '<h1>Authorize</h1>'
          + `<p><code id="client">${escapeHtml(params.client_id)}</code> asks for `
          + `<span id="scopes">${escapeHtml(params.scope)}</span></p>`
          + `<form method="post" action="/interaction/${uid}/confirm">`
          + '<button id="approve" type="submit">Approve</button></form>'
          + `<form method="post" action="/interaction/${uid}/abort">`
          + '<button id="deny" type="submit">Deny</button></form>');
      }
      if (req.method === 'POST' && action === 'login') {
        const accountId = (await readForm(req)).get('login') ?? '';
        if (!ACCOUNTS[accountId]) {
          return page(res, 200, 'login', `<p id="unknown">No account ${escapeHtml(accountId)}</p>`
            + `<form method="post" action="/interaction/${uid}/login">`
            + '<input id="login" name="login"><button id="sign-in" type="submit">Sign in</button></form>');
        }
        return provider.interactionFinished(req, res, { login: { accountId: subjectOf(accountId) } },
          { mergeWithLastSubmission: false });
      }
      if (req.method === 'POST' && action === 'confirm') {
        await readForm(req);
        const { grantId, session } = details;
        const grant = grantId ? await provider.Grant.find(grantId)
          : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
        const missing = prompt.details ?? {};
        if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
        if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
        for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
          grant.addResourceScope(indicator, scopes.join(' '));
        }
        return provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } },
          { mergeWithLastSubmission: true });
      }
      if (req.method === 'POST' && action === 'abort') {
        await readForm(req);
        return provider.interactionFinished(req, res, {
          error: 'access_denied', error_description: 'End-User aborted interaction',
        }, { mergeWithLastSubmission: false });
      }
      return page(res, 404, 'not found', '<p>No such interaction step.</p>');
    } catch (err) {
      return page(res, 400, 'interaction error', `<p id="interaction-error">${escapeHtml(err.message)}</p>`);
    }
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://idp.invalid');
    log.push({ method: req.method, path: url.pathname, at: Date.now() });
    if (url.pathname.startsWith('/interaction/')) {
      interaction(req, res, url).catch((err) => {
        if (!res.headersSent) page(res, 500, 'error', escapeHtml(err.message));
      });
      return;
    }
    current.callback(req, res);
  });
  const sockets = new Set();
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = server.address().port;
  issuer = `http://127.0.0.1:${bound}`;
  current = build();

  return {
    issuer,
    port: bound,
    clients,
    log,
    idTokens,
    /** The kids the IdP signs with now (and publishes at /jwks). */
    get kids() { return current.publicKeys.map((k) => k.kid); },
    /** New signing keys (new kids); the old ones are no longer published. */
    rotateKeys() {
      const before = current.publicKeys.map((k) => k.kid);
      current = build();
      return { before, after: current.publicKeys.map((k) => k.kid) };
    },
    async close() {
      await new Promise((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}
