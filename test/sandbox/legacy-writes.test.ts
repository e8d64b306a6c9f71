/**
 * Writing events on the legacy interface (calendar-upstream.md §1.6): create,
 * update and delete, who may do them, the order of checks, linked venues and
 * organizers, and that bad input never writes a partial record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CATEGORY_TAX,
  EVENT,
  ORGANIZER,
  TAG_TAX,
  VENUE,
  type EventMeta,
} from '../../packages/sandbox/src/calendar/model.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const EVENTS = '/calendar/events/v1/events';

describe('legacy event writes (calendar/events/v1)', () => {
  let sb: RunningSandbox;
  let api: RestClient;

  beforeAll(async () => {
    sb = await testSandbox();
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  const base = { title: 'Legacy write', start_date: '2027-03-01 10:00:00', end_date: '2027-03-01 12:00:00' };
  const count = (type: string) =>
    (sb.site.store.db.prepare('SELECT COUNT(*) AS n FROM posts WHERE type = ?').get(type) as { n: number }).n;
  const counts = () => ({
    events: count(EVENT),
    venues: count(VENUE),
    organizers: count(ORGANIZER),
    attachments: count('attachment'),
  });
  const venueId = () => sb.site.store.posts(VENUE, ['publish'])[0]!.id;
  const organizerIds = () =>
    sb.site.store
      .posts(ORGANIZER, ['publish'])
      .slice(0, 3)
      .map((o) => o.id);
  const create = async (body: Record<string, unknown>, who: Parameters<RestClient['send']>[3] = 'admin') =>
    api.send('POST', EVENTS, { ...base, ...body }, who);

  describe('create', () => {
    it('refuses anonymous callers with 401 and subscribers with 403 rest_forbidden', async () => {
      const before = counts();
      let r = await api.send('POST', EVENTS, base);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: 401 },
      });
      r = await api.send('POST', EVENTS, base, 'subscriber');
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('rest_forbidden');
      expect(counts()).toEqual(before);
    });

    it('lists every missing required parameter, and that 400 comes before the 401', async () => {
      const r = await api.send('POST', EVENTS, { start_date: '2027-01-01 10:00:00' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): title, end_date',
        data: { status: 400, params: ['title', 'end_date'] },
      });
      const bad = await api.send('POST', EVENTS, { ...base, start_date: 'whenever' });
      expect(bad.status).toBe(400);
      expect(bad.body.data.params).toEqual({ start_date: 'Invalid parameter.' });
    });

    it('creates an event with 201 and reads every field back', async () => {
      const jazz = sb.site.store.termBySlug(CATEGORY_TAX, 'jazz')!;
      const r = await create({
        title: 'Harbour Jazz Night',
        description: '<p>Late set.</p>',
        excerpt: 'Late',
        slug: 'harbour-jazz',
        timezone: 'Asia/Tokyo',
        start_date: '2027-04-02 19:30:00',
        end_date: '2027-04-02 22:00:00',
        cost: '$15',
        website: 'https://jazz.example/night',
        show_map: false,
        show_map_link: false,
        hide_from_listings: true,
        sticky: true,
        featured: true,
        categories: [jazz.id, 'Harbour Nights'],
        tags: ['outdoor', 'lantern-walks'],
        author: 3,
      });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        title: 'Harbour Jazz Night',
        description: '<p>Late set.</p>',
        excerpt: 'Late',
        slug: 'harbour-jazz',
        status: 'publish',
        author: '3',
        timezone: 'Asia/Tokyo',
        timezone_abbr: 'JST',
        start_date: '2027-04-02 19:30:00',
        end_date: '2027-04-02 22:00:00',
        utc_start_date: '2027-04-02 10:30:00',
        utc_end_date: '2027-04-02 13:00:00',
        cost: '$15',
        website: 'https://jazz.example/night',
        show_map: false,
        show_map_link: false,
        hide_from_listings: true,
        sticky: true,
        featured: true,
        venue: [],
        organizer: [],
      });
      expect(r.body).not.toHaveProperty('json_ld');
      expect(r.body.categories.map((c: any) => c.name).sort()).toEqual(['Harbour Nights', 'Jazz']);
      expect(r.body.tags.map((t: any) => t.slug).sort()).toEqual(['lantern-walks', 'outdoor']);
      expect(sb.site.store.termBySlug(CATEGORY_TAX, 'harbour-nights')).toBeDefined();
      expect(sb.site.store.termBySlug(TAG_TAX, 'lantern-walks')).toBeDefined();
      const read = await api.get(`${EVENTS}/${r.body.id}`);
      expect(read.status).toBe(200);
      expect({ ...read.body, json_ld: undefined }).toEqual({ ...r.body, json_ld: undefined });
    });

    it('defaults the time zone to the site one and the author to the caller', async () => {
      const r = await create({}, 'author');
      expect(r.body.timezone).toBe(sb.site.timezone);
      expect(r.body.author).toBe(String(sb.users.find((u) => u.login === 'author')!.id));
    });

    it('moves an end before the start to the start, and stretches all-day events to whole days', async () => {
      let r = await create({ start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 08:00:00' });
      expect(r.body.end_date).toBe('2027-05-01 10:00:00');
      r = await create({ all_day: true, start_date: '2027-05-02 10:00:00', end_date: '2027-05-03 08:00:00' });
      expect(r.body).toMatchObject({
        all_day: true,
        start_date: '2027-05-02 00:00:00',
        end_date: '2027-05-03 23:59:59',
      });
    });

    it('reads the currency from the cost: a symbol before is a prefix, after is a suffix', async () => {
      const r = await create({ cost: '20 €' });
      expect(r.body.cost).toBe('20 €');
      expect(r.body.cost_details).toEqual({
        currency_symbol: '€',
        currency_code: 'EUR',
        currency_position: 'suffix',
        values: ['20'],
      });
      const free = await create({ cost: 'Free' });
      expect(free.body.cost).toBe('Free');
    });

    it('scales the status back for callers who may not publish', async () => {
      const cases: [string, string | undefined, string][] = [
        ['contributor', 'publish', 'pending'],
        ['contributor', 'future', 'pending'],
        ['contributor', undefined, 'draft'],
        ['contributor', 'draft', 'draft'],
        ['author', undefined, 'publish'],
        ['author', 'pending', 'pending'],
        ['editor', 'draft', 'draft'],
      ];
      for (const [who, status, expected] of cases) {
        const r = await create(status ? { status } : {}, who as 'author');
        expect(r.status, `${who} ${status}`).toBe(201);
        expect(r.body.status, `${who} ${status}`).toBe(expected);
      }
      expect((await create({ status: 'imaginary' })).status).toBe(400);
    });

    it('takes a featured image as an attachment ID or a URL', async () => {
      const attachment = sb.site.store.posts('attachment')[0]!;
      let r = await create({ image: attachment.id });
      expect(r.body.image).toMatchObject({ id: attachment.id, width: 1200 });
      const before = counts().attachments;
      r = await create({ image: 'https://cdn.example/poster.png' });
      expect(r.body.image).toEqual({ url: 'https://cdn.example/poster.png', id: expect.any(Number), extension: 'png' });
      expect(counts().attachments).toBe(before + 1);
      const again = await create({ image: 'https://cdn.example/poster.png' });
      expect(again.body.image.id).toBe(r.body.image.id);
      expect(counts().attachments).toBe(before + 1);
      expect((await create({ image: venueId() })).status).toBe(400);
    });
  });

  describe('linked venues and organizers', () => {
    it('links an existing venue by ID or by {id}', async () => {
      const v = venueId();
      expect((await create({ venue: v })).body.venue.id).toBe(v);
      expect((await create({ venue: { id: v } })).body.venue.id).toBe(v);
      expect((await create({ venue: String(v) })).body.venue.id).toBe(v);
    });

    it('creates a venue from data, and reuses it for the same data', async () => {
      const before = counts().venues;
      const r = await create({ venue: { venue: 'Quayside Hall', city: 'Lyon', address: '3 Quai' } }, 'contributor');
      expect(r.status).toBe(201);
      expect(r.body.venue).toMatchObject({ venue: 'Quayside Hall', city: 'Lyon', address: '3 Quai', status: 'draft' });
      expect(counts().venues).toBe(before + 1);
      const again = await create({ venue: { venue: 'Quayside Hall', city: 'Lyon', address: '3 Quai' } });
      expect(again.body.venue.id).toBe(r.body.venue.id);
      expect(counts().venues).toBe(before + 1);
    });

    it('links organizers from a CSV of IDs, a list of IDs and {id}, and new organizer data', async () => {
      const [a, b, c] = organizerIds();
      expect((await create({ organizer: `${a},${b}` })).body.organizer.map((o: any) => o.id)).toEqual([a, b]);
      const before = counts().organizers;
      const r = await create({
        organizer: [c, { id: a }, { organizer: 'Tide Collective', email: 'tide@example.com' }],
      });
      expect(r.status).toBe(201);
      expect(r.body.organizer.slice(0, 2).map((o: any) => o.id)).toEqual([c, a]);
      expect(r.body.organizer[2]).toMatchObject({ organizer: 'Tide Collective', email: 'tide@example.com' });
      expect(counts().organizers).toBe(before + 1);
    });

    it('refuses a venue or organizer ID of the wrong type as an invalid parameter', async () => {
      const [org] = organizerIds();
      let r = await create({ venue: org });
      expect(r.status).toBe(400);
      expect(r.body.data.params).toEqual({ venue: 'Invalid parameter.' });
      r = await create({ organizer: [venueId()] });
      expect(r.status).toBe(400);
      expect(r.body.data.params).toEqual({ organizer: 'Invalid parameter.' });
    });

    it('refuses a linked {id} of the wrong type with invalid-linked-post-id', async () => {
      const r = await create({ venue: { id: organizerIds()[0] } });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'invalid-linked-post-id',
        message: 'The provided linked post ID is not valid',
        data: { status: 400 },
      });
    });

    it('never writes a partial record when the input is bad', async () => {
      const before = counts();
      const terms = sb.site.store.terms(CATEGORY_TAX).length;
      // A new venue without its name: refused while validating.
      let r = await create({
        venue: { city: 'Nowhere' },
        organizer: [{ organizer: 'Ghost Org' }],
        categories: ['Ghost Category'],
      });
      expect(r.status).toBe(400);
      expect(r.body.data.params).toEqual({ venue: 'Invalid parameter.' });
      // Valid new venue and organizer data, but a wrong-type {id} after them: refused before anything is written.
      r = await create({
        venue: { venue: 'Phantom Hall' },
        organizer: [{ organizer: 'Phantom Org' }, { id: venueId() }],
        categories: ['Phantom Category'],
        image: 'https://cdn.example/phantom.jpg',
      });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid-linked-post-id');
      // Same for an update.
      const target = (await create({})).body.id as number;
      const after = counts();
      r = await api.send(
        'PATCH',
        `${EVENTS}/${target}`,
        { title: 'Changed', venue: { venue: 'Phantom Hall 2' }, organizer: [{ id: venueId() }] },
        'admin',
      );
      expect(r.status).toBe(400);
      expect(counts()).toEqual(after);
      expect(after).toEqual({ ...before, events: before.events + 1 });
      expect(sb.site.store.post(target)!.title).toBe(base.title);
      expect(sb.site.store.terms(CATEGORY_TAX).length).toBe(terms);
      const titles = sb.site.store.db
        .prepare("SELECT title FROM posts WHERE title LIKE 'Phantom%' OR title LIKE 'Ghost%'")
        .all();
      expect(titles).toEqual([]);
    });
  });

  describe('update', () => {
    it('rebuilds the calendar data from the request with POST, PUT or PATCH (not a partial update), and answers 200', async () => {
      // real-site-behaviour.md, "Legacy update ... is not a partial update": what is omitted is reset.
      for (const [method, title] of [
        ['POST', 'By post'],
        ['PUT', 'By put'],
        ['PATCH', 'By patch'],
      ] as const) {
        const created = (await create({ description: 'Keep me', cost: '5', featured: true })).body;
        const r = await api.send(method, `${EVENTS}/${created.id}`, { title }, 'admin');
        expect(r.status, method).toBe(200);
        expect(r.body, method).toMatchObject({
          id: created.id,
          title,
          description: 'Keep me',
          start_date: base.start_date,
          end_date: base.end_date,
          cost: '',
          featured: false,
        });
      }
      const created = (await create({})).body;
      const r = await api.send(
        'PATCH',
        `${EVENTS}/${created.id}`,
        { end_date: '2027-03-01 15:00:00', featured: true },
        'admin',
      );
      // An end date without its start date is ignored.
      expect(r.body).toMatchObject({ start_date: base.start_date, end_date: base.end_date, featured: true });
    });

    it('updates by slug, where a slug in the body renames the event', async () => {
      const created = (await create({ title: 'Slug Target' })).body;
      let r = await api.send('PATCH', `${EVENTS}/by-slug/${created.slug}`, { excerpt: 'via slug' }, 'admin');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: created.id, excerpt: 'via slug', slug: created.slug });
      r = await api.send('PATCH', `${EVENTS}/by-slug/${created.slug}`, { slug: 'renamed-target' }, 'admin');
      expect(r.body.slug).toBe('renamed-target');
      expect((await api.get(`${EVENTS}/by-slug/renamed-target`)).body.id).toBe(created.id);
    });

    it('answers missing and other-type IDs as GET does', async () => {
      let r = await api.send('PATCH', `${EVENTS}/999999`, { title: 'x' }, 'admin');
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('rest_invalid_param');
      expect(r.body.data.params).toEqual({ id: 'Invalid parameter.' });
      r = await api.send('PATCH', `${EVENTS}/${venueId()}`, { title: 'x' }, 'admin');
      expect(r.status).toBe(400);
      expect(r.body.data.params).toEqual({ id: 'Invalid parameter.' });
      r = await api.send('PATCH', `${EVENTS}/by-slug/no-such-slug`, { title: 'x' }, 'admin');
      expect(r.status).toBe(404);
      expect(r.body.message).toBe('Event with ID 0 does not exist.');
    });

    it('needs the right to edit that very event', async () => {
      const adminEvent = (await create({})).body.id;
      let r = await api.send('PATCH', `${EVENTS}/${adminEvent}`, { title: 'x' });
      expect(r.status).toBe(401);
      r = await api.send('PATCH', `${EVENTS}/${adminEvent}`, { title: 'x' }, 'subscriber');
      expect(r.status).toBe(403);
      for (const who of ['contributor', 'author'] as const) {
        r = await api.send('PATCH', `${EVENTS}/${adminEvent}`, { title: 'x' }, who);
        expect(r.status, who).toBe(403);
        expect(r.body.code).toBe('rest_forbidden');
      }
      const own = (await create({}, 'author')).body.id;
      r = await api.send('PATCH', `${EVENTS}/${own}`, { title: 'Mine' }, 'author');
      expect(r.status).toBe(200);
      r = await api.send('PATCH', `${EVENTS}/${own}`, { title: 'Theirs' }, 'editor');
      expect(r.status).toBe(200);
      expect(sb.site.store.post(adminEvent)!.title).toBe(base.title);
    });

    it('scales the status back on every update, as TEC does: no status means publish for publishers', async () => {
      const draft = (await create({ status: 'draft' })).body.id;
      let r = await api.send('PATCH', `${EVENTS}/${draft}`, { title: 'Now published' }, 'editor');
      expect(r.body.status).toBe('publish');
      const pending = (await create({ status: 'pending' }, 'contributor')).body.id;
      r = await api.send('PATCH', `${EVENTS}/${pending}`, { title: 'Back to draft' }, 'contributor');
      expect(r.status).toBe(200);
      expect(r.body.status).toBe('draft');
      r = await api.send('PATCH', `${EVENTS}/${pending}`, { status: 'publish' }, 'contributor');
      expect(r.body.status).toBe('pending');
    });
  });

  describe('delete', () => {
    it('trashes the event and answers 200 with it, then 410 event-is-in-trash', async () => {
      const id = (await create({ title: 'Short-lived' })).body.id;
      const r = await api.send('DELETE', `${EVENTS}/${id}`, undefined, 'admin');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id, title: 'Short-lived', status: 'trash' });
      expect(r.body).toHaveProperty('custom_fields');
      expect(sb.site.store.post<EventMeta>(id)!.status).toBe('trash');
      expect((await api.get(`${EVENTS}/${id}`)).body.code).toBe('event-no-longer-available');
      const again = await api.send('DELETE', `${EVENTS}/${id}`, undefined, 'admin');
      expect(again.status).toBe(410);
      expect(again.body).toEqual({
        code: 'event-is-in-trash',
        message: 'The event is already trashed',
        data: { status: 410 },
      });
    });

    it('deletes by slug too, and refuses a missing event ID with 400 rest_invalid_param naming id', async () => {
      const created = (await create({ title: 'Slug Delete' })).body;
      const r = await api.send('DELETE', `${EVENTS}/by-slug/${created.slug}`, undefined, 'admin');
      expect(r.status).toBe(200);
      expect(r.body.status).toBe('trash');
      const missing = await api.send('DELETE', `${EVENTS}/999999`, undefined, 'admin');
      expect(missing.status).toBe(400);
      expect(missing.body.data.params).toEqual({ id: 'Invalid parameter.' });
    });

    it('needs the right to delete that very event', async () => {
      const adminEvent = (await create({})).body.id;
      expect((await api.send('DELETE', `${EVENTS}/${adminEvent}`)).status).toBe(401);
      expect((await api.send('DELETE', `${EVENTS}/${adminEvent}`, undefined, 'subscriber')).status).toBe(403);
      expect((await api.send('DELETE', `${EVENTS}/${adminEvent}`, undefined, 'author')).status).toBe(403);
      expect(sb.site.store.post(adminEvent)!.status).toBe('publish');
      const own = (await create({ status: 'draft' }, 'contributor')).body.id;
      expect((await api.send('DELETE', `${EVENTS}/${own}`, undefined, 'contributor')).status).toBe(200);
      expect((await api.send('DELETE', `${EVENTS}/${adminEvent}`, undefined, 'editor')).status).toBe(200);
    });
  });

  describe('batch', () => {
    it('refuses legacy routes inside /batch/v1 with rest_batch_not_allowed, writing nothing', async () => {
      const before = counts();
      const r = await api.send(
        'POST',
        '/batch/v1',
        {
          requests: [
            { path: EVENTS, body: base },
            { method: 'DELETE', path: `${EVENTS}/${sb.site.store.posts(EVENT, ['publish'])[0]!.id}` },
            { path: '/calendar/events/v1/venues', body: { venue: 'Batch Hall' } },
          ],
        },
        'admin',
      );
      expect(r.status).toBe(207);
      for (const item of r.body.responses) {
        expect(item.status).toBe(400);
        expect(item.body).toEqual({
          code: 'rest_batch_not_allowed',
          message: 'The requested route does not support batch requests.',
          data: { status: 400 },
        });
      }
      expect(r.body.responses[0].headers).toEqual({ Allow: 'GET, POST' });
      expect(counts()).toEqual(before);
    });
  });
});
