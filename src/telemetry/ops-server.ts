// The operations server: what a scraper and an orchestrator ask a process, on a port of its own (OPS_PORT)
// rather than the public API's, needing no key. Its paths are given by the process: /metrics on both, and
// on a worker /healthz and /readyz. Anything else is 404; only GET and HEAD are answered.
import { createServer, type Server } from 'node:http';

export interface OpsAnswer {
  status: number;
  contentType: string;
  body: string;
}

export type OpsRoute = () => Promise<OpsAnswer> | OpsAnswer;

/** The port a process listens on unless OPS_PORT says: the API 9464, a worker 9465. */
export const DEFAULT_OPS_PORT = { api: 9464, worker: 9465 } as const;

export function json(status: number, body: unknown): OpsAnswer {
  return { status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}

/** Listens on `host`:`port` (0 picks a free one) and resolves once it does, with the server. */
export function startOpsServer(host: string, port: number, routes: Record<string, OpsRoute>): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
    const send = (a: OpsAnswer) => {
      res.writeHead(a.status, { 'Content-Type': a.contentType, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : a.body);
    };
    if (!route) return send(json(404, { error: { code: 'not_found', message: `No route for ${path}.` } }));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return send(json(405, { error: { code: 'method_not_allowed', message: 'Only GET and HEAD.' } }));
    }
    Promise.resolve()
      .then(route)
      .then(send, (err: unknown) =>
        send(json(500, { error: { code: 'internal_error', message: (err as Error).message } })),
      );
  });
  // A scraper that never reads its answer does not keep the socket open.
  server.requestTimeout = 10_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
