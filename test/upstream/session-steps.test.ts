/**
 * The session's concerns as composed steps (src/upstream/session.ts SESSION_STEPS): their order by name, and what
 * that order means for a request: the budget refuses before a concurrency slot is taken, a cache hit spends no
 * budget and takes no slot, the gate refuses before the cache is asked.
 */
import { describe, expect, it } from 'vitest';
import type { UpstreamRequest, UpstreamResponse, UpstreamSession } from '../../src/upstream/client.ts';
import { parseIndex } from '../../src/upstream/discovery.ts';
import {
  composeSteps,
  createOperationSession,
  SESSION_STEPS,
  type Lookup,
  type SessionCache,
  type SessionPolicy,
  type Step,
} from '../../src/upstream/session.ts';

const site = parseIndex({
  namespaces: ['calendar/events/v1'],
  routes: {
    '/calendar/events/v1/events/(?P<id>\\d+)': { namespace: 'calendar/events/v1', methods: ['GET'], endpoints: [] },
  },
});

const get = (path = '/calendar/events/v1/events/1'): UpstreamRequest => ({ method: 'GET', path, route: `GET ${path}` });

const policy = (over: Partial<SessionPolicy> = {}): SessionPolicy => ({
  site,
  concurrency: 4,
  budget: 100,
  deadlineMs: 5_000,
  ...over,
});

const ok: UpstreamResponse = { status: 200, headers: {}, body: { id: 1 } };

/** An inner session whose requests answer only when `answer()` is called. */
function heldTransport() {
  const seen: UpstreamRequest[] = [];
  const pending: (() => void)[] = [];
  const session: UpstreamSession = {
    authenticated: true,
    identity: 'caller',
    request<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
      seen.push(req);
      return new Promise((resolve) => pending.push(() => resolve(ok as UpstreamResponse<T>)));
    },
  };
  return { session, seen, answer: () => pending.splice(0).forEach((f) => f()) };
}

/** A cache that answers every lookup with `lookup`, counting what it is asked. */
function fakeCache(lookup: Lookup) {
  const asked = { lookups: 0, saves: 0 };
  const cache: SessionCache = {
    lookup: () => {
      asked.lookups += 1;
      return Promise.resolve(lookup);
    },
    save: () => {
      asked.saves += 1;
      return Promise.resolve(60_000);
    },
    revalidated: () => {},
    shareToken: () => 'token',
    writes: () => false,
    invalidate: () => Promise.resolve(),
  };
  return { cache, asked };
}

describe('SESSION_STEPS', () => {
  it('lists the concerns in the order a request meets them', () => {
    expect(SESSION_STEPS.map((s) => s.name)).toEqual([
      'cancellation',
      'gate',
      'record',
      'cache',
      'budget',
      'concurrency',
      'deadline',
      'store',
      'site-names',
    ]);
  });

  it('are composed first outermost', async () => {
    const met: string[] = [];
    const step =
      (name: string): Step =>
      (next) =>
      (req, call) => {
        met.push(name);
        return next(req, call);
      };
    const send = composeSteps([step('a'), step('b'), step('c')], () => {
      met.push('send');
      return Promise.resolve(ok);
    });
    await send(get(), { sent: false });
    expect(met).toEqual(['a', 'b', 'c', 'send']);
  });

  it('refuse over budget before a concurrency slot is taken (no wait for one)', async () => {
    const t = heldTransport();
    const s = createOperationSession(t.session, policy({ budget: 1, concurrency: 1 }));
    const first = s.request(get());
    await Promise.resolve();
    expect(s.active).toBe(1);
    // The only slot is held: had the cap come first, this would wait for it instead of failing now.
    await expect(s.request(get())).rejects.toMatchObject({ code: 'REQUEST_BUDGET_EXCEEDED' });
    expect(s.active).toBe(1);
    expect(t.seen).toHaveLength(1);
    t.answer();
    await expect(first).resolves.toEqual(ok);
    expect(s.active).toBe(0);
    expect(s.sent).toBe(1);
  });

  it('answer a cache hit without spending budget or taking a slot', async () => {
    const t = heldTransport();
    const { cache, asked } = fakeCache({ kind: 'hit', response: ok, ttlMs: 30_000 });
    const s = createOperationSession(t.session, policy({ budget: 1, concurrency: 1, cache }));
    for (let i = 0; i < 3; i++) await expect(s.request(get())).resolves.toEqual(ok);
    expect(asked.lookups).toBe(3);
    expect(s.sent).toBe(0);
    expect(s.active).toBe(0);
    expect(t.seen).toHaveLength(0);
    expect(s.cacheHint.maxAgeMs).toBe(30_000);
  });

  it('store a miss with the share token, after spending budget, and refuse at the gate before asking the cache', async () => {
    const t = heldTransport();
    const { cache, asked } = fakeCache({ kind: 'miss', slot: { key: 'k', generation: 'g', shared: false } });
    const s = createOperationSession(t.session, policy({ cache }));
    await expect(s.request(get('/calendar-core/v1/events/1'))).rejects.toMatchObject({ code: 'NAMESPACE_UNAVAILABLE' });
    expect(asked.lookups).toBe(0);
    const read = s.request(get());
    await new Promise((r) => setImmediate(r));
    expect(t.seen).toHaveLength(1);
    expect(t.seen[0]!.share).toBe('token');
    expect(s.sent).toBe(1);
    t.answer();
    await expect(read).resolves.toEqual(ok);
    expect(asked.saves).toBe(1);
    expect(s.cacheHint.maxAgeMs).toBe(60_000);
  });
});
