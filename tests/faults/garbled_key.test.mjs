// A garbled credential: a key header whose bytes are not ASCII — non-ASCII UTF-8 (a mis-pasted
// key) or bytes that are not UTF-8 at all (a key sent in a single-byte encoding). It is a
// credential that does not check out — 401, as a wrong key is — not a malformed request (400),
// and never a 500. Written byte for byte over node:net: fetch and node:http refuse such bytes.
//
// A `dpk_`-shaped value is a wrong key: 401 auth.api_key.invalid. A bearer that is not
// `dpk_`-shaped at all (`dp_…`) is "no API key" by the rule tests/e2e/auth.test.mjs pins for
// every non-dpk_ bearer (auth.api_key.missing); garbled bytes may not change that into a 400,
// so either 401 code is accepted there.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../e2e/support/server.mjs';
import { rawRequest, show } from './support/client.mjs';

const ctx = useServer();
const NOT_UTF8 = Buffer.from([0xff, 0xfe, 0xc3, 0x80, 0xe2]); // invalid UTF-8 (and a cut-off sequence)
const utf8 = (s) => Buffer.from(s, 'utf8');

// [label, header line bytes, accepted codes]
const CREDENTIALS = [
  ['Authorization: Bearer dpk_€ü✓… (UTF-8)', utf8('Authorization: Bearer dpk_€ü✓…ключ'), ['auth.api_key.invalid']],
  ['DP-API-Key: dpk_€ü✓… (UTF-8)', utf8('DP-API-Key: dpk_€ü✓…ключ'), ['auth.api_key.invalid']],
  ['Authorization: Bearer dpk_ + bytes not UTF-8', Buffer.concat([utf8('Authorization: Bearer dpk_'), NOT_UTF8]), ['auth.api_key.invalid']],
  ['DP-API-Key: dpk_ + bytes not UTF-8', Buffer.concat([utf8('DP-API-Key: dpk_'), NOT_UTF8]), ['auth.api_key.invalid']],
  ['Authorization: Bearer dp_€ü✓… (UTF-8, not dpk_)', utf8('Authorization: Bearer dp_€ü✓…'), ['auth.api_key.invalid', 'auth.api_key.missing']],
  ['Authorization: Bearer dp_ + bytes not UTF-8 (not dpk_)', Buffer.concat([utf8('Authorization: Bearer dp_'), NOT_UTF8]), ['auth.api_key.invalid', 'auth.api_key.missing']],
];

function head(method, path, credential, extra = []) {
  return Buffer.concat([
    Buffer.from(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`, 'latin1'),
    credential,
    Buffer.from(`\r\n${extra.map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n`, 'latin1'),
  ]);
}

describe('a key header of bytes that are not ASCII', () => {
  for (const [what, credential, codes] of CREDENTIALS) {
    it(`${what} on GET /api/v1/pipelines → 401 ${codes.join(' | ')} (not 400, not 500)`, async () => {
      const res = await rawRequest(ctx.server, head('GET', '/api/v1/pipelines', credential));
      assert.equal(res.status, 401, show(res));
      assert.ok(codes.includes(res.json?.error?.code), show(res));
    });

    it(`${what} on POST /mcp → 401 ${codes.join(' | ')}`, async () => {
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
      const res = await rawRequest(ctx.server, head('POST', '/mcp', credential, [
        'Content-Type: application/json', 'Accept: application/json, text/event-stream',
        `Content-Length: ${body.length}`]), { body });
      assert.equal(res.status, 401, show(res));
      assert.ok(codes.includes(res.json?.error?.code), show(res));
    });
  }

  it('any other header with bytes that are not UTF-8 is still a 400 (the edge rule stands)', async () => {
    const res = await rawRequest(ctx.server, Buffer.concat([
      Buffer.from(`GET /api/v1/pipelines HTTP/1.1\r\nHost: 127.0.0.1\r\nDP-API-Key: ${ctx.server.adminKey}\r\nX-Note: `, 'latin1'),
      NOT_UTF8, Buffer.from('\r\nConnection: close\r\n\r\n', 'latin1')]));
    assert.equal(res.status, 400, show(res));
  });

  it('the server is still up and serves a good key', async () => {
    const res = await rawRequest(ctx.server, Buffer.from(
      `GET /api/v1/pipelines HTTP/1.1\r\nHost: 127.0.0.1\r\nDP-API-Key: ${ctx.server.adminKey}\r\nConnection: close\r\n\r\n`, 'latin1'));
    assert.equal(res.status, 200, show(res));
  });
});
