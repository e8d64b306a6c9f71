/**
 * Stale-while-revalidate (CACHE_STALE_SECONDS, docs/caching.md): an entry past
 * its TTL but within its grace is answered at once, without waiting for the
 * site, while one background request refreshes it; the next read gets the
 * refreshed entry. A write through the gateway still invalidates at once, and
 * without a grace an expired entry waits for the site.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { restClient } from '../helpers/sandbox.ts';

const VENUES = '{ venues(first: 3) { nodes { databaseId title } } }';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ask(url: string, query: string, headers: Record<string, string> = {}) {
  const t = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as { data: any; errors?: unknown[] };
  return { ms: performance.now() - t, cacheControl: res.headers.get('cache-control'), ...body };
}

describe('stale-while-revalidate', () => {
  let h: Harness;
  /** The same site without a grace. */
  let strict: Gateway;
  const gets = () => h.calls().filter((c) => c.method === 'GET' && c.path !== '/');
  const rename = async (id: number, title: string) =>
    expect(
      (await restClient(h.sandbox).send('POST', `/calendar/events/v1/venues/${id}`, { venue: title }, 'admin')).status,
    ).toBe(200);

  beforeAll(async () => {
    h = await startHarness({ sandbox: { latencyMs: 250 }, config: { cache: { ttlSeconds: 1, staleSeconds: 30 } } });
    strict = await startGateway(parseConfig({ port: 0, cache: { ttlSeconds: 1 } }), h.sandbox.url);
  }, 60_000);
  afterAll(async () => {
    await strict?.close();
    await h?.close();
  });
  beforeEach(() => h.mark());

  it('answers an expired entry at once, refreshes it once in the background, and serves the refreshed one next', async () => {
    const first = await ask(h.gateway.url, VENUES);
    expect(first.errors).toBeUndefined();
    const venue = first.data.venues.nodes[0];
    await sleep(1_100);
    await rename(venue.databaseId, 'Aaa renamed behind the cache');
    h.mark();

    const stale = await Promise.all(Array.from({ length: 5 }, () => ask(h.gateway.url, VENUES)));
    for (const s of stale) {
      expect(s.data.venues.nodes[0].title).toBe(venue.title);
      expect(s.cacheControl).toBe('no-store');
      // Not waiting for the site's 250 ms.
      expect(s.ms).toBeLessThan(200);
    }
    await sleep(600);
    const refreshes = gets().length;
    expect(refreshes, 'one background refresh per entry, whatever the readers').toBeGreaterThanOrEqual(1);
    expect(refreshes).toBeLessThanOrEqual(first.data.venues.nodes.length + 1);

    h.mark();
    const fresh = await ask(h.gateway.url, VENUES);
    // Venues are listed by title: the renamed one sorts first.
    expect(fresh.data.venues.nodes[0]).toEqual({ databaseId: venue.databaseId, title: 'Aaa renamed behind the cache' });
    expect(gets()).toEqual([]);
    const metrics = await (await fetch(`${h.gateway.adminUrl}/metrics`)).text();
    expect(metrics).toMatch(/sitegraph_cache_lookups_total\{result="stale"\} [1-9]/);
  });

  it('never serves a stale entry of a family a write through the gateway changed', async () => {
    const before = (await ask(h.gateway.url, VENUES)).data.venues.nodes[0];
    await sleep(1_100);
    const w = await ask(
      h.gateway.url,
      `mutation { updateVenue(id: "${before.databaseId}", input: { title: "Aaaa written through the gateway" }) { venue { title } } }`,
      { authorization: h.auth('admin') },
    );
    expect(w.errors).toBeUndefined();
    h.mark();
    const after = await ask(h.gateway.url, VENUES);
    expect(after.data.venues.nodes[0].title).toBe('Aaaa written through the gateway');
    expect(gets().length).toBeGreaterThan(0);
  });

  it('without a grace, an expired entry waits for the site', async () => {
    const q = '{ organizers(first: 2) { nodes { title } } }';
    await ask(strict.url, q);
    await sleep(1_100);
    h.mark();
    const r = await ask(strict.url, q);
    expect(r.errors).toBeUndefined();
    expect(gets().length).toBeGreaterThan(0);
    expect(r.ms).toBeGreaterThan(200);
  });
});
