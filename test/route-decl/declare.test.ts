/**
 * The route-declaration machinery (src/routes/declare.ts): what request a
 * declaration sends, which answers are data, how its resolver and its
 * coverage rows are derived. The calls go over real loopback HTTP, through
 * the upstream client and the operation's session (so the gate and the error
 * mapping are the real ones), to a scripted stub site.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '../../src/context.ts';
import {
  byArg,
  callRoute,
  requestOf,
  resolversOf,
  routeRows,
  writeRequestOf,
  type FieldRoutes,
  type RouteDecl,
} from '../../src/routes/declare.ts';
import { fieldText, use, type RouteUse } from '../../src/routes/route-use.ts';
import { UpstreamClient } from '../../src/upstream/client.ts';
import { parseIndex } from '../../src/upstream/discovery.ts';
import { GatewayError } from '../../src/errors.ts';
import { createOperationSession } from '../../src/upstream/session.ts';
import { startStubServer, type StubServer } from '../helpers/stub-server.ts';

type Args = { id: string; kind: 'A' | 'B'; q?: string | null };

const item: RouteDecl<Args, string> = {
  method: 'POST',
  path: '/demo/v1/items/<item_id>/seen',
  params: (a) => ({ item_id: a.id }),
  body: (a) => ({ kind: a.kind, q: a.q ?? undefined }),
  result: (b) => JSON.stringify(b),
};

describe('requests from declarations', () => {
  it('fills and encodes path params, labels the route by its spec path, drops undefined body values', () => {
    expect(requestOf(item, { id: 'a b/c', kind: 'A' })).toEqual({
      method: 'POST',
      path: '/demo/v1/items/a%20b%2Fc/seen',
      route: 'POST /demo/v1/items/<item_id>/seen',
      body: { kind: 'A' },
    });
  });

  it('sends `{}` as the body of a write that declares none, and no body with a GET', () => {
    expect(requestOf({ method: 'POST', path: '/demo/v1/go', result: () => 1 }, {}).body).toEqual({});
    const get = requestOf(
      { method: 'GET', path: '/demo/v1/list', query: (a: { n: number }) => ({ n: a.n }), result: () => 1 },
      { n: 2 },
    );
    expect(get).toEqual({ method: 'GET', path: '/demo/v1/list', route: 'GET /demo/v1/list', query: { n: 2 } });
    expect('body' in get).toBe(false);
  });

  it('sends the headers a declaration names, and marks a non-idempotent read (never retried, never cached)', () => {
    const feed: RouteDecl<{ pop: boolean }, number> = {
      method: 'GET',
      path: '/demo/v1/feed',
      headers: { accept: 'text/csv' },
      idempotent: (a) => !a.pop,
      result: () => 1,
    };
    expect(requestOf(feed, { pop: true })).toEqual({
      method: 'GET',
      path: '/demo/v1/feed',
      route: 'GET /demo/v1/feed',
      headers: { accept: 'text/csv' },
      idempotent: false,
    });
    expect(requestOf(feed, { pop: false }).idempotent).toBe(true);
    expect('idempotent' in requestOf(item, { id: '1', kind: 'A' })).toBe(false);
  });

  it('sends no body with a DELETE that declares none', () => {
    expect('body' in requestOf({ method: 'DELETE', path: '/demo/v1/x', result: () => 1 }, {})).toBe(false);
    expect(
      requestOf({ method: 'DELETE', path: '/demo/v1/x', body: () => ({ force: true }), result: () => 1 }, {}).body,
    ).toEqual({ force: true });
  });

  it('refuses a declaration whose path param has no value (a bug of the declaration, not of the caller)', () => {
    expect(() => requestOf({ ...item, params: () => ({}) }, { id: 'x', kind: 'A' })).toThrow(/no value for <item_id>/);
  });

  it('builds the bulk writer item of a write, and refuses a read', () => {
    expect(writeRequestOf(item, { id: '7', kind: 'B', q: 'z' })).toEqual({
      method: 'POST',
      path: '/demo/v1/items/7/seen',
      route: 'POST /demo/v1/items/<item_id>/seen',
      body: { kind: 'B', q: 'z' },
    });
    expect(() => writeRequestOf({ method: 'GET', path: '/demo/v1/list', result: () => 1 }, {})).toThrow(/not a write/);
  });

  it('picks the path by an enum argument', () => {
    const d: RouteDecl<Args, number> = {
      method: 'POST',
      path: byArg('kind', { A: '/demo/v1/a', B: '/demo/v1/b' }),
      result: () => 1,
    };
    expect(requestOf(d, { id: '1', kind: 'B' }).route).toBe('POST /demo/v1/b');
    expect(requestOf(d, { id: '1', kind: 'A' }).path).toBe('/demo/v1/a');
  });
});

describe('coverage rows from declarations', () => {
  // Fields of a real schema type (Facets), so the rows' coordinates are checked; the routes are made up.
  interface Demo {
    refresh?: (p: unknown, a: { id: string }, c: Context) => Promise<string | null>;
    fetch?: (p: unknown, a: { kind: 'A' | 'B' }, c: Context) => Promise<number | null>;
    autocomplete?: (p: unknown, a: { ids: string[] }, c: Context) => Promise<number | null>;
  }
  const routes: FieldRoutes<Demo> = {
    refresh: {
      method: 'PUT',
      path: '/demo/v1/one/<id>',
      params: (a) => ({ id: a.id }),
      result: () => 'x',
      alsoReachedBy: ['autocomplete'],
    },
    fetch: { method: 'POST', path: byArg('kind', { A: '/demo/v1/a', B: '/demo/v1/b' }), result: () => 1 },
  };

  it('lists one row per route, with the fields that reach it and the enum value that picks it', () => {
    expect(routeRows('Facets', routes).map((r) => ({ ...r, field: fieldText(r.field) }))).toEqual([
      { method: 'PUT', path: '/demo/v1/one/<id>', field: 'Facets.refresh, Facets.autocomplete' },
      { method: 'POST', path: '/demo/v1/a', field: 'Facets.fetch(kind: A)' },
      { method: 'POST', path: '/demo/v1/b', field: 'Facets.fetch(kind: B)' },
    ]);
  });

  it('names only fields of the schema type: the compiler refuses the others', () => {
    // @ts-expect-error `Facets` has no field `one`.
    routeRows('Facets', { one: routes.refresh } as FieldRoutes<{ one?: Demo['refresh'] }>);
    // @ts-expect-error `Facets.nope` is no coordinate of the schema.
    const bad: RouteUse = { method: 'GET', path: '/x', field: 'Facets.nope' };
    // @ts-expect-error `Query.apiDocument` has no argument `nope`.
    use('Query.apiDocument', { args: { nope: 'X' } });
    // @ts-expect-error `api` is an ApiDocumentName.
    use('Query.apiDocument', { args: { api: 'NOPE' } });
    expect(fieldText(use('Query.apiDocument', { args: { api: 'CALENDAR_CORE' } }))).toBe(
      'Query.apiDocument(api: CALENDAR_CORE)',
    );
    expect(fieldText([use('Query.node', { type: 'Post' }), 'Query.posts'])).toBe('Query.node (Post), Query.posts');
    expect(bad.path).toBe('/x');
  });
});

describe('calls through the operation session, over HTTP', () => {
  let server: StubServer;
  let client: UpstreamClient;
  /** The stub's next answer: status and JSON body. */
  let answer: { status: number; body: unknown } = { status: 200, body: {} };

  const site = parseIndex({
    namespaces: ['demo/v1'],
    routes: {
      '/demo/v1/items/(?P<item_id>[\\w-]+)/seen': { namespace: 'demo/v1', methods: ['POST'], endpoints: [] },
      '/demo/v1/list': { namespace: 'demo/v1', methods: ['GET'], endpoints: [] },
    },
  });
  const session = () =>
    createOperationSession(client.session(), { site, concurrency: 2, budget: 10, deadlineMs: 5_000 });

  beforeAll(async () => {
    server = await startStubServer((_req, res) => {
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
    client = new UpstreamClient({ baseUrl: `${server.origin}/wp-json/`, retryBaseDelayMs: 5 });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });
  afterEach(() => {
    server.requests.length = 0;
    answer = { status: 200, body: {} };
  });

  const seen: RouteDecl<Args, { status: number; body: unknown }> = {
    ...item,
    check: (a) => {
      if (a.id === 'bad') throw GatewayError.badInput('id is bad', { arguments: ['id'] });
    },
    dataStatus: {
      status: 400,
      isData: (b) => typeof b === 'object' && b !== null && 'json' in b,
      refusal: (b, a, route) =>
        Array.isArray(b)
          ? GatewayError.badInput(`unknown item ${a.id}`, { upstream: { code: null, status: 400, route } })
          : undefined,
    },
    result: (body, { status }) => ({ status, body }),
  };

  async function failure(p: Promise<unknown>): Promise<GatewayError> {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    if (!(err instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(err)}`);
    return err;
  }

  it('sends the declared request on the wire and maps the answer', async () => {
    answer = { status: 200, body: { ok: 1 } };
    expect(await callRoute(session(), seen, { id: 'x-1', kind: 'A', q: null })).toEqual({
      status: 200,
      body: { ok: 1 },
    });
    expect(server.requests.map((r) => [r.method, r.url, r.body])).toEqual([
      ['POST', '/wp-json/demo/v1/items/x-1/seen', '{"kind":"A"}'],
    ]);
  });

  it('checks the arguments before anything is sent', async () => {
    const e = await failure(callRoute(session(), seen, { id: 'bad', kind: 'A' }));
    expect(e.code).toBe('BAD_USER_INPUT');
    expect(server.requests).toHaveLength(0);
  });

  it('answers a data status as data, and the same status with another body as an error', async () => {
    answer = { status: 400, body: { json: { success: false } } };
    expect(await callRoute(session(), seen, { id: 'x', kind: 'A' })).toEqual({
      status: 400,
      body: { json: { success: false } },
    });

    answer = { status: 400, body: [] };
    const refused = await failure(callRoute(session(), seen, { id: 'x', kind: 'A' }));
    expect([refused.code, refused.message]).toEqual(['BAD_USER_INPUT', 'unknown item x']);

    answer = { status: 400, body: { code: 'rest_invalid_param', message: 'nope' } };
    const generic = await failure(callRoute(session(), seen, { id: 'x', kind: 'A' }));
    expect(generic.extensions.upstream).toMatchObject({
      code: 'rest_invalid_param',
      status: 400,
      route: 'POST /demo/v1/items/<item_id>/seen',
    });
  });

  it('keeps other non-2xx statuses errors', async () => {
    answer = { status: 403, body: { code: 'rest_forbidden', message: 'no' } };
    expect((await failure(callRoute(session(), seen, { id: 'x', kind: 'A' }))).code).toBe('FORBIDDEN');
  });

  it('leaves the route gate to the session: a route the site does not offer is never sent', async () => {
    const missing: RouteDecl<Record<string, never>, number> = {
      method: 'GET',
      path: '/demo/v1/absent',
      result: () => 1,
    };
    expect((await failure(callRoute(session(), missing, {}))).code).toBe('NAMESPACE_UNAVAILABLE');
    expect(server.requests).toHaveLength(0);
  });

  it('derives a resolver that reads the session from the context, with a fan-out when declared', async () => {
    interface Demo {
      list?: (p: unknown, a: { n?: number | null }, c: Context) => Promise<number[] | null>;
    }
    const r = resolversOf<Demo>({
      list: {
        method: 'GET',
        path: '/demo/v1/list',
        query: (a) => ({ n: a.n }),
        result: (b) => (Array.isArray(b) ? b.map(Number) : []),
        resolve: async (a, call) =>
          a.n == null ? (await Promise.all([1, 2].map((n) => call({ n })))).flatMap((l) => l ?? []) : call(a),
      },
    });
    answer = { status: 200, body: [5] };
    const ctx = { upstream: session() } as Pick<Context, 'upstream'>;
    expect(await r.list?.({}, {}, ctx as Context)).toEqual([5, 5]);
    expect(server.requests.map((q) => q.url).sort()).toEqual([
      '/wp-json/demo/v1/list?n=1',
      '/wp-json/demo/v1/list?n=2',
    ]);
  });
});
