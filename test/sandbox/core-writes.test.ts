/**
 * calendar-core/v1 event writes: create, PUT/PATCH, DELETE with trash, force
 * and 410, rights per role, argument checks that leave nothing written, the
 * occurrence notices left by updates, and reads across the shared store
 * (reference/calendar-upstream.md §2, site-upstream.md §7). The sandbox acts as
 * the real site's TEC 6.15, which takes unknown venue and organizer IDs; TEC
 * 6.17's refusal of them is in real-site-core.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient, type Who } from '../helpers/sandbox.ts';

const EVENTS = '/calendar-core/v1/events';

describe('calendar-core/v1 event writes', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  let venue: number;
  let organizer: number;
  let category: number;
  let tag: number;
  const one = <T = any>(sql: string, ...args: unknown[]) => sb.site.store.db.prepare(sql).get(...args) as T;
  const eventCount = () => one<{ n: number }>("SELECT COUNT(*) n FROM posts WHERE type = 'calendar_events'").n;
  const minimal = (extra: Record<string, unknown> = {}) => ({
    title: 'Write test',
    start_date: '2027-03-01 10:00:00',
    end_date: '2027-03-01 12:00:00',
    ...extra,
  });
  const create = async (who: Who, extra: Record<string, unknown> = {}) => api.send('POST', EVENTS, minimal(extra), who);

  beforeAll(async () => {
    sb = await testSandbox({ anchor: '2026-06-01' });
    api = restClient(sb);
    venue = one(
      "SELECT id FROM posts WHERE type = 'calendar_venue' AND status = 'publish' AND json_extract(meta, '$.city') = 'Paris' LIMIT 1",
    ).id;
    organizer = one("SELECT id FROM posts WHERE type = 'calendar_organizer' AND status = 'publish' LIMIT 1").id;
    category = one("SELECT id FROM terms WHERE taxonomy = 'calendar_events_cat' AND slug = 'jazz'").id;
    tag = one("SELECT id FROM terms WHERE taxonomy = 'post_tag' AND slug = 'free'").id;
  });
  afterAll(() => sb.close());

  describe('POST /events', () => {
    it('creates an event from every field 6.15.14 declares and answers 201 with it and a Location; virtual, lat and lng are dropped', async () => {
      const r = await api.send(
        'POST',
        EVENTS,
        {
          title: 'Harbour Jazz Night',
          content: '<p>Live jazz.</p>',
          excerpt: 'Jazz by the water',
          slug: 'harbour-jazz',
          status: 'publish',
          date: '2026-01-10T09:30:00',
          comment_status: 'closed',
          ping_status: 'closed',
          format: 'standard',
          sticky: true,
          template: '',
          start_date: '2027-05-01 20:00:00',
          end_date: '2027-05-01 23:00:00',
          timezone: 'Europe/Paris',
          all_day: false,
          featured: true,
          virtual: true,
          cost: '15',
          organizers: [organizer],
          venues: [venue],
          calendar_events_cat: [category],
          tags: [tag],
          lat: 48.85,
          lng: 2.35,
        },
        'admin',
      );
      expect(r.status).toBe(201);
      const e = r.body;
      expect(r.headers.get('location')).toBe(`${sb.url}calendar-core/v1/events/${e.id}`);
      expect(e).toMatchObject({
        slug: 'harbour-jazz',
        status: 'publish',
        type: 'calendar_events',
        title: { rendered: 'Harbour Jazz Night' },
        content: { rendered: '<p>Live jazz.</p>\n', protected: false },
        excerpt: { rendered: '<p>Jazz by the water</p>\n' },
        author: 1,
        date: '2026-01-10T09:30:00',
        date_gmt: '2026-01-10T14:30:00',
        start_date: '2027-05-01 20:00:00',
        start_date_utc: '2027-05-01 18:00:00',
        end_date: '2027-05-01 23:00:00',
        end_date_utc: '2027-05-01 21:00:00',
        timezone: 'Europe/Paris',
        duration: '10800',
        all_day: false,
        featured: true,
        sticky: true,
        cost: '$15',
        calendar_events_cat: [category],
        tags: [tag],
        series: null,
        // The spec's fields this release does not declare: dropped (TEC 6.17 takes them, release.test.ts).
        virtual: false,
        lat: null,
        lng: null,
      });
      expect(sb.log.entries.at(-1)!.undeclared).toEqual(['lat', 'lng', 'virtual']);
      expect(e.venues.map((v: any) => v.id)).toEqual([venue]);
      expect(e.organizers.map((o: any) => o.id)).toEqual([organizer]);
      const stored = sb.site.store.post<any>(e.id)!;
      expect(stored).toMatchObject({ commentStatus: 'closed', pingStatus: 'closed', menuOrder: -1 });
    });

    it('applies the spec defaults: publish, comments and pings open, standard format, the caller as author', async () => {
      const r = await create('editor');
      expect(r.status).toBe(201);
      expect(r.body.status).toBe('publish');
      expect(r.body.author).toBe(2);
      expect(sb.site.store.post(r.body.id)).toMatchObject({
        commentStatus: 'open',
        pingStatus: 'open',
        format: 'standard',
      });
    });

    it('computes the end from a duration, and takes UTC dates', async () => {
      let r = await api.send(
        'POST',
        EVENTS,
        { title: 'Duration', start_date: '2027-06-01 09:00:00', duration: 5400, timezone: 'UTC' },
        'admin',
      );
      expect(r.body.end_date).toBe('2027-06-01 10:30:00');
      r = await api.send(
        'POST',
        EVENTS,
        {
          title: 'UTC',
          start_date_utc: '2027-06-01 12:00:00',
          end_date_utc: '2027-06-01 13:00:00',
          timezone: 'America/Los_Angeles',
        },
        'admin',
      );
      expect(r.body).toMatchObject({
        start_date: '2027-06-01 05:00:00',
        end_date: '2027-06-01 06:00:00',
        start_date_utc: '2027-06-01 12:00:00',
      });
    });

    it("answers TC's 500 for an event without a start, and writes nothing", async () => {
      const before = eventCount();
      const r = await api.send('POST', EVENTS, { title: 'No dates' }, 'admin');
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ error: 'Failed to create entity.' });
      expect(eventCount()).toBe(before);
    });

    it('refuses bad enums, dates, duplicates, unknown term IDs and an end before the start, writing nothing', async () => {
      const before = eventCount();
      const cases: [Record<string, unknown>, string, string][] = [
        [{ status: 'trash' }, 'status', 'rest_not_in_enum'],
        [{ comment_status: 'maybe' }, 'comment_status', 'rest_not_in_enum'],
        [{ ping_status: 'maybe' }, 'ping_status', 'rest_not_in_enum'],
        [{ format: 'novel' }, 'format', 'rest_not_in_enum'],
        [{ date: 'last tuesday-ish' }, 'date', 'tec_rest_invalid_date_time_argument'],
        [{ start_date: 'soon' }, 'start_date', 'tec_rest_invalid_date_time_argument'],
        [{ venues: [venue, venue] }, 'venues', 'rest_duplicate_items'],
        [{ calendar_events_cat: [tag] }, 'calendar_events_cat', 'tec_rest_invalid_calendar_events_cat_argument'],
        [{ tags: [category] }, 'tags', 'tec_rest_invalid_tags_argument'],
        [{ author: 424242 }, 'author', 'rest_invalid_author'],
        [{ featured_media: venue }, 'featured_media', 'rest_invalid_featured_media'],
        [{ timezone: 'Mars/Olympus' }, 'timezone', 'tec_rest_invalid_timezone_argument'],
        [{ end_date: '2027-03-01 09:00:00' }, 'end_date', 'tec_rest_invalid_date_time_argument'],
      ];
      for (const [extra, param, code] of cases) {
        const r = await create('admin', extra);
        expect(r.status, param).toBe(400);
        expect(r.body.code, param).toBe('rest_invalid_param');
        expect(Object.keys(r.body.data.params), param).toEqual([param]);
        expect(r.body.data.details[param].code, param).toBe(code);
      }
      expect(eventCount()).toBe(before);
    });

    it('authorises per role: edit_posts to create, publish_posts to publish', async () => {
      const expected: [Who, Record<string, unknown>, number, string?][] = [
        [null, {}, 401, 'rest_forbidden'],
        ['subscriber', {}, 403, 'rest_forbidden'],
        ['contributor', {}, 403, 'rest_cannot_publish'],
        ['contributor', { status: 'private' }, 403, 'rest_cannot_publish'],
        ['contributor', { status: 'draft' }, 201],
        ['contributor', { status: 'pending' }, 201],
        ['contributor', { status: 'draft', author: 1 }, 403, 'rest_cannot_edit_others'],
        ['author', {}, 201],
        ['author', { status: 'private' }, 201],
        ['editor', { author: 3 }, 201],
        ['admin', { status: 'future' }, 201],
      ];
      for (const [who, extra, status, code] of expected) {
        const r = await create(who, extra);
        expect(r.status, `${who} ${JSON.stringify(extra)}`).toBe(status);
        if (code) expect(r.body.code).toBe(code);
      }
    });

    it('checks permission before the acknowledgement header, and the header before writing', async () => {
      const before = eventCount();
      let r = await api.send('POST', EVENTS, minimal(), null, { 'x-tec-eea': '' });
      expect(r.status).toBe(401);
      r = await api.send('POST', EVENTS, minimal(), 'admin', { 'x-tec-eea': '' });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('missing_experimental_endpoint_acknowledgement');
      expect(eventCount()).toBe(before);
    });
  });

  describe('PUT and PATCH /events/<id>', () => {
    it('changes only the fields sent, with PATCH and with PUT alike', async () => {
      const created = (await create('admin', { cost: '20', venues: [venue], featured: true })).body;
      let r = await api.send('PATCH', `${EVENTS}/${created.id}`, { title: 'Patched' }, 'admin');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        title: { rendered: 'Patched' },
        cost: '$20',
        featured: true,
        start_date: created.start_date,
        status: 'publish',
      });
      expect(r.body.venues.map((v: any) => v.id)).toEqual([venue]);
      r = await api.send('PUT', `${EVENTS}/${created.id}`, { end_date: '2027-03-01 15:00:00' }, 'admin');
      expect(r.status).toBe(200);
      // The end moves; the stored duration does not (real-site-behaviour.md "Updates").
      expect(r.body).toMatchObject({
        title: { rendered: 'Patched' },
        end_date: '2027-03-01 15:00:00',
        duration: '7200',
        cost: '$20',
      });
      expect(sb.site.store.post<any>(created.id)!.meta.endDate).toBe('2027-03-01 15:00:00');
    });

    it('does not reset defaults on update', async () => {
      const created = (await create('admin', { comment_status: 'closed', status: 'draft' })).body;
      await api.send('PATCH', `${EVENTS}/${created.id}`, { title: 'Still closed' }, 'admin');
      expect(sb.site.store.post(created.id)).toMatchObject({ commentStatus: 'closed', status: 'draft' });
    });

    it('leaves the event untouched when an argument is invalid', async () => {
      const created = (await create('admin')).body;
      const r = await api.send(
        'PATCH',
        `${EVENTS}/${created.id}`,
        { title: 'Never', timezone: 'Mars/Olympus' },
        'admin',
      );
      expect(r.status).toBe(400);
      expect(sb.site.store.post(created.id)!.title).toBe('Write test');
    });

    it('authorises per role and per post', async () => {
      const adminEvent = (await create('admin')).body.id;
      const authorEvent = (await create('author')).body.id;
      const contributorDraft = (await create('contributor', { status: 'draft' })).body.id;
      const cases: [Who, number, Record<string, unknown>, number, string?][] = [
        [null, adminEvent, {}, 401, 'rest_forbidden'],
        ['subscriber', adminEvent, {}, 403, 'rest_forbidden'],
        ['author', adminEvent, {}, 403, 'rest_forbidden'],
        ['author', authorEvent, { title: 'Mine' }, 200],
        ['contributor', contributorDraft, { title: 'Draft edit', status: 'draft' }, 200],
        ['contributor', contributorDraft, { status: 'publish' }, 403, 'rest_cannot_publish'],
        ['editor', authorEvent, { title: 'Edited by editor' }, 200],
        ['admin', 99999999, {}, 403, 'rest_forbidden'],
      ];
      for (const [who, id, body, status, code] of cases) {
        const r = await api.send('PATCH', `${EVENTS}/${id}`, body, who);
        expect(r.status, `${who} ${id}`).toBe(status);
        if (code) expect(r.body.code).toBe(code);
      }
      const venueId = one("SELECT id FROM posts WHERE type = 'calendar_venue' LIMIT 1").id;
      expect((await api.send('PUT', `${EVENTS}/${venueId}`, { title: 'x' }, 'admin')).status).toBe(403);
    });
  });

  describe('DELETE /events/<id>', () => {
    it("trashes with 200 [], then answers 410 with TC's error body", async () => {
      const id = (await create('admin')).body.id;
      let r = await api.send('DELETE', `${EVENTS}/${id}`, undefined, 'admin');
      expect(r.status).toBe(200);
      expect(r.body).toEqual([]);
      expect(sb.site.store.post(id)!.status).toBe('trash');
      // The ORM's read skips trashed posts (real-site-behaviour.md "Errors in other shapes").
      expect(await api.get(`${EVENTS}/${id}`, 'admin')).toMatchObject({
        status: 404,
        body: { error: 'The entity could not be read.' },
      });
      expect((await api.get(`${EVENTS}/${id}`)).status).toBe(401);
      r = await api.send('DELETE', `${EVENTS}/${id}`, undefined, 'admin');
      expect(r.status).toBe(410);
      expect(r.body).toEqual({ error: 'The entity has already been trashed.' });
    });

    it('deletes permanently with force, trashed or not', async () => {
      const fresh = (await create('admin')).body.id;
      let r = await api.send('DELETE', `${EVENTS}/${fresh}?force=true`, undefined, 'admin');
      expect(r.status).toBe(200);
      expect(r.body).toEqual([]);
      expect(sb.site.store.post(fresh)).toBeUndefined();
      const trashed = (await create('admin')).body.id;
      await api.send('DELETE', `${EVENTS}/${trashed}`, undefined, 'admin');
      r = await api.send('DELETE', `${EVENTS}/${trashed}`, { force: true }, 'admin');
      expect(r.status).toBe(200);
      expect(sb.site.store.post(trashed)).toBeUndefined();
      expect((await api.send('DELETE', `${EVENTS}/${trashed}`, undefined, 'admin')).status).toBe(403);
    });

    it('refuses a force that is not a boolean', async () => {
      const id = (await create('admin')).body.id;
      const r = await api.send('DELETE', `${EVENTS}/${id}?force=maybe`, undefined, 'admin');
      expect(r.status).toBe(400);
      expect(r.body.data.details.force.code).toBe('rest_invalid_type');
    });

    it('authorises per role and per post', async () => {
      const adminEvent = (await create('admin')).body.id;
      const contributorDraft = (await create('contributor', { status: 'draft' })).body.id;
      const authorEvent = (await create('author')).body.id;
      const cases: [Who, number, number][] = [
        [null, adminEvent, 401],
        ['subscriber', adminEvent, 403],
        ['contributor', adminEvent, 403],
        ['author', adminEvent, 403],
        ['contributor', contributorDraft, 200],
        ['author', authorEvent, 200],
        ['editor', adminEvent, 200],
      ];
      for (const [who, id, status] of cases)
        expect((await api.send('DELETE', `${EVENTS}/${id}`, undefined, who)).status, `${who} ${id}`).toBe(status);
    });
  });

  describe('occurrence notices', () => {
    const notices = (id: number) => `${EVENTS}/${id}/notices/occurrences`;

    it('are left by updating an event of a series, read once, then gone', async () => {
      const inSeries = one(
        "SELECT id FROM posts WHERE type = 'calendar_events' AND status = 'publish' AND json_extract(meta, '$.seriesId') > 0 LIMIT 1",
      ).id;
      expect((await api.get(notices(inSeries), 'editor')).body).toEqual([]);
      await api.send('PATCH', `${EVENTS}/${inSeries}`, { title: 'Series member, renamed' }, 'admin');
      const r = await api.get(notices(inSeries), 'editor', { 'x-tec-eea': '' });
      expect(r.status).toBe(200);
      expect(r.body).toHaveLength(1);
      expect(typeof r.body[0]).toBe('string');
      expect(JSON.parse(r.body[0])).toMatchObject({ type: 'occurrences', message: expect.any(String) });
      expect((await api.get(notices(inSeries), 'editor')).body).toEqual([]);
    });

    it('are not left for events outside a series', async () => {
      const single = (await create('admin')).body.id;
      await api.send('PATCH', `${EVENTS}/${single}`, { title: 'Alone' }, 'admin');
      expect((await api.get(notices(single), 'admin')).body).toEqual([]);
    });

    it('are cleared by DELETE with 204 and no body', async () => {
      const inSeries = one(
        "SELECT id FROM posts WHERE type = 'calendar_events' AND status = 'publish' AND json_extract(meta, '$.seriesId') > 0 LIMIT 1 OFFSET 1",
      ).id;
      await api.send('PATCH', `${EVENTS}/${inSeries}`, { cost: '5' }, 'admin');
      const r = await api.send('DELETE', notices(inSeries), undefined, 'subscriber');
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      expect((await api.get(notices(inSeries), 'admin')).body).toEqual([]);
    });

    it('need a signed-in user, and an event ID (checked first, as an argument)', async () => {
      const event = one("SELECT id FROM posts WHERE type = 'calendar_events' LIMIT 1").id;
      let r = await api.get(notices(event));
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('rest_forbidden');
      expect((await api.send('DELETE', notices(event))).status).toBe(401);
      for (const who of [null, 'admin'] as const) {
        r = await api.get(notices(venue), who);
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ code: 'rest_invalid_param', data: { params: { id: 'Invalid parameter.' } } });
      }
    });
  });

  describe('one store for both interfaces', () => {
    it('serves an event created here through the legacy interface', async () => {
      const id = (
        await create('admin', {
          content: '<p>Both ways.</p>',
          venues: [venue],
          organizers: [organizer],
          featured: true,
          cost: '12',
          timezone: 'Europe/Paris',
        })
      ).body.id;
      const r = await api.get(`/calendar/events/v1/events/${id}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        id,
        title: 'Write test',
        description: '<p>Both ways.</p>',
        start_date: '2027-03-01 10:00:00',
        end_date: '2027-03-01 12:00:00',
        utc_start_date: '2027-03-01 09:00:00',
        timezone: 'Europe/Paris',
        featured: true,
      });
      expect(r.body.venue.id).toBe(venue);
      expect(r.body.organizer.map((o: any) => o.id)).toEqual([organizer]);
      // The same record in the shared store, in the model's terms.
      expect(sb.site.store.post<any>(id)!.meta).toMatchObject({
        venueIds: [venue],
        organizerIds: [organizer],
        cost: '12',
        startDateUtc: '2027-03-01 09:00:00',
      });
    });

    it('serves here an event created through the legacy interface, and sees its updates', async () => {
      const created = await api.send(
        'POST',
        '/calendar/events/v1/events',
        {
          title: 'Written by the legacy side',
          description: '<p>Legacy.</p>',
          start_date: '2027-09-09 18:00:00',
          end_date: '2027-09-09 20:00:00',
          timezone: 'America/New_York',
          venue: venue,
          featured: true,
          categories: [category],
          status: 'publish',
        },
        'admin',
      );
      expect(created.status).toBe(201);
      const id = created.body.id;
      let r = await api.get(`${EVENTS}/${id}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        title: { rendered: 'Written by the legacy side' },
        content: { rendered: '<p>Legacy.</p>\n' },
        start_date: '2027-09-09 18:00:00',
        start_date_utc: '2027-09-09 22:00:00',
        featured: true,
        calendar_events_cat: [category],
      });
      expect(r.body.venues.map((v: any) => v.id)).toEqual([venue]);
      await api.send('PATCH', `${EVENTS}/${id}`, { title: 'Renamed here' }, 'admin');
      r = await api.get(`/calendar/events/v1/events/${id}`);
      expect(r.body.title).toBe('Renamed here');
    });
  });
});
