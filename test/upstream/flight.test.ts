/**
 * Single flight in the upstream client (src/upstream/flight.ts, client.ts):
 * identical GETs in flight at the same moment are one request to the site,
 * for one caller identity only; each sharer gets its own copy of the body,
 * its own cancellation and its own say on retries; writes are never shared.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamClient, type UpstreamRequest } from '../../src/upstream/client.ts';
import { isGatewayError, type GatewayError } from '../../src/errors.ts';
import { sendJson, startStubServer, type StubHandler, type StubServer } from '../helpers/stub-server.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(handler: StubHandler): Promise<{ server: StubServer; client: UpstreamClient }> {
  const server = await startStubServer(handler);
  const client = new UpstreamClient({ baseUrl: `${server.origin}/wp-json/`, retryBaseDelayMs: 5 });
  cleanups.push(
    () => server.close(),
    () => client.close(),
  );
  return { server, client };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Answers after `ms`, with the request's index in the body. */
const slow =
  (ms: number): StubHandler =>
  async (_req, res, { index }) => {
    await sleep(ms);
    if (!res.destroyed) sendJson(res, 200, { index, items: [{ id: 1 }] });
  };
const GET = (extra: Partial<UpstreamRequest> = {}): UpstreamRequest => ({
  method: 'GET',
  path: '/events',
  query: { per_page: 20 },
  route: 'GET /events',
  share: 'calendar:0:',
  ...extra,
});

async function failure(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (err) {
    if (isGatewayError(err)) return err;
    throw err;
  }
  throw new Error('expected a failure');
}

describe('single flight', () => {
  it('sends 20 identical concurrent GETs once, and gives each its own body', async () => {
    const { server, client } = await setup(slow(100));
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => client.session().request<{ index: number; items: { id: number }[] }>(GET())),
    );
    expect(server.requests).toHaveLength(1);
    expect(answers.every((a) => a.body.index === 0)).toBe(true);
    // One primary (stores it in the cache), the others joined.
    expect(answers.filter((a) => !a.joined)).toHaveLength(1);
    // Copies, not one object: what one operation does to its body is its own.
    answers[0]!.body.items[0]!.id = 99;
    expect(answers.slice(1).every((a) => a.body.items[0]!.id === 1)).toBe(true);
    expect(client.flights.size).toBe(0);
  });

  it('is per caller identity, per request and per share token; never without a token, never for writes', async () => {
    const { server, client } = await setup(slow(50));
    const admin = 'Basic YWRtaW46cHc=';
    await Promise.all([
      client.session(admin).request(GET()),
      client.session(admin).request(GET()),
      client.session('Basic ZWRpdG9yOnB3').request(GET()),
      client.session(null).request(GET()),
      client.session(null).request(GET({ query: { per_page: 10 } })),
      client.session(null).request(GET({ share: 'calendar:1:' })),
    ]);
    // admin x2 shared; editor, anonymous, another query and a later epoch on their own.
    expect(server.requests).toHaveLength(5);

    server.requests.length = 0;
    await Promise.all([
      client.session().request(GET({ share: undefined })),
      client.session().request(GET({ share: undefined })),
    ]);
    expect(server.requests).toHaveLength(2);

    server.requests.length = 0;
    const post = (): UpstreamRequest => ({
      method: 'POST',
      path: '/events',
      body: { title: 'x' },
      route: 'POST /events',
      share: 'calendar:0:',
    });
    await Promise.all([client.session().request(post()), client.session().request(post())]);
    expect(server.requests).toHaveLength(2);
  });

  it('lets one sharer go without cutting the others; the request is aborted only when all have gone', async () => {
    const { server, client } = await setup(slow(200));
    const a = new AbortController();
    const b = new AbortController();
    const pa = client.session().request(GET({ signal: a.signal }));
    const pb = client.session().request(GET({ signal: b.signal }));
    const pc = client.session().request(GET());
    await sleep(30);
    a.abort(new Error('client A went away'));
    expect((await failure(pa)).code).toBe('UPSTREAM_UNAVAILABLE');
    expect((await pb).status).toBe(200);
    expect((await pc).status).toBe(200);
    expect(server.requests).toHaveLength(1);
    expect(server.aborted()).toBe(0);

    // Both sharers gone: the site's request is cut.
    const c = new AbortController();
    const d = new AbortController();
    const both = [
      client.session().request(GET({ signal: c.signal })),
      client.session().request(GET({ signal: d.signal })),
    ];
    const settled = Promise.allSettled(both);
    await sleep(30);
    c.abort(new Error('gone'));
    await sleep(20);
    expect(server.aborted()).toBe(0);
    d.abort(new Error('gone too'));
    expect((await settled).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    for (let i = 0; i < 100 && server.aborted() === 0; i++) await sleep(20);
    expect(server.aborted()).toBe(1);
    expect(server.requests).toHaveLength(2);
    expect(client.flights.size).toBe(0);
  });

  it('asks every sharer before a retry: one that cannot pay leaves with the failure, the others get the retry', async () => {
    const { server, client } = await setup(async (_req, res, { index }) => {
      await sleep(30);
      if (index === 0) return sendJson(res, 503, { code: 'busy', message: 'Try again.', data: { status: 503 } });
      sendJson(res, 200, { index });
    });
    const broke = client.session().request(GET({ mayRetry: () => false }));
    const paying = client.session().request<{ index: number }>(GET({ mayRetry: () => true }));
    const e = await failure(broke);
    expect(e.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(e.extensions.upstream).toMatchObject({ status: 503, route: 'GET /events' });
    expect((await paying).body.index).toBe(1);
    expect(server.requests).toHaveLength(2);
  });

  it('hands each sharer its own error, under its own route', async () => {
    const { client } = await setup(async (_req, res) => {
      await sleep(30);
      sendJson(res, 404, { code: 'rest_no_route', message: 'No route.', data: { status: 404 } });
    });
    const [x, y] = await Promise.all([
      failure(client.session().request(GET({ route: 'GET /events (list)' }))),
      failure(client.session().request(GET({ route: 'GET /events (other field)' }))),
    ]);
    expect(x).not.toBe(y);
    expect(x.code).toBe('NOT_FOUND');
    expect(y.code).toBe('NOT_FOUND');
    expect([x.extensions.upstream?.route, y.extensions.upstream?.route].sort()).toEqual([
      'GET /events (list)',
      'GET /events (other field)',
    ]);
  });
});
