/**
 * Routes as data. One declaration per REST
 * route says its method, its path as spec/routes.tsv writes it (`<param>`
 * segments filled from the field's arguments), how the arguments become the
 * query or the JSON body, which non-2xx answers are data, how the body maps to
 * the field's result, and the GraphQL field it serves. Derived from it:
 *
 *   - the upstream request (`requestOf`, `writeRequestOf`, `callRoute`);
 *   - the resolver (`resolversOf`), typed by the generated resolver map, so a
 *     declaration's argument reader and result mapping are checked against
 *     the schema's argument and model types;
 *   - the route-coverage rows (`routeRows`, read by routes/route-table.ts).
 *
 * It lives beside upstream/, mapping/ and resolvers/ because a declaration
 * spans all three. Every request goes through the operation's session
 * (`ctx.upstream`), exactly like a hand-written call: cancellation, the route
 * gate, the budget, the cache and the error mapping apply unchanged.
 */
import type { Context } from '../context.ts';
import type { WriteRequest } from '../upstream/batch.ts';
import type { QueryValue, UpstreamRequest, UpstreamSession } from '../upstream/client.ts';
import { fromUpstreamResponse, missingObject, type WriteTarget } from '../upstream/errors.ts';
import type { GatewayError } from '../errors.ts';
import type {
  ArgsOf,
  FieldCoordinate,
  FieldName,
  FieldUse,
  QualifiedField,
  RouteUse,
  SchemaTypeName,
} from './route-use.ts';

export type { ArgsOf } from './route-use.ts';

/**
 * The resolver function of field K in a generated resolver map R (codegen's `Resolver` is a function or `{resolve}`).
 */
type FieldFn<R, K extends keyof R> = Extract<NonNullable<R[K]>, (...args: never[]) => unknown>;
/** What field K resolves to: the generated model type (or its mapper), or null. */
export type ResultOf<R, K extends keyof R> = Awaited<ReturnType<FieldFn<R, K>>>;

/**
 * A route whose path depends on one enum argument (`runIndexing(action:)`
 * reaches nine routes): the argument's name, one spec path per value, and how
 * to read the value. Built with `byArg`, which checks every value has a path.
 */
export interface PathChoice<A> {
  readonly arg: string;
  readonly paths: Readonly<Record<string, string>>;
  readonly pick: (a: A) => string;
}

/** A path per value of the enum argument `arg`; the compiler checks none is missing. */
export function byArg<A, P extends keyof A & string>(
  arg: P,
  paths: Readonly<Record<Extract<A[P], string>, string>>,
): PathChoice<A> {
  return { arg, paths: Object.fromEntries(Object.entries<string>(paths)), pick: (a) => String(a[arg]) };
}

/**
 * A non-2xx status this route answers as data: Yoast answers some failures
 * with a body the graph shows (a redirect warning at 400, the not-found head at
 * 404). `isData` tells that body from a real failure of the same status (core's
 * `rest_forbidden` 401, a missing route's 404), which stays an error; `refusal`
 * may name such a failure better than the generic mapping does.
 */
export interface DataStatus<A> {
  readonly status: number;
  readonly isData: (body: unknown) => boolean;
  readonly refusal?: (body: unknown, a: A, route: string) => GatewayError | undefined;
}

/** The answer a result mapping reads besides the body. */
export interface Answer<A> {
  readonly status: number;
  readonly args: A;
  /** The answer's headers (lower-case names). */
  readonly headers: Readonly<Record<string, string>>;
}

export type Method = UpstreamRequest['method'];

export interface RouteDecl<A, T> {
  readonly method: Method;
  /** As in spec/routes.tsv, e.g. `/seo/v1/import/<plugin>/<type>`; or one of several by an enum argument. */
  readonly path: string | PathChoice<A>;
  /** The values of the path's `<param>` segments (URI-encoded here). */
  readonly params?: (a: A) => Record<string, string>;
  readonly query?: (a: A) => Record<string, QueryValue>;
  /**
   * The JSON body of a write; undefined values are left out (the site applies its defaults). Default `{}` for writes
   * but DELETE (none).
   */
  readonly body?: (a: A) => Record<string, unknown>;
  /** Request headers the route needs (`accept` of a CSV export); never a caller's secret (those are arguments). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * False when sending the request twice is not the same as once (a feed that
   * pops what it answers): never retried, never cached. Default: GETs are
   * idempotent, writes are not retried anyway.
   */
  readonly idempotent?: boolean | ((a: A) => boolean);
  /** Checks the arguments before anything is sent; throws BAD_USER_INPUT (`GatewayError.badInput`). */
  readonly check?: (a: A) => void;
  readonly dataStatus?: DataStatus<A>;
  /**
   * A write to one object named by ID: the site's refusal of a missing one is NOT_FOUND (upstream/errors.ts
   * `missingObject`).
   */
  readonly target?: (a: A) => WriteTarget;
  /** The body (and status) -> the field's result; pure (mapping/*.ts), throws UpstreamShapeError on a wrong shape. */
  readonly result: (body: unknown, answer: Answer<A>) => T;
}

/** A declaration bound to field K of the generated resolver map R. */
export type FieldRoute<R, K extends keyof R> = RouteDecl<ArgsOf<R, K>, ResultOf<R, K>> & {
  /**
   * When one field needs its route more than once (one call per value of an
   * argument), how: `call` is the declared request and mapping. Default: one call.
   */
  readonly resolve?: (a: ArgsOf<R, K>, call: (a: ArgsOf<R, K>) => Promise<ResultOf<R, K>>) => Promise<ResultOf<R, K>>;
  /** Other fields of R that reach this route by hand-written code (the bulk writer), for the coverage table. */
  readonly alsoReachedBy?: readonly (keyof R & string)[];
};

/** The declared fields of one resolver map (e.g. `SeoQueryResolvers`). */
export type FieldRoutes<R> = { readonly [K in keyof R]?: FieldRoute<R, K> };

/** A derived resolver: assignable to the generated `Resolver` of its field. */
export type DerivedResolver<R, K extends keyof R> = (
  parent: unknown,
  args: ArgsOf<R, K>,
  ctx: Context,
) => Promise<ResultOf<R, K>>;
export type DerivedResolvers<R> = { [K in keyof R]?: DerivedResolver<R, K> };

/** The spec path this call of the declaration reaches. */
export function specPathOf<A>(d: RouteDecl<A, unknown>, a: A): string {
  if (typeof d.path === 'string') return d.path;
  const value = d.path.pick(a);
  const path = d.path.paths[value];
  if (path === undefined)
    throw new TypeError(`route declaration: no path for ${d.path.arg} = ${JSON.stringify(value)}`);
  return path;
}

/** `<param>` segments filled, URI-encoded; a declared param without a value is a bug of the declaration. */
function fillPath(spec: string, params: Record<string, string>): string {
  return spec.replace(/<([^>]+)>/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined) throw new TypeError(`route declaration: no value for <${name}> of ${spec}`);
    return encodeURIComponent(v);
  });
}

function defined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** The concrete path and the route label (`<method> <spec path>`, as errors and metrics name it) of this call. */
function target<A>(d: RouteDecl<A, unknown>, a: A): { path: string; route: string } {
  const spec = specPathOf(d, a);
  return { path: fillPath(spec, d.params?.(a) ?? {}), route: `${d.method} ${spec}` };
}

/** A write always has a JSON body, `{}` when it declares none (what the site's handlers read). */
function bodyOf<A>(d: RouteDecl<A, unknown>, a: A): Record<string, unknown> {
  return defined(d.body?.(a) ?? {});
}

/** The request this declaration sends for these arguments (without `check`: the caller decides when to check). */
export function requestOf<A>(d: RouteDecl<A, unknown>, a: A): UpstreamRequest {
  const req: UpstreamRequest = { method: d.method, ...target(d, a) };
  if (d.query) req.query = d.query(a);
  if (d.headers) req.headers = { ...d.headers };
  if (d.idempotent !== undefined) req.idempotent = typeof d.idempotent === 'function' ? d.idempotent(a) : d.idempotent;
  // A DELETE sends a body only when it declares one (WordPress reads a DELETE's parameters from the query).
  if (d.method !== 'GET' && d.method !== 'HEAD' && (d.method !== 'DELETE' || d.body)) req.body = bodyOf(d, a);
  return req;
}

/** The same request as an item of the bulk writer (upstream/batch.ts `sendWrites`). */
export function writeRequestOf<A>(d: RouteDecl<A, unknown>, a: A): WriteRequest {
  const { method } = d;
  const { path, route } = target(d, a);
  if (method === 'GET' || method === 'HEAD') throw new TypeError(`route declaration: ${route} is not a write`);
  const req: WriteRequest = { method, path, route, body: bodyOf(d, a) };
  if (d.query) req.query = d.query(a);
  return req;
}

/** Checks the arguments, sends the request through the session, applies the data-status rule and maps the body. */
export async function callRoute<A, T>(s: UpstreamSession, d: RouteDecl<A, T>, a: A): Promise<T> {
  d.check?.(a);
  const req = requestOf(d, a);
  const ds = d.dataStatus;
  if (ds) req.okStatuses = (st) => (st >= 200 && st < 300) || st === ds.status;
  const res = await s.request(req).catch((err: unknown) => {
    throw d.target ? missingObject(err, d.target(a)) : err;
  });
  if (ds && res.status === ds.status && !ds.isData(res.body)) {
    throw ds.refusal?.(res.body, a, req.route) ?? fromUpstreamResponse(res.status, res.body, req.route, res.headers);
  }
  return d.result(res.body, { status: res.status, args: a, headers: res.headers });
}

/** The resolvers of every declared field of R, each served from its declaration through the operation's session. */
export function resolversOf<R>(routes: FieldRoutes<R>): DerivedResolvers<R> {
  const out: DerivedResolvers<R> = {};
  const add = <K extends keyof R>(k: K, d: FieldRoute<R, K>): void => {
    out[k] = (_parent, args, ctx) => {
      const call = (a: ArgsOf<R, K>) => callRoute(ctx.upstream, d, a);
      return d.resolve ? d.resolve(args, call) : call(args);
    };
  };
  for (const k in routes) {
    const d = routes[k];
    if (d) add(k, d);
  }
  return out;
}

/**
 * The route-coverage rows of R's declarations, R being the resolver map of
 * schema type `type`: `field` is the coordinate `<type>.<name>` (e.g.
 * `SeoQuery.fileSize`), with the enum value for a path chosen by one. The
 * compiler checks every declared field is a field of `type`.
 */
export function routeRows<
  T extends SchemaTypeName,
  R extends { [K in keyof R]: K extends FieldName<T> ? unknown : never },
>(type: T, routes: FieldRoutes<R>): RouteUse[] {
  const rows: RouteUse[] = [];
  const at = (f: string) => `${type}.${f}` as FieldCoordinate;
  for (const k in routes) {
    const d = routes[k];
    if (!d) continue;
    if (d.method === 'HEAD') throw new TypeError(`route declaration ${type}.${k}: spec routes have no HEAD rows`);
    const method = d.method;
    const fields: FieldUse[] = [k, ...(d.alsoReachedBy ?? [])].map(at);
    if (typeof d.path === 'string') rows.push({ method, path: d.path, field: fields });
    else
      for (const [value, path] of Object.entries(d.path.paths))
        rows.push({ method, path, field: `${at(k)}(${d.path.arg}: ${value})` as QualifiedField });
  }
  return rows;
}
