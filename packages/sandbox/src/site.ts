/**
 * The sandbox site: storage, users, routes, and WordPress's dispatch order
 * (reference/site-upstream.md §1): authentication errors first (even for
 * unknown routes), then route match, then argument validation, then the
 * permission callback, then the callback. A 400 therefore beats a 401.
 */
import { EventEmitter } from 'node:events';
import { createHash } from 'node:crypto';
import { authenticate, type User } from './auth.ts';
import { RawError, RestError, forbidden, noRoute } from './errors.ts';
import { parseQuery } from './rest/query.ts';
import type { Site, SiteEvents } from './capabilities.ts';
import type { DispatchInput, DispatchOutput, Dispatcher } from './rest/dispatch.ts';
import {
  RestResult,
  type Endpoint,
  type Method,
  type RestRequest,
  type RouteDecl,
  type RouteTable,
} from './rest/types.ts';
import { checkParams } from './rest/validate.ts';
import { Store } from './store/db.ts';
import type { SandboxOptions } from './options.ts';
import { allRoutes } from './namespaces/index.ts';
import { isPluginPath, renameLinks, specNamespace } from './names.ts';
import { aliasRoutes, releaseRoutes } from './route-table.ts';

interface CompiledRoute {
  decl: RouteDecl;
  re: RegExp;
}

/** What the log learns of a request while it is prepared, kept whatever the answer. */
interface Seen {
  /** The matched route pattern. */
  route?: string;
  /** Arguments the endpoint does not declare, dropped (sorted). */
  undeclared?: string[];
}

/**
 * WordPress's global parameters: read by the REST server itself (or, for
 * `_wpnonce`, by cookie authentication), never declared by a route, never
 * dropped.
 */
const GLOBAL_PARAMS = new Set([
  '_fields',
  '_embed',
  '_envelope',
  '_method',
  '_jsonp',
  '_pretty',
  '_wpnonce',
  '_locale',
]);

/**
 * WordPress hands a callback only what the endpoint declares (its `args`), the
 * URL's captures and the global parameters: an undeclared query or body
 * argument is dropped without a word (declared-args.md: "a filter that is not
 * in these lists is silently ignored"). Takes them out of `req.params` and
 * `req.sent`, before validation, and returns their names, sorted, for the log.
 * `req.query` and `req.body` keep them: the links WordPress builds from the
 * request's query (`Link`, `rest_url`) carry every parameter sent. A callback
 * that reads undeclared names says so (`Endpoint.reads`): those stay.
 */
function dropUndeclared(req: RestRequest, endpoint: Endpoint): string[] {
  const { reads } = endpoint;
  if (reads === 'all') return [];
  const keep = (name: string) =>
    Object.hasOwn(endpoint.args, name) ||
    Object.hasOwn(req.urlParams, name) ||
    GLOBAL_PARAMS.has(name) ||
    Boolean(reads?.includes(name));
  const dropped = Object.keys(req.params)
    .filter((name) => !keep(name))
    .sort();
  for (const name of dropped) delete req.params[name];
  req.sent = new Set([...req.sent].filter(keep));
  return dropped;
}

/**
 * Composes the capabilities (capabilities.ts) and the routing: namespaces get
 * `this` as a `Site`, batch as a `Dispatcher`, the indexes as a `RouteTable`.
 */
export class Sandbox implements Site, Dispatcher, RouteTable {
  readonly store: Store;
  readonly options: SandboxOptions;
  readonly secret: string;
  readonly routes: RouteDecl[];
  readonly emitter = new EventEmitter<SiteEvents>();
  private readonly clockOffset: number;
  /** Set once the server listens, e.g. `http://127.0.0.1:8080`. */
  origin = 'http://127.0.0.1';
  private compiled: CompiledRoute[];

  constructor(options: SandboxOptions) {
    this.options = options;
    this.clockOffset = options.now ? Date.parse(options.now) - Date.now() : 0;
    this.store = new Store(options.db);
    this.secret = createHash('sha256').update(`sitegraph-sandbox:${options.seed}`).digest('hex');
    // A disabled namespace is absent: no index entry, no routes (an older or smaller site).
    // An entry starting with "/" removes the routes under that path (Yoast SEO free has
    // seo/v1 but no `/seo/v1/redirects` routes).
    // The release's declarations first, then the names (both keyed by the spec's names; route-table.ts).
    const gone = options.disable.filter((d) => d.startsWith('/'));
    const present = (r: RouteDecl) =>
      !options.disable.includes(specNamespace(r.namespace)) &&
      !gone.some((p) => r.path === p || r.path.startsWith(`${p}/`));
    this.routes = aliasRoutes(releaseRoutes(allRoutes(this), options.tec).filter(present), options.names);
    this.compiled = this.routes.map((decl) => ({
      decl,
      re: new RegExp(`^${decl.path.replace(/\(\?P</g, '(?<')}$`, 'i'),
    }));
  }

  /** `http://host:port/wp-json` */
  get restRoot(): string {
    return `${this.origin}/wp-json`;
  }

  get timezone(): string {
    return this.options.timezone;
  }

  /** The site's clock: real time, or running from `options.now` (see SandboxOptions). */
  now(): Date {
    return new Date(Date.now() + this.clockOffset);
  }

  close(): void {
    this.store.close();
  }

  /** Finds the route and endpoint for a path and method; WordPress tries routes in order. */
  match(
    method: string,
    path: string,
  ): { decl: RouteDecl; endpoint: Endpoint | null; urlParams: Record<string, string> } | null {
    let pathOnly: { decl: RouteDecl; urlParams: Record<string, string> } | null = null;
    for (const { decl, re } of this.compiled) {
      const m = re.exec(path);
      if (!m) continue;
      const urlParams = { ...(m.groups ?? {}) };
      const endpoint = decl.endpoints.find((e) => e.methods.includes(method as Method));
      if (endpoint) return { decl, endpoint, urlParams };
      pathOnly ??= { decl, urlParams };
    }
    return pathOnly ? { ...pathOnly, endpoint: null } : null;
  }

  dispatch(input: DispatchInput): DispatchOutput {
    const headers: Record<string, string> = {};
    const seen: Seen = {};
    try {
      const user =
        input.user !== undefined
          ? input.user
          : authenticate(
              input.headers.authorization,
              {
                byLogin: (l) => this.store.userByLogin(l),
                byEmail: (e) => this.store.userByEmail(e),
              },
              this.options.wrongPassword,
            );
      const prepared = this.prepare({ ...input, user }, headers, seen);
      return this.finish(input.path, this.execute(prepared.req, prepared.endpoint, headers), seen);
    } catch (err) {
      // A request refused by validation still matched its route: the log keeps it.
      return this.finish(input.path, errorOutput(err, headers), seen);
    }
  }

  /** See Dispatcher.validateOnly. */
  validateOnly(input: DispatchInput): { output: DispatchOutput | null; run: () => DispatchOutput } {
    const headers: Record<string, string> = {};
    const seen: Seen = {};
    try {
      const { req, endpoint } = this.prepare(input, headers, seen);
      return { output: null, run: () => this.finish(input.path, this.execute(req, endpoint, {}), seen) };
    } catch (err) {
      const out = this.finish(input.path, errorOutput(err, headers), seen);
      return { output: out, run: () => out };
    }
  }

  /**
   * The answer as sent: the route and the dropped arguments for the log, and,
   * for a request made by the plugin's names (or any request when only those
   * are served), the links in the plugin's names (names.ts).
   */
  private finish(path: string, out: DispatchOutput, seen: Seen): DispatchOutput {
    const { names } = this.options;
    const rename = names === 'plugin' || (names === 'both' && isPluginPath(path.split('?')[0]!));
    const answer = rename
      ? { ...out, body: renameLinks(out.body, this.restRoot), headers: renameLinks(out.headers, this.restRoot) }
      : out;
    return { ...answer, route: seen.route, ...(seen.undeclared?.length ? { undeclared: seen.undeclared } : {}) };
  }

  /**
   * Route match, batch admission and argument validation; throws the RestError to send.
   * `headers`, `seen.route` and `seen.undeclared` are filled as soon as known, so errors can carry them.
   */
  private prepare(
    input: DispatchInput,
    headers: Record<string, string>,
    seen: Seen = {},
  ): { req: RestRequest; endpoint: Endpoint } {
    const qIndex = input.path.indexOf('?');
    const path = qIndex < 0 ? input.path : input.path.slice(0, qIndex);
    const query = qIndex < 0 ? {} : parseQuery(input.path.slice(qIndex + 1));
    let method = input.method.toUpperCase();
    // Method override: ?_method= wins over the header (site-upstream.md §6); not inside batches.
    const override = (typeof query._method === 'string' && query._method) || input.headers['x-http-method-override'];
    if (override && !input.inBatch) method = String(override).toUpperCase();
    if (method === 'HEAD') method = 'GET';

    const found = this.match(method, path);
    if (found) headers.Allow = [...new Set(found.decl.endpoints.flatMap((e) => e.methods))].join(', ');
    if (!found || !found.endpoint) throw noRoute();
    const { decl, endpoint, urlParams } = found;
    seen.route = decl.path;
    const req = this.buildRequest(method as Method, path, decl, query, input, urlParams, input.user ?? null);
    seen.undeclared = dropUndeclared(req, endpoint);
    if (input.inBatch && !(endpoint.allowBatch && this.options.batchable)) {
      throw new RestError('rest_batch_not_allowed', 'The requested route does not support batch requests.', 400);
    }
    req.params = this.validate(req, endpoint, input.jsonError);
    return { req, endpoint };
  }

  private buildRequest(
    method: Method,
    path: string,
    decl: RouteDecl,
    query: Record<string, unknown>,
    input: DispatchInput,
    urlParams: Record<string, string>,
    user: User | null,
  ): RestRequest {
    const body = input.body ?? {};
    // WordPress's parameter order: JSON/body, then query, then URL captures, then defaults.
    const raw: Record<string, unknown> = { ...urlParams, ...query, ...(method === 'GET' ? {} : body) };
    return {
      method,
      path,
      route: decl.path,
      query,
      body,
      urlParams,
      params: raw,
      sent: new Set(Object.keys(raw)),
      headers: input.headers,
      user,
      site: this,
      inBatch: Boolean(input.inBatch),
    };
  }

  private validate(req: RestRequest, endpoint: Endpoint, jsonError?: string): Record<string, unknown> {
    if (jsonError !== undefined) {
      throw new RestError('rest_invalid_json', 'Invalid JSON body passed.', 400, {
        json_error_code: 4,
        json_error_message: jsonError,
      });
    }
    // An endpoint that declares its args without enforcing them parses them itself (Endpoint.parseArgs).
    const params = endpoint.parseArgs?.(req, endpoint.args) ?? checkParams(req.params, endpoint.args, req);
    const routeError = endpoint.validateRequest?.({ ...req, params });
    if (routeError) throw routeError;
    return params;
  }

  private execute(req: RestRequest, endpoint: Endpoint, headers: Record<string, string>): DispatchOutput {
    try {
      const allowed = endpoint.permission(req);
      if (allowed instanceof RestError) throw allowed;
      if (!allowed) throw forbidden(req.user !== null);
      const result = endpoint.handler(req);
      if (result instanceof RestResult) {
        return {
          status: result.status,
          body: result.body,
          headers: { ...headers, ...result.headers },
          contentType: result.contentType,
          batch: result.batch,
        };
      }
      return { status: 200, body: result, headers };
    } catch (err) {
      return errorOutput(err, headers);
    }
  }
}

export function errorOutput(err: unknown, headers: Record<string, string>): DispatchOutput {
  if (err instanceof RestError) return { status: err.status, body: err.toBody(), headers };
  if (err instanceof RawError) return { status: err.status, body: err.body, headers: { ...headers, ...err.headers } };
  // Anything else is a bug in the sandbox; WordPress answers such fatals with a 500.
  console.error('[sandbox] internal error:', err);
  return {
    status: 500,
    body: {
      code: 'internal_server_error',
      message: 'There has been a critical error on this website.',
      data: { status: 500 },
    },
    headers,
  };
}
