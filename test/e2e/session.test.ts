/**
 * The operation's session over real HTTP (issue 9, findings 3 and 10, "One
 * seam"): every upstream request of an operation, whichever resolver makes
 * it, is capped, counted against the budget, bounded by the deadline and cut
 * when the client leaves or the gateway stops; and a gateway whose site is
 * down at start still answers what needs no site, and recovers by itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import type { LogEntry } from '../../packages/sandbox/src/requestlog.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { testSandbox } from '../helpers/sandbox.ts';

/** `n` venue reads by database ID, aliased: one upstream request each (IDs that do not exist answer null). */
const venues = (n: number, from = 900_001) =>
  Array.from({ length: n }, (_, i) => `v${i}: venue(id: "${from + i}", idType: DATABASE_ID) { title }`).join(' ');

/** Most upstream requests in flight at once, from the sandbox log's start times and durations. */
function maxOverlap(entries: LogEntry[]): number {
  const edges = entries
    .flatMap((e) => [
      { t: e.at, d: 1 },
      { t: e.at + e.ms, d: -1 },
    ])
    .sort((a, b) => a.t - b.t || a.d - b.d);
  let now = 0;
  let most = 0;
  for (const e of edges) most = Math.max(most, (now += e.d));
  return most;
}

describe('the request budget', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { session: { budget: 5, deadlineMs: 15_000, siteRetryMs: 5_000 } } });
  });
  afterAll(() => h.close());

  it('sends exactly `budget` upstream requests, fails the fields past it with REQUEST_BUDGET_EXCEEDED, and answers the rest', async () => {
    h.mark();
    const r = await h.gql(`{ __typename site { name } ${venues(8)} }`);
    expect(r.status).toBe(200);
    expect(h.calls()).toHaveLength(5);
    expect(r.data.__typename).toBe('Query');
    expect(r.data.site.name).toBe('Sitegraph Sandbox');
    const over = r.errors!.filter((e) => e.extensions?.code === 'REQUEST_BUDGET_EXCEEDED');
    expect(over).toHaveLength(3);
    expect(over[0]!.message).toMatch(/budget of 5 upstream requests/);
    for (const e of over) expect(r.data[e.path![0] as string]).toBeNull();
    expect(r.errors).toHaveLength(3);
  });

  it('gives each operation its own budget', async () => {
    h.mark();
    const r = await h.gql(`{ ${venues(5)} }`);
    expect(r.errors).toBeUndefined();
    expect(h.calls()).toHaveLength(5);
  });
});

describe('the deadline', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      config: { session: { budget: 500, deadlineMs: 1_000, siteRetryMs: 5_000 }, upstream: { retries: 2 } },
    });
  });
  afterAll(() => h.close());
  afterEach(() => h.sandbox.faults.clear());

  it('answers a slow site within the deadline with UPSTREAM_TIMEOUT, the other fields intact', async () => {
    h.sandbox.faults.add({ path: '^/calendar-core/v1/venues/\\d+$', delayMs: 5_000 });
    const started = performance.now();
    const r = await h.gql(`{ site { name } ${venues(2)} }`);
    const took = performance.now() - started;
    expect(took).toBeLessThan(1_000 + 500);
    expect(r.data.site.name).toBe('Sitegraph Sandbox');
    expect(r.data.v0).toBeNull();
    expect(r.errors!.map((e) => e.extensions!.code)).toEqual(['UPSTREAM_TIMEOUT', 'UPSTREAM_TIMEOUT']);
    expect(r.errors![0]!.message).toMatch(/operation's deadline of 1000 ms/);
  });

  it('covers retries and backoff: no retry starts after it', async () => {
    // Each try takes 600 ms and fails with a retryable 503: three tries would take ~2 s.
    h.sandbox.faults.add({ path: '^/calendar-core/v1/venues/\\d+$', status: 503, delayMs: 600 });
    h.mark();
    const started = performance.now();
    const deadlineAt = performance.timeOrigin + started + 1_000;
    const r = await h.gql(`{ ${venues(1)} }`);
    expect(performance.now() - started).toBeLessThan(1_000 + 500);
    expect(r.errors![0]!.extensions!.code).toBe('UPSTREAM_TIMEOUT');
    await sleep(300);
    expect(h.calls().length).toBeLessThanOrEqual(2);
    expect(h.calls().every((c) => c.at < deadlineAt)).toBe(true);
  });
});

describe('cancellation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  afterEach(() => h.sandbox.faults.clear());

  it('stops sending upstream requests when the client disconnects', async () => {
    // 40 reads, 10 at a time (the default cap), 200 ms each: ~1 s of upstream work.
    h.sandbox.faults.add({ path: '^/calendar-core/v1/venues/\\d+$', delayMs: 200 });
    h.mark();
    const client = new AbortController();
    const res = fetch(h.gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ ${venues(40)} }` }),
      signal: client.signal,
    }).catch((e: unknown) => e);
    await sleep(300);
    client.abort();
    const abortedAt = performance.timeOrigin + performance.now();
    expect(await res).toBeInstanceOf(Error);
    await sleep(1_200);
    const calls = h.calls();
    expect(calls.length).toBeGreaterThan(0);
    // At most the first two waves of 10 had started.
    expect(calls.length).toBeLessThanOrEqual(20);
    // Started after the abort (50 ms for the socket's close to reach the gateway): none.
    expect(calls.filter((c) => c.at > abortedAt + 50)).toEqual([]);
  });

  it('answers operations in progress at shutdown at once, with an error, instead of cutting them', async () => {
    const g = await startHarness();
    try {
      g.sandbox.faults.add({ path: '^/calendar-core/v1/venues/\\d+$', delayMs: 5_000 });
      const started = performance.now();
      const answer = g.gql(`{ __typename ${venues(1)} }`);
      await sleep(200);
      await g.gateway.close();
      const r = await answer;
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(r.status).toBe(200);
      expect(r.data.__typename).toBe('Query');
      expect(r.errors![0]).toMatchObject({ path: ['v0'], extensions: { code: 'UPSTREAM_UNAVAILABLE' } });
      expect(r.errors![0]!.message).toMatch(/shutting down/);
    } finally {
      await g.sandbox.close();
    }
  });
});

describe('the concurrency cap', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { limits: { upstreamConcurrency: 2 } } as never });
  });
  afterAll(() => h.close());
  afterEach(() => h.sandbox.faults.clear());

  it('holds for governance and the calendar extras too, whose resolvers never applied it', async () => {
    h.sandbox.faults.add([
      { path: '^/site-governance/v1/', delayMs: 80 },
      { path: '/docs?$', delayMs: 80 },
    ]);
    h.mark();
    // Distinct requests: identical ones in flight at once would be one (upstream/flight.ts).
    const governance = 'usersOverview { totalUsers } usersTrainingStatus { userId }';
    const docs = ['LEGACY_EVENTS', 'CALENDAR_CORE', 'AUTOMATION_A', 'AUTOMATION_B']
      .map((api) => `${api}: apiDocument(api: ${api})`)
      .join(' ');
    const r = await h.gql(`{ governance { ${governance} } ${docs} }`, {}, 'admin');
    expect(r.errors).toBeUndefined();
    expect(h.calls()).toHaveLength(6);
    expect(maxOverlap(h.calls())).toBeLessThanOrEqual(2);
    expect(maxOverlap(h.calls())).toBe(2);
  });
});

describe('one seam', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(dir, f));

  it('leaves no resolver or loader applying the cap or checking a namespace by hand', () => {
    const offenders: string[] = [];
    for (const file of [...files('src/resolvers'), ...files('src/loaders')]) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\bctx\.limit\s*\(|(?<![.\w])limit\s*\(\s*(async\s*)?\(/.test(line))
            offenders.push(`${file}:${i + 1}: ${line.trim()}`);
          if (/namespaceUnavailable\(|'NAMESPACE_UNAVAILABLE'/.test(line))
            offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });

  it('names the missing namespace from the gate alone, for fields whose resolvers no longer check it', async () => {
    const h = await startHarness({ sandbox: { disable: ['site-governance/v1', 'calendar/views/v2'] } });
    try {
      h.mark();
      const r = await h.gql(
        `{ governance { usersOverview { totalUsers } } calendarView(input: { url: "https://example.org/events/" }) { html } }`,
        {},
        'admin',
      );
      expect(r.data).toEqual({ governance: { usersOverview: null }, calendarView: null });
      const byPath = Object.fromEntries(r.errors!.map((e) => [e.path!.join('.'), e]));
      expect(byPath['governance.usersOverview']!.extensions).toMatchObject({
        code: 'NAMESPACE_UNAVAILABLE',
        namespace: 'site-governance/v1',
      });
      expect(byPath['governance.usersOverview']!.message).toMatch(/REST namespace "site-governance\/v1"/);
      expect(byPath.calendarView!.message).toMatch(/REST namespace "calendar\/views\/v2"/);
      expect(h.calls()).toEqual([]);
    } finally {
      await h.close();
    }
  });
});

describe('a site that is down when the gateway starts', () => {
  let gateway: Gateway | null = null;
  let sandbox: RunningSandbox | null = null;
  afterAll(async () => {
    await gateway?.close();
    await sandbox?.close();
  });

  async function freePort(): Promise<number> {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const { port } = srv.address() as { port: number };
    await new Promise<void>((r) => srv.close(() => r()));
    return port;
  }
  const post = async (query: string) => {
    const res = await fetch(gateway!.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return { status: res.status, ...((await res.json()) as { data: any; errors?: any[] }) };
  };
  const readyz = async () => (await fetch(`${gateway!.adminUrl}/readyz`)).status;

  it('answers gateway-only fields, says not ready, and recovers by itself once the site is up', async () => {
    const port = await freePort();
    gateway = await startGateway(
      parseConfig({ port: 0, session: { budget: 500, deadlineMs: 15_000, siteRetryMs: 300 } }),
      `http://127.0.0.1:${port}/wp-json/`,
    );

    const t = await post('{ __typename }');
    expect(t).toMatchObject({ status: 200, data: { __typename: 'Query' } });
    expect(t.errors).toBeUndefined();
    const intro = await post('{ __schema { queryType { name } } }');
    expect(intro).toMatchObject({ status: 200, data: { __schema: { queryType: { name: 'Query' } } } });
    const down = await post('{ __typename v: venue(id: "1", idType: DATABASE_ID) { title } }');
    expect(down.status).toBe(200);
    expect(down.data).toEqual({ __typename: 'Query', v: null });
    expect(down.errors![0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(down.errors![0].message).toMatch(/REST index could not be read/);
    expect(await readyz()).toBe(503);

    sandbox = await testSandbox({ port });
    // No /readyz call: the next operation after the retry interval reads the index itself.
    await sleep(400);
    const up = await post('{ site { name } }');
    expect(up.errors).toBeUndefined();
    expect(up.data.site.name).toBe('Sitegraph Sandbox');
    expect(await readyz()).toBe(200);
  });
});
