/**
 * calendar-core/v1 events, read side: the B1 list (envelope, headers, every
 * parameter and bound), the event object, single reads and the order of
 * checks (reference/calendar-upstream.md §2, site-upstream.md §1-§2).
 *
 * The sandbox acts as TEC 6.17 here (`tec: '6.17'`), the release that
 * validates the list arguments and filters by terms; the real site's 6.15,
 * which does neither, is covered in real-site-core.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { TEC_EEA, restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const EVENTS = '/calendar-core/v1/events';

describe('calendar-core/v1 events (read)', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  const one = <T = any>(sql: string, ...args: unknown[]) => sb.site.store.db.prepare(sql).get(...args) as T;
  const count = (sql: string, ...args: unknown[]) => one<{ n: number }>(sql, ...args).n;
  const published = () => count("SELECT COUNT(*) n FROM posts WHERE type = 'calendar_events' AND status = 'publish'");
  /** A password-protected event has its fields masked, so filters are checked on the others. */
  const open = (e: any) => !e.class_list.includes('post-password-required');
  /** Every page of a list (unmasked events only), for filters whose matches span pages. */
  const all = async (query: string, who: Parameters<RestClient['get']>[1] = null) => {
    const out: any[] = [];
    for (let page = 1; ; page++) {
      const r = await api.get(`${EVENTS}?per_page=100&page=${page}${query ? `&${query}` : ''}`, who);
      expect(r.status).toBe(200);
      out.push(...r.body.filter(open));
      if (page >= Number(r.headers.get('x-wp-totalpages') ?? 0)) return out;
    }
  };

  beforeAll(async () => {
    // Event Tickets active, so `ticketed` filters (without it, every release ignores it: tickets.test.ts).
    sb = await testSandbox({ anchor: '2026-06-01', tec: '6.17', tickets: true });
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  describe('the list envelope', () => {
    it('is a bare array with X-WP-Total, X-WP-TotalPages and a next link on the first page', async () => {
      const r = await api.get(`${EVENTS}?per_page=5`);
      expect(r.status).toBe(200);
      expect(Array.isArray(r.body)).toBe(true);
      expect(r.body).toHaveLength(5);
      const total = published();
      expect(r.headers.get('x-wp-total')).toBe(String(total));
      expect(r.headers.get('x-wp-totalpages')).toBe(String(Math.ceil(total / 5)));
      expect(r.headers.get('link')).toBe(`<${sb.url}calendar-core/v1/events?per_page=5&page=2>; rel="next"`);
    });

    it('links next and prev from a middle page, keeping every other parameter', async () => {
      const r = await api.get(`${EVENTS}?featured=true&per_page=3&page=2`);
      expect(r.status).toBe(200);
      const link = r.headers.get('link')!;
      expect(link).toContain(`<${sb.url}calendar-core/v1/events?featured=true&per_page=3&page=3>; rel="next"`);
      expect(link).toContain(`<${sb.url}calendar-core/v1/events?featured=true&per_page=3&page=1>; rel="prev"`);
    });

    it('sends only a prev link from the last page', async () => {
      const pages = Number((await api.get(`${EVENTS}?per_page=40`)).headers.get('x-wp-totalpages'));
      const r = await api.get(`${EVENTS}?per_page=40&page=${pages}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('link')).toBe(
        `<${sb.url}calendar-core/v1/events?per_page=40&page=${pages - 1}>; rel="prev"`,
      );
    });

    it('answers an empty page past the first with the data-less organizers 404', async () => {
      const r = await api.get(`${EVENTS}?page=9999`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({
        code: 'tec_rest_organizers_page_not_found',
        message: 'The requested page was not found.',
      });
      expect(r.headers.get('x-wp-total')).toBeNull();
    });

    it('answers an empty first page with [] and zero totals', async () => {
      const r = await api.get(`${EVENTS}?search=no-such-words-anywhere`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual([]);
      expect(r.headers.get('x-wp-total')).toBe('0');
      expect(r.headers.get('x-wp-totalpages')).toBe('0');
      expect(r.headers.get('link')).not.toMatch(/rel="(next|prev)"/);
    });

    it('defaults to 10 events ordered by start, with no date window (past events included)', async () => {
      const r = await api.get(EVENTS);
      expect(r.body).toHaveLength(10);
      const starts = r.body.map((e: any) => e.start_date_utc);
      expect([...starts].sort()).toEqual(starts);
      const earliest = one<{ s: string }>(
        "SELECT MIN(json_extract(meta, '$.startDateUtc')) s FROM posts WHERE type = 'calendar_events' AND status = 'publish'",
      ).s;
      expect(starts[0]).toBe(earliest);
    });
  });

  describe('page and per_page bounds', () => {
    const outOfBounds = {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): per_page',
      data: {
        status: 400,
        params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' },
        details: {
          per_page: {
            code: 'rest_out_of_bounds',
            message: 'per_page must be between 1 (inclusive) and 100 (inclusive)',
            data: null,
          },
        },
      },
    };

    it('refuses per_page=101 and per_page=0 with rest_out_of_bounds', async () => {
      for (const n of [101, 0]) {
        const r = await api.get(`${EVENTS}?per_page=${n}`);
        expect(r.status).toBe(400);
        expect(r.body).toEqual(outOfBounds);
      }
    });

    it('accepts per_page=100', async () => {
      const r = await api.get(`${EVENTS}?per_page=100`);
      expect(r.status).toBe(200);
      expect(r.body).toHaveLength(100);
    });

    it('refuses page=0 and a non-numeric per_page', async () => {
      let r = await api.get(`${EVENTS}?page=0`);
      expect(r.status).toBe(400);
      expect(r.body.data.details.page).toEqual({
        code: 'rest_out_of_bounds',
        message: 'page must be greater than or equal to 1',
        data: null,
      });
      r = await api.get(`${EVENTS}?per_page=lots`);
      expect(r.body.data.details.per_page.code).toBe('rest_invalid_type');
    });
  });

  describe('ordering', () => {
    it('refuses an orderby or order outside its enum', async () => {
      let r = await api.get(`${EVENTS}?orderby=popularity`);
      expect(r.status).toBe(400);
      expect(r.body.data.params.orderby).toBe(
        'orderby is not one of date, event_date, title, menu_order, and modified.',
      );
      expect(r.body.data.details.orderby.code).toBe('rest_not_in_enum');
      r = await api.get(`${EVENTS}?order=sideways`);
      expect(r.body.data.params.order).toBe('order is not one of ASC and DESC.');
    });

    it('sorts by title descending', async () => {
      const r = await api.get(`${EVENTS}?orderby=title&order=DESC&per_page=30`);
      const titles = r.body.map((e: any) => e.title.rendered.toLowerCase());
      expect([...titles].sort().reverse()).toEqual(titles);
    });

    it('sorts by publication date', async () => {
      const r = await api.get(`${EVENTS}?orderby=date&per_page=30`);
      const dates = r.body.map((e: any) => e.date_gmt);
      expect([...dates].sort()).toEqual(dates);
    });
  });

  describe('status', () => {
    it("holds callers who cannot edit others' events to publish, silently", async () => {
      for (const who of [null, 'subscriber', 'contributor', 'author'] as const) {
        const r = await api.get(`${EVENTS}?status=draft&per_page=100`, who);
        expect(r.status, String(who)).toBe(200);
        expect(r.body.every((e: any) => e.status === 'publish')).toBe(true);
        expect(r.headers.get('x-wp-total')).toBe(String(published()));
      }
    });

    it('lets editors list drafts and private events', async () => {
      const r = await api.get(`${EVENTS}?status[]=draft&status[]=private&per_page=100`, 'editor');
      const expected = count(
        "SELECT COUNT(*) n FROM posts WHERE type = 'calendar_events' AND status IN ('draft', 'private')",
      );
      expect(Number(r.headers.get('x-wp-total'))).toBe(expected);
      expect(new Set(r.body.map((e: any) => e.status))).toEqual(new Set(['draft', 'private']));
      const priv = r.body.find((e: any) => e.status === 'private');
      expect(priv.title.rendered).toMatch(/^Private: /);
    });

    it('refuses an unknown status and duplicate statuses', async () => {
      let r = await api.get(`${EVENTS}?status=trash`, 'editor');
      expect(r.status).toBe(400);
      expect(r.body.data.params.status).toBe('status[0] is not one of publish, pending, draft, future, and private.');
      r = await api.get(`${EVENTS}?status=publish,publish`);
      expect(r.status).toBe(400);
      expect(r.body.data.details.status.code).toBe('rest_duplicate_items');
    });
  });

  describe('date filters', () => {
    it('keeps events starting on or after the start_date day and ending by the end_date day', async () => {
      const list = await all('start_date=2026-05-01&end_date=2026-06-30');
      expect(list.length).toBeGreaterThan(0);
      for (const e of list) {
        expect(e.start_date >= '2026-05-01 00:00:00').toBe(true);
        expect(e.end_date <= '2026-06-30 23:59:59').toBe(true);
      }
    });

    it('accepts RFC 3339 with an offset and Y-m-d H:i:s for the exact bounds', async () => {
      const a = await all('starts_after=2026-07-01T00:00:00-04:00&starts_before=2026-07-31 23:59:59');
      expect(a.length).toBeGreaterThan(0);
      for (const e of a)
        expect(e.start_date >= '2026-07-01 00:00:00' && e.start_date <= '2026-07-31 23:59:59').toBe(true);
      const b = await all('ends_after=2026-08-01 00:00:00&ends_before=2026-08-10 00:00:00');
      for (const e of b) expect(e.end_date >= '2026-08-01 00:00:00' && e.end_date <= '2026-08-10 00:00:00').toBe(true);
    });

    it("refuses an unparsable date with TEC's argument error", async () => {
      const r = await api.get(`${EVENTS}?starts_before=2026-13-45`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): starts_before',
        data: {
          status: 400,
          params: { starts_before: 'Parameter `{starts_before}` must be a date-time.' },
          details: {
            starts_before: {
              code: 'tec_rest_invalid_date_time_argument',
              message: 'Parameter `{starts_before}` must be a date-time.',
              data: {
                status: 400,
                argument: 'starts_before',
                details: 'We cannot parse the parameter `{starts_before}` as a date-time.',
              },
            },
          },
        },
      });
    });
  });

  describe('term, place and flag filters', () => {
    it('matches search in titles and content', async () => {
      const list = await all('search=lecture');
      expect(list.length).toBeGreaterThan(0);
      for (const e of list) expect(`${e.title.rendered} ${e.content.rendered}`.toLowerCase()).toContain('lecture');
    });

    it('matches a parent category through its children', async () => {
      const music = one<{ id: number }>(
        "SELECT id FROM terms WHERE taxonomy = 'calendar_events_cat' AND slug = 'music'",
      ).id;
      const family = new Set(
        (
          sb.site.store.db.prepare('SELECT id FROM terms WHERE id = ? OR parent = ?').all(music, music) as {
            id: number;
          }[]
        ).map((t) => t.id),
      );
      const list = await all(`categories=${music}`);
      expect(list.some((e) => !e.calendar_events_cat.includes(music))).toBe(true); // children count too
      for (const e of list) expect(e.calendar_events_cat.some((c: number) => family.has(c))).toBe(true);
    });

    it('filters by tags, venue and organizer', async () => {
      const tag = one<{ id: number }>("SELECT id FROM terms WHERE taxonomy = 'post_tag' AND slug = 'outdoor'").id;
      for (const e of await all(`tags=${tag}`)) expect(e.tags).toContain(tag);
      const organizer = (await all('')).find((e) => e.organizers.length).organizers[0].id;
      const byOrganizer = await all(`organizer=${organizer}`);
      expect(byOrganizer.length).toBeGreaterThan(0);
      for (const e of byOrganizer) expect(e.organizers.map((o: any) => o.id)).toContain(organizer);
      const venue = (await all('')).find((e) => e.venues.length).venues[0].id;
      const atVenue = await all(`venue=${venue}`);
      expect(atVenue.length).toBeGreaterThan(0);
      for (const e of atVenue) expect(e.venues.map((v: any) => v.id)).toContain(venue);
    });

    it('refuses duplicate IDs and unknown venues or organizers', async () => {
      let r = await api.get(`${EVENTS}?categories=1,1`);
      expect(r.body.data.details.categories.code).toBe('rest_duplicate_items');
      r = await api.get(`${EVENTS}?venue=999999`);
      expect(r.status).toBe(400);
      expect(r.body.data.params).toEqual({ venue: 'Invalid parameter.' });
      r = await api.get(`${EVENTS}?organizer[]=999999`);
      expect(r.body.data.params).toEqual({ organizer: 'Invalid parameter.' });
    });

    it('filters featured, ticketed and virtual events', async () => {
      const r = await api.get(`${EVENTS}?featured=true&per_page=1`);
      expect(Number(r.headers.get('x-wp-total'))).toBe(
        count(
          "SELECT COUNT(*) n FROM posts WHERE type = 'calendar_events' AND status = 'publish' AND json_extract(meta, '$.featured') = 1",
        ),
      );
      const featured = await all('featured=true');
      expect(featured.every((e) => e.featured)).toBe(true);
      expect((await all('ticketed=1')).every((e) => e.ticketed)).toBe(true);
      const notVirtual = await all('virtual=false');
      expect(notVirtual.length).toBeGreaterThan(0);
      expect(notVirtual.every((e) => e.virtual === false)).toBe(true);
    });

    it('filters by post parent', async () => {
      expect(Number((await api.get(`${EVENTS}?post_parent=0`)).headers.get('x-wp-total'))).toBe(published());
      expect((await api.get(`${EVENTS}?post_parent=5`)).body).toEqual([]);
    });

    it('filters by distance from coordinates, by a place name, and by venue coordinates', async () => {
      const paris = await all('geoloc_lat=48.8566&geoloc_lng=2.3522&distance=30');
      expect(paris.length).toBeGreaterThan(0);
      for (const e of paris) expect(e.venues.some((v: any) => v.city === 'Paris')).toBe(true);
      const london = await all('near=London, UK');
      expect(london.length).toBeGreaterThan(0);
      for (const e of london) expect(e.venues.some((v: any) => v.city === 'London')).toBe(true);
      const nowhere = await api.get(`${EVENTS}?near=Atlantis`);
      expect(nowhere.body).toEqual([]);
      expect(nowhere.headers.get('x-wp-total')).toBe('0');
      const noGeo = await all('has_geoloc=false');
      for (const e of noGeo) expect(e.venues.every((v: any) => v.lat === null)).toBe(true);
    });

    it('filters by series membership', async () => {
      const inSeries = await all('in_series=true');
      expect(inSeries.length).toBeGreaterThan(0);
      expect(inSeries.every((e) => typeof e.series === 'number')).toBe(true);
      const series = inSeries[0].series;
      expect((await all(`series=${series}`)).every((e) => e.series === series)).toBe(true);
      expect((await all('recurring=false')).every((e) => e.series === null)).toBe(true);
    });

    it('finds events related to an event through shared terms', async () => {
      const base = (await api.get(EVENTS)).body.find((e: any) => open(e) && e.calendar_events_cat.length);
      const related = await all(`related_to=${base.id}`);
      expect(related.length).toBeGreaterThan(0);
      for (const e of related) {
        expect(e.id).not.toBe(base.id);
        expect(
          [...e.calendar_events_cat, ...e.tags].some((t: number) =>
            [...base.calendar_events_cat, ...base.tags].includes(t),
          ),
        ).toBe(true);
      }
    });
  });

  describe('the event object', () => {
    it('has the posts-controller fields, then the calendar fields', async () => {
      const e = (await api.get(`${EVENTS}?per_page=1`)).body[0];
      expect(Object.keys(e)).toEqual([
        'id',
        'date',
        'date_gmt',
        'guid',
        'modified',
        'modified_gmt',
        'slug',
        'status',
        'type',
        'link',
        'title',
        'content',
        'excerpt',
        'author',
        'featured_media',
        'template',
        'tags',
        'calendar_events_cat',
        'class_list',
        'start_date',
        'start_date_utc',
        'end_date',
        'end_date_utc',
        'dates',
        'timezone',
        'duration',
        'multiday',
        'is_past',
        'is_now',
        'all_day',
        'starts_this_week',
        'ends_this_week',
        'this_week_duration',
        'happens_this_week',
        'displays_on',
        'featured',
        'sticky',
        'cost',
        'organizer_names',
        'organizers',
        'venues',
        'schedule_details',
        'short_schedule_details',
        'ticketed',
        'virtual',
        'series',
        'lat',
        'lng',
      ]);
      expect(e.type).toBe('calendar_events');
      expect(e.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      expect(e.start_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(e.link).toBe(`${sb.origin}/event/${e.slug}/`);
      expect(e.class_list.slice(0, 4)).toEqual([
        `post-${e.id}`,
        'calendar_events',
        'type-calendar_events',
        'status-publish',
      ]);
      expect(typeof e.duration).toBe('string');
      expect(Number(e.duration)).toBe((Date.parse(`${e.end_date_utc}Z`) - Date.parse(`${e.start_date_utc}Z`)) / 1000);
      expect(e.dates.start).toEqual({ date: `${e.start_date}.000000`, timezone_type: 3, timezone: e.timezone });
      expect(e.dates.start_utc).toEqual({ date: `${e.start_date_utc}.000000`, timezone_type: 3, timezone: 'UTC' });
      expect(e.dates.end_site.timezone).toBe('America/New_York');
      expect([e.starts_this_week, e.ends_this_week, e.this_week_duration, e.happens_this_week]).toEqual([
        null,
        null,
        null,
        null,
      ]);
    });

    it('embeds full venue and organizer objects', async () => {
      const e = (await all('')).find((x) => x.venues.length && x.organizers.length);
      expect(Object.keys(e.venues[0])).toEqual(
        expect.arrayContaining([
          'id',
          'title',
          'link',
          'address',
          'country',
          'city',
          'state_province',
          'state',
          'province',
          'zip',
          'phone',
          'website',
          'directions_link',
          'lat',
          'lng',
        ]),
      );
      expect(e.venues[0].type).toBe('calendar_venue');
      expect(Object.keys(e.organizers[0])).toEqual(
        expect.arrayContaining(['id', 'title', 'phone', 'website', 'email']),
      );
      expect(e.organizer_names).toEqual(e.organizers.map((o: any) => o.title.rendered));
    });

    it('describes multi-day and all-day events as TEC does', async () => {
      const list = await all('');
      const multi = list.find((e) => !e.all_day && e.start_date.slice(0, 10) !== e.end_date.slice(0, 10));
      expect(typeof multi.multiday).toBe('number');
      expect(multi.multiday).toBeGreaterThan(1);
      expect(multi.schedule_details).toMatch(
        /^<span class="tribe-event-date-start">.+ @ .+<\/span> - <span class="tribe-event-date-end">.+ @ .+<\/span>$/,
      );
      const allDay = list.find((e) => e.all_day && e.start_date.slice(0, 10) === e.end_date.slice(0, 10));
      expect(allDay.multiday).toBe(false);
      expect(allDay.short_schedule_details).toBe('All day');
      expect(allDay.duration).toBe('86399');
      const single = list.find((e) => !e.all_day && e.start_date.slice(0, 10) === e.end_date.slice(0, 10));
      expect(single.short_schedule_details).toMatch(
        /^<span class="tribe-event-date-start">\d{1,2}:\d{2} [ap]m<\/span> - <span class="tribe-event-time">\d{1,2}:\d{2} [ap]m<\/span>$/,
      );
    });

    it('formats the cost with its currency', async () => {
      const list = await all('');
      const costs = new Set(list.map((e) => e.cost));
      expect(costs).toContain('Free');
      expect(costs).toContain('');
      expect([...costs].some((c) => /^\$\d+$/.test(c))).toBe(true);
      expect([...costs].some((c) => /^\d+€$/.test(c) || /^\d+€ – \d+€$/.test(c))).toBe(true);
    });

    it('masks every field of a password-protected event but the identifying ones', async () => {
      const id = one<{ id: number }>(
        "SELECT id FROM posts WHERE type = 'calendar_events' AND status = 'publish' AND password != '' LIMIT 1",
      ).id;
      const r = await api.get(`${EVENTS}/${id}`, 'admin');
      expect(r.status).toBe(200);
      const e = r.body;
      expect(e.id).toBe(id);
      expect(e.title.rendered).not.toBe('Password protected');
      expect(e.slug).not.toBe('Password protected');
      expect(e.class_list).toContain('post-password-required');
      expect(e.content).toEqual({ rendered: 'Password protected', protected: null });
      expect(e.excerpt).toEqual({ rendered: 'Password protected', protected: null });
      expect(e.start_date).toBe('Password protected');
      expect(e.duration).toBe('Password protected');
      expect(e.featured_media).toBe(0);
      expect(e.featured).toBeNull();
      // `date` is on the kept list at every depth (TC walks nested arrays with the same list).
      expect(e.dates.start).toEqual({
        date: expect.stringMatching(/\.000000$/),
        timezone_type: 0,
        timezone: 'Password protected',
      });
      expect(e.venues.every((v: any) => v.address === 'Password protected' && typeof v.id === 'number')).toBe(true);
    });
  });

  describe('single reads', () => {
    it('answers a published event to anyone', async () => {
      const id = (await api.get(`${EVENTS}?per_page=1`)).body[0].id;
      const r = await api.get(`${EVENTS}/${id}`);
      expect(r.status).toBe(200);
      expect(r.body.id).toBe(id);
    });

    it('answers a missing ID or another post type with rest_forbidden, 401 or 403, never 404', async () => {
      const venue = one<{ id: number }>("SELECT id FROM posts WHERE type = 'calendar_venue' LIMIT 1").id;
      for (const path of [`${EVENTS}/99999999`, `${EVENTS}/${venue}`]) {
        let r = await api.get(path);
        expect(r.status).toBe(401);
        expect(r.body).toEqual({
          code: 'rest_forbidden',
          message: 'Sorry, you are not allowed to do that.',
          data: { status: 401 },
        });
        r = await api.get(path, 'admin');
        expect(r.status).toBe(403);
        expect(r.body.code).toBe('rest_forbidden');
      }
    });

    it('lets only those who may read a draft read it', async () => {
      const draft = one<{ id: number }>(
        "SELECT id FROM posts WHERE type = 'calendar_events' AND status = 'draft' AND author = 3 LIMIT 1",
      ).id;
      const expected = {
        anonymous: 401,
        subscriber: 403,
        contributor: 403,
        author: 200,
        editor: 200,
        admin: 200,
      } as const;
      for (const [who, status] of Object.entries(expected)) {
        const r = await api.get(`${EVENTS}/${draft}`, who === 'anonymous' ? null : (who as 'admin'));
        expect(r.status, who).toBe(status);
      }
    });

    it('has no POST on an item route', async () => {
      const id = (await api.get(`${EVENTS}?per_page=1`)).body[0].id;
      const r = await api.send('POST', `${EVENTS}/${id}`, { title: 'nope' }, 'admin');
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('rest_no_route');
    });
  });

  describe('the experimental gate and the order of checks', () => {
    const missing = {
      code: 'missing_experimental_endpoint_acknowledgement',
      message: 'Experimental endpoint requires acknowledgement header.',
      data: { status: 400 },
    };

    it('refuses a read without the acknowledgement header', async () => {
      const r = await api.get(EVENTS, null, { 'x-tec-eea': '' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(missing);
      expect((await api.get(EVENTS, null, { 'x-tec-eea': 'I understand' })).body).toEqual(missing);
    });

    it('compares the header trimmed and case-insensitively', async () => {
      const r = await api.get(`${EVENTS}?per_page=1`, null, { 'x-tec-eea': `  ${TEC_EEA.toUpperCase()}  ` });
      expect(r.status).toBe(200);
    });

    it('checks arguments before the header: a 400 argument error wins', async () => {
      const r = await api.get(`${EVENTS}?per_page=101`, null, { 'x-tec-eea': '' });
      expect(r.body.code).toBe('rest_invalid_param');
    });

    it('checks permission before the header: a 401 wins over the missing acknowledgement', async () => {
      const r = await api.get(`${EVENTS}/99999999`, null, { 'x-tec-eea': '' });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('rest_forbidden');
    });

    it('lets an argument error win over a permission failure', async () => {
      const r = await api.send('POST', EVENTS, { status: 'bogus' }, null);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('rest_invalid_param');
    });
  });

  describe('GET /calendar-core/v1/docs', () => {
    it('serves OpenAPI 3.0.4 without the acknowledgement header', async () => {
      const r = await api.get('/calendar-core/v1/docs', null, { 'x-tec-eea': '' });
      expect(r.status).toBe(200);
      expect(r.body.openapi).toBe('3.0.4');
      expect(r.body.info.title).toBe('TEC REST API');
      expect(Object.keys(r.body.paths)).toEqual(
        expect.arrayContaining([
          '/calendar-core/v1/events',
          '/calendar-core/v1/events/{id}',
          '/calendar-core/v1/events/calendar-embed',
          '/calendar-core/v1/events/{id}/notices/occurrences',
          '/calendar-core/v1/organizers',
          '/calendar-core/v1/organizers/{id}',
          '/calendar-core/v1/venues',
          '/calendar-core/v1/venues/{id}',
          '/calendar-core/v1/series',
        ]),
      );
      const perPage = r.body.paths['/calendar-core/v1/events'].get.parameters.find((p: any) => p.name === 'per_page');
      expect(perPage.schema).toMatchObject({ type: 'integer', default: 10, minimum: 1, maximum: 100 });
      expect(Object.keys(r.body.paths['/calendar-core/v1/events/{id}'])).toEqual(['get', 'put', 'patch', 'delete']);
    });
  });

  describe('the namespace index', () => {
    it('lists every method of the namespace and, as a real site, marks none batchable', async () => {
      const r = await api.get('/calendar-core/v1');
      const pairs: string[] = [];
      const batchable: string[] = [];
      for (const [path, data] of Object.entries<any>(r.body.routes)) {
        for (const ep of data.endpoints) {
          for (const m of ep.methods) {
            pairs.push(`${m} ${path}`);
            if (ep.allow_batch?.v1) batchable.push(`${m} ${path}`);
          }
        }
      }
      // The 24 calendar-core/v1 rows of spec/routes.tsv, the namespace index included.
      expect(pairs).toHaveLength(24);
      expect(pairs).toEqual(
        expect.arrayContaining([
          'GET /calendar-core/v1/series',
          'DELETE /calendar-core/v1/events/(?P<id>\\d+)/notices/occurrences',
          'GET /calendar-core/v1/events/calendar-embed',
        ]),
      );
      // No calendar-core route is batchable on a real site (real-site-behaviour.md); `calendarBatchable`
      // marks the writes, see real-site-core.test.ts.
      expect(batchable).toEqual([]);
    });
  });
});
