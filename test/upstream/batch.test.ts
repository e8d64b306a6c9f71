/**
 * The /batch/v1 writer (src/upstream/batch.ts) against a fake session, no
 * HTTP: chunking to the site's limit, order, one outcome per item mapped back
 * to its request, per-item errors and "may have been written" (unknown)
 * outcomes, and the atomic mode's checks. Batch answers are shaped as the
 * real site's (WordPress 6.1 samples: 207 with `responses[]`, `failed:
 * "validation"` with `null` for items that validated, 400
 * `rest_batch_not_allowed` for a route not marked `allow_batch`).
 */
import { describe, expect, it } from 'vitest';
import type { UpstreamRequest, UpstreamResponse, UpstreamSession } from '../../src/upstream/client.ts';
import {
  allBatchable,
  checkAtomic,
  outcomeUnknown,
  sendWrites,
  type WriteOutcome,
  type WriteRequest,
} from '../../src/upstream/batch.ts';
import { DEFAULT_MAX_BATCH, parseIndex } from '../../src/upstream/discovery.ts';
import { GatewayError } from '../../src/errors.ts';
import { fromTransportError, fromUpstreamResponse } from '../../src/upstream/errors.ts';

const POSTS = '/core/v2/posts';
const POST_ID = '/core/v2/posts/(?P<id>[\\d]+)';
const CORE_EVENT = '/calendar-core/v1/events/(?P<id>\\d+)';

/** A root index as WordPress writes it: posts routes batchable, calendar-core not; `maxItems` is the batch limit. */
function siteWith(maxItems: number | null, batch = true) {
  const batchable = (methods: string[]) => methods.map((m) => ({ methods: [m], allow_batch: { v1: true }, args: {} }));
  const routes: Record<string, unknown> = {
    [POSTS]: { namespace: 'core/v2', methods: ['GET', 'POST'], endpoints: batchable(['GET', 'POST']) },
    [POST_ID]: {
      namespace: 'core/v2',
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      endpoints: batchable(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    },
    [CORE_EVENT]: {
      namespace: 'calendar-core/v1',
      methods: ['GET', 'PUT', 'PATCH', 'DELETE'],
      endpoints: [{ methods: ['GET', 'PUT', 'PATCH', 'DELETE'], args: {} }],
    },
  };
  if (batch) {
    const requests =
      maxItems === null ? { type: 'array', required: true } : { type: 'array', maxItems, required: true };
    routes['/batch/v1'] = {
      namespace: '',
      methods: ['POST'],
      endpoints: [{ methods: ['POST'], args: { validation: { type: 'string', default: 'normal' }, requests } }],
    };
  }
  return parseIndex({ namespaces: ['core/v2', 'calendar-core/v1'], routes });
}

const create = (title: string): WriteRequest => ({
  method: 'POST',
  path: POSTS,
  body: { title },
  route: `POST ${POSTS}`,
});
const patchEvent = (id: number, title: string): WriteRequest => ({
  method: 'PATCH',
  path: `/calendar-core/v1/events/${id}`,
  body: { title },
  route: 'PATCH /calendar-core/v1/events/<id>',
});

interface BatchItem {
  method: string;
  path: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
}
interface Envelope {
  status?: number;
  body?: unknown;
  headers?: unknown;
}

/**
 * A session that answers /batch/v1 item by item with `item` (or with `batch`
 * for the whole answer), and direct requests with `direct`; it records every
 * request and how many batches ran at once.
 */
function fakeSession(
  opts: {
    item?: (it: BatchItem, index: number) => Envelope | null;
    batch?: (items: BatchItem[], body: Record<string, unknown>) => UpstreamResponse | Promise<UpstreamResponse>;
    direct?: (req: UpstreamRequest) => UpstreamResponse;
  } = {},
) {
  const seen: UpstreamRequest[] = [];
  let activeBatches = 0;
  let maxActiveBatches = 0;
  const session: UpstreamSession = {
    authenticated: true,
    async request<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
      seen.push(req);
      if (req.path !== '/batch/v1') {
        const answer = opts.direct
          ? opts.direct(req)
          : { status: 200, headers: {}, body: { id: 1, ...(req.body as object) } };
        return answer as UpstreamResponse<T>;
      }
      activeBatches += 1;
      maxActiveBatches = Math.max(maxActiveBatches, activeBatches);
      try {
        await new Promise((r) => setTimeout(r, 5));
        const body = req.body as { requests: BatchItem[] };
        if (opts.batch)
          return (await opts.batch(body.requests, req.body as Record<string, unknown>)) as UpstreamResponse<T>;
        let n = 0;
        const item =
          opts.item ??
          ((it) => ({ status: 201, body: { id: 100 + n, title: { rendered: it.body?.title } }, headers: {} }));
        const responses = body.requests.map((it, i) => (n++, item(it, i)));
        return { status: 207, headers: {}, body: { responses } as T };
      } finally {
        activeBatches -= 1;
      }
    },
  };
  const batches = () => seen.filter((r) => r.path === '/batch/v1');
  return { session, seen, batches, maxActiveBatches: () => maxActiveBatches };
}

const titles = (n: number, prefix = 'post') => Array.from({ length: n }, (_, i) => create(`${prefix} ${i}`));
const items = (req: UpstreamRequest) => (req.body as { requests: BatchItem[] }).requests;
const okTitle = (o: WriteOutcome) => (o.ok ? (o.body as { title: { rendered: string } }).title.rendered : null);

describe('chunking', () => {
  it('sends batchable writes in batches of the site limit, one after another, in input order', async () => {
    const site = siteWith(25);
    const f = fakeSession();
    const out = await sendWrites(f.session, site, titles(60), {});
    expect(f.batches().map((b) => items(b).length)).toEqual([25, 25, 10]);
    expect(f.maxActiveBatches()).toBe(1);
    expect(f.batches().flatMap((b) => items(b).map((it) => it.body!.title))).toEqual(
      titles(60).map((r) => r.body!.title),
    );
    // One outcome per input, in input order, each the answer to its own request.
    expect(out).toHaveLength(60);
    expect(out.map(okTitle)).toEqual(titles(60).map((r) => r.body!.title));
    expect(out.every((o) => o.ok && o.batched && o.status === 201)).toBe(true);
    expect(f.batches()[0]).toMatchObject({ method: 'POST', route: 'POST /batch/v1', body: { validation: 'normal' } });
  });

  it("takes the limit from the site's index, and WordPress's 25 when the index does not say", async () => {
    const small = fakeSession();
    await sendWrites(small.session, siteWith(4), titles(9), {});
    expect(small.batches().map((b) => items(b).length)).toEqual([4, 4, 1]);
    expect(siteWith(null).maxBatchSize).toBe(DEFAULT_MAX_BATCH);
    const dflt = fakeSession();
    await sendWrites(dflt.session, siteWith(null), titles(26), {});
    expect(dflt.batches().map((b) => items(b).length)).toEqual([25, 1]);
  });

  it('exactly the limit is one batch; nothing to write sends nothing', async () => {
    const f = fakeSession();
    await sendWrites(f.session, siteWith(5), titles(5), {});
    expect(f.batches()).toHaveLength(1);
    const none = fakeSession();
    expect(await sendWrites(none.session, siteWith(5), [], {})).toEqual([]);
    expect(none.seen).toEqual([]);
  });

  it('sends routes the site does not mark allow_batch directly, and puts every outcome back at its index', async () => {
    const f = fakeSession();
    const reqs = [create('a'), patchEvent(7, 'b'), create('c'), patchEvent(8, 'd'), create('e')];
    const out = await sendWrites(f.session, siteWith(2), reqs, {});
    expect(f.batches().map((b) => items(b).map((it) => it.body!.title))).toEqual([['a', 'c'], ['e']]);
    const direct = f.seen.filter((r) => r.path !== '/batch/v1');
    expect(direct.map((r) => [r.method, r.path, r.route])).toEqual([
      ['PATCH', '/calendar-core/v1/events/7', 'PATCH /calendar-core/v1/events/<id>'],
      ['PATCH', '/calendar-core/v1/events/8', 'PATCH /calendar-core/v1/events/<id>'],
    ]);
    expect(out.map((o) => o.batched)).toEqual([true, false, true, false, true]);
    expect(out.map((o) => (o.ok ? (o.body as { title: unknown }).title : null))).toEqual([
      { rendered: 'a' },
      'b',
      { rendered: 'c' },
      'd',
      { rendered: 'e' },
    ]);
  });

  it('a site without /batch/v1 gets every write directly', async () => {
    const f = fakeSession();
    const out = await sendWrites(f.session, siteWith(25, false), titles(3), {});
    expect(f.batches()).toEqual([]);
    expect(f.seen.map((r) => r.path)).toEqual([POSTS, POSTS, POSTS]);
    expect(out.every((o) => o.ok && !o.batched)).toBe(true);
  });

  it('writes each item as method + path?query (+ body, headers); arrays as key[]', async () => {
    const f = fakeSession({ item: () => ({ status: 200, body: {} }) });
    await sendWrites(
      f.session,
      siteWith(25),
      [
        {
          method: 'DELETE',
          path: '/core/v2/posts/5',
          query: { force: true, skip: null, tags: [1, 2] },
          route: `DELETE ${POST_ID}`,
        },
        {
          method: 'PUT',
          path: '/core/v2/posts/6',
          body: { title: 'x' },
          headers: { 'x-wp-nonce': 'n' },
          route: `PUT ${POST_ID}`,
        },
      ],
      {},
    );
    expect(items(f.batches()[0]!)).toEqual([
      { method: 'DELETE', path: '/core/v2/posts/5?force=true&tags%5B%5D=1&tags%5B%5D=2' },
      { method: 'PUT', path: '/core/v2/posts/6', body: { title: 'x' }, headers: { 'x-wp-nonce': 'n' } },
    ]);
  });
});

describe('per-item outcomes', () => {
  it('one bad item fails alone, with the code, status and params the site gave for it', async () => {
    const f = fakeSession({
      item: (it, i) =>
        it.body!.title === 'bad'
          ? {
              status: 400,
              body: {
                code: 'rest_invalid_param',
                message: 'Invalid parameter(s): status',
                data: {
                  status: 400,
                  params: { status: 'status is not one of publish, future, draft, pending, private.' },
                },
              },
              headers: [],
            }
          : { status: 201, body: { id: 200 + i } },
    });
    const out = await sendWrites(f.session, siteWith(25), [create('ok'), create('bad'), create('ok too')], {});
    expect(out.map((o) => o.ok)).toEqual([true, false, true]);
    const bad = out[1]!;
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.unknown).toBeUndefined();
    expect(bad.error.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      upstream: { code: 'rest_invalid_param', status: 400, route: `POST ${POSTS}` },
      params: { status: 'status is not one of publish, future, draft, pending, private.' },
    });
    expect(out[2]).toMatchObject({ ok: true, body: { id: 202 } });
  });

  it("a route the site will not batch (207, item 400 rest_batch_not_allowed) is that item's error", async () => {
    const f = fakeSession({
      item: () => ({
        body: {
          code: 'rest_batch_not_allowed',
          message: 'The requested route does not support batch requests.',
          data: { status: 400 },
        },
        status: 400,
        headers: { Allow: 'GET, POST' },
      }),
    });
    const [o] = await sendWrites(f.session, siteWith(25), [create('x')], {});
    expect(o).toMatchObject({
      ok: false,
      batched: true,
      error: {
        message: 'The requested route does not support batch requests.',
        extensions: { code: 'BAD_USER_INPUT', upstream: { code: 'rest_batch_not_allowed' } },
      },
    });
  });

  it('an item the answer says nothing readable about may have been written: unknown', async () => {
    const f = fakeSession({
      item: (_it, i) => (i === 0 ? null : i === 1 ? { body: { id: 5 } } : { status: 201, body: { id: 6 } }),
    });
    const out = await sendWrites(f.session, siteWith(25), titles(3), {});
    expect(out.map((o) => (o.ok ? 'ok' : o.unknown ? 'unknown' : 'failed'))).toEqual(['unknown', 'unknown', 'ok']);
    expect(out[0]).toMatchObject({
      error: { extensions: { code: 'UPSTREAM_BAD_RESPONSE', upstream: { status: 207, route: `POST ${POSTS}` } } },
    });
  });

  it('an item whose envelope is a 5xx without a WordPress error body is unknown; a 5xx WP_Error is known', async () => {
    const f = fakeSession({
      item: (_it, i) =>
        i === 0
          ? { status: 502, body: '<html>Bad gateway</html>' }
          : {
              status: 500,
              body: {
                code: 'db_insert_error',
                message: 'Could not insert post into the database.',
                data: { status: 500 },
              },
            },
    });
    const out = await sendWrites(f.session, siteWith(25), titles(2), {});
    expect(out.map((o) => !o.ok && Boolean(o.unknown))).toEqual([true, false]);
  });

  it('an answer without one response per request makes every item of that batch unknown, not the other batches', async () => {
    let call = 0;
    const f = fakeSession({
      batch: (its) =>
        ++call === 1
          ? { status: 207, headers: {}, body: { responses: [{ status: 201, body: {} }] } }
          : { status: 207, headers: {}, body: { responses: its.map(() => ({ status: 201, body: { id: 9 } })) } },
    });
    const out = await sendWrites(f.session, siteWith(2), titles(3), {});
    expect(out.map((o) => (o.ok ? 'ok' : o.unknown ? 'unknown' : 'failed'))).toEqual(['unknown', 'unknown', 'ok']);
    expect(out[0]).toMatchObject({
      error: { message: 'The /batch/v1 answer does not have one response per request (2 sent).' },
    });
  });

  it("a whole-batch refusal is every item's error, known; a lost answer is every item's, unknown", async () => {
    const refused = fakeSession({
      batch: () => {
        throw fromUpstreamResponse(
          401,
          { code: 'rest_not_logged_in', message: 'You are not currently logged in.', data: { status: 401 } },
          'POST /batch/v1',
        );
      },
    });
    const a = await sendWrites(refused.session, siteWith(25), titles(2), {});
    expect(a.map((o) => !o.ok && o.error.code)).toEqual(['UNAUTHENTICATED', 'UNAUTHENTICATED']);
    expect(a.every((o) => !o.ok && !o.unknown && o.batched)).toBe(true);

    const lost = fakeSession({
      batch: () => {
        throw Object.assign(new Error('headers timeout'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
      },
    });
    const b = await sendWrites(lost.session, siteWith(25), titles(2), {});
    expect(b.map((o) => !o.ok && [o.error.code, o.unknown])).toEqual([
      ['UPSTREAM_TIMEOUT', true],
      ['UPSTREAM_TIMEOUT', true],
    ]);
  });

  it('a failed direct write fails alone; its neighbours are written', async () => {
    const f = fakeSession({
      direct: (req) => {
        if (req.path.endsWith('/8'))
          throw fromUpstreamResponse(
            403,
            { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } },
            req.route,
          );
        if (req.path.endsWith('/9'))
          throw fromTransportError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), req.route);
        if (req.path.endsWith('/10'))
          throw fromTransportError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), req.route);
        return { status: 200, headers: {}, body: { id: 7 } };
      },
    });
    const out = await sendWrites(
      f.session,
      siteWith(25),
      [patchEvent(7, 'a'), patchEvent(8, 'b'), patchEvent(9, 'c'), patchEvent(10, 'd')],
      {},
    );
    expect(out.map((o) => (o.ok ? 'ok' : `${o.error.code}${o.unknown ? ' unknown' : ''}`))).toEqual([
      'ok',
      'FORBIDDEN',
      'UPSTREAM_UNAVAILABLE unknown',
      'UPSTREAM_UNAVAILABLE',
    ]);
  });
});

describe('atomic', () => {
  it('sends require-all-validate; when one item fails validation, the valid ones are "not executed"', async () => {
    const f = fakeSession({
      batch: () => ({
        status: 207,
        headers: {},
        body: {
          failed: 'validation',
          responses: [
            null,
            {
              body: {
                code: 'rest_invalid_param',
                message: 'Invalid parameter(s): status',
                data: { status: 400, params: { status: 'status is not one of publish.' } },
              },
              status: 400,
              headers: [],
            },
          ],
        },
      }),
    });
    const out = await sendWrites(f.session, siteWith(25), [create('ok'), create('bad')], { atomic: true });
    expect(f.batches()[0]!.body).toMatchObject({ validation: 'require-all-validate' });
    expect(out[0]).toMatchObject({
      ok: false,
      batched: true,
      notExecuted: true,
      error: {
        message: 'Not written: another item of this atomic batch failed validation.',
        extensions: { code: 'BAD_USER_INPUT' },
      },
    });
    expect(out[1]).toMatchObject({
      ok: false,
      error: { extensions: { code: 'BAD_USER_INPUT', upstream: { code: 'rest_invalid_param' } } },
    });
    expect(out[1]).not.toHaveProperty('notExecuted');
  });

  it('refuses, before sending anything, more items than one batch or a route that cannot be batched', async () => {
    const f = fakeSession();
    await expect(sendWrites(f.session, siteWith(3), titles(4), { atomic: true })).rejects.toMatchObject({
      message:
        "atomic: true writes at most 3 items (one /batch/v1 request, the site's limit); got 4. Split the list or drop atomic.",
      extensions: { code: 'BAD_USER_INPUT', arguments: ['atomic'], max: 3 },
    });
    await expect(
      sendWrites(f.session, siteWith(3), [create('a'), patchEvent(7, 'b')], { atomic: true }),
    ).rejects.toThrow(
      'atomic: true needs /batch/v1, but the site does not allow batching PATCH /calendar-core/v1/events/<id>.',
    );
    expect(f.seen).toEqual([]);
    expect(() => checkAtomic(siteWith(3, false), [create('a')], 'inputs')).toThrow(
      expect.objectContaining({
        message: `atomic: true needs /batch/v1, but the site does not allow batching POST ${POSTS} (it has no /batch/v1).`,
        extensions: expect.objectContaining({ arguments: ['inputs'] }),
      }),
    );
    expect(() => checkAtomic(siteWith(3), titles(3))).not.toThrow();
  });

  it('allBatchable: every request on a route marked allow_batch for its method', () => {
    const site = siteWith(25);
    expect(allBatchable(site, [create('a'), { method: 'DELETE', path: '/core/v2/posts/3', route: '' }])).toBe(true);
    expect(allBatchable(site, [create('a'), patchEvent(1, 'x')])).toBe(false);
    expect(allBatchable(site, [{ method: 'POST', path: '/no/such/route', route: '' }])).toBe(false);
  });
});

describe('outcomeUnknown', () => {
  const route = 'POST /core/v2/posts';
  const transport = (code: string) => fromTransportError(Object.assign(new Error(code), { code }), route);

  it('no answer: unknown, unless the request never left', () => {
    for (const c of ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ECONNRESET', 'UND_ERR_SOCKET'])
      expect(outcomeUnknown(transport(c)), c).toBe(true);
    for (const c of ['UND_ERR_CONNECT_TIMEOUT', 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'])
      expect(outcomeUnknown(transport(c)), c).toBe(false);
  });

  it('an answer: known, except a 2xx that cannot be read and a 5xx the site did not vouch for', () => {
    expect(
      outcomeUnknown(
        fromUpstreamResponse(400, { code: 'rest_invalid_param', message: 'x', data: { status: 400 } }, route),
      ),
    ).toBe(false);
    expect(outcomeUnknown(fromUpstreamResponse(429, '', route))).toBe(false);
    expect(outcomeUnknown(fromUpstreamResponse(503, '<html>down</html>', route))).toBe(true);
    expect(
      outcomeUnknown(
        fromUpstreamResponse(
          500,
          {
            code: 'internal_server_error',
            message: 'There has been a critical error on this website.',
            data: { status: 500 },
          },
          route,
        ),
      ),
    ).toBe(true);
    expect(
      outcomeUnknown(
        fromUpstreamResponse(500, { code: 'db_insert_error', message: 'x', data: { status: 500 } }, route),
      ),
    ).toBe(false);
    expect(
      outcomeUnknown(
        new GatewayError('UPSTREAM_BAD_RESPONSE', 'unreadable', {
          upstream: { code: 'UPSTREAM_MALFORMED_JSON', status: 201, route },
        }),
      ),
    ).toBe(true);
  });

  it("errors raised before sending (the gateway's own, the session's budget) are known", () => {
    expect(outcomeUnknown(GatewayError.badInput('no'))).toBe(false);
    expect(
      outcomeUnknown(
        new GatewayError('REQUEST_BUDGET_EXCEEDED', 'budget', { upstream: { code: null, status: null, route } }),
      ),
    ).toBe(false);
    expect(
      outcomeUnknown(GatewayError.namespaceUnavailable('core/v2', { upstream: { code: null, status: null, route } })),
    ).toBe(false);
  });
});
