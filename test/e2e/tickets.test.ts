/**
 * `where: { ticketed }` through the gateway, over HTTP, against sandboxes
 * acting as sites with and without Event Tickets (docs/real-sites.md, "Inert
 * arguments"). The Events Calendar 6.15+ declares `ticketed` on its event
 * lists whether or not the plugin is active; without it the legacy list
 * refuses `ticketed=1` and ignores `ticketed=0` and calendar-core/v1 ignores
 * it, so the gateway refuses the filter, true and false, naming the argument,
 * both routes and the release, and sends nothing. With the plugin (its
 * namespace, tribe/tickets/v1, in the root index) the filter is applied. On
 * 5.7 the legacy list does not declare it at all: refused as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxOptionsInput } from '../../packages/sandbox/src/options.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';

const BOTH = ['GET /calendar/events/v1/events', 'GET /calendar-core/v1/events'];

/** What the gateway sent the site since the last mark (the sandbox's request log). */
const sent = (h: Harness) => h.calls().filter((e) => e.agent?.startsWith('sitegraph'));

describe.each([
  { shape: 'TEC 6.15 without Event Tickets', sandbox: { tec: '6.15' }, release: /6\.15 or later/ },
  {
    shape: "TEC 6.15 without Event Tickets, under the plugins' names",
    sandbox: { tec: '6.15', names: 'plugin' },
    release: /6\.15 or later/,
  },
  { shape: 'TEC 6.17 without Event Tickets', sandbox: { tec: '6.17' }, release: /6\.15 or later/ },
] satisfies { shape: string; sandbox: SandboxOptionsInput; release: RegExp }[])('$shape', ({ sandbox, release }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox });
  });
  afterAll(() => h.close());

  it.each([true, false])(
    'refuses events(where: { ticketed: %s }) with BAD_USER_INPUT naming it, both lists and the release, and sends nothing',
    async (ticketed) => {
      for (const nodes of ['databaseId title', 'databaseId ticketed']) {
        h.mark();
        const r = await h.gql(
          `{ events(first: 5, where: { ticketed: ${ticketed} }) { totalCount nodes { ${nodes} } } }`,
        );
        expect(r.data?.events ?? null).toBeNull();
        const err = r.errors?.[0];
        expect(err?.extensions, JSON.stringify(r.errors)).toMatchObject({
          code: 'BAD_USER_INPUT',
          arguments: ['where.ticketed'],
          routes: BOTH,
          release: expect.stringMatching(release),
        });
        expect(err!.message).toContain('Event Tickets is not active on the site');
        expect(err!.message).toContain('declare ticketed but do not apply it');
        expect(sent(h), 'a refused list sends nothing').toEqual([]);
      }
    },
  );

  it("refuses the series list's ticketed the same way", async () => {
    h.mark();
    const r = await h.gql(`{ series(where: { ticketed: true }) { totalCount } }`, undefined, 'admin');
    expect(r.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      arguments: ['where.ticketed'],
      routes: ['GET /calendar-core/v1/series'],
    });
    expect(sent(h)).toEqual([]);
  });

  it('serves the same list without the filter', async () => {
    h.mark();
    const r = await h.gql(`{ events(first: 5) { totalCount nodes { databaseId } } }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.events.totalCount).toBeGreaterThan(0);
    expect(sent(h).length).toBeGreaterThan(0);
  });
});

describe('TEC 6.15 with Event Tickets active (SANDBOX_TICKETS=1)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox: { tec: '6.15', tickets: true } });
  });
  afterAll(() => h.close());

  /** Every event of a list with the filter, and the requests it took. */
  async function list(where: string, nodes: string) {
    h.mark();
    const r = await h.gql(`{ events(first: 100, where: ${where}) { totalCount nodes { ${nodes} } } }`);
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    return { ...(r.data.events as { totalCount: number; nodes: any[] }), calls: sent(h) };
  }

  it('filters through the legacy list, true and false, together every event', async () => {
    const all = await list('{}', 'databaseId');
    const yes = await list('{ ticketed: true }', 'databaseId');
    expect(new Set(yes.calls.map((c) => `${c.path}?ticketed=${String(c.query.ticketed)}`))).toEqual(
      new Set(['/calendar/events/v1/events?ticketed=true']),
    );
    const no = await list('{ ticketed: false }', 'databaseId');
    expect(new Set(no.calls.map((c) => `${c.path}?ticketed=${String(c.query.ticketed)}`))).toEqual(
      new Set(['/calendar/events/v1/events?ticketed=false']),
    );
    expect(yes.totalCount).toBeGreaterThan(0);
    expect(no.totalCount).toBeGreaterThan(0);
    expect(yes.totalCount + no.totalCount).toBe(all.totalCount);
    expect(new Set([...yes.nodes, ...no.nodes].map((n) => n.databaseId)).size).toBe(yes.nodes.length + no.nodes.length);
  });

  it('filters through calendar-core/v1 when the selection asks for its fields, each event carrying the flag asked', async () => {
    for (const ticketed of [true, false]) {
      const r = await list(`{ ticketed: ${ticketed} }`, 'databaseId ticketed passwordProtected');
      expect(r.calls.map((c) => c.path)).toEqual(['/calendar-core/v1/events']);
      // A password-protected event matches upstream but shows only its basics (its flag masked): left out.
      const open = r.nodes.filter((n) => !n.passwordProtected);
      expect(open.length).toBeGreaterThan(0);
      expect(
        open.every((n) => n.ticketed === ticketed),
        String(ticketed),
      ).toBe(true);
    }
  });

  it('filters series by ticketed', async () => {
    h.mark();
    const r = await h.gql(
      `{ yes: series(where: { ticketed: true }) { totalCount } no: series(where: { ticketed: false }) { totalCount } all: series { totalCount } }`,
      undefined,
      'admin',
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.yes.totalCount + r.data.no.totalCount).toBe(r.data.all.totalCount);
    expect(
      sent(h)
        .filter((c) => c.path === '/calendar-core/v1/series')
        .map((c) => c.query.ticketed)
        .sort(),
    ).toEqual(['false', 'true', undefined]);
  });
});

describe('TEC 5.7, whose legacy list does not declare ticketed', () => {
  let h: Harness;
  beforeAll(async () => {
    // Event Tickets or not: the route does not declare the argument.
    h = await startHarness({ sandbox: { tec: '5.7', tickets: true } });
  });
  afterAll(() => h.close());

  it.each([true, false])('refuses ticketed: %s as undeclared, and sends nothing', async (ticketed) => {
    h.mark();
    const r = await h.gql(`{ events(where: { ticketed: ${ticketed} }) { nodes { databaseId } } }`);
    expect(r.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      arguments: ['where.ticketed'],
      routes: ['GET /calendar/events/v1/events'],
      release: expect.stringMatching(/before 6\.0/),
    });
    expect(r.errors![0]!.message).toContain('GET /calendar/events/v1/events does not declare ticketed');
    expect(sent(h)).toEqual([]);
  });
});
