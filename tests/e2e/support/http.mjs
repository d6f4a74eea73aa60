// Raw HTTP over node:http (not fetch): tests need full control of Host, Origin and oversized
// bodies, which fetch forbids or buffers.
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { recordResponseSecrets } from './secrets.mjs';

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const MCP_HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};

/** Resolves {status, headers, text, json}; json is undefined when the body is not JSON. */
export function request(server, { method = 'GET', path = '/', headers = {}, body, chunked = false } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined
      : Buffer.isBuffer(body) ? body
        : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const allHeaders = { ...headers };
    if (payload !== undefined && !chunked) allHeaders['Content-Length'] = String(payload.length);
    const req = http.request({
      host: '127.0.0.1', port: server.port, method, path, headers: allHeaders, agent: false,
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
        recordResponseSecrets(res.headers, json);
        resolve({ status: res.statusCode, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    // A server may answer (413) and close before the whole body is written; the response
    // still arrives, so a write-side EPIPE/ECONNRESET only fails if no response came.
    req.on('error', (err) => setTimeout(() => reject(err), 200));
    if (payload !== undefined && chunked) {
      // Several chunks so the size is only known while reading the body.
      for (let i = 0; i < payload.length; i += 64 * 1024) req.write(payload.subarray(i, i + 64 * 1024));
    } else if (payload !== undefined) {
      req.write(payload);
    }
    req.end();
  });
}

/** POST /mcp with the MCP headers plus `headers`; `body` is an object or a raw string. */
export function mcpPost(server, body, headers = {}, { chunked = false } = {}) {
  return request(server, {
    method: 'POST', path: '/mcp', headers: { ...MCP_HEADERS, ...headers }, body, chunked,
  });
}

export const keyHeader = (key) => ({ 'DP-API-Key': key });
export const bearerHeader = (key) => ({ Authorization: `Bearer ${key}` });

let nextId = 1;
export const rpc = (method, params) => ({
  jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }),
});

/** tools/call over raw HTTP; resolves the HTTP response plus the parsed tool payload. */
export async function callToolRaw(server, key, name, args = {}, headers = {}) {
  const res = await mcpPost(server, rpc('tools/call', { name, arguments: args }),
    { ...keyHeader(key), ...headers });
  const result = res.json?.result;
  let payload;
  if (result?.content?.[0]?.text) {
    try { payload = JSON.parse(result.content[0].text); } catch { payload = undefined; }
  }
  return { ...res, result, payload };
}

/** The official SDK client over Streamable HTTP; `form` chooses the credential header. */
export async function sdkClient(server, key, form = 'dp-api-key') {
  const headers = form === 'bearer' ? bearerHeader(key) : keyHeader(key);
  const transport = new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
    requestInit: { headers },
  });
  const client = new Client({ name: 'datapipelines-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** Parses the JSON payload of a tool result's first text block. */
export function toolPayload(result) {
  const text = result?.content?.[0]?.text;
  if (typeof text !== 'string') throw new Error(`no text content in ${JSON.stringify(result)}`);
  return JSON.parse(text);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
