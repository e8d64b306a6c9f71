/**
 * What the real-WordPress tier needs to reach the site started by
 * scripts/wordpress/start.sh (read from .wordpress/site.json, written at
 * install with a fresh application password), a REST client for it, and the
 * gateway in front of it.
 */
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig, type ConfigInput } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/server.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface WpSite {
  origin: string;
  /** `http://127.0.0.1:<port>/wp-json/` */
  restUrl: string;
  wpVersion: string;
  admin: { id: number; login: string; appPassword: string };
  author: { id: number; login: string };
  categories: { uncategorized: number; news: number; local: number; sports: number };
  tags: { alpha: number; beta: number };
  posts: {
    published: number[];
    sticky: number;
    helloWorld: number;
    others: { draft: number; pending: number; private: number; password: number };
  };
}

export function wpSite(): WpSite {
  const dir = process.env.SITEGRAPH_WP_DIR ?? join(ROOT, '.wordpress');
  return JSON.parse(readFileSync(join(dir, 'site.json'), 'utf8')) as WpSite;
}

export function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

/** Major.minor of the site's WordPress, for the few answers that changed between releases. */
export function wpAtLeast(site: WpSite, major: number, minor: number): boolean {
  const [a = 0, b = 0] = site.wpVersion.split('.').map(Number);
  return a > major || (a === major && b >= minor);
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** REST request to a root (`.../wp-json/`); `path` starts with `/`. */
export async function rest<T = any>(
  root: string,
  method: string,
  path: string,
  opts: { body?: unknown; auth?: string | null; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const h: Record<string, string> = { ...opts.headers };
  if (opts.auth) h.authorization = opts.auth;
  if (opts.body !== undefined) h['content-type'] = 'application/json';
  const res = await fetch(root.replace(/\/$/, '') + path, {
    method,
    headers: h,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

export interface GqlResult<T = any> {
  status: number;
  data: T;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, any> }[];
}

export interface WpGateway {
  gateway: Gateway;
  gql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    authorization?: string | null,
  ): Promise<GqlResult<T>>;
  close(): Promise<void>;
}

/** The gateway (`startGateway` + `parseConfig`, as test/helpers/gateway.ts) in front of the real site. */
export async function startWpGateway(site: Pick<WpSite, 'restUrl'>, config: ConfigInput = {}): Promise<WpGateway> {
  // The upstream cache off unless asked for: these suites compare the gateway with direct REST reads and writes.
  const gateway = await startGateway(parseConfig({ port: 0, cache: { ttlSeconds: 0 }, ...config }), site.restUrl);
  return {
    gateway,
    async gql(query, variables, authorization = null) {
      const h: Record<string, string> = { 'content-type': 'application/json' };
      if (authorization) h.authorization = authorization;
      const res = await fetch(gateway.url, { method: 'POST', headers: h, body: JSON.stringify({ query, variables }) });
      const body = (await res.json()) as { data: any; errors?: GqlResult['errors'] };
      return { status: res.status, data: body.data, errors: body.errors };
    },
    close: () => gateway.close(),
  };
}

export interface Recorded {
  method: string;
  /** Path and query as the site received them (`/wp-json/wp/v2/posts?per_page=3`). */
  url: string;
  body: string;
}

export interface Recorder {
  /** The REST root to give the gateway: the recorder's, in front of the site's. */
  restUrl: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/**
 * A pass-through in front of the site on loopback that records every request
 * as it goes over the wire (PHP's server does not log them), so a test can show
 * which names the gateway really sent.
 */
export async function startRecorder(site: WpSite): Promise<Recorder> {
  const target = new URL(site.origin);
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? '', url: req.url ?? '', body: body.toString('utf8') });
      const up = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      up.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      up.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    restUrl: `http://127.0.0.1:${port}${new URL(site.restUrl).pathname}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
