/**
 * Per-client rate limits (issue 12), over real loopback HTTP: 429 with
 * Retry-After and a RATE_LIMITED error, RateLimit headers, independent clients,
 * the window's reset, IP and credential keys, X-Forwarded-For only when a proxy
 * is trusted, and counters shared by two gateways through a real redis-server,
 * with service going on in memory while Redis is away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { parseConfig, loadConfig, ConfigError, type ConfigInput } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis.ts';
import { siteId } from '../../src/store/keys.ts';

const Q = '{ __typename }';

interface Answer {
  status: number;
  headers: Headers;
  body: { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

async function post(url: string, headers: Record<string, string> = {}, query = Q): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
}

function rateConfig(rateLimit: Partial<NonNullable<ConfigInput['rateLimit']>>): ConfigInput {
  return { rateLimit: { max: 3, windowSeconds: 60, key: 'ip', trustProxyHops: 0, ...rateLimit } };
}

describe('rate limits in memory', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: rateConfig({ max: 3, windowSeconds: 60, key: 'credential' }) });
  });
  afterAll(() => h.close());

  it('answers the limit, then 429 with Retry-After and a RATE_LIMITED error, sending nothing upstream', async () => {
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await post(h.gateway.url);
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({ __typename: 'Query' });
      expect(r.headers.get('ratelimit-limit')).toBe('3');
      remaining.push(r.headers.get('ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    h.mark();
    const over = await post(h.gateway.url, {}, '{ events(first: 1) { nodes { title } } }');
    expect(over.status).toBe(429);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
    expect(over.body.data).toBeUndefined();
    expect(over.body.errors).toHaveLength(1);
    expect(over.body.errors![0]!.extensions).toMatchObject({
      code: 'RATE_LIMITED',
      retryAfter,
      limit: 3,
      windowSeconds: 60,
    });
    expect(over.body.errors![0]!.message).toMatch(/Too many requests.*3 per 60 s/);
    expect(h.calls()).toHaveLength(0);
  });

  it('does not limit health, GraphiQL, or the admin listener (readiness, metrics)', async () => {
    const origin = new URL(h.gateway.url).origin;
    expect((await post(h.gateway.url)).status).toBe(429);
    for (const url of [
      `${origin}/healthz`,
      `${origin}/graphiql/graphiql.min.css`,
      `${h.gateway.adminUrl}/readyz`,
      `${h.gateway.adminUrl}/metrics`,
    ]) {
      expect((await fetch(url)).status, url).toBe(200);
    }
    const page = await fetch(h.gateway.url, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('counts each credential on its own, by a hash, apart from anonymous callers', async () => {
    // The anonymous (IP) budget is spent above; credentials have their own.
    for (let i = 0; i < 3; i++)
      expect((await post(h.gateway.url, { authorization: h.auth('editor') })).status).toBe(200);
    expect((await post(h.gateway.url, { authorization: h.auth('editor') })).status).toBe(429);
    const other = await post(h.gateway.url, { authorization: h.auth('author') });
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-remaining')).toBe('2');
  });
});

describe('rate limit keys and windows', () => {
  let h: Harness;
  const extra: Gateway[] = [];
  beforeAll(async () => {
    h = await startHarness({ config: rateConfig({ max: 2, key: 'ip' }) });
  });
  afterAll(async () => {
    for (const g of extra) await g.close();
    await h.close();
  });

  async function gateway(input: ConfigInput): Promise<Gateway> {
    const g = await startGateway(parseConfig({ port: 0, ...input }), h.sandbox.url);
    extra.push(g);
    return g;
  }

  it('keyed by IP (the default), a credential does not buy a new budget', async () => {
    expect(parseConfig({}).rateLimit.key).toBe('ip');
    expect((await post(h.gateway.url)).status).toBe(200);
    expect((await post(h.gateway.url, { authorization: h.auth('editor') })).status).toBe(200);
    // Invented credentials would be free buckets if they were the key.
    expect(
      (await post(h.gateway.url, { authorization: `Basic ${Buffer.from('made-up:1').toString('base64')}` })).status,
    ).toBe(429);
    expect((await post(h.gateway.url, { authorization: h.auth('author') })).status).toBe(429);
  });

  it('ignores X-Forwarded-For unless a proxy is trusted', async () => {
    expect((await post(h.gateway.url, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(429);
    const behindProxy = await gateway(rateConfig({ max: 1, trustProxyHops: 1 }));
    expect((await post(behindProxy.url, { 'x-forwarded-for': '203.0.113.1' })).status).toBe(200);
    expect((await post(behindProxy.url, { 'x-forwarded-for': '203.0.113.1' })).status).toBe(429);
    // Another client behind the same proxy has its own count.
    expect((await post(behindProxy.url, { 'x-forwarded-for': '203.0.113.2' })).status).toBe(200);
    // What the client wrote left of the proxy's entry does not change who it is.
    expect((await post(behindProxy.url, { 'x-forwarded-for': 'forged, 203.0.113.1' })).status).toBe(429);
  });

  it('opens again when the window ends', async () => {
    const short = await gateway(rateConfig({ max: 1, windowSeconds: 1 }));
    expect((await post(short.url)).status).toBe(200);
    const over = await post(short.url);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('1');
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await post(short.url)).status).toBe(200);
  });

  it('is off by default, and bad settings are ConfigErrors naming them', async () => {
    const off = await gateway({});
    for (let i = 0; i < 5; i++) {
      const r = await post(off.url);
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-limit')).toBeNull();
    }
    expect(
      loadConfig({
        RATE_LIMIT_MAX: '600',
        RATE_LIMIT_WINDOW_SECONDS: '60',
        RATE_LIMIT_KEY: 'credential',
        RATE_LIMIT_TRUST_PROXY: '1',
      }).rateLimit,
    ).toEqual({
      max: 600,
      windowSeconds: 60,
      key: 'credential',
      trustProxyHops: 1,
    });
    expect(() => loadConfig({ RATE_LIMIT_KEY: 'token' })).toThrow(ConfigError);
    expect(() => loadConfig({ RATE_LIMIT_KEY: 'token' })).toThrow(/RATE_LIMIT_KEY.*ip.*credential/);
    expect(() => loadConfig({ RATE_LIMIT_MAX: 'lots' })).toThrow(/RATE_LIMIT_MAX/);
    expect(() => loadConfig({ RATE_LIMIT_WINDOW_SECONDS: '0' })).toThrow(ConfigError);
  });
});

describe('rate limits shared through Redis', () => {
  let h: Harness;
  let redis: TestRedis;
  let b: Gateway;
  let probes = 0;
  const config = (): ConfigInput => ({
    ...rateConfig({ max: 4, windowSeconds: 60, key: 'credential', trustProxyHops: 1 }),
    redisUrl: redis.url,
  });

  beforeAll(async () => {
    redis = await startTestRedis();
    h = await startHarness({ config: config() });
    b = await startGateway(parseConfig({ port: 0, ...config() }), h.sandbox.url);
  });
  afterAll(async () => {
    await b?.close();
    await h?.close();
    await redis?.stop();
  });

  /** Both gateways count in Redis: a fresh client seen once by each has used 2 of 4. */
  async function untilShared(): Promise<void> {
    const until = Date.now() + 10_000;
    for (;;) {
      const ip = `198.51.100.${++probes}`;
      await post(h.gateway.url, { 'x-forwarded-for': ip });
      const r = await post(b.url, { 'x-forwarded-for': ip });
      if (r.headers.get('ratelimit-remaining') === '2') return;
      if (Date.now() > until) throw new Error('the gateways never shared a counter through Redis');
      await new Promise((res) => setTimeout(res, 100));
    }
  }

  it('two gateways on one Redis share each client counter, keyed by a hash of the credential', async () => {
    await untilShared();
    const who = { authorization: h.auth('editor') };
    expect((await post(h.gateway.url, who)).status).toBe(200);
    expect((await post(b.url, who)).status).toBe(200);
    expect((await post(h.gateway.url, who)).status).toBe(200);
    const fourth = await post(b.url, who);
    expect(fourth.status).toBe(200);
    expect(fourth.headers.get('ratelimit-remaining')).toBe('0');
    expect((await post(h.gateway.url, who)).status).toBe(429);
    expect((await post(b.url, who)).status).toBe(429);

    const c = new Redis(redis.url);
    try {
      // Under the site's keys: REDIS_KEY_PREFIX, the site's hash, then the feature (store/keys.ts).
      const root = `sitegraph:${siteId(h.sandbox.url)}:`;
      const keys = await c.keys(`${root}ratelimit:*`);
      const cred = keys.filter((k) => k.startsWith(`${root}ratelimit:cred:`));
      expect(cred).toHaveLength(1);
      // Neither the header nor its base64 part is stored.
      const secret = who.authorization.slice('Basic '.length);
      expect(keys.join(' ')).not.toContain(secret);
      expect(Number(await c.get(cred[0]!))).toBe(6);
      const ttl = await c.pttl(cred[0]!);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      c.disconnect();
    }
  });

  it('keeps serving, counting in memory, while Redis is away, and shares again when it is back', async () => {
    await redis.stop();
    const who = { authorization: h.auth('author') };
    const served = [];
    for (let i = 0; i < 4; i++) served.push((await post(h.gateway.url, who)).status);
    expect(served).toEqual([200, 200, 200, 200]);
    // The limit still holds, per instance, from memory.
    expect((await post(h.gateway.url, who)).status).toBe(429);
    const other = await post(b.url, who);
    expect(other.status).toBe(200);
    expect(other.body.data).toEqual({ __typename: 'Query' });

    await redis.start();
    await untilShared();
  });
});
