/**
 * The admin listener (`ADMIN_PORT`, on `ADMIN_HOST`, loopback by default):
 * what operators and their tools use, kept off the public port so that
 * callers never see the site's URL, its namespaces or the metrics, and
 * probes and scrapes are never counted by rate limits (docs/production.md "Admin listener").
 *
 *   GET  /metrics   Prometheus text (src/metrics.ts), compressed when asked
 *   GET  /readyz    readiness from the last background reading (src/readiness.ts)
 *   GET  /healthz   the process answers
 *   POST /purge     drops what the gateway's stores hold (src/admin/purge.ts)
 *
 * It has no authentication of its own: keep it on loopback or a private network.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import type { Readiness } from '../readiness.ts';
import type { Responder } from '../respond.ts';
import { json, readBody, refuseOversizeBeforeContinue, tooLarge } from '../http.ts';
import { jsonTooDeep, nestingError } from '../nesting.ts';
import { purge, type PurgeTarget } from './purge.ts';

/** A purge body is a short list of tags: 64 KiB holds the most a purge takes. */
const MAX_BODY = 64 * 1024;

export interface AdminDeps {
  metrics: Metrics;
  readiness: Readiness;
  purge: PurgeTarget;
  responder: Responder;
  log: Logger;
}

export interface AdminListener {
  /** `http://host:port` */
  url: string;
  close(): Promise<void>;
}

export async function startAdmin(host: string, port: number, deps: AdminDeps): Promise<AdminListener> {
  const server = createServer((req, res) => {
    handle(req, res, deps).catch((err: unknown) => {
      deps.log.error({ err }, 'admin request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: 'internal error' }));
    });
  });
  refuseOversizeBeforeContinue(server, MAX_BODY, 'plain');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, deps: AdminDeps): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://admin.invalid').pathname;
  const method = (req.method ?? 'GET').toUpperCase();
  res.setHeader('cache-control', 'no-store');
  if (path === '/metrics' && method === 'GET') {
    res.statusCode = 200;
    res.setHeader('content-type', deps.metrics.registry.contentType);
    deps.responder.end(req, res, await deps.metrics.registry.metrics());
    return;
  }
  if (path === '/readyz' && method === 'GET') {
    const r = deps.readiness.report();
    return json(res, r.httpStatus, r.body);
  }
  if (path === '/healthz' && method === 'GET') return json(res, 200, { status: 'ok' });
  if (path === '/purge') {
    if (method !== 'POST') {
      res.setHeader('allow', 'POST');
      return json(res, 405, { error: 'POST /purge with {"all": true} or {"tags": [...]}' });
    }
    const raw = await readBody(req, MAX_BODY);
    if (raw === null) return tooLarge(res, MAX_BODY, 'plain');
    const text = raw.toString('utf8');
    if (jsonTooDeep(text)) return json(res, 400, { error: nestingError('The body').message });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return json(res, 400, { error: 'the body is not valid JSON' });
    }
    const answer = await purge(body, deps.purge);
    deps.log.info({ status: answer.status, ...answer.body }, 'admin: purge');
    return json(res, answer.status, answer.body);
  }
  json(res, 404, { error: 'Not found. Admin routes: GET /metrics, GET /readyz, GET /healthz, POST /purge.' });
}
