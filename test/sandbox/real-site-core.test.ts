/**
 * The sandbox is as strict as the real site (reference/real-site-behaviour.md,
 * "calendar-core/v1 on a real site", "Authentication", "core/v2 single
 * posts"): no calendar route batchable by default, TC's odd error shapes, the
 * organizers 404 past the last page, `[]` on delete, partial updates that leave
 * a stale duration, TEC 6.15's unchecked list arguments and ignored term
 * filters (and 6.17's checks, behind `tec`), WordPress 6.1's anonymous wrong
 * password (behind `wrongPassword`), and core/v2's 404 for a missing post.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { SandboxConfigError, parseSandboxOptions, sandboxOptionsFromEnv } from '../../packages/sandbox/src/options.ts';
import { TEC_EEA, restClient, testSandbox, type RestClient, type Who } from '../helpers/sandbox.ts';

const CORE = '/calendar-core/v1';
const EVENTS = `${CORE}/events`;
const TYPES = ['events', 'venues', 'organizers'] as const;
const CLOCK = { anchor: '2026-06-01', now: '2026-06-01T12:00:00Z' };
const forbiddenBody = (status: number) => ({
  code: 'rest_forbidden',
  message: 'Sorry, you are not allowed to do that.',
  data: { status },
});

/** `METHOD route` for every endpoint of the index marked allow_batch. */
function batchableIn(routes: Record<string, any>): string[] {
  const out: string[] = [];
  for (const [path, data] of Object.entries(routes)) {
    for (const ep of data.endpoints) if (ep.allow_batch?.v1) for (const m of ep.methods) out.push(`${m} ${path}`);
  }
  return out.sort();
}

/** A minimal valid body for a create of each type. */
const createBody = (type: (typeof TYPES)[number], title: string) =>
  type === 'events' ? { title, start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 12:00:00' } : { title };

describe('calendar-core/v1 as on a real site (TEC 6.15, the default)', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  const one = <T = any>(sql: string, ...args: unknown[]) => sb.site.store.db.prepare(sql).get(...args) as T;
  const published = () =>
    one<{ n: number }>("SELECT COUNT(*) n FROM posts WHERE type = 'calendar_events' AND status = 'publish'").n;
  const total = (r: { headers: Headers }) => Number(r.headers.get('x-wp-total'));

  beforeAll(async () => {
    sb = await testSandbox(CLOCK);
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  describe('1. batchability', () => {
    it('marks no calendar-core or legacy calendar route allow_batch, and core/v2 posts routes it does', async () => {
      const routes = (await api.get('/')).body.routes as Record<string, any>;
      const batchable = batchableIn(routes);
      expect(batchable.filter((r) => r.includes('/calendar'))).toEqual([]);
      expect(batchable).toEqual(
        expect.arrayContaining(['POST /core/v2/posts', 'DELETE /core/v2/posts/(?P<id>[\\d]+)']),
      );
    });

    it('answers 207 with the calendar-core item refused 400 rest_batch_not_allowed, as the sample shows', async () => {
      const before = one<{ n: number }>("SELECT COUNT(*) n FROM posts WHERE title = 'Not batched'").n;
      const id = (await api.get(`${EVENTS}?per_page=1`)).body[0].id;
      const r = await api.send(
        'POST',
        '/batch/v1',
        {
          requests: [
            { path: EVENTS, body: createBody('events', 'Not batched') },
            { method: 'PATCH', path: `${EVENTS}/${id}`, body: { title: 'Not batched' } },
            { method: 'DELETE', path: `${CORE}/venues/1` },
          ],
        },
        'admin',
        { 'x-tec-eea': TEC_EEA },
      );
      expect(r.status).toBe(207);
      const refused = (allow: string) => ({
        body: {
          code: 'rest_batch_not_allowed',
          message: 'The requested route does not support batch requests.',
          data: { status: 400 },
        },
        status: 400,
        headers: { Allow: allow },
      });
      expect(r.body).toEqual({
        responses: [refused('GET, POST'), refused('GET, PUT, PATCH, DELETE'), refused('GET, PUT, PATCH, DELETE')],
      });
      expect(one<{ n: number }>("SELECT COUNT(*) n FROM posts WHERE title = 'Not batched'").n).toBe(before);
    });
  });

  describe('2. error shapes', () => {
    it('answers a create without a title or without dates with a bare 500 {"error"}, writing nothing', async () => {
      const count = () =>
        one<{ n: number }>(
          "SELECT COUNT(*) n FROM posts WHERE type IN ('calendar_events', 'calendar_venue', 'calendar_organizer')",
        ).n;
      const before = count();
      const cases: [string, Record<string, unknown>][] = [
        [EVENTS, { start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 12:00:00' }],
        [EVENTS, { title: 'No dates' }],
        [EVENTS, { title: 'No end', start_date: '2027-03-01 10:00:00' }],
        [EVENTS, { title: 'No start', end_date: '2027-03-01 12:00:00' }],
        [`${CORE}/venues`, { city: 'Paris' }],
        [`${CORE}/organizers`, { email: 'x@example.org' }],
      ];
      for (const [path, body] of cases) {
        const r = await api.send('POST', path, body, 'admin');
        expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(500);
        expect(r.body).toEqual({ error: 'Failed to create entity.' });
      }
      expect(count()).toBe(before);
    });

    it('reads a trashed ID as 404 {"error": "The entity could not be read."} on every type', async () => {
      for (const type of TYPES) {
        const id = (await api.send('POST', `${CORE}/${type}`, createBody(type, `Trashed ${type}`), 'admin')).body.id;
        expect((await api.send('DELETE', `${CORE}/${type}/${id}`, undefined, 'admin')).status).toBe(200);
        const r = await api.get(`${CORE}/${type}/${id}`, 'admin');
        expect(r.status, type).toBe(404);
        expect(r.body).toEqual({ error: 'The entity could not be read.' });
      }
    });

    it('reads a missing ID, or one of another type, as rest_forbidden: 403 signed in, 401 anonymous', async () => {
      const ofOtherType = {
        events: 'calendar_venue',
        venues: 'calendar_organizer',
        organizers: 'calendar_events',
      } as const;
      for (const type of TYPES) {
        const other = one<{ id: number }>('SELECT id FROM posts WHERE type = ? LIMIT 1', ofOtherType[type]).id;
        for (const id of [99999999, other]) {
          let r = await api.get(`${CORE}/${type}/${id}`, 'admin');
          expect(r.status, `${type} ${id}`).toBe(403);
          expect(r.body).toEqual(forbiddenBody(403));
          r = await api.get(`${CORE}/${type}/${id}`);
          expect(r.status).toBe(401);
          expect(r.body).toEqual(forbiddenBody(401));
        }
      }
    });
  });

  describe('3. a page past the last', () => {
    it('is 404 tec_rest_organizers_page_not_found with no data, on every type', async () => {
      for (const type of TYPES) {
        const r = await api.get(`${CORE}/${type}?page=500`);
        expect(r.status, type).toBe(404);
        expect(r.body).toEqual({
          code: 'tec_rest_organizers_page_not_found',
          message: 'The requested page was not found.',
        });
      }
    });
  });

  describe('4. delete', () => {
    it('answers 200 [] to a trash and to a forced delete, on every type', async () => {
      for (const type of TYPES) {
        const trashed = (await api.send('POST', `${CORE}/${type}`, createBody(type, `Delete ${type}`), 'admin')).body
          .id;
        let r = await api.send('DELETE', `${CORE}/${type}/${trashed}`, undefined, 'admin');
        expect([r.status, r.body], type).toEqual([200, []]);
        expect(sb.site.store.post(trashed)!.status).toBe('trash');
        const forced = (await api.send('POST', `${CORE}/${type}`, createBody(type, `Force ${type}`), 'admin')).body.id;
        r = await api.send('DELETE', `${CORE}/${type}/${forced}?force=true`, undefined, 'admin');
        expect([r.status, r.body], type).toEqual([200, []]);
        expect(sb.site.store.post(forced)).toBeUndefined();
      }
    });
  });

  describe('5. partial updates', () => {
    it('keep every field not sent, with PUT and PATCH alike', async () => {
      const venue = one<{ id: number }>(
        "SELECT id FROM posts WHERE type = 'calendar_venue' AND status = 'publish' LIMIT 1",
      ).id;
      const e = (
        await api.send(
          'POST',
          EVENTS,
          { ...createBody('events', 'Partial'), cost: '15', featured: true, venues: [venue], timezone: 'Europe/Paris' },
          'admin',
        )
      ).body;
      for (const method of ['PUT', 'PATCH']) {
        const r = await api.send(method, `${EVENTS}/${e.id}`, { title: `Partial ${method}` }, 'admin');
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({
          title: { rendered: `Partial ${method}` },
          cost: '$15',
          featured: true,
          timezone: 'Europe/Paris',
          start_date: e.start_date,
          end_date: e.end_date,
          duration: '7200',
        });
        expect(r.body.venues.map((v: any) => v.id)).toEqual([venue]);
      }
    });

    it('move only the end when only end_date is sent, leaving the old duration (PUT and PATCH)', async () => {
      for (const method of ['PUT', 'PATCH']) {
        const id = (await api.send('POST', EVENTS, createBody('events', `End only ${method}`), 'admin')).body.id;
        let r = await api.send(method, `${EVENTS}/${id}`, { end_date: '2027-03-01 15:00:00' }, 'admin');
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({
          start_date: '2027-03-01 10:00:00',
          end_date: '2027-03-01 15:00:00',
          duration: '7200',
        });
        // Stale until the dates are written together again.
        expect((await api.get(`${EVENTS}/${id}`)).body.duration).toBe('7200');
        r = await api.send(method, `${EVENTS}/${id}`, { cost: '3' }, 'admin');
        expect(r.body.duration).toBe('7200');
        r = await api.send(
          method,
          `${EVENTS}/${id}`,
          { start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 16:00:00' },
          'admin',
        );
        expect(r.body.duration).toBe('21600');
      }
    });
  });

  describe('6. unchecked query arguments (TEC 6.15)', () => {
    it('lists 10 for per_page=0, page 1 for page=0, and up to 101 for per_page=101', async () => {
      const first = await api.get(EVENTS);
      let r = await api.get(`${EVENTS}?per_page=0`);
      expect(r.status).toBe(200);
      expect(r.body).toHaveLength(10);
      r = await api.get(`${EVENTS}?page=0`);
      expect(r.status).toBe(200);
      expect(r.body.map((e: any) => e.id)).toEqual(first.body.map((e: any) => e.id));
      r = await api.get(`${EVENTS}?per_page=101`);
      expect(r.status).toBe(200);
      expect(r.body).toHaveLength(101);
      expect(r.headers.get('x-wp-totalpages')).toBe(String(Math.ceil(published() / 101)));
    });

    it('ignores an unparsable start_date, an unknown status and an unknown orderby', async () => {
      const plain = (await api.get(`${EVENTS}?per_page=20`)).body.map((e: any) => e.id);
      for (const q of ['start_date=notadate', 'status=bogus', 'orderby=bogus', 'order=sideways']) {
        const r = await api.get(`${EVENTS}?per_page=20&${q}`);
        expect(r.status, q).toBe(200);
        expect(total(r), q).toBe(published());
        // An unknown orderby falls back to WP_Query's default, the publication date (6.15.14).
        const expected =
          q === 'orderby=bogus'
            ? (await api.get(`${EVENTS}?per_page=20&orderby=date`)).body.map((e: any) => e.id)
            : plain;
        expect(
          r.body.map((e: any) => e.id),
          q,
        ).toEqual(expected);
      }
      const r = await api.get(`${EVENTS}?status=bogus&per_page=100`, 'admin');
      expect(r.body.every((e: any) => e.status === 'publish')).toBe(true);
    });

    it('answers an unknown venue or organizer with an empty list', async () => {
      for (const q of ['venue=999999', 'organizer[]=999999']) {
        const r = await api.get(`${EVENTS}?${q}`);
        expect(r.status, q).toBe(200);
        expect(r.body).toEqual([]);
        expect(r.headers.get('x-wp-total')).toBe('0');
      }
    });

    it('does not check the venue and organizer lists either', async () => {
      for (const path of [`${CORE}/venues`, `${CORE}/organizers`]) {
        for (const q of ['per_page=0', 'page=0', 'per_page=101', 'status=bogus', 'event=0']) {
          expect((await api.get(`${path}?${q}`)).status, `${path}?${q}`).toBe(200);
        }
      }
      expect((await api.get(`${CORE}/venues?geoloc_lat=91&geoloc_lng=0`)).status).toBe(200);
    });

    it('ignores categories and tags on the events list', async () => {
      const music = one<{ id: number }>(
        "SELECT id FROM terms WHERE taxonomy = 'calendar_events_cat' AND slug = 'music'",
      ).id;
      const tag = one<{ id: number }>("SELECT id FROM terms WHERE taxonomy = 'post_tag' AND slug = 'outdoor'").id;
      for (const q of [`categories=${music}`, `tags=${tag}`, 'categories=1,1']) {
        const r = await api.get(`${EVENTS}?${q}`);
        expect(r.status, q).toBe(200);
        expect(total(r), q).toBe(published());
      }
    });

    it('stores an unknown venue or organizer ID on a write, unchecked, as a meta write does', async () => {
      const r = await api.send(
        'POST',
        EVENTS,
        { ...createBody('events', 'Dangling'), venues: [999999], organizers: [999998] },
        'admin',
      );
      expect(r.status).toBe(201);
      expect(r.body.venues).toEqual([]);
      expect(sb.site.store.post<any>(r.body.id)!.meta).toMatchObject({ venueIds: [999999], organizerIds: [999998] });
      const p = await api.send('PATCH', `${EVENTS}/${r.body.id}`, { venues: [999997] }, 'admin');
      expect(p.status).toBe(200);
      expect(sb.site.store.post<any>(r.body.id)!.meta.venueIds).toEqual([999997]);
      // Still readable through the legacy interface.
      expect((await api.get(`/calendar/events/v1/events/${r.body.id}`)).status).toBe(200);
    });
  });
});

describe('calendar-core/v1 as TEC 6.17 (tec: "6.17")', () => {
  let strict: RunningSandbox;
  let loose: RunningSandbox;
  let api: RestClient;

  beforeAll(async () => {
    [strict, loose] = await Promise.all([testSandbox({ ...CLOCK, tec: '6.17' }), testSandbox(CLOCK)]);
    api = restClient(strict);
  });
  afterAll(async () => {
    await Promise.all([strict.close(), loose.close()]);
  });

  it("refuses bad query arguments with rest_invalid_param and TEC's argument details", async () => {
    const cases: [string, string, string][] = [
      ['per_page=0', 'per_page', 'rest_out_of_bounds'],
      ['per_page=101', 'per_page', 'rest_out_of_bounds'],
      ['page=0', 'page', 'rest_out_of_bounds'],
      ['start_date=notadate', 'start_date', 'tec_rest_invalid_date_time_argument'],
      ['status=bogus', 'status', 'rest_not_in_enum'],
      ['orderby=bogus', 'orderby', 'rest_not_in_enum'],
    ];
    for (const [q, param, code] of cases) {
      const r = await api.get(`${EVENTS}?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.code).toBe('rest_invalid_param');
      expect(r.body.data.details[param].code, q).toBe(code);
    }
    const r = await api.get(`${EVENTS}?venue=999999`);
    expect(r.status).toBe(400);
    expect(r.body.data.params).toEqual({ venue: 'Invalid parameter.' });
  });

  it('filters the events list by categories and tags', async () => {
    const music = (
      strict.site.store.db
        .prepare("SELECT id FROM terms WHERE taxonomy = 'calendar_events_cat' AND slug = 'music'")
        .get() as { id: number }
    ).id;
    const all = Number((await api.get(EVENTS)).headers.get('x-wp-total'));
    const r = await api.get(`${EVENTS}?categories=${music}`);
    expect(Number(r.headers.get('x-wp-total'))).toBeGreaterThan(0);
    expect(Number(r.headers.get('x-wp-total'))).toBeLessThan(all);
  });

  it('refuses unknown venue and organizer IDs on a write, writing nothing', async () => {
    const venue = (
      strict.site.store.db.prepare("SELECT id FROM posts WHERE type = 'calendar_venue' LIMIT 1").get() as { id: number }
    ).id;
    const organizer = (
      strict.site.store.db.prepare("SELECT id FROM posts WHERE type = 'calendar_organizer' LIMIT 1").get() as {
        id: number;
      }
    ).id;
    for (const [extra, param] of [
      [{ venues: [organizer] }, 'venues'],
      [{ organizers: [999999] }, 'organizers'],
      [{ venues: [venue, 999999] }, 'venues'],
    ] as const) {
      const r = await api.send('POST', EVENTS, { ...createBody('events', 'Refused link'), ...extra }, 'admin');
      expect(r.status, param).toBe(400);
      expect(r.body.data.details[param].code).toBe(`tec_rest_invalid_${param}_argument`);
    }
    expect(strict.site.store.db.prepare("SELECT COUNT(*) n FROM posts WHERE title = 'Refused link'").get()).toEqual({
      n: 0,
    });
  });

  it('declares, in each release, the same arguments in the index and the OpenAPI document', async () => {
    // `METHOD /path/{capture}` -> argument names other than the path's captures (the document always lists those).
    const template = (path: string) => path.replace(/\(\?P<([a-z_]+)>[^)]*\)/g, '{$1}');
    const notCaptured = (path: string) => (n: string) => !path.includes(`{${n}}`);
    const fromIndex = (routes: Record<string, any>) =>
      Object.fromEntries(
        Object.entries(routes).flatMap(([path, d]) =>
          d.endpoints.flatMap((ep: any) =>
            ep.methods.map((m: string) => [
              `${m} ${template(path)}`,
              Object.keys(ep.args)
                .filter(notCaptured(template(path)))
                .sort(),
            ]),
          ),
        ),
      );
    const fromDoc = (paths: Record<string, any>) =>
      Object.fromEntries(
        Object.entries(paths).flatMap(([path, item]) =>
          Object.entries<any>(item).map(([m, op]) => [
            `${m.toUpperCase()} ${path}`,
            [
              ...(op.parameters ?? []).map((x: any) => x.name),
              ...Object.keys(op.requestBody?.content['application/json'].schema.properties ?? {}),
            ]
              .filter(notCaptured(path))
              .sort(),
          ]),
        ),
      );
    const declared: Record<string, unknown>[] = [];
    for (const sb of [strict, loose]) {
      const client = restClient(sb);
      const index = fromIndex((await client.get(CORE)).body.routes);
      expect(fromDoc((await client.get(`${CORE}/docs`)).body.paths)).toEqual(index);
      declared.push(index);
    }
    // 6.15.14 declares less than 6.17 (release.test.ts compares each with the real lists).
    expect(declared[0]!['GET /calendar-core/v1/events']).toContain('virtual');
    expect(declared[1]!['GET /calendar-core/v1/events']).not.toContain('virtual');
  });
});

describe('options', () => {
  it('calendarBatchable marks the events, venues and organizers writes and admits them into /batch/v1', async () => {
    const sb = await testSandbox({ ...CLOCK, events: 5, calendarBatchable: true });
    try {
      const api = restClient(sb);
      expect(batchableIn((await api.get(CORE)).body.routes)).toEqual([
        'DELETE /calendar-core/v1/events/(?P<id>\\d+)',
        'DELETE /calendar-core/v1/organizers/(?P<id>\\d+)',
        'DELETE /calendar-core/v1/venues/(?P<id>\\d+)',
        'PATCH /calendar-core/v1/events/(?P<id>\\d+)',
        'PATCH /calendar-core/v1/organizers/(?P<id>\\d+)',
        'PATCH /calendar-core/v1/venues/(?P<id>\\d+)',
        'POST /calendar-core/v1/events',
        'POST /calendar-core/v1/organizers',
        'POST /calendar-core/v1/venues',
        'PUT /calendar-core/v1/events/(?P<id>\\d+)',
        'PUT /calendar-core/v1/organizers/(?P<id>\\d+)',
        'PUT /calendar-core/v1/venues/(?P<id>\\d+)',
      ]);
      const r = await api.send(
        'POST',
        '/batch/v1',
        { requests: [{ path: EVENTS, body: createBody('events', 'Batched') }] },
        'admin',
        { 'x-tec-eea': TEC_EEA },
      );
      expect(r.body.responses[0].status).toBe(201);
    } finally {
      await sb.close();
    }
    // `batchable: false` still wins: nothing is batchable at all.
    const none = await testSandbox({ demo: false, calendarBatchable: true, batchable: false });
    try {
      expect(batchableIn((await restClient(none).get('/')).body.routes)).toEqual([]);
    } finally {
      await none.close();
    }
  });

  it('reads SANDBOX_CALENDAR_BATCHABLE, SANDBOX_TEC and SANDBOX_WRONG_PASSWORD, with real-site defaults', () => {
    expect(parseSandboxOptions({})).toMatchObject({ calendarBatchable: false, tec: '6.15', wrongPassword: 'error' });
    expect(
      sandboxOptionsFromEnv({
        SANDBOX_CALENDAR_BATCHABLE: '1',
        SANDBOX_TEC: '6.17',
        SANDBOX_WRONG_PASSWORD: 'anonymous',
      }),
    ).toEqual({ calendarBatchable: true, tec: '6.17', wrongPassword: 'anonymous' });
    expect(sandboxOptionsFromEnv({ SANDBOX_CALENDAR_BATCHABLE: '0' })).toEqual({ calendarBatchable: false });
    expect(() => parseSandboxOptions(sandboxOptionsFromEnv({ SANDBOX_TEC: '6.16' }))).toThrow(SandboxConfigError);
    expect(() => parseSandboxOptions(sandboxOptionsFromEnv({ SANDBOX_WRONG_PASSWORD: 'ignore' }))).toThrow(
      /wrongPassword/,
    );
  });
});

describe('7. a wrong application password', () => {
  const basic = (login: string, password: string) => ({
    authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
  });
  const wrong = basic('admin', 'abcd efgh ijkl mnop qrst uvwx');
  const unknown = basic('nobody', 'abcd efgh ijkl mnop qrst uvwx');

  it('is 401 incorrect_password by default (WordPress 6.8), an unknown login 401 invalid_username', async () => {
    const sb = await testSandbox({ ...CLOCK, events: 5 });
    try {
      const api = restClient(sb);
      let r = await api.get(`${EVENTS}?per_page=1`, null, wrong);
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('incorrect_password');
      r = await api.get(`${EVENTS}?per_page=1`, null, unknown);
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('invalid_username');
    } finally {
      await sb.close();
    }
  });

  it('is anonymous with wrongPassword: "anonymous" (WordPress 6.1): public reads 200, writes 401 rest_forbidden', async () => {
    const sb = await testSandbox({ ...CLOCK, events: 5, wrongPassword: 'anonymous' });
    try {
      const api = restClient(sb);
      const who: Who = null;
      for (const creds of [wrong, unknown]) {
        let r = await api.get(`${EVENTS}?per_page=100`, who, creds);
        expect(r.status).toBe(200);
        expect(r.body).toEqual((await api.get(`${EVENTS}?per_page=100`)).body);
        expect((await api.get('/calendar/events/v1/events', who, creds)).status).toBe(200);
        r = await api.send('POST', EVENTS, createBody('events', 'As nobody'), who, creds);
        expect(r.status).toBe(401);
        expect(r.body).toEqual(forbiddenBody(401));
      }
      // The right password still signs in.
      expect((await api.send('POST', EVENTS, createBody('events', 'As admin'), 'admin')).status).toBe(201);
    } finally {
      await sb.close();
    }
  });
});

describe('8. core/v2 single posts', () => {
  it('answers GET and DELETE of a missing post with 404 rest_post_invalid_id', async () => {
    const sb = await testSandbox({ events: 0 });
    try {
      const api = restClient(sb);
      const missing = { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } };
      for (const who of [null, 'admin'] as const) {
        for (const method of ['GET', 'DELETE']) {
          const r = await api.send(method, '/core/v2/posts/999999', undefined, who);
          expect(r.status, `${method} ${who}`).toBe(404);
          expect(r.body).toEqual(missing);
        }
      }
      // A post of another type is not a post either.
      const venue = (
        sb.site.store.db.prepare("SELECT id FROM posts WHERE type = 'calendar_venue' LIMIT 1").get() as
          { id: number } | undefined
      )?.id;
      if (venue) expect((await api.get(`/core/v2/posts/${venue}`)).body).toEqual(missing);
      // An existing post is served, and deletes go through the trash.
      const post = (await api.get('/core/v2/posts?per_page=1')).body[0];
      expect((await api.get(`/core/v2/posts/${post.id}`)).body.id).toBe(post.id);
      let r = await api.send('DELETE', `/core/v2/posts/${post.id}`, undefined, 'subscriber');
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('rest_cannot_delete');
      r = await api.send('DELETE', `/core/v2/posts/${post.id}`, undefined, 'admin');
      expect(r.status).toBe(200);
      expect(r.body.status).toBe('trash');
      expect((await api.send('DELETE', `/core/v2/posts/${post.id}`, undefined, 'admin')).status).toBe(410);
      r = await api.send('DELETE', `/core/v2/posts/${post.id}?force=true`, undefined, 'admin');
      expect(r.body).toMatchObject({ deleted: true, previous: { id: post.id } });
      expect((await api.get(`/core/v2/posts/${post.id}`, 'admin')).body).toEqual(missing);
    } finally {
      await sb.close();
    }
  });
});
