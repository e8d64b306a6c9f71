/**
 * The sandbox's HTTP face: `/wp-json/*` (and `?rest_route=`) dispatched like
 * WordPress, `/wp-admin/admin-ajax.php?action=rest-nonce`, and the control
 * routes `/__sandbox/{faults,log,nonce}` for tests and benchmarks. Latency and
 * faults are applied here, and every request is logged.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticate, createNonce } from './auth.ts';
import { Faults } from './faults.ts';
import { parseSandboxOptions, type FaultRule, type SandboxOptionsInput } from './options.ts';
import type { DispatchOutput } from './rest/dispatch.ts';
import { RestError } from './errors.ts';
import { parseQuery } from './rest/query.ts';
import { RequestLog, undeclaredUses, type LogEntry } from './requestlog.ts';
import { seedIfEmpty, type SeededUser } from './seed.ts';
import { Sandbox, errorOutput } from './site.ts';
import { siteCoding } from './encoding.ts';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const MAX_BODY = 10 * 1024 * 1024;

export interface RunningSandbox {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** REST root, `http://127.0.0.1:<port>/wp-json/` */
  url: string;
  site: Sandbox;
  log: RequestLog;
  faults: Faults;
  users: SeededUser[];
  close(): Promise<void>;
}

export async function startSandbox(input: SandboxOptionsInput = {}): Promise<RunningSandbox> {
  const options = parseSandboxOptions(input);
  const site = new Sandbox(options);
  const users = seedIfEmpty(site);
  const log = new RequestLog(options.requestLog);
  const faults = new Faults(options.faults);
  const server = createServer((req, res) => {
    handle(site, log, faults, req, res).catch((err) => {
      console.error('[sandbox] request failed:', err);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  site.origin = `http://${host}:${port}`;
  return {
    origin: site.origin,
    url: `${site.restRoot}/`,
    site,
    log,
    faults,
    users,
    close: () => closeServer(server, site),
  };
}

async function closeServer(server: Server, site: Sandbox): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  site.close();
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new RestError('rest_request_too_large', 'Request body too large.', 413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function headerMap(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

async function handle(
  site: Sandbox,
  log: RequestLog,
  faults: Faults,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const started = performance.now();
  const at = performance.timeOrigin + performance.now();
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  const method = (req.method ?? 'GET').toUpperCase();
  const headers = headerMap(req);

  if (url.pathname.startsWith('/__sandbox/') && site.options.control) {
    return control(site, log, faults, url, method, headers, req, res);
  }
  if (url.pathname === '/wp-admin/admin-ajax.php' && url.searchParams.get('action') === 'rest-nonce') {
    return nonceRoute(site, headers, 'wp_rest', res);
  }

  let restPath: string | null = null;
  if (url.pathname === '/wp-json' || url.pathname.startsWith('/wp-json/')) {
    restPath = url.pathname.slice('/wp-json'.length) || '/';
  } else if (url.searchParams.has('rest_route')) {
    restPath = url.searchParams.get('rest_route') || '/';
    url.searchParams.delete('rest_route');
  }
  if (restPath === null) {
    res.writeHead(404, { 'Content-Type': 'text/html; charset=UTF-8' });
    res.end(
      '<!doctype html><title>Not found</title><p>Page not found. The REST API is at <a href="/wp-json/">/wp-json/</a>.</p>',
    );
    return;
  }
  // `/wp-json/x/` and `/wp-json/x` are the same route.
  if (restPath.length > 1 && restPath.endsWith('/')) restPath = restPath.slice(0, -1);
  const query = parseQuery(url.search);

  const fault = faults.take(method, restPath);
  const delay =
    site.options.latencyMs +
    (site.options.jitterMs ? Math.floor(Math.random() * site.options.jitterMs) : 0) +
    (fault?.delayMs ?? 0);

  let out: DispatchOutput;
  let raw: Buffer;
  try {
    raw = await readBody(req);
  } catch (err) {
    out = errorOutput(err, {});
    raw = Buffer.alloc(0);
    return send(res, out, query, delay, null, () =>
      log.add({ method, path: restPath!, query, status: out.status, ms: ms(started), at }),
    );
  }

  if (fault && (fault.status !== undefined || fault.reset || fault.malformed)) {
    out = faultOutput(fault);
  } else {
    let body: Record<string, unknown> | null = null;
    let jsonError: string | undefined;
    const ctype = headers['content-type'] ?? '';
    if (raw.length) {
      if (ctype.includes('json')) {
        try {
          const parsed: unknown = JSON.parse(raw.toString('utf8'));
          body =
            typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
              ? (parsed as Record<string, unknown>)
              : {};
        } catch (err) {
          jsonError = (err as Error).message;
        }
      } else if (ctype.includes('application/x-www-form-urlencoded')) {
        body = parseQuery(raw.toString('utf8'));
      }
    }
    out = site.dispatch({ method, path: restPath + url.search, headers, body, jsonError });
  }
  const entry: LogEntry = {
    method,
    path: restPath,
    query,
    status: out.status,
    ms: 0,
    route: out.route,
    batch: out.batch,
    ...(out.undeclared ? { undeclared: out.undeclared } : {}),
    agent: headers['user-agent'],
    at,
  };
  if (site.options.strictArgs) reportUndeclared(entry);
  await send(res, out, query, delay, fault, () => log.add({ ...entry, ms: ms(started) }));
}

/**
 * `SANDBOX_STRICT_ARGS=1`: one stderr line per request or batch item that sent
 * arguments its route does not declare (WordPress drops them silently; the
 * request log records them either way).
 */
function reportUndeclared(entry: LogEntry): void {
  for (const use of undeclaredUses(entry)) {
    const where = `${use.method} ${use.path}${use.inBatch ? ' (in /batch/v1)' : ''}`;
    console.error(
      `[sandbox] undeclared argument(s) ${use.undeclared.join(', ')} dropped: ${where}, route ${use.route ?? '?'}`,
    );
  }
}

function ms(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}

function faultOutput(fault: FaultRule): DispatchOutput {
  if (fault.reset || fault.malformed) return { status: 200, body: null, headers: {} };
  const status = fault.status!;
  // A string body is sent as-is, as an HTML page (PHP fatals look like that).
  const html = typeof fault.body === 'string';
  return {
    status,
    body:
      fault.body !== undefined
        ? fault.body
        : { code: 'sandbox_injected_fault', message: `Injected fault: HTTP ${status}.`, data: { status } },
    headers: fault.headers ?? {},
    ...(html ? { contentType: 'text/html; charset=UTF-8' } : {}),
  };
}

/** A tree of requested keys: `true` keeps a key whole, a subtree keeps part of it. */
type FieldTree = { [key: string]: true | FieldTree };

/**
 * `_fields` as WordPress applies it (`rest_filter_response_fields`): the dotted
 * paths become a tree of keys (a path under a key already kept whole adds
 * nothing), and the response is intersected with it by key
 * (`_rest_array_intersect_key_recursive`). A bare list at the top (a
 * posts-style answer) is filtered item by item, but a list deeper down is
 * intersected like any PHP array, by its numeric keys: so
 * `_fields=events.title,total` answers `{"events": [], ...}` on a legacy
 * envelope (real-site-behaviour.md, "Nested `_fields` inside the envelope
 * empties the list"). Not applied to errors.
 */
function filterFields(body: unknown, fields: string[]): unknown {
  const tree: FieldTree = {};
  for (const field of fields) {
    const parts = field.split('.');
    let ref = tree;
    let covered = false;
    while (parts.length > 1) {
      const next = parts.shift()!;
      const sub = ref[next];
      if (sub === true) {
        covered = true;
        break;
      }
      ref = ref[next] = sub ?? {};
    }
    if (!covered) ref[parts[0]!] = true;
  }
  // Keys keep the response's order, as array_intersect_key does.
  const intersect = (value: unknown, keys: FieldTree): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const want = keys[k];
      if (want === undefined) continue;
      out[k] = want === true ? v : intersect(v, want);
    }
    const kept = Object.keys(out);
    // json_encode writes an array whose keys run 0..n-1 (the empty one included) as a list.
    return kept.every((k, i) => k === String(i)) ? Object.values(out) : out;
  };
  const top = (item: unknown) =>
    typeof item === 'object' && item !== null && !Array.isArray(item) ? intersect(item, tree) : item;
  return Array.isArray(body) ? body.map(top) : top(body);
}

async function send(
  res: ServerResponse,
  out: DispatchOutput,
  query: Record<string, unknown>,
  delay: number,
  fault: FaultRule | null,
  logIt: () => void,
): Promise<void> {
  if (delay > 0) await sleep(delay);
  if (fault?.reset) {
    logIt();
    res.socket?.destroy();
    return;
  }
  let body = out.body;
  let status = out.status;
  const headers: Record<string, string> = {
    Link: `<${res.req.headers.host ? `http://${res.req.headers.host}` : ''}/wp-json/>; rel="https://api.w.org/"`,
    'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link, X-TEC-Total, X-TEC-TotalPages',
    ...out.headers,
  };
  if (!out.contentType && status < 300 && typeof query._fields === 'string' && query._fields) {
    body = filterFields(
      body,
      query._fields
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean),
    );
  }
  if (!out.contentType && query._envelope !== undefined) {
    body = { body, status, headers: out.headers };
    status = 200;
  }
  let payload: string;
  let contentType: string;
  if (out.contentType) {
    payload = String(body ?? '');
    contentType = out.contentType;
  } else {
    payload = wpJsonEncode(body);
    contentType = 'application/json; charset=UTF-8';
  }
  if (fault?.malformed) payload = '{"code":"truncated","data":[1,2,';
  headers['Content-Type'] = contentType;
  if (status === 204) {
    res.writeHead(status, headers);
    res.end();
    logIt();
    return;
  }
  let buf = Buffer.from(payload, 'utf8');
  // Compressed as a web server in front of WordPress does (nginx's gzip, a CDN's brotli):
  // bodies over 1 KB, in the coding the client's Accept-Encoding prefers (gzip on a tie).
  const coding =
    res.req.method === 'HEAD' ? 'identity' : siteCoding(res.req.headers['accept-encoding'], buf.length > COMPRESS_OVER);
  if (coding === 'gzip' || coding === 'br') {
    buf =
      coding === 'gzip'
        ? await gzipAsync(buf)
        : await brotliAsync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
    headers['Content-Encoding'] = coding;
  }
  headers.Vary = 'Accept-Encoding';
  headers['Content-Length'] = String(buf.length);
  res.writeHead(status, headers);
  if (res.req.method === 'HEAD') {
    res.end();
  } else if (fault?.slowBodyMs) {
    const half = Math.floor(buf.length / 2);
    res.write(buf.subarray(0, half));
    await sleep(fault.slowBodyMs);
    if (!res.destroyed) res.end(buf.subarray(half));
  } else {
    res.end(buf);
  }
  logIt();
}

/** Bodies larger than this are compressed when the client asks (send). */
const COMPRESS_OVER = 1024;
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * JSON as WordPress sends it: `wp_json_encode` with PHP's default flags
 * escapes every character above U+007F as `\uXXXX` (surrogate pairs for the
 * rest) and every `/` as `\/`, so a real site's bodies are pure ASCII.
 */
export function wpJsonEncode(body: unknown): string {
  return (JSON.stringify(body) ?? 'null')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const payload = wpJsonEncode(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=UTF-8',
    'Content-Length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

function nonceRoute(site: Sandbox, headers: Record<string, string>, action: string, res: ServerResponse): void {
  try {
    const user = authenticate(
      headers.authorization,
      { byLogin: (l) => site.store.userByLogin(l), byEmail: (e) => site.store.userByEmail(e) },
      site.options.wrongPassword,
    );
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=UTF-8' });
    res.end(createNonce(site.secret, action, user?.id ?? 0, site.now().getTime()));
  } catch (err) {
    const out = errorOutput(err, {});
    json(res, out.status, out.body);
  }
}

async function control(
  site: Sandbox,
  log: RequestLog,
  faults: Faults,
  url: URL,
  method: string,
  headers: Record<string, string>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const what = url.pathname.slice('/__sandbox/'.length);
  if (what === 'faults') {
    if (method === 'GET') return json(res, 200, faults.list());
    if (method === 'DELETE') {
      faults.clear();
      return json(res, 200, { cleared: true });
    }
    if (method === 'POST') {
      try {
        faults.add(JSON.parse((await readBody(req)).toString('utf8')));
        return json(res, 201, faults.list());
      } catch (err) {
        return json(res, 400, { code: 'sandbox_bad_fault', message: (err as Error).message });
      }
    }
  }
  if (what === 'log') {
    if (method === 'GET') return json(res, 200, log.entries);
    if (method === 'DELETE') {
      log.clear();
      return json(res, 200, { cleared: true });
    }
  }
  if (what === 'nonce' && method === 'GET') {
    return nonceRoute(site, headers, url.searchParams.get('action') || 'wp_rest', res);
  }
  json(res, 404, {
    code: 'sandbox_no_control_route',
    message:
      'Control routes: /__sandbox/faults (GET, POST, DELETE), /__sandbox/log (GET, DELETE), /__sandbox/nonce?action=',
  });
}
