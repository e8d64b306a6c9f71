/**
 * Single flight end to end (docs/caching.md, src/upstream/flight.ts): 20
 * identical `events(first: 20)` queries sent at once on a cold cache, with the
 * site answering in 300 ms, are ONE GET in the sandbox's log (issue 19: 13),
 * with the cache on and with it off (CACHE_TTL_SECONDS=0); callers with other
 * credentials never share a request; and a client that goes away does not
 * cut the answer of the others.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';

const LIST = '{ events(first: 20) { nodes { databaseId title startDate } } }';

async function ask(url: string, authorization?: string, signal?: AbortSignal) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify({ query: LIST }),
    ...(signal ? { signal } : {}),
  });
  return (await res.json()) as { data: any; errors?: unknown[] };
}

describe('identical reads of the same moment', () => {
  let h: Harness;
  /** A second gateway on the same sandbox with the cache off. */
  let uncached: Gateway;
  const gets = () => h.calls().filter((c) => c.method === 'GET');

  beforeAll(async () => {
    h = await startHarness({ sandbox: { latencyMs: 300 }, config: { cache: { ttlSeconds: 60 } } });
    uncached = await startGateway(parseConfig({ port: 0, cache: { ttlSeconds: 0 } }), h.sandbox.url);
  }, 60_000);
  afterAll(async () => {
    await uncached?.close();
    await h?.close();
  });
  beforeEach(() => h.mark());

  it('are one upstream GET for 20 concurrent queries on a cold cache', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => ask(h.gateway.url)));
    expect(gets()).toHaveLength(1);
    expect(gets()[0]!.path).toBe('/calendar/events/v1/events');
    for (const a of answers) {
      expect(a.errors).toBeUndefined();
      expect(a.data).toEqual(answers[0]!.data);
    }
    expect(answers[0]!.data.events.nodes).toHaveLength(20);
  });

  it('are one upstream GET with the cache off too (CACHE_TTL_SECONDS=0), and again for the next burst', async () => {
    const first = await Promise.all(Array.from({ length: 20 }, () => ask(uncached.url)));
    expect(first.every((a) => a.errors === undefined && a.data.events.nodes.length === 20)).toBe(true);
    expect(gets()).toHaveLength(1);
    // Nothing kept: the next moment's burst is one request of its own.
    h.mark();
    await Promise.all(Array.from({ length: 5 }, () => ask(uncached.url)));
    expect(gets()).toHaveLength(1);
  });

  it('are never shared across credentials: one GET per caller identity', async () => {
    const admin = h.auth('admin');
    const editor = h.auth('editor');
    const answers = await Promise.all(
      Array.from({ length: 21 }, (_, i) => ask(uncached.url, [admin, editor, undefined][i % 3])),
    );
    expect(answers.every((a) => a.errors === undefined)).toBe(true);
    expect(gets()).toHaveLength(3);
  });

  it('go on for the others when one client goes away', async () => {
    const gone = new AbortController();
    const leaving = ask(uncached.url, undefined, gone.signal).catch((err: Error) => err);
    const staying = Array.from({ length: 3 }, () => ask(uncached.url));
    await new Promise((r) => setTimeout(r, 100));
    gone.abort();
    expect(await leaving).toBeInstanceOf(Error);
    for (const a of await Promise.all(staying)) {
      expect(a.errors).toBeUndefined();
      expect(a.data.events.nodes).toHaveLength(20);
    }
    expect(gets()).toHaveLength(1);
    expect(gets()[0]!.status).toBe(200);
  });
});
