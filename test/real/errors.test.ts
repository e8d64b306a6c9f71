/**
 * Bad input and bad conditions against each real shape, answered with typed errors that say what is
 * wrong (docs/real-sites.md, docs/writes.md "Write outcomes"): malformed IDs and dates refused before
 * anything is sent; a filter the release's list does not declare refused naming the argument, the
 * route and the release, with nothing sent (and applied where the release declares it); series
 * NAMESPACE_UNAVAILABLE without calendar-core/v1; a wrong application password as each WordPress
 * treats it (6.1: an anonymous caller; 6.8: UNAUTHENTICATED); the site going away, for reads and for
 * writes, which are then reported not written (safe to send again), never written nor unknown.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, basic, realSites, rest, startRealGateway, type RealGateway, type RealSite } from './kit.ts';
import { uniq, upstreamRequests } from './stored.ts';

/** A TCP relay in front of the site, which the test can take away (the site itself is shared). */
async function relay(site: RealSite): Promise<{ restUrl: string; cut(): Promise<void> }> {
  const target = new URL(site.origin);
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    restUrl: site.restUrl.replace(target.origin, `http://127.0.0.1:${port}`),
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

describe.each(realSites())('$label', (site: RealSite) => {
  const core = site.key.shape === 'tec615';
  let g: RealGateway;
  let admin: string;

  beforeAll(async () => {
    g = await startRealGateway(site);
    admin = adminAuth(site);
  });
  afterAll(() => g?.close());

  /** The query's answer and how many requests the gateway sent the site for it. */
  async function counted(query: string, variables?: Record<string, unknown>, auth: string | null = admin) {
    const before = await upstreamRequests(g);
    const r = await g.gql(query, variables, auth);
    return { r, sent: (await upstreamRequests(g)) - before };
  }

  it.each([
    ['event', 'a global ID of another type', `{ event(id: "VmVudWU6MjI=") { databaseId } }`],
    ['event', 'not an ID at all', `{ event(id: "not an id!") { databaseId } }`],
    ['venue', 'a negative database ID', `{ venue(id: "-5") { databaseId } }`],
  ])('%s(id:) with %s: BAD_USER_INPUT naming id, nothing sent', async (_field, _what, query) => {
    const { r, sent } = await counted(query);
    expect(r.errors?.[0]?.extensions, JSON.stringify(r)).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['id'] });
    expect(sent).toBe(0);
  });

  it('a write naming a malformed ID: BAD_USER_INPUT naming id, nothing sent', async () => {
    const { r, sent } = await counted(
      `mutation { updateEvent(id: "not an id!", input: { title: "x" }) { __typename } }`,
    );
    expect(r.errors?.[0]?.extensions, JSON.stringify(r)).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['id'] });
    expect(sent).toBe(0);
  });

  it('a date that is no date in where: BAD_USER_INPUT saying so, nothing sent', async () => {
    const { r, sent } = await counted(`{ events(first: 2, where: { startDate: "next tuesday" }) { nodes { title } } }`);
    expect(r.errors?.[0]?.extensions?.code, JSON.stringify(r)).toBe('BAD_USER_INPUT');
    expect(r.errors![0]!.message).toMatch(/DateTime/);
    expect(sent).toBe(0);
  });

  it('an end before the start in a write: BAD_USER_INPUT naming the field, nothing sent', async () => {
    const { r, sent } = await counted(
      `mutation { createEvent(input: { title: "Backwards", startDate: "2031-01-02T10:00:00Z", endDate: "2031-01-01T10:00:00Z" }) { event { databaseId } } }`,
    );
    expect(r.errors?.[0]?.extensions, JSON.stringify(r)).toMatchObject({
      code: 'BAD_USER_INPUT',
      arguments: ['input.endDate'],
    });
    expect(sent).toBe(0);
  });

  if (core) {
    it('where.startsAfter is applied (6.15 declares it): every event listed starts after it', async () => {
      const after = new Date(Date.now() + 5 * 86_400_000).toISOString();
      const r = await g.gql(
        `query($w: EventsWhere) { events(first: 20, where: $w) { nodes { databaseId startDate } } }`,
        { w: { startsAfter: after } },
        admin,
      );
      expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
      expect(r.data.events.nodes.length).toBeGreaterThan(0);
      for (const n of r.data.events.nodes) expect(Date.parse(n.startDate)).toBeGreaterThan(Date.parse(after));
    });

    it('where.recurring (declared by neither list of 6.15.14): refused naming the argument, the route and the release, nothing sent', async () => {
      const { r, sent } = await counted(`{ events(first: 5, where: { recurring: true }) { nodes { title } } }`);
      expect(r.errors?.[0]?.extensions, JSON.stringify(r)).toMatchObject({
        code: 'BAD_USER_INPUT',
        arguments: ['where.recurring'],
        routes: ['GET /calendar-core/v1/events'],
        release: expect.stringMatching(/6\.15 or later/),
      });
      expect(sent).toBe(0);
    });

    // TEC 6.15.14's calendar-core/v1 serves events, venues and organizers only: its index lists no
    // series route, so the route gate answers before anything is sent.
    it('series: NAMESPACE_UNAVAILABLE naming calendar-core/v1 and the route 6.15.14 does not serve, nothing sent', async () => {
      const { r, sent } = await counted(`{ series(first: 5) { nodes { databaseId } } }`);
      expect(r.data?.series ?? null).toBeNull();
      expect(r.errors?.[0]?.extensions, JSON.stringify(r)).toMatchObject({
        code: 'NAMESPACE_UNAVAILABLE',
        namespace: 'calendar-core/v1',
        upstream: { route: 'GET /calendar-core/v1/series' },
      });
      expect(sent).toBe(0);
    });
  } else {
    it.each([
      ['startsAfter', '"2031-01-01T00:00:00Z"'],
      ['endsBefore', '"2031-01-01T00:00:00Z"'],
      ['strictDates', 'true'],
    ])(
      'where.%s (not declared by 5.7.1’s list): BAD_USER_INPUT naming the argument, the route and the release; nothing sent',
      async (field, value) => {
        const { r, sent } = await counted(`{ events(first: 5, where: { ${field}: ${value} }) { nodes { title } } }`);
        expect(r.errors?.[0]?.extensions, JSON.stringify(r)).toMatchObject({
          code: 'BAD_USER_INPUT',
          arguments: [`where.${field}`],
          routes: ['GET /calendar/events/v1/events'],
          release: expect.stringMatching(/before 6\.0 \(such as 5\.7\)/),
        });
        expect(r.errors![0]!.message).toContain(`where.${field}`);
        expect(sent).toBe(0);
      },
    );

    it('several statuses and virtual need calendar-core/v1: refused saying so, nothing sent', async () => {
      for (const where of ['status: [PUBLISH, DRAFT]', 'virtual: true']) {
        const { r, sent } = await counted(`{ events(first: 5, where: { ${where} }) { nodes { title } } }`);
        expect(r.errors?.[0]?.extensions?.code, `${where}: ${JSON.stringify(r)}`).toBe('BAD_USER_INPUT');
        expect(r.errors![0]!.message, where).toMatch(/calendar-core\/v1/);
        expect(sent, where).toBe(0);
      }
    });

    it('series: NAMESPACE_UNAVAILABLE saying calendar-core/v1 is missing, nothing sent', async () => {
      const { r, sent } = await counted(`{ series(first: 5) { nodes { databaseId } } }`);
      expect(r.data?.series ?? null).toBeNull();
      expect(r.errors?.[0]?.extensions?.code, JSON.stringify(r)).toBe('NAMESPACE_UNAVAILABLE');
      expect(r.errors![0]!.message).toContain('calendar-core/v1');
      expect(sent).toBe(0);
    });

    // NAMESPACE_UNAVAILABLE names the contract's namespace in extensions.namespace, the series plan's
    // own refusal (a site without calendar-core) as the route gate's does on 6.15.
    it('series: NAMESPACE_UNAVAILABLE carries extensions.namespace', async () => {
      const r = await g.gql(`{ series(first: 5) { nodes { databaseId } } }`, undefined, admin);
      expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'NAMESPACE_UNAVAILABLE', namespace: 'calendar-core/v1' });
    });
  }

  it(`a wrong application password: ${site.wpVersion.startsWith('6.1') ? 'WordPress 6.1 treats it as anonymous (public reads answer, writes UNAUTHENTICATED)' : 'WordPress 6.8 refuses it: UNAUTHENTICATED (incorrect_password), reads and writes'}`, async () => {
    const wrong = basic(site.admin.login, 'abcdABCDabcdABCDabcdABCD');
    const direct = await rest(site, 'GET', `/${site.ns.legacy}/events?per_page=1`, { auth: wrong });
    const title = uniq('Wrong password');
    const read = await g.gql(`{ events(first: 1) { nodes { databaseId } } }`, undefined, wrong);
    const write = await g.gql(
      `mutation($t: String!) { createEvent(input: { title: $t, startDate: "2031-08-01T10:00:00Z", endDate: "2031-08-01T11:00:00Z" }) { event { databaseId } } }`,
      { t: title },
      wrong,
    );
    if (site.wpVersion.startsWith('6.1')) {
      expect(direct.status).toBe(200);
      expect(read.errors, JSON.stringify(read.errors)).toBeUndefined();
      expect(read.data.events.nodes.length).toBe(1);
      expect(write.errors?.[0]?.extensions?.code, JSON.stringify(write)).toBe('UNAUTHENTICATED');
    } else {
      expect(direct.status).toBe(401);
      expect(direct.body.code).toBe('incorrect_password');
      expect(read.errors?.[0]?.extensions, JSON.stringify(read)).toMatchObject({
        code: 'UNAUTHENTICATED',
        upstream: { code: 'incorrect_password', status: 401 },
      });
      expect(write.errors?.[0]?.extensions, JSON.stringify(write)).toMatchObject({
        code: 'UNAUTHENTICATED',
        upstream: { code: 'incorrect_password' },
      });
    }
    expect(write.data?.createEvent ?? null).toBeNull();
    const found = await rest(
      site,
      'GET',
      `/${site.ns.legacy}/events?search=${encodeURIComponent(title)}&status=publish,draft,pending&start_date=2000-01-01&end_date=2100-01-01`,
      { auth: admin },
    );
    expect(found.body.events ?? []).toEqual([]);
  });

  it('the site going away: reads UPSTREAM_UNAVAILABLE, a write reported not written (UPSTREAM_UNAVAILABLE: safe to send again) and not stored', async () => {
    const link = await relay(site);
    const far = await startRealGateway(
      { ...site, restUrl: link.restUrl },
      { admin: { readinessRefreshSeconds: 3_600 } },
    );
    try {
      const ok = await far.gql(`{ event(id: "${site.calendar.events[0]}") { databaseId } }`, undefined, admin);
      expect(ok.errors, JSON.stringify(ok.errors)).toBeUndefined();
      expect(ok.data.event.databaseId).toBe(site.calendar.events[0]);
      await link.cut();

      const read = await far.gql(`{ events(first: 3) { nodes { databaseId } } }`, undefined, admin);
      expect(read.errors?.[0]?.extensions?.code, JSON.stringify(read)).toBe('UPSTREAM_UNAVAILABLE');
      const title = uniq('Unreachable');
      const write = await far.gql(
        `mutation($t: String!) { createEvent(input: { title: $t, startDate: "2031-08-02T10:00:00Z", endDate: "2031-08-02T11:00:00Z" }) { event { databaseId } } }`,
        { t: title },
        admin,
      );
      expect(write.errors?.[0]?.extensions?.code, JSON.stringify(write)).toBe('UPSTREAM_UNAVAILABLE');
      expect(write.data?.createEvent ?? null).toBeNull();
      const update = await far.gql(
        `mutation($id: ID!) { updateEvent(id: $id, input: { cost: "1" }) { __typename } }`,
        { id: String(site.calendar.events[0]) },
        admin,
      );
      expect(update.errors?.[0]?.extensions?.code, JSON.stringify(update)).toBe('UPSTREAM_UNAVAILABLE');
      const found = await rest(
        site,
        'GET',
        `/${site.ns.legacy}/events?search=${encodeURIComponent(title)}&status=publish,draft,pending&start_date=2000-01-01&end_date=2100-01-01`,
        { auth: admin },
      );
      expect(found.body.events ?? []).toEqual([]);
    } finally {
      await far.close();
      await link.cut().catch(() => {});
    }
  });
});
