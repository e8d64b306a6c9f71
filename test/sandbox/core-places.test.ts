/**
 * calendar-core/v1 venues and organizers: the B3 lists (venues with their
 * location filters), their objects, and their writes (reference
 * calendar-upstream.md §2).
 *
 * As TEC 6.17 (`tec: '6.17'`), whose lists refuse bad arguments; TEC 6.15's
 * unchecked lists are covered in real-site-core.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const VENUES = '/calendar-core/v1/venues';
const ORGANIZERS = '/calendar-core/v1/organizers';

describe('calendar-core/v1 venues and organizers', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  const one = <T = any>(sql: string, ...args: unknown[]) => sb.site.store.db.prepare(sql).get(...args) as T;
  const count = (sql: string) => one<{ n: number }>(sql).n;

  beforeAll(async () => {
    // Anchor and clock pinned together: "upcoming" means the same on any day the tests run.
    sb = await testSandbox({ anchor: '2026-06-01', now: '2026-06-01T12:00:00Z', tec: '6.17' });
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  describe('lists', () => {
    it('are bare arrays of published posts ordered by title, with totals and links', async () => {
      for (const [path, type] of [
        [VENUES, 'calendar_venue'],
        [ORGANIZERS, 'calendar_organizer'],
      ] as const) {
        const r = await api.get(`${path}?per_page=7`);
        expect(r.status).toBe(200);
        const total = count(`SELECT COUNT(*) n FROM posts WHERE type = '${type}' AND status = 'publish'`);
        expect(r.headers.get('x-wp-total')).toBe(String(total));
        expect(r.headers.get('x-wp-totalpages')).toBe(String(Math.ceil(total / 7)));
        expect(r.headers.get('link')).toBe(`<${sb.url}${path.slice(1)}?per_page=7&page=2>; rel="next"`);
        const titles = r.body.map((p: any) => p.title.rendered.toLowerCase());
        expect([...titles].sort()).toEqual(titles);
        expect(r.body.every((p: any) => p.type === type && p.status === 'publish')).toBe(true);
      }
    });

    it('share the bounds and the data-less 404 of the events list', async () => {
      for (const path of [VENUES, ORGANIZERS]) {
        expect((await api.get(`${path}?per_page=101`)).body.data.params.per_page).toBe(
          'per_page must be between 1 (inclusive) and 100 (inclusive)',
        );
        expect((await api.get(`${path}?page=0`)).status).toBe(400);
        expect((await api.get(`${path}?status=publish&status[]=publish`)).status).toBe(200);
        expect((await api.get(`${path}?status[]=publish&status[]=publish`)).body.data.details.status.code).toBe(
          'rest_duplicate_items',
        );
        const r = await api.get(`${path}?page=50`);
        expect(r.status).toBe(404);
        expect(r.body).toEqual({
          code: 'tec_rest_organizers_page_not_found',
          message: 'The requested page was not found.',
        });
      }
    });

    it('need the acknowledgement header', async () => {
      const r = await api.get(VENUES, null, { 'x-tec-eea': '' });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('missing_experimental_endpoint_acknowledgement');
    });

    it('show drafts to editors only', async () => {
      const drafts = count("SELECT COUNT(*) n FROM posts WHERE type = 'calendar_venue' AND status = 'draft'");
      expect(drafts).toBeGreaterThan(0);
      expect((await api.get(`${VENUES}?status=draft`, 'editor')).body).toHaveLength(drafts);
      expect((await api.get(`${VENUES}?status=draft`, 'author')).body.every((v: any) => v.status === 'publish')).toBe(
        true,
      );
    });

    it('filter by search, by event and by having events', async () => {
      const event = one(
        "SELECT id, meta FROM posts WHERE type = 'calendar_events' AND status = 'publish' AND json_array_length(meta, '$.organizerIds') > 1 LIMIT 1",
      );
      const organizerIds = JSON.parse(event.meta).organizerIds as number[];
      let r = await api.get(`${ORGANIZERS}?event=${event.id}`);
      expect(r.body.map((o: any) => o.id).sort()).toEqual([...organizerIds].sort());
      r = await api.get(`${ORGANIZERS}?search=guild&per_page=100`);
      expect(r.body.length).toBeGreaterThan(0);
      expect(r.body.every((o: any) => o.title.rendered.toLowerCase().includes('guild'))).toBe(true);
      const withEvents = Number((await api.get(`${VENUES}?has_events=true`)).headers.get('x-wp-total'));
      const without = Number((await api.get(`${VENUES}?has_events=false`)).headers.get('x-wp-total'));
      expect(withEvents + without).toBe(Number((await api.get(VENUES)).headers.get('x-wp-total')));
      const upcoming = Number((await api.get(`${VENUES}?only_with_upcoming=true`)).headers.get('x-wp-total'));
      expect(upcoming).toBeGreaterThan(0);
      expect(upcoming).toBeLessThanOrEqual(withEvents);
    });

    it('filter venues by coordinates, place name and having coordinates', async () => {
      let r = await api.get(`${VENUES}?geoloc_lat=48.8566&geoloc_lng=2.3522&distance=20&per_page=100`);
      expect(r.body.length).toBeGreaterThan(0);
      expect(r.body.every((v: any) => v.city === 'Paris')).toBe(true);
      r = await api.get(`${VENUES}?near=Lyon&per_page=100`);
      expect(r.body.length).toBeGreaterThan(0);
      expect(r.body.every((v: any) => v.city === 'Lyon')).toBe(true);
      r = await api.get(`${VENUES}?near=Paris&distance=500&per_page=100`);
      expect(new Set(r.body.map((v: any) => v.city))).toEqual(new Set(['Paris', 'Lyon', 'London']));
      expect((await api.get(`${VENUES}?near=Atlantis`)).body).toEqual([]);
      r = await api.get(`${VENUES}?has_geoloc=false&per_page=100`);
      expect(r.body.length).toBeGreaterThan(0);
      expect(r.body.every((v: any) => v.lat === null && v.lng === null)).toBe(true);
      expect((await api.get(`${VENUES}?geoloc_lat=91&geoloc_lng=0`)).body.data.details.geoloc_lat.code).toBe(
        'rest_out_of_bounds',
      );
    });
  });

  describe('objects', () => {
    it('are posts-controller objects with the venue fields', async () => {
      const id = one(
        "SELECT id FROM posts WHERE type = 'calendar_venue' AND status = 'publish' AND json_extract(meta, '$.address') != '' AND json_extract(meta, '$.lat') IS NOT NULL LIMIT 1",
      ).id;
      const v = (await api.get(`${VENUES}/${id}`)).body;
      expect(Object.keys(v)).toEqual([
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
        'class_list',
        'address',
        'country',
        'city',
        'state_province',
        'state',
        'province',
        'zip',
        'phone',
        'directions_link',
        'website',
        'lat',
        'lng',
      ]);
      expect(v.link).toBe(`${sb.origin}/venue/${v.slug}/`);
      expect(v.directions_link).toMatch(
        /^https:\/\/maps\.google\.com\/maps\?f=q&#038;source=s_q&#038;hl=en&#038;geocode=&#038;q=\S+$/,
      );
      expect(v.directions_link).toContain(encodeURIComponent(v.city).replace(/%20/g, '+'));
      expect(typeof v.lat).toBe('number');
    });

    it('are posts-controller objects with the organizer fields', async () => {
      const id = one("SELECT id FROM posts WHERE type = 'calendar_organizer' AND status = 'publish' LIMIT 1").id;
      const o = (await api.get(`${ORGANIZERS}/${id}`)).body;
      expect(Object.keys(o).slice(-4)).toEqual(['class_list', 'phone', 'website', 'email']);
      expect(o.type).toBe('calendar_organizer');
    });

    it('are refused for another type or an unreadable draft', async () => {
      const event = one("SELECT id FROM posts WHERE type = 'calendar_events' AND status = 'publish' LIMIT 1").id;
      expect((await api.get(`${ORGANIZERS}/${event}`)).status).toBe(401);
      const draft = one("SELECT id FROM posts WHERE type = 'calendar_venue' AND status = 'draft' LIMIT 1").id;
      expect((await api.get(`${VENUES}/${draft}`, 'subscriber')).status).toBe(403);
      expect((await api.get(`${VENUES}/${draft}`, 'editor')).status).toBe(200);
    });
  });

  describe('writes', () => {
    it('create a venue with its fields and answer 201 with a Location', async () => {
      const r = await api.send(
        'POST',
        VENUES,
        {
          title: 'Quay Hall',
          address: '1 Quay St',
          city: 'Boston',
          state_province: 'MA',
          state: 'MA',
          province: '',
          zip: '02110',
          country: 'United States',
          phone: '+1 555 0100',
          website: 'https://quay.example',
          lat: 42.36,
          lng: -71.05,
        },
        'author',
      );
      expect(r.status).toBe(201);
      expect(r.headers.get('location')).toBe(`${sb.url}calendar-core/v1/venues/${r.body.id}`);
      expect(r.body).toMatchObject({
        title: { rendered: 'Quay Hall' },
        city: 'Boston',
        state_province: 'MA',
        zip: '02110',
        lat: 42.36,
        lng: -71.05,
        author: 3,
      });
      expect(sb.site.store.post<any>(r.body.id)!.meta).toMatchObject({
        stateprovince: 'MA',
        website: 'https://quay.example',
      });
      expect(sb.site.store.post(r.body.id)!.menuOrder).toBe(0);
    });

    it('create an organizer and check its email and website formats', async () => {
      let r = await api.send(
        'POST',
        ORGANIZERS,
        { title: 'Lantern Society', email: 'hello@lantern.example', website: 'https://lantern.example', phone: '555' },
        'editor',
      );
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        email: 'hello@lantern.example',
        website: 'https://lantern.example',
        phone: '555',
      });
      r = await api.send('POST', ORGANIZERS, { title: 'Bad', email: 'not-an-email' }, 'editor');
      expect(r.status).toBe(400);
      expect(r.body.data.details.email.code).toBe('rest_invalid_email');
      r = await api.send('POST', ORGANIZERS, { title: 'Bad', website: 'nope' }, 'editor');
      expect(r.body.data.details.website.code).toBe('rest_invalid_uri');
    });

    it('update with PUT or PATCH, and delete through trash, 410 and force', async () => {
      const id = (await api.send('POST', ORGANIZERS, { title: 'Short-lived', phone: '1' }, 'admin')).body.id;
      expect((await api.send('PATCH', `${ORGANIZERS}/${id}`, { phone: '2' }, 'admin')).body).toMatchObject({
        phone: '2',
        title: { rendered: 'Short-lived' },
      });
      expect((await api.send('PUT', `${ORGANIZERS}/${id}`, { title: 'Renamed' }, 'admin')).body).toMatchObject({
        phone: '2',
        title: { rendered: 'Renamed' },
      });
      expect((await api.send('POST', `${ORGANIZERS}/${id}`, { title: 'x' }, 'admin')).body.code).toBe('rest_no_route');
      expect((await api.send('DELETE', `${ORGANIZERS}/${id}`, undefined, 'admin')).body).toEqual([]);
      const again = await api.send('DELETE', `${ORGANIZERS}/${id}`, undefined, 'admin');
      expect(again.status).toBe(410);
      expect(again.body).toEqual({ error: 'The entity has already been trashed.' });
      expect((await api.send('DELETE', `${ORGANIZERS}/${id}?force=1`, undefined, 'admin')).status).toBe(200);
      expect(sb.site.store.post(id)).toBeUndefined();
    });

    it('authorise per role', async () => {
      expect((await api.send('POST', VENUES, { title: 'x' })).status).toBe(401);
      expect((await api.send('POST', VENUES, { title: 'x' }, 'subscriber')).status).toBe(403);
      expect((await api.send('POST', VENUES, { title: 'x' }, 'contributor')).body.code).toBe('rest_cannot_publish');
      expect((await api.send('POST', VENUES, { title: 'x', status: 'pending' }, 'contributor')).status).toBe(201);
      const adminVenue = one(
        "SELECT id FROM posts WHERE type = 'calendar_venue' AND author = 1 AND status = 'publish' LIMIT 1",
      ).id;
      expect((await api.send('PATCH', `${VENUES}/${adminVenue}`, { title: 'x' }, 'author')).status).toBe(403);
      expect((await api.send('DELETE', `${VENUES}/${adminVenue}`, undefined, 'contributor')).status).toBe(403);
    });
  });
});
