/**
 * Arguments a release declares but does not apply (src/upstream/inert.ts):
 * `declaredArgs` leaves out the rows in force, so the planners treat them as
 * undeclared. The rows' condition is read from the root index as the site
 * sends it, under the plugins' names or the spec's.
 */
import { describe, expect, it } from 'vitest';
import { declaredArgs, parseIndex } from '../../src/upstream/discovery.ts';
import { INERT_ARGS, inertArg, inertArgs } from '../../src/upstream/inert.ts';
import { readSpecRoutes, specPath } from '../../src/routes-tsv.ts';

/** A root-index route entry as WordPress writes it, one endpoint per method. */
const route = (namespace: string, args: Record<string, string[]>) => ({
  namespace,
  methods: Object.keys(args),
  endpoints: Object.entries(args).map(([m, names]) => ({
    methods: [m],
    args: Object.fromEntries(names.map((n) => [n, {}])),
  })),
});

const LEGACY = [
  'categories',
  'end_date',
  'featured',
  'page',
  'per_page',
  'start_date',
  'starts_after',
  'status',
  'strict_dates',
  'ticketed',
];
const CORE = ['end_date', 'featured', 'order', 'orderby', 'page', 'per_page', 'start_date', 'status', 'ticketed'];

/** WordPress 6.8 + TEC 6.15.14 as an unmodified site names it, with or without Event Tickets. */
function tec615(tickets: boolean) {
  return parseIndex({
    namespaces: ['tribe/events/v1', 'tec/v1', 'wp/v2', ...(tickets ? ['tribe/tickets/v1'] : [])],
    routes: {
      '/tribe/events/v1/events': route('tribe/events/v1', { GET: LEGACY, POST: ['title', 'start_date'] }),
      '/tec/v1/events': route('tec/v1', { GET: CORE }),
      '/wp/v2/posts': route('wp/v2', { GET: ['page', 'per_page', 'search'] }),
      ...(tickets ? { '/tribe/tickets/v1': route('tribe/tickets/v1', { GET: ['namespace', 'context'] }) } : {}),
    },
  });
}

describe('inert arguments in the root index', () => {
  it("without Event Tickets, ticketed is left out of both event lists' declared arguments, and nothing else is", () => {
    const site = tec615(false);
    expect(site.namespaces).not.toContain('tribe/tickets/v1');
    expect([...declaredArgs(site, 'GET', '/calendar/events/v1/events')!].sort()).toEqual(
      LEGACY.filter((a) => a !== 'ticketed'),
    );
    expect([...declaredArgs(site, 'GET', '/calendar-core/v1/events')!].sort()).toEqual(
      CORE.filter((a) => a !== 'ticketed'),
    );
    expect([...declaredArgs(site, 'GET', '/core/v2/posts')!]).toEqual(['page', 'per_page', 'search']);
    // Another method of the same route is untouched.
    expect([...declaredArgs(site, 'POST', '/calendar/events/v1/events')!]).toEqual(['title', 'start_date']);
    expect(inertArg(site, 'GET', '/calendar-core/v1/events', 'ticketed')).toBe(INERT_ARGS[0]);
    expect(inertArgs(site, 'GET', '/calendar/events/v1/events').map((r) => r.arg)).toEqual(['ticketed']);
  });

  it('with Event Tickets (tribe/tickets/v1 listed), ticketed is declared and applied', () => {
    const site = tec615(true);
    expect(site.namespaces).toContain('tribe/tickets/v1');
    expect(declaredArgs(site, 'GET', '/calendar/events/v1/events')).toContain('ticketed');
    expect(declaredArgs(site, 'GET', '/calendar-core/v1/events')).toContain('ticketed');
    expect(inertArgs(site, 'GET', '/calendar-core/v1/events')).toEqual([]);
  });

  it('finds no row where the route does not declare the argument, or the index describes no arguments', () => {
    const old = parseIndex({
      namespaces: ['tribe/events/v1'],
      routes: { '/tribe/events/v1/events': route('tribe/events/v1', { GET: ['start_date', 'end_date'] }) },
    });
    expect(inertArg(old, 'GET', '/calendar/events/v1/events', 'ticketed')).toBeNull();
    const stripped = parseIndex({ namespaces: ['tribe/events/v1', 'tec/v1'] });
    expect(declaredArgs(stripped, 'GET', '/calendar-core/v1/events')).toBeNull();
    expect(inertArgs(stripped, 'GET', '/calendar-core/v1/events')).toEqual([]);
  });

  it('every row names routes of the contract in its names, a namespace (or none, where the index cannot show it) and a reason', () => {
    const spec = new Set(readSpecRoutes().map((r) => `${r.method} ${specPath(r.path)}`));
    for (const row of INERT_ARGS) {
      for (const r of row.routes) expect(spec.has(`${row.method} ${r}`), `${row.method} ${r}`).toBe(true);
      if (row.appliedWith !== null) expect(row.appliedWith).toMatch(/^[a-z-]+\/[a-z0-9-]+(\/[a-z0-9-]+)*$/);
      expect(row.why).toContain(row.arg);
    }
  });
});
