/**
 * One Redis for many sites (docs/production.md "Redis: several gateway instances"): two
 * gateways in front of two different sandboxes on ONE real redis-server share
 * nothing. Every key is under REDIS_KEY_PREFIX and the site's hash
 * (src/store/keys.ts): an event read through one answers its own site's value
 * (issue 19: the second answered the first site's website), an APQ
 * registration through one is unknown to the other, rate-limit counters are
 * separate, and a write through one bumps only its own generations.
 *
 * And a REDIS_URL that cannot be reached at start: a warn line, the banner,
 * /readyz "degraded" (200) with the reason, and every answer still given, uncached.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type ConfigInput } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import { siteId } from '../../src/store/keys.ts';
import { GATEWAY_CLI, startCli } from '../helpers/cli.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { captureLog } from '../helpers/logs.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis.ts';
import { restClient } from '../helpers/sandbox.ts';

const WEBSITE = `query($id: ID!) { event(id: $id, idType: DATABASE_ID) { databaseId website } }`;

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] },
  };
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('two sites on one Redis', () => {
  let redis: TestRedis;
  let a: Harness;
  let b: Harness;
  let c: Redis;
  // Clients told apart by X-Forwarded-For (one trusted proxy): the test's own requests are never refused.
  const config = (): ConfigInput => ({
    redisUrl: redis.url,
    cache: { ttlSeconds: 60 },
    rateLimit: { max: 1000, windowSeconds: 60, trustProxyHops: 1 },
  });
  const root = (h: Harness) => `sitegraph:${siteId(h.sandbox.url)}:`;

  beforeAll(async () => {
    redis = await startTestRedis();
    [a, b] = await Promise.all([startHarness({ config: config() }), startHarness({ config: config() })]);
    c = new Redis(redis.url);
  }, 60_000);
  afterAll(async () => {
    c?.disconnect();
    await Promise.all([a?.close(), b?.close()]);
    await redis?.stop();
  });

  it('keeps every key under its own site', async () => {
    expect(root(a)).not.toBe(root(b));
    expect(a.gateway.redis!.keys.root).toBe(root(a));
    expect(b.gateway.redis!.keys.root).toBe(root(b));
  });

  it("answers each site's own event: an entry cached through one gateway is never served by the other", async () => {
    const id = (await a.gql('{ events(first: 1) { nodes { databaseId } } }')).data.events.nodes[0].databaseId as number;
    // The two sandboxes start with the same demo data: make the event differ on site A only.
    for (const [h, website] of [
      [a, 'https://site-a.example/event'],
      [b, 'https://site-b.example/event'],
    ] as const) {
      const set = await restClient(h.sandbox).send('POST', `/calendar/events/v1/events/${id}`, { website }, 'admin');
      expect(set.status).toBe(200);
    }
    const onA = await a.gql(WEBSITE, { id: String(id) });
    expect(onA.data.event.website).toBe('https://site-a.example/event');
    // Cached on A now: the same request through A again is not sent.
    a.mark();
    expect((await a.gql(WEBSITE, { id: String(id) })).data.event.website).toBe('https://site-a.example/event');
    expect(a.calls()).toEqual([]);

    b.mark();
    const onB = await b.gql(WEBSITE, { id: String(id) });
    expect(onB.errors).toBeUndefined();
    expect(onB.data.event.website).toBe('https://site-b.example/event');
    expect(b.calls().length, 'B asked its own site').toBeGreaterThan(0);

    const keys = await c.keys('*');
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(k.startsWith(root(a)) || k.startsWith(root(b)), k).toBe(true);
    expect(keys.some((k) => k.startsWith(`${root(a)}c:calendar:`))).toBe(true);
    expect(keys.some((k) => k.startsWith(`${root(b)}c:calendar:`))).toBe(true);
  });

  it('keeps an APQ registration to the site it was registered in front of', async () => {
    const query = 'query SharedRedisApq { site { name } }';
    const persistedQuery = { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') };
    const registered = await post(a.gateway.url, { query, extensions: { persistedQuery } });
    expect(registered.body.errors).toBeUndefined();
    expect((await post(a.gateway.url, { extensions: { persistedQuery } })).body.data.site.name).toBeTruthy();
    const onB = await post(b.gateway.url, { extensions: { persistedQuery } });
    expect(onB.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(await c.exists(`${root(a)}kv:apq:${persistedQuery.sha256Hash}`)).toBe(1);
    expect(await c.exists(`${root(b)}kv:apq:${persistedQuery.sha256Hash}`)).toBe(0);
  });

  it('counts rate limits per site', async () => {
    // One client, four requests through A and one through B: two counts, one per site.
    const ip = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 4; i++)
      expect((await post(a.gateway.url, { query: '{ __typename }' }, ip)).headers.get('ratelimit-remaining')).toBe(
        String(1000 - i - 1),
      );
    expect((await post(b.gateway.url, { query: '{ __typename }' }, ip)).headers.get('ratelimit-remaining')).toBe('999');
    expect(await c.get(`${root(a)}ratelimit:ip:203.0.113.9`)).toBe('4');
    expect(await c.get(`${root(b)}ratelimit:ip:203.0.113.9`)).toBe('1');
  });

  it("bumps only the writing site's generations", async () => {
    const generations = async (h: Harness) =>
      Object.fromEntries(
        await Promise.all(
          ['calendar', 'content', 'other'].map(
            async (f) => [f, Number((await c.get(`${root(h)}gen:${f}`)) ?? 0)] as const,
          ),
        ),
      );
    const id = String((await a.gql('{ events(first: 1) { nodes { databaseId } } }')).data.events.nodes[0].databaseId);
    const [beforeA, beforeB] = [await generations(a), await generations(b)];
    const w = await post(
      a.gateway.url,
      {
        query: `mutation($id: ID!) { updateEvent(id: $id, input: { title: "Only on A" }) { event { title } } }`,
        variables: { id },
      },
      {
        authorization: a.auth('admin'),
      },
    );
    expect(w.body.errors).toBeUndefined();
    const [afterA, afterB] = [await generations(a), await generations(b)];
    expect(afterA.calendar).toBeGreaterThan(beforeA.calendar!);
    expect(afterA.other).toBeGreaterThan(beforeA.other!);
    expect(afterB).toEqual(beforeB);
  });

  it('puts the keys of another REDIS_KEY_PREFIX apart, even for the same site', async () => {
    const g = await startGateway(
      parseConfig({ port: 0, redisUrl: redis.url, redisKeyPrefix: 'tenant-42:', cache: { ttlSeconds: 60 } }),
      a.sandbox.url,
    );
    try {
      const r = await post(g.url, { query: '{ venues(first: 2) { nodes { title } } }' });
      expect(r.body.errors).toBeUndefined();
      const keys = await c.keys('tenant-42:*');
      expect(keys.length).toBeGreaterThan(0);
      for (const k of keys) expect(k.startsWith(`tenant-42:${siteId(a.sandbox.url)}:`), k).toBe(true);
    } finally {
      await g.close();
    }
  });
});

describe('a REDIS_URL that cannot be reached at start', () => {
  let h: Harness;
  let g: Gateway;
  const log = captureLog('info');

  beforeAll(async () => {
    h = await startHarness();
    const port = await freePort();
    g = await startGateway(
      parseConfig({ port: 0, redisUrl: `redis://:s3cret@127.0.0.1:${port}/0`, cache: { ttlSeconds: 60 } }),
      h.sandbox.url,
      { logger: log.logger },
    );
  }, 60_000);
  afterAll(async () => {
    await g?.close();
    await h?.close();
  });

  it('is logged at warn, without the password', () => {
    const warn = log.lines().find((l) => l.level === 40 && /Redis cannot be reached/.test(l.msg));
    expect(warn).toBeDefined();
    expect(warn!.redis).toMatch(/^redis:\/\/127\.0\.0\.1:\d+\/0$/);
    expect(warn!.problem).toMatch(/ECONNREFUSED/);
    expect(log.text()).not.toContain('s3cret');
  });

  it('is reported by readiness as degraded, with the reason, while the gateway serves uncached', async () => {
    const res = await fetch(`${g.adminUrl}/readyz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ status: 'degraded', redis: 'down' });
    expect(body.reasons[0]).toMatch(
      /^Redis at redis:\/\/127\.0\.0\.1:\d+\/0 cannot be reached \(.*ECONNREFUSED.*\): answering uncached/,
    );
    expect(JSON.stringify(body)).not.toContain('s3cret');

    const q = '{ events(first: 3) { nodes { title } } }';
    h.mark();
    for (let i = 0; i < 2; i++) {
      const r = await post(g.url, { query: q });
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data.events.nodes).toHaveLength(3);
    }
    expect(
      h.calls().filter((c) => c.method === 'GET'),
      'each read went to the site',
    ).toHaveLength(2);
  });

  it('is shown in the banner', async () => {
    const port = await freePort();
    const cli = await startCli(GATEWAY_CLI, ['--port', '0', '--upstream', h.sandbox.url], {
      REDIS_URL: `redis://127.0.0.1:${port}`,
      ADMIN_PORT: '0',
    });
    try {
      for (let i = 0; i < 100 && !/^redis: /m.test(cli.output()); i++) await new Promise((r) => setTimeout(r, 50));
      expect(cli.output()).toMatch(
        new RegExp(
          `redis: redis://127\\.0\\.0\\.1:${port} cannot be reached \\(.*ECONNREFUSED.*\\): serving uncached until it can; /readyz says degraded`,
        ),
      );
      expect(cli.output()).toMatch(/sitegraph admin: http:\/\/127\.0\.0\.1:\d+ /);
    } finally {
      await cli.stop();
    }
  }, 60_000);
});
