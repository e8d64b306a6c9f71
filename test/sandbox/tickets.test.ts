/**
 * `ticketed` and Event Tickets (the `tickets` option; docs/sandbox.md "Event
 * Tickets"). As a real WordPress 6.8 + TEC 6.15.14 site without the plugin,
 * every release that declares `ticketed` keeps declaring it, but the legacy
 * list refuses `ticketed=1` (400 rest_invalid_param, "Event Tickets plugin is
 * not activated.") and ignores `ticketed=0`, and calendar-core/v1's events and
 * series lists ignore it. With the plugin active, the root index lists
 * `tribe/tickets/v1` and every list applies it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxBanner } from '../../packages/sandbox/src/banner.ts';
import { parseSandboxOptions, sandboxOptions } from '../../packages/sandbox/src/options.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const LEGACY = '/calendar/events/v1/events';
const CORE = '/calendar-core/v1/events';
const SERIES = '/calendar-core/v1/series';
const CLOCK = { anchor: '2026-06-01', now: '2026-06-01T12:00:00Z', events: 200 };
/** Every event the legacy list has, whatever its dates. */
const OPEN = 'per_page=50&start_date=1900-01-01&end_date=2100-01-01';

const legacyIds = async (api: RestClient, q = '') => {
  const out: number[] = [];
  for (let page = 1; ; page++) {
    const r = await api.get(`${LEGACY}?${OPEN}&page=${page}${q}`);
    if (r.status === 404) return out.sort();
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    out.push(...r.body.events.map((e: { id: number }) => e.id));
    if (!r.body.next_rest_url) return out.sort();
  }
};
const coreIds = async (api: RestClient, q = '') => {
  const out: number[] = [];
  for (let page = 1; ; page++) {
    const r = await api.get(`${CORE}?per_page=100&page=${page}${q}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    out.push(...r.body.map((e: { id: number }) => e.id));
    if (page >= Number(r.headers.get('x-wp-totalpages') ?? 0)) return out.sort();
  }
};
const seriesIds = async (api: RestClient, q = '') => {
  const r = await api.get(`${SERIES}?per_page=100${q}`, 'subscriber');
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.map((s: { id: number }) => s.id).sort();
};

describe('ticketed without Event Tickets (the default), on each release that declares it', () => {
  const started: RunningSandbox[] = [];
  afterAll(() => Promise.all(started.map((sb) => sb.close())));

  for (const tec of ['6.15', '6.17'] as const) {
    describe(`TEC ${tec}`, () => {
      let sb: RunningSandbox;
      let api: RestClient;
      beforeAll(async () => {
        sb = await testSandbox({ ...CLOCK, tec });
        started.push(sb);
        api = restClient(sb);
      });

      it('lists no tribe/tickets/v1, and still declares ticketed on the event and series lists', async () => {
        const index = (await api.get('/')).body;
        expect(index.namespaces).not.toContain('tribe/tickets/v1');
        expect(Object.keys(index.routes).filter((r) => r.startsWith('/tribe/tickets/v1'))).toEqual([]);
        for (const route of [LEGACY, CORE, SERIES])
          expect(Object.keys(index.routes[route].endpoints[0].args), route).toContain('ticketed');
        expect((await api.get('/tribe/tickets/v1')).status).toBe(404);
      });

      it('the legacy list refuses ticketed=1 with rest_invalid_param naming it, in the body every invalid parameter has', async () => {
        for (const value of ['1', 'true']) {
          const r = await api.get(`${LEGACY}?ticketed=${value}`);
          expect(r.status).toBe(400);
          expect(r.body).toEqual({
            code: 'rest_invalid_param',
            message: 'Invalid parameter(s): ticketed',
            data: {
              status: 400,
              params: { ticketed: 'Event Tickets plugin is not activated.' },
              details: {
                ticketed: {
                  code: 'event-tickets-not-active',
                  message: 'Event Tickets plugin is not activated.',
                  data: { status: 400 },
                },
              },
            },
          });
        }
      });

      it("the legacy list answers ticketed=0 unfiltered, and calendar-core's events and series ignore ticketed", async () => {
        const legacy = await legacyIds(api);
        expect(legacy.length).toBeGreaterThan(0);
        // Some demo events are ticketed: a list that filtered would answer fewer.
        expect(sb.site.store.posts<{ ticketed: boolean }>('calendar_events').some((e) => e.meta.ticketed)).toBe(true);
        expect(await legacyIds(api, '&ticketed=0')).toEqual(legacy);
        const core = await coreIds(api);
        for (const q of ['&ticketed=1', '&ticketed=0']) expect(await coreIds(api, q), q).toEqual(core);
        const series = await seriesIds(api);
        for (const q of ['&ticketed=true', '&ticketed=false']) expect(await seriesIds(api, q), q).toEqual(series);
        // Declared, so nothing is logged as undeclared: the index alone does not show it is ignored.
        expect(sb.log.undeclared()).toEqual([]);
      });
    });
  }
});

describe('ticketed with Event Tickets active (tickets: true)', () => {
  let sb: RunningSandbox;
  let plugin: RunningSandbox;
  let api: RestClient;
  beforeAll(async () => {
    [sb, plugin] = await Promise.all([
      testSandbox({ ...CLOCK, tickets: true }),
      testSandbox({ ...CLOCK, tickets: true, names: 'plugin' }),
    ]);
    api = restClient(sb);
  });
  afterAll(() => Promise.all([sb.close(), plugin.close()]));

  it('lists tribe/tickets/v1 in the root index, with its namespace index, under every names option', async () => {
    for (const site of [sb, plugin]) {
      const index = (await restClient(site).get('/')).body;
      expect(index.namespaces).toContain('tribe/tickets/v1');
      expect(index.routes['/tribe/tickets/v1']).toMatchObject({ namespace: 'tribe/tickets/v1', methods: ['GET'] });
      const ns = await restClient(site).get('/tribe/tickets/v1');
      expect(ns.status).toBe(200);
      expect(ns.body).toMatchObject({
        namespace: 'tribe/tickets/v1',
        routes: { '/tribe/tickets/v1': expect.any(Object) },
      });
    }
  });

  it('every list applies ticketed, true and false', async () => {
    const events = new Map(
      sb.site.store.posts<{ ticketed: boolean; seriesId: number }>('calendar_events').map((e) => [e.id, e.meta]),
    );
    const ticketed = (id: number) => events.get(id)!.ticketed;
    const legacy = await legacyIds(api);
    expect(await legacyIds(api, '&ticketed=1')).toEqual(legacy.filter(ticketed));
    expect(await legacyIds(api, '&ticketed=0')).toEqual(legacy.filter((id) => !ticketed(id)));
    expect(legacy.filter(ticketed).length).toBeGreaterThan(0);
    const core = await coreIds(api);
    expect(await coreIds(api, '&ticketed=1')).toEqual(core.filter(ticketed));
    expect(await coreIds(api, '&ticketed=0')).toEqual(core.filter((id) => !ticketed(id)));
    const withTickets = await seriesIds(api, '&ticketed=true');
    const without = await seriesIds(api, '&ticketed=false');
    expect([...withTickets, ...without].sort()).toEqual(await seriesIds(api));
    for (const s of withTickets)
      expect(
        [...events.values()].some((e) => e.seriesId === s && e.ticketed),
        `series ${s}`,
      ).toBe(true);
  });
});

describe('the tickets option', () => {
  it('is said in the banner', async () => {
    const [off, on] = await Promise.all([testSandbox({ demo: false }), testSandbox({ demo: false, tickets: true })]);
    try {
      expect(sandboxBanner(off)).toContain('Event Tickets not active (ticketed declared, refused or ignored)');
      expect(sandboxBanner(on)).toContain('Event Tickets active (tribe/tickets/v1 listed, ticketed applied)');
    } finally {
      await Promise.all([off.close(), on.close()]);
    }
  });

  it('is read from SANDBOX_TICKETS and --tickets (the flag wins), default off on every release', () => {
    expect(sandboxOptions({ SANDBOX_TICKETS: '1' })).toEqual({ tickets: true });
    expect(sandboxOptions({ SANDBOX_TICKETS: '1' }, { tickets: '0' })).toEqual({ tickets: false });
    for (const tec of ['5.7', '6.15', '6.17'] as const) expect(parseSandboxOptions({ tec }).tickets).toBe(false);
    expect(() => sandboxOptions({ SANDBOX_TICKETS: 'maybe' })).toThrow(/SANDBOX_TICKETS must be a boolean/);
  });
});
