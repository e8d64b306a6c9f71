/**
 * The subscription transports keep the rules of `/graphql` (docs/subscriptions.md
 * "Transports", "Limits and slow consumers"): persisted documents and the
 * safelist, the cost and depth limits, rate limits, CORS (WebSocket origins,
 * SSE preflights), queries refused on them; subscriptions per connection and
 * per caller; a slow consumer dropped with SLOW_CONSUMER and close code 4008;
 * heartbeats; graceful shutdown completing every subscription; the metrics.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { newRouteLogFile } from '../helpers/route-log.ts';
import { testSandbox } from '../helpers/sandbox.ts';
import {
  at,
  feed,
  metric,
  sleep,
  sse,
  startLive,
  subscribed,
  ws,
  wsClient,
  type LiveHarness,
} from '../subscriptions/helpers.ts';

const Q = `subscription { eventChanged { kind databaseId event { title } } }`;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const codes = (f: { results: { result: { errors?: any[] } }[]; failure: unknown }) =>
  [...f.results.flatMap((x) => x.result.errors ?? []), ...(Array.isArray(f.failure) ? f.failure : [])].map(
    (e) => e.extensions?.code,
  );

/** A graphql-transport-ws client written by hand: for a client that does not read, or does not answer pings. */
function rawWs(url: string, options: WebSocket.ClientOptions = {}) {
  const socket = new WebSocket(url.replace(/^http/, 'ws'), 'graphql-transport-ws', options);
  const messages: any[] = [];
  socket.on('message', (d) => messages.push(JSON.parse(String(d))));
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return { socket, messages, opened, closed, send: (m: unknown) => socket.send(JSON.stringify(m)) };
}

async function createEvents(h: LiveHarness, n: number, title = 'Many'): Promise<void> {
  const day = at(6).slice(0, 10);
  const inputs = Array.from({ length: n }, (_, i) => ({
    title: `${title} ${i}`,
    description: 'x'.repeat(2_000),
    startDate: `${day}T10:00:00Z`,
    endDate: `${day}T11:00:00Z`,
    status: 'PUBLISH',
  }));
  const r = await h.gql(
    `mutation($i: [EventInput!]!) { createEvents(inputs: $i) { written } }`,
    { i: inputs },
    'admin',
  );
  expect(r.errors).toBeUndefined();
}

describe('subscription transports', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await testSandbox({ requestLog: newRouteLogFile() });
  });
  afterAll(() => sandbox.close());

  describe('limits, per connection and per caller', () => {
    let h: LiveHarness;
    beforeAll(async () => {
      h = await startLive({
        sandboxInstance: sandbox,
        config: { subscriptions: { maxPerConnection: 2, maxPerCaller: 3 } },
      });
    });
    afterAll(() => h.close());

    it('refuses a third subscription on one WebSocket, and a fourth for one caller, with SUBSCRIPTION_LIMIT', async () => {
      const client = wsClient(h.gateway.url);
      const one = ws(h.gateway.url, Q, { client });
      const two = ws(h.gateway.url, Q, { client });
      await subscribed(h.gateway, 2, 0);
      const three = ws(h.gateway.url, Q, { client });
      await three.end(5_000);
      expect(codes(three)).toEqual(['SUBSCRIPTION_LIMIT']);
      expect(JSON.stringify([three.results, three.failure])).toContain('SUBSCRIPTION_MAX_PER_CONNECTION');
      // Another connection: its own count, but the caller's limit is 3.
      const four = sse(h.gateway.url, Q);
      await subscribed(h.gateway, 3, 0);
      const five = sse(h.gateway.url, Q, { single: true });
      await five.end(5_000);
      expect(codes(five)).toEqual(['SUBSCRIPTION_LIMIT']);
      expect(JSON.stringify(five.results)).toContain('SUBSCRIPTION_MAX_PER_CALLER');
      expect(await metric(h.gateway, 'sitegraph_subscriptions_refused_total')).toBe(2);
      // Ending one makes room.
      await one.stop();
      await sleep(200);
      const six = sse(h.gateway.url, Q);
      await subscribed(h.gateway, 3, 0);
      expect(six.ended).toBe(false);
      await Promise.all([two, four, six].map((f) => f.stop()));
      await client.dispose();
    });
  });

  describe('a slow consumer', () => {
    let h: LiveHarness;
    beforeAll(async () => {
      h = await startLive({ sandboxInstance: sandbox, config: { subscriptions: { maxBufferBytes: 64 * 1024 } } });
    });
    afterAll(() => h.close());

    it('is dropped with SLOW_CONSUMER and close code 4008 once its unread bytes pass the limit; a reader on another connection is not', async () => {
      const slow = rawWs(h.gateway.url);
      await slow.opened;
      slow.send({ type: 'connection_init' });
      await until(async () => slow.messages.some((m) => m.type === 'connection_ack'), 5_000);
      const heavy = `subscription { eventChanged { kind event { title description excerpt raw } } }`;
      for (let i = 0; i < 40; i++) slow.send({ id: String(i), type: 'subscribe', payload: { query: heavy } });
      const reader = sse(h.gateway.url, Q);
      await subscribed(h.gateway, 41, 0);
      // It stops reading: the kernel's buffers fill, then the gateway's.
      (slow.socket as unknown as { _socket: { pause(): void } })._socket.pause();
      await createEvents(h, 120);
      await until(
        async () => (await metric(h.gateway, 'sitegraph_subscription_drops_total', { reason: 'slow_consumer' })) === 1,
        30_000,
      );
      // It reads again only after the gateway has given up on it (the hub closes a dropped connection a second after
      // ending its subscriptions): the reasons must still come before the close, however late it reads.
      await sleep(1_500);
      (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
      const { code, reason } = await slow.closed;
      expect(code).toBe(4008);
      expect(reason).toMatch(/^Slow consumer/);
      // Every subscription got its reason before the close.
      const errors = slow.messages
        .filter((m) => m.type === 'next' && m.payload.errors)
        .map((m) => m.payload.errors[0].extensions.code);
      expect(errors).toContain('SLOW_CONSUMER');
      // The reader kept going.
      await reader.next((r) => r.data?.eventChanged?.event?.title === 'Many 119', 30_000);
      expect(reader.ended).toBe(false);
      expect(await metric(h.gateway, 'sitegraph_subscriptions_active')).toBe(1);
      await reader.stop();
    });
  });

  describe('a slow consumer over SSE', () => {
    let h: LiveHarness;
    beforeAll(async () => {
      h = await startLive({ sandboxInstance: sandbox, config: { subscriptions: { maxBufferBytes: 64 * 1024 } } });
    });
    afterAll(() => h.close());

    it('gets SLOW_CONSUMER on each operation of its single-connection stream, which then ends', async () => {
      const token = await (await fetch(h.gateway.url, { method: 'PUT' })).text();
      // The stream, opened and then not read.
      const stream = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = httpRequest(
          `${h.gateway.url}?token=${token}`,
          { headers: { accept: 'text/event-stream' } },
          resolve,
        );
        req.on('error', reject);
        req.end();
      });
      const heavy = `subscription { eventChanged { kind event { title description excerpt raw } } }`;
      for (let i = 0; i < 40; i++) {
        const r = await fetch(h.gateway.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-graphql-event-stream-token': token },
          body: JSON.stringify({ query: heavy, extensions: { operationId: String(i) } }),
        });
        expect(r.status).toBe(202);
      }
      await subscribed(h.gateway, 40, 0);
      stream.pause();
      await createEvents(h, 120, 'SSE many');
      await until(
        async () => (await metric(h.gateway, 'sitegraph_subscription_drops_total', { reason: 'slow_consumer' })) === 1,
        30_000,
      );
      stream.resume();
      let text = '';
      stream.setEncoding('utf8');
      for await (const chunk of stream) text += chunk;
      expect(text).toContain('SLOW_CONSUMER');
      expect(text.match(/"code":"SLOW_CONSUMER"/g)!.length).toBe(40);
      // Each operation completed after its error, and the stream ended (the loop above returned).
      expect(text.match(/event: complete/g)!.length).toBe(40);
      expect(await metric(h.gateway, 'sitegraph_subscriptions_active')).toBe(0);
    });
  });

  describe('heartbeats', () => {
    let h: LiveHarness;
    beforeAll(async () => {
      h = await startLive({ sandboxInstance: sandbox, config: { subscriptions: { heartbeatSeconds: 0.2 } } });
    });
    afterAll(() => h.close());

    it('pings WebSocket clients: one that answers stays, one that does not is closed', async () => {
      const mute = rawWs(h.gateway.url, { autoPong: false });
      const fine = rawWs(h.gateway.url);
      let pings = 0;
      fine.socket.on('ping', () => pings++);
      await Promise.all([mute.opened, fine.opened]);
      for (const c of [mute, fine]) c.send({ type: 'connection_init' });
      const closed = await Promise.race([mute.closed, sleep(3_000).then(() => null)]);
      expect(closed).not.toBeNull();
      await sleep(1_000);
      expect(fine.socket.readyState).toBe(WebSocket.OPEN);
      expect(pings).toBeGreaterThanOrEqual(3);
      fine.socket.close();
    });
  });

  describe('persisted documents and the safelist', () => {
    let h: LiveHarness;
    const doc = `subscription Live { eventChanged { kind databaseId } }`;
    const id = `sha256:${sha256(doc)}`;
    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sitegraph-live-'));
      const manifest = join(dir, 'persisted-documents.json');
      writeFileSync(manifest, JSON.stringify({ [id]: doc }));
      h = await startLive({ sandboxInstance: sandbox, config: { persistedDocuments: { manifest, safelist: true } } });
    });
    afterAll(() => h.close());

    it('runs a manifest subscription by id over SSE (GET) and WebSocket, and refuses any other text', async () => {
      // SSE, distinct connection, by GET: what an EventSource can send.
      const res = await fetch(`${h.gateway.url}?documentId=${encodeURIComponent(id)}`, {
        headers: { accept: 'text/event-stream' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      // WebSocket: the protocol wants a query string; the id comes as `documentId` or APQ's extension.
      const client = wsClient(h.gateway.url);
      const byId = feed<any>(client.iterate({ query: '', documentId: id } as never));
      const byHash = feed<any>(
        client.iterate({ query: '', extensions: { persistedQuery: { version: 1, sha256Hash: sha256(doc) } } }),
      );
      await subscribed(h.gateway, 3);
      const made = await h.rest.send(
        'POST',
        '/calendar/events/v1/events',
        { title: 'Persisted', start_date: at(2), end_date: at(2, 11), status: 'publish' },
        'admin',
      );
      for (const f of [byId, byHash]) await f.next((r) => r.data?.eventChanged?.databaseId === made.body.id, 10_000);
      const text = await readUntil(res, `"databaseId":${made.body.id}`);
      expect(text).toContain('event: next');
      // Anything else is refused, on both transports and as a plain request.
      const adHoc = ws(h.gateway.url, Q, { client });
      await adHoc.end(5_000);
      expect(codes(adHoc)).toEqual(['OPERATION_NOT_ALLOWED']);
      const adHocSse = sse(h.gateway.url, Q);
      await adHocSse.end(5_000);
      expect(codes(adHocSse)).toEqual(['OPERATION_NOT_ALLOWED']);
      const plain = await fetch(h.gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ documentId: id }),
      });
      expect(plain.status).toBe(400);
      expect(((await plain.json()) as any).errors[0].extensions.code).toBe('OPERATION_NOT_SUPPORTED');
      await Promise.all([byId.stop(), byHash.stop()]);
      await client.dispose();
    });
  });

  describe('the rules of /graphql', () => {
    let h: LiveHarness;
    beforeAll(async () => {
      h = await startLive({
        sandboxInstance: sandbox,
        config: {
          rateLimit: { max: 6, windowSeconds: 60 },
          cors: { origins: ['https://app.example'] },
          limits: { maxCost: 50, maxDepth: 12 },
        },
      });
    });
    afterAll(() => h.close());

    it('refuses a subscription over the cost or depth limit, and queries, before anything is sent', async () => {
      const costly = sse(
        h.gateway.url,
        `subscription { eventChanged { event { venues { events(first: 100) { nodes { venues { events(first: 100) { nodes { title } } } } } } } } }`,
      );
      await costly.end(5_000);
      expect(codes(costly)).toEqual(['BAD_USER_INPUT']);
      expect(JSON.stringify(costly.results)).toMatch(/cost/i);
      const nest = (levels: number): string =>
        levels ? `venues { events(first: 1) { nodes { ${nest(levels - 1)} } } }` : 'title';
      const deep = ws(h.gateway.url, `subscription { eventChanged { event { ${nest(5)} } } }`);
      await deep.end(5_000);
      // As for a query: an abuse limit is the caller's to fix (server.ts formatError).
      expect(codes(deep)).toEqual(['BAD_USER_INPUT']);
      expect(JSON.stringify(deep.failure)).toMatch(/depth/i);
      const query = ws(h.gateway.url, `{ site { name } }`);
      await query.end(5_000);
      expect(codes(query)).toEqual(['OPERATION_NOT_SUPPORTED']);
    });

    it('counts SSE requests and WebSocket upgrades and subscriptions against the rate limit', async () => {
      let refused: Response | null = null;
      for (let i = 0; i < 10 && !refused; i++) {
        const res = await fetch(h.gateway.url, { method: 'PUT', headers: { accept: 'text/plain' } });
        if (res.status === 429) refused = res;
      }
      expect(refused).not.toBeNull();
      expect(refused!.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await refused!.json()) as any).errors[0].extensions.code).toBe('RATE_LIMITED');
      const upgrade = rawWs(h.gateway.url);
      await expect(upgrade.opened).rejects.toThrow(/429/);
    });

    it('refuses a WebSocket from a page of an origin CORS does not allow, and lets the allowed one and same-origin pages in', async () => {
      const fresh = await startLive({
        sandboxInstance: sandbox,
        config: { cors: { origins: ['https://app.example'] } },
      });
      try {
        const evil = rawWs(fresh.gateway.url, { origin: 'https://evil.example' });
        await expect(evil.opened).rejects.toThrow(/403/);
        const app = rawWs(fresh.gateway.url, { origin: 'https://app.example' });
        await app.opened;
        const same = rawWs(fresh.gateway.url, { origin: new URL(fresh.gateway.url).origin });
        await same.opened;
        app.socket.close();
        same.socket.close();
        // The single-connection SSE mode's methods and token header pass a preflight.
        const pre = await fetch(fresh.gateway.url, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://app.example',
            'access-control-request-method': 'PUT',
            'access-control-request-headers': 'x-graphql-event-stream-token',
          },
        });
        expect(pre.headers.get('access-control-allow-methods')).toContain('PUT');
        expect(pre.headers.get('access-control-allow-headers')).toContain('x-graphql-event-stream-token');
      } finally {
        await fresh.close();
      }
    });
  });

  describe('a site without what is followed', () => {
    it('refuses postChanged with NAMESPACE_UNAVAILABLE where the site has no core/v2 posts', async () => {
      const h = await startLive({ sandbox: { disable: ['core/v2'] } });
      try {
        const posts = sse(h.gateway.url, `subscription { postChanged { kind } }`);
        await posts.end(5_000);
        expect(codes(posts)).toEqual(['NAMESPACE_UNAVAILABLE']);
      } finally {
        await h.close();
      }
    });
  });

  describe('shutdown and metrics', () => {
    it('completes every subscription (SSE both modes, WebSocket) when the gateway closes, and counts what happened', async () => {
      const h = await startLive({ sandboxInstance: sandbox });
      const subs = [sse(h.gateway.url, Q), sse(h.gateway.url, Q, { single: true }), ws(h.gateway.url, Q)];
      await subscribed(h.gateway, 3);
      await createEvents(h, 1, 'Before shutdown');
      for (const s of subs) await s.next((r) => r.data?.eventChanged?.event?.title === 'Before shutdown 0', 5_000);
      const text = await h.gateway.metrics.registry.metrics();
      for (const name of [
        'sitegraph_subscriptions_active',
        'sitegraph_subscription_deliveries_total',
        'sitegraph_subscription_drops_total',
        'sitegraph_subscription_poll_lag_seconds',
        'sitegraph_subscription_polls_total',
        'sitegraph_subscription_delivery_seconds',
      ]) {
        expect(text, name).toContain(name);
      }
      expect(await metric(h.gateway, 'sitegraph_subscription_deliveries_total')).toBe(3);
      const t = Date.now();
      await h.close();
      expect(Date.now() - t).toBeLessThan(5_000);
      for (const s of subs) {
        await s.end(5_000);
        expect(s.failure, String(s.failure)).toBeNull();
      }
    });
  });
});

/** Reads an SSE response until `text` has come. */
async function readUntil(res: Response, text: string, ms = 10_000): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let got = '';
  const end = Date.now() + ms;
  while (!got.includes(text)) {
    if (Date.now() > end) throw new Error(`no ${text} in ${got.slice(0, 500)}`);
    const { value, done } = await reader.read();
    if (done) break;
    got += decoder.decode(value);
  }
  await reader.cancel();
  return got;
}

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms`);
    await sleep(50);
  }
}
