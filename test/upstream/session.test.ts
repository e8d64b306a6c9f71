/**
 * The operation's session (src/upstream/session.ts) against a fake transport:
 * the gate, the concurrency cap, the budget, the deadline and cancellation,
 * each as one contract. The e2e suite (test/e2e/session.test.ts) proves the
 * same over real HTTP against the sandbox.
 */
import { getEventListeners, setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { configSchema, loadConfig } from '../../src/config.ts';
import { SiteState } from '../../src/site.ts';
import type { UpstreamClient } from '../../src/upstream/client.ts';
import type { UpstreamRequest, UpstreamResponse, UpstreamSession } from '../../src/upstream/client.ts';
import { parseIndex } from '../../src/upstream/discovery.ts';
import { GatewayError } from '../../src/errors.ts';
import { createOperationSession, namespaceOf, type SessionPolicy } from '../../src/upstream/session.ts';
import { INDEXED_NAMESPACES } from '../../src/namespaces/catalog.ts';

const site = parseIndex({
  namespaces: ['calendar/events/v1', 'seo/v1'],
  routes: {
    '/calendar/events/v1/events': { namespace: 'calendar/events/v1', methods: ['GET', 'POST'], endpoints: [] },
    '/calendar/events/v1/events/(?P<id>\\d+)': { namespace: 'calendar/events/v1', methods: ['GET'], endpoints: [] },
    '/seo/v1/statistics': { namespace: 'seo/v1', methods: ['GET'], endpoints: [] },
  },
});

const get = (path = '/calendar/events/v1/events/1'): UpstreamRequest => ({ method: 'GET', path, route: `GET ${path}` });

/** A transport that answers after `ms` (or when aborted), recording what it was asked and how many ran at once. */
function fakeTransport(
  ms = 20,
  answer: (req: UpstreamRequest) => UpstreamResponse | Promise<never> = () => ({ status: 200, headers: {}, body: {} }),
) {
  const seen: UpstreamRequest[] = [];
  let active = 0;
  let maxActive = 0;
  const session: UpstreamSession = {
    authenticated: false,
    async request<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
      seen.push(req);
      active += 1;
      maxActive = Math.max(maxActive, active);
      try {
        await sleep(ms, undefined, req.signal ? { signal: req.signal } : {});
        return (await answer(req)) as UpstreamResponse<T>;
      } finally {
        active -= 1;
      }
    },
  };
  return { session, seen, maxActive: () => maxActive };
}

const policy = (over: Partial<SessionPolicy> = {}): SessionPolicy => ({
  site,
  concurrency: 4,
  budget: 100,
  deadlineMs: 5_000,
  ...over,
});

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'OK';
  } catch (err) {
    return err instanceof GatewayError ? err.code : `not a GatewayError: ${String(err)}`;
  }
}

describe('the route gate', () => {
  it('refuses a route of a namespace the site lacks, naming the namespace, without sending it', async () => {
    const t = fakeTransport();
    const s = createOperationSession(t.session, policy());
    const err = await s.request(get('/calendar-core/v1/events/1')).catch((e: GatewayError) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).code).toBe('NAMESPACE_UNAVAILABLE');
    expect((err as GatewayError).message).toMatch(/namespace "calendar-core\/v1"/);
    expect((err as GatewayError).extensions.namespace).toBe('calendar-core/v1');
    expect(t.seen).toHaveLength(0);
    expect(s.sent).toBe(0);
  });

  it('names the present namespace that lacks a route (Yoast SEO free has no redirects)', async () => {
    const s = createOperationSession(fakeTransport().session, policy());
    const err = (await s.request(get('/seo/v1/redirects')).catch((e: GatewayError) => e)) as GatewayError;
    expect(err.code).toBe('NAMESPACE_UNAVAILABLE');
    expect(err.message).toMatch(/"seo\/v1" namespace does not provide the REST route GET \/seo\/v1\/redirects/);
  });

  it('names nested spec namespaces whole', () => {
    expect(namespaceOf('/calendar-core/v2/onboarding/wizard', INDEXED_NAMESPACES)).toBe('calendar-core/v2/onboarding');
    expect(namespaceOf('/calendar/automation-a/v1/new-events', INDEXED_NAMESPACES)).toBe('calendar/automation-a/v1');
    expect(namespaceOf('/vendor/v3/things/1', INDEXED_NAMESPACES)).toBe('vendor/v3');
  });

  it('fails every request with the discovery error while the site is unknown', async () => {
    const t = fakeTransport();
    const down = new GatewayError('UPSTREAM_UNAVAILABLE', "The site's REST index could not be read");
    const s = createOperationSession(t.session, policy({ site: down }));
    await expect(s.request(get())).rejects.toBe(down);
    expect(t.seen).toHaveLength(0);
  });
});

describe('the concurrency cap', () => {
  it('keeps at most `concurrency` requests in flight, however many are asked for at once', async () => {
    const t = fakeTransport(15);
    const s = createOperationSession(t.session, policy({ concurrency: 3 }));
    await Promise.all(Array.from({ length: 20 }, (_, i) => s.request(get(`/calendar/events/v1/events/${i + 1}`))));
    expect(t.seen).toHaveLength(20);
    expect(t.maxActive()).toBe(3);
    expect(s.active).toBe(0);
  });

  it('holds the slot through retries (the transport retries inside one request)', async () => {
    let inside = 0;
    let most = 0;
    const inner: UpstreamSession = {
      authenticated: false,
      async request<T>(req: UpstreamRequest): Promise<UpstreamResponse<T>> {
        inside += 1;
        most = Math.max(most, inside);
        // Three attempts, as client.ts would make for a 503.
        for (let a = 1; a <= 3; a++) {
          await sleep(5);
          if (a < 3 && req.mayRetry && !req.mayRetry()) break;
        }
        inside -= 1;
        return { status: 200, headers: {}, body: null as T };
      },
    };
    const s = createOperationSession(inner, policy({ concurrency: 2 }));
    await Promise.all(Array.from({ length: 6 }, () => s.request(get())));
    expect(most).toBe(2);
    expect(s.sent).toBe(18);
  });
});

describe('the request budget', () => {
  it('sends `budget` requests and refuses the rest before sending, with REQUEST_BUDGET_EXCEEDED', async () => {
    const t = fakeTransport(1);
    const s = createOperationSession(t.session, policy({ budget: 5 }));
    const codes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => codeOf(s.request(get(`/calendar/events/v1/events/${i + 1}`)))),
    );
    expect(codes).toEqual([
      'OK',
      'OK',
      'OK',
      'OK',
      'OK',
      'REQUEST_BUDGET_EXCEEDED',
      'REQUEST_BUDGET_EXCEEDED',
      'REQUEST_BUDGET_EXCEEDED',
    ]);
    expect(t.seen).toHaveLength(5);
    const err = (await s.request(get()).catch((e: GatewayError) => e)) as GatewayError;
    expect(err.message).toMatch(
      /budget of 5 upstream requests \(UPSTREAM_BUDGET\), so GET \/calendar\/events\/v1\/events\/1 was not sent/,
    );
    expect(err.extensions).toMatchObject({ code: 'REQUEST_BUDGET_EXCEEDED', budget: 5 });
  });

  it('counts retries: a retry the budget cannot pay for is not sent', async () => {
    const t = fakeTransport(1);
    const s = createOperationSession(t.session, policy({ budget: 2 }));
    await s.request(get());
    const req = t.seen[0]!;
    expect(req.mayRetry!()).toBe(true); // the second request of the budget
    expect(req.mayRetry!()).toBe(false);
    expect(s.sent).toBe(2);
  });

  it('does not count what the gate refused', async () => {
    const s = createOperationSession(fakeTransport(1).session, policy({ budget: 1 }));
    await expect(s.request(get('/calendar-core/v1/events'))).rejects.toMatchObject({ code: 'NAMESPACE_UNAVAILABLE' });
    await expect(s.request(get())).resolves.toBeTruthy();
  });
});

describe('the deadline', () => {
  it('aborts requests in flight when it passes, with UPSTREAM_TIMEOUT naming the deadline', async () => {
    const t = fakeTransport(5_000);
    const s = createOperationSession(t.session, policy({ deadlineMs: 100 }));
    const started = performance.now();
    const err = (await s.request(get()).catch((e: GatewayError) => e)) as GatewayError;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(err.code).toBe('UPSTREAM_TIMEOUT');
    expect(err.message).toMatch(/operation's deadline of 100 ms \(OPERATION_DEADLINE_MS\) passed/);
  });

  it('fails requests still waiting for a slot, and starts nothing after it', async () => {
    const t = fakeTransport(5_000);
    const s = createOperationSession(t.session, policy({ concurrency: 1, deadlineMs: 80 }));
    const codes = await Promise.all([codeOf(s.request(get())), codeOf(s.request(get()))]);
    expect(codes).toEqual(['UPSTREAM_TIMEOUT', 'UPSTREAM_TIMEOUT']);
    expect(await codeOf(s.request(get()))).toBe('UPSTREAM_TIMEOUT');
    expect(t.seen).toHaveLength(1);
    expect(t.seen[0]!.mayRetry!()).toBe(false);
  });
});

describe('the end of the operation', () => {
  it('clears the deadline and drops its listener on the cancellation signal when nothing is in flight', async () => {
    const t = fakeTransport(5);
    const cancel = new AbortController();
    const s = createOperationSession(t.session, policy({ deadlineMs: 60, signal: cancel.signal }));
    await s.request(get());
    s.end();
    await sleep(120);
    expect(s.signal.aborted).toBe(false);
    cancel.abort(new GatewayError('UPSTREAM_UNAVAILABLE', 'gone'));
    expect(s.signal.aborted).toBe(false);
  });

  it('keeps the deadline while a request of the operation is still in flight', async () => {
    const t = fakeTransport(5_000);
    const s = createOperationSession(t.session, policy({ deadlineMs: 60 }));
    const left = s.request(get()).catch((e: GatewayError) => e);
    await sleep(5);
    s.end();
    expect(((await left) as GatewayError).code).toBe('UPSTREAM_TIMEOUT');
    expect(s.signal.aborted).toBe(true);
  });

  it('is cut by a cancellation that came before the session was made', async () => {
    const cancel = new AbortController();
    cancel.abort(new GatewayError('UPSTREAM_UNAVAILABLE', 'The gateway is shutting down'));
    const s = createOperationSession(fakeTransport(5).session, policy({ signal: cancel.signal }));
    expect(s.signal.aborted).toBe(true);
    await expect(s.request(get())).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message: expect.stringMatching(/shutting down/),
    });
  });
});

describe('a long-lived cancellation signal', () => {
  it('holds no listener of a session with nothing under way, ended or not (the subscriptions share one for every poll and re-read)', async () => {
    const cancel = new AbortController();
    setMaxListeners(0, cancel.signal);
    const sessions = Array.from({ length: 40 }, () =>
      createOperationSession(fakeTransport(20).session, policy({ signal: cancel.signal })),
    );
    const inFlight = sessions.map((s) => s.request(get()));
    await sleep(5);
    // While their requests are under way, each session listens (a cancellation must cut them at once).
    expect(getEventListeners(cancel.signal, 'abort')).toHaveLength(40);
    await Promise.all(inFlight);
    // Half ended, half never: none is left on the signal.
    for (const s of sessions.slice(0, 20)) s.end();
    expect(getEventListeners(cancel.signal, 'abort')).toHaveLength(0);
  });

  it('still cuts a session whose cancellation came while it was idle: its next request is refused with the reason', async () => {
    const t = fakeTransport(5);
    const cancel = new AbortController();
    const s = createOperationSession(t.session, policy({ signal: cancel.signal }));
    await s.request(get());
    cancel.abort(new GatewayError('UPSTREAM_UNAVAILABLE', 'The gateway is shutting down'));
    await expect(s.request(get())).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message: expect.stringMatching(/shutting down/),
    });
    expect(t.seen).toHaveLength(1);
    expect(s.signal.aborted).toBe(true);
  });
});

describe('cancellation', () => {
  it('aborts reads in flight and starts none once the operation is cancelled, reporting the reason', async () => {
    const t = fakeTransport(5_000);
    const cancel = new AbortController();
    const s = createOperationSession(t.session, policy({ concurrency: 2, signal: cancel.signal }));
    const pending = Promise.all(Array.from({ length: 5 }, () => s.request(get()).catch((e: GatewayError) => e)));
    await sleep(20);
    cancel.abort(new GatewayError('UPSTREAM_UNAVAILABLE', 'The gateway is shutting down'));
    const errors = (await pending) as GatewayError[];
    expect(errors.map((e) => e.code)).toEqual(Array(5).fill('UPSTREAM_UNAVAILABLE'));
    expect(errors[0]!.message).toMatch(/shutting down/);
    expect(t.seen).toHaveLength(2);
    await expect(s.request(get())).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(t.seen).toHaveLength(2);
  });

  it('lets a write already sent finish (aborting it would not undo it), but sends no new one', async () => {
    const t = fakeTransport(60);
    const cancel = new AbortController();
    const s = createOperationSession(t.session, policy({ signal: cancel.signal }));
    const write = s.request({
      method: 'POST',
      path: '/calendar/events/v1/events',
      route: 'POST /calendar/events/v1/events',
      body: {},
    });
    await sleep(10);
    cancel.abort();
    await expect(write).resolves.toMatchObject({ status: 200 });
    await expect(
      s.request({
        method: 'POST',
        path: '/calendar/events/v1/events',
        route: 'POST /calendar/events/v1/events',
        body: {},
      }),
    ).rejects.toBeInstanceOf(GatewayError);
    expect(t.seen).toHaveLength(1);
  });
});

describe('settings', () => {
  it('refuses a policy that would disable a limit, saying which', () => {
    expect(() => createOperationSession(fakeTransport().session, policy({ budget: 0 }))).toThrow(
      /SessionPolicy\.budget must be an integer >= 1; got 0/,
    );
  });

  it('defaults to a budget of 500 requests (50 anonymous), a 15 s deadline and a site retry every 5 s, and reads them from the environment', () => {
    expect(configSchema.parse({}).session).toEqual({
      budget: 500,
      anonymousBudget: 50,
      deadlineMs: 15_000,
      siteRetryMs: 5_000,
    });
    const c = loadConfig({
      UPSTREAM_BUDGET: '40',
      UPSTREAM_BUDGET_ANONYMOUS: '7',
      OPERATION_DEADLINE_MS: '2500',
      SITE_RETRY_MS: '0',
    });
    expect(c.session).toEqual({ budget: 40, anonymousBudget: 7, deadlineMs: 2_500, siteRetryMs: 0 });
  });
});

describe('the site reading while the site is down (src/site.ts)', () => {
  /** A client whose site refuses connections until `up` is set, counting index reads. */
  function flakySite() {
    const state = { up: false, reads: 0 };
    const client = {
      session: (): UpstreamSession => ({
        authenticated: false,
        async request<T>(): Promise<UpstreamResponse<T>> {
          state.reads += 1;
          if (!state.up) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
          return { status: 200, headers: {}, body: { name: 'Up', namespaces: [], routes: {} } as T };
        },
      }),
    } as unknown as UpstreamClient;
    return { state, client };
  }

  it('retries for operations at most once per retry interval, failing them at once in between', async () => {
    const { state, client } = flakySite();
    const site = new SiteState(client, { retryMs: 100 });
    await expect(site.refresh()).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    await expect(site.current()).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message: expect.stringMatching(/REST index could not be read/),
    });
    await expect(site.current()).rejects.toBeInstanceOf(GatewayError);
    expect(state.reads).toBe(1);
    state.up = true;
    await sleep(120);
    await expect(site.current()).resolves.toMatchObject({ name: 'Up' });
    expect(state.reads).toBe(2);
    await site.current();
    expect(state.reads).toBe(2);
  });
});
