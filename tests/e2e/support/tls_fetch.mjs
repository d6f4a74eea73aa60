// A fetch over node:https that trusts one CA (a throwaway test certificate): the MCP SDK's
// StreamableHTTPClientTransport takes it as its `fetch` option, the health check uses it too.
import https from 'node:https';
import { Readable } from 'node:stream';

export function tlsFetch(ca) {
  return (url, init = {}) => new Promise((resolve, reject) => {
    const target = new URL(url);
    const method = init.method ?? 'GET';
    const req = https.request({
      hostname: target.hostname, port: target.port, path: target.pathname + target.search,
      method, headers: Object.fromEntries(new Headers(init.headers ?? {}).entries()), ca,
      agent: false,
    }, (res) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        for (const one of [value].flat()) if (one !== undefined) headers.append(name, one);
      }
      const empty = method === 'HEAD' || [204, 304].includes(res.statusCode);
      resolve(new Response(empty ? null : Readable.toWeb(res), { status: res.statusCode, headers }));
    });
    req.on('error', reject);
    init.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')));
    req.end(init.body ?? undefined);
  });
}
