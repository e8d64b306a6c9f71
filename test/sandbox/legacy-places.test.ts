/**
 * Legacy venues and organizers (spec A, A2; calendar-upstream.md §1.4, §1.6):
 * archives, single objects, and writes. Both kinds share the contract, so
 * every behaviour is pinned for each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT, ORGANIZER, VENUE, type EventMeta } from '../../packages/sandbox/src/calendar/model.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import type { PostRow } from '../../packages/sandbox/src/store/db.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const NS = '/calendar/events/v1';

const KINDS = [
  { kind: 'venue', plural: 'venues', type: VENUE, name: 'venue', extra: { city: 'Lyon', zip: '69002' } },
  {
    kind: 'organizer',
    plural: 'organizers',
    type: ORGANIZER,
    name: 'organizer',
    extra: { email: 'crew@example.com', phone: '+1 555 0999' },
  },
] as const;

describe('legacy venues and organizers (calendar/events/v1)', () => {
  let sb: RunningSandbox;
  let api: RestClient;

  beforeAll(async () => {
    sb = await testSandbox();
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  for (const k of KINDS) {
    const path = `${NS}/${k.plural}`;
    const posts = () => sb.site.store.posts<Record<string, unknown>>(k.type);
    const published = () => posts().filter((p) => p.status === 'publish');
    const byTitle = (a: PostRow<unknown>, b: PostRow<unknown>) =>
      a.title.toLowerCase() < b.title.toLowerCase()
        ? -1
        : a.title.toLowerCase() > b.title.toLowerCase()
          ? 1
          : a.id - b.id;
    const linkedIds = () => {
      const ids = new Set<number>();
      for (const e of sb.site.store.posts<EventMeta>(EVENT, ['publish']))
        for (const id of k.kind === 'venue' ? e.meta.venueIds : e.meta.organizerIds) ids.add(id);
      return ids;
    };
    const all = async (query: string, who: Parameters<RestClient['get']>[1] = null) => {
      const out: any[] = [];
      for (let page = 1; ; page++) {
        const r = await api.get(`${path}?per_page=50&page=${page}${query ? `&${query}` : ''}`, who);
        expect(r.status).toBe(200);
        out.push(...r.body[k.plural]);
        if (!r.body.next_rest_url) return out;
      }
    };

    describe(`${k.plural} archive`, () => {
      it(`answers with ${k.plural}, rest_url, next_rest_url, total and total_pages, ordered by name`, async () => {
        const r = await api.get(`${path}?per_page=2`);
        expect(r.status).toBe(200);
        expect(Object.keys(r.body)).toEqual([k.plural, 'rest_url', 'next_rest_url', 'total', 'total_pages']);
        const expected = published().sort(byTitle);
        expect(r.body.total).toBe(expected.length);
        expect(r.body.total_pages).toBe(Math.ceil(expected.length / 2));
        expect(r.body[k.plural].map((x: any) => x.id)).toEqual(expected.slice(0, 2).map((x) => x.id));
        expect(r.headers.get('x-tec-total')).toBe(String(expected.length));
        expect(r.headers.get('x-tec-totalpages')).toBe(String(Math.ceil(expected.length / 2)));
        expect(r.headers.get('x-wp-total')).toBeNull();
        expect(r.body.rest_url).toBe(`${sb.url}calendar/events/v1/${k.plural}/?page=1&per_page=2&status=publish`);
        expect(r.body.next_rest_url).toBe(`${sb.url}calendar/events/v1/${k.plural}/?per_page=2&status=publish&page=2`);
        const second = await api.get(`${path}?per_page=2&page=2`);
        expect(second.body.previous_rest_url).toBe(
          `${sb.url}calendar/events/v1/${k.plural}/?per_page=2&status=publish`,
        );
      });

      it('caps per_page at 50, refuses non-positive paging and 404s past the last page', async () => {
        const r = await api.get(`${path}?per_page=80`);
        expect(r.body[k.plural].length).toBe(Math.min(50, published().length));
        expect(r.body.rest_url).toContain('per_page=50');
        for (const query of ['page=0', 'per_page=-1']) expect((await api.get(`${path}?${query}`)).status).toBe(400);
        const past = await api.get(`${path}?page=99`);
        expect(past.status).toBe(404);
        expect(past.body).toEqual({
          code: `${k.kind}-archive-page-not-found`,
          message: `The requested ${k.kind} archive page does not exist`,
          data: { status: 404 },
        });
      });

      it('searches names, leaving search out of rest_url as TEC does', async () => {
        const target = published()[3]!;
        const word = target.title.split(' ').pop()!;
        const r = await api.get(`${path}?search=${encodeURIComponent(target.title)}`);
        expect(r.body[k.plural].map((x: any) => x.id)).toContain(target.id);
        for (const x of r.body[k.plural]) expect(x[k.name].toLowerCase()).toContain(target.title.toLowerCase());
        expect(r.body.rest_url).not.toContain('search');
        expect((await api.get(`${path}?search=${word}-no-such`)).body.total).toBe(0);
      });

      it('keeps those linked to an event with event=<id>, and refuses an ID that is not an event', async () => {
        const e = sb.site.store
          .posts<EventMeta>(EVENT, ['publish'])
          .find((x) => (k.kind === 'venue' ? x.meta.venueIds : x.meta.organizerIds).length > 1)!;
        const expected = (k.kind === 'venue' ? e.meta.venueIds : e.meta.organizerIds).slice().sort((a, b) => a - b);
        const r = await api.get(`${path}?event=${e.id}`);
        expect(r.body[k.plural].map((x: any) => x.id).sort((a: number, b: number) => a - b)).toEqual(expected);
        expect(r.body.rest_url).toContain(`event=${e.id}`);
        const bad = await api.get(`${path}?event=${published()[0]!.id}`);
        expect(bad.status).toBe(400);
        expect(bad.body.data.params).toEqual({ event: 'Invalid parameter.' });
      });

      it('filters by has_events and only_with_upcoming', async () => {
        const linked = linkedIds();
        const withEvents = await all('has_events=true');
        const without = await all('has_events=false');
        expect(withEvents.length).toBe(published().filter((p) => linked.has(p.id)).length);
        expect(withEvents.every((x) => linked.has(x.id))).toBe(true);
        expect(without.every((x) => !linked.has(x.id))).toBe(true);
        expect(withEvents.length + without.length).toBe(published().length);
        const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
        const upcoming = new Set<number>();
        for (const e of sb.site.store.posts<EventMeta>(EVENT, ['publish'])) {
          if (e.meta.endDateUtc >= now)
            for (const id of k.kind === 'venue' ? e.meta.venueIds : e.meta.organizerIds) upcoming.add(id);
        }
        const r = await all('only_with_upcoming=1');
        expect(r.map((x) => x.id).sort()).toEqual(
          published()
            .filter((p) => upcoming.has(p.id))
            .map((p) => p.id)
            .sort(),
        );
      });

      it('lists drafts to editors only, and refuses other statuses to everyone else', async () => {
        const drafts = posts().filter((p) => p.status === 'draft');
        expect(drafts.length).toBeGreaterThan(0);
        const anon = await all('');
        expect(anon.every((x) => x.status === 'publish')).toBe(true);
        const editor = await api.get(`${path}?per_page=50`, 'editor');
        expect(editor.body.total).toBe(published().length + drafts.length);
        expect(editor.body.rest_url).toContain('status=any');
        const onlyDrafts = await api.get(`${path}?status=draft`, 'editor');
        expect(onlyDrafts.body[k.plural].map((x: any) => x.id).sort()).toEqual(drafts.map((d) => d.id).sort());
        for (const who of [null, 'author'] as const)
          expect((await api.get(`${path}?status=draft`, who)).status).toBe(400);
      });
    });

    describe(`single ${k.kind}`, () => {
      it('drops empty values, and answers the same by ID and by slug with json_ld', async () => {
        const p = published().find((x) => x.content === '' && Object.values(x.meta).some((v) => v === ''))!;
        const listed = (await all('')).find((x) => x.id === p.id);
        for (const [key, value] of Object.entries(listed)) expect(value, key).not.toBe('');
        expect(listed).not.toHaveProperty('description');
        expect(listed).not.toHaveProperty('json_ld');
        expect(listed.global_id).toBe(`${new URL(sb.origin).host}?id=${p.id}`);
        const byId = await api.get(`${path}/${p.id}`);
        expect(byId.status).toBe(200);
        expect(byId.body.json_ld['@type']).toBe(k.kind === 'venue' ? 'Place' : 'Person');
        expect({ ...byId.body, json_ld: undefined }).toEqual({ ...listed, json_ld: undefined });
        const bySlug = await api.get(`${path}/by-slug/${p.slug}`);
        expect(bySlug.body).toEqual(byId.body);
      });

      it('refuses a missing ID, an ID of another type or an unknown slug with 400 rest_invalid_param', async () => {
        const event = sb.site.store.posts(EVENT)[0]!.id;
        for (const bad of [`${path}/999999`, `${path}/${event}`, `${path}/by-slug/no-such-${k.kind}`]) {
          const r = await api.get(bad);
          expect(r.status, bad).toBe(400);
          expect(r.body.code).toBe('rest_invalid_param');
        }
      });

      it(`answers unreadable ones with 403 ${k.kind}-not-accessible`, async () => {
        const draft = posts().find((x) => x.status === 'draft')!;
        const r = await api.get(`${path}/${draft.id}`, 'subscriber');
        expect(r.status).toBe(403);
        expect(r.body).toEqual({
          code: `${k.kind}-not-accessible`,
          message: `The requested ${k.kind} is not accessible`,
          data: { status: 403 },
        });
        expect((await api.get(`${path}/${draft.id}`, 'editor')).body.status).toBe('draft');
      });
    });

    describe(`${k.kind} writes`, () => {
      it(`creates with 201, needs the ${k.name} name, and refuses callers who may not edit`, async () => {
        const body = { [k.name]: `Test ${k.kind} alpha`, ...k.extra };
        expect((await api.send('POST', path, body)).status).toBe(401);
        expect((await api.send('POST', path, body, 'subscriber')).status).toBe(403);
        const missing = await api.send('POST', path, { ...k.extra });
        expect(missing.status).toBe(400);
        expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param', data: { params: [k.name] } });
        const r = await api.send('POST', path, body, 'author');
        expect(r.status).toBe(201);
        expect(r.body).toMatchObject({
          [k.name]: `Test ${k.kind} alpha`,
          status: 'publish',
          author: String(sb.users.find((u) => u.login === 'author')!.id),
          ...k.extra,
        });
        expect(r.body).not.toHaveProperty('json_ld');
        const contributor = await api.send(
          'POST',
          path,
          { [k.name]: `Test ${k.kind} beta`, status: 'publish' },
          'contributor',
        );
        expect(contributor.body.status).toBe('pending');
      });

      it('updates by ID and by slug with 200, for those who may edit that one', async () => {
        const created = (await api.send('POST', path, { [k.name]: `Test ${k.kind} gamma` }, 'author')).body;
        let r = await api.send('PATCH', `${path}/${created.id}`, { phone: '+1 555 0100' }, 'author');
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ id: created.id, phone: '+1 555 0100', [k.name]: `Test ${k.kind} gamma` });
        r = await api.send('PUT', `${path}/by-slug/${created.slug}`, { [k.name]: `Test ${k.kind} delta` }, 'editor');
        expect(r.status).toBe(200);
        expect(r.body[k.name]).toBe(`Test ${k.kind} delta`);
        expect((await api.send('PATCH', `${path}/${created.id}`, { phone: '1' }, 'contributor')).status).toBe(403);
        expect((await api.send('PATCH', `${path}/${created.id}`, { phone: '1' })).status).toBe(401);
        expect((await api.send('PATCH', `${path}/999999`, { phone: '1' }, 'admin')).status).toBe(400);
        expect((await api.send('PATCH', `${path}/${created.id}`, { website: 'not a url' }, 'admin')).status).toBe(400);
      });

      it(`trashes with DELETE and answers the ${k.kind}, then 410 ${k.kind}-is-in-trash`, async () => {
        const created = (await api.send('POST', path, { [k.name]: `Test ${k.kind} epsilon` }, 'admin')).body;
        expect((await api.send('DELETE', `${path}/${created.id}`, undefined, 'subscriber')).status).toBe(403);
        expect((await api.send('DELETE', `${path}/${created.id}`, undefined, 'author')).status).toBe(403);
        const r = await api.send('DELETE', `${path}/by-slug/${created.slug}`, undefined, 'admin');
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ id: created.id, status: 'trash', [k.name]: `Test ${k.kind} epsilon` });
        const again = await api.send('DELETE', `${path}/${created.id}`, undefined, 'admin');
        expect(again.status).toBe(410);
        expect(again.body).toEqual({
          code: `${k.kind}-is-in-trash`,
          message: `The ${k.kind} is already trashed`,
          data: { status: 410 },
        });
        expect((await api.get(`${path}/${created.id}`)).body.code).toBe(`${k.kind}-not-accessible`);
      });
    });
  }

  describe('venue specifics', () => {
    it('keeps show_map and show_map_link even when false, and adds geo_lat/geo_lng only when set', async () => {
      const venues = sb.site.store.posts<{ showMap: boolean; lat: number | null }>(VENUE, ['publish']);
      const noMap = venues.find((v) => !v.meta.showMap)!;
      const r = await api.get(`${NS}/venues/${noMap.id}`);
      expect(r.body).toMatchObject({ show_map: false, show_map_link: false });
      expect(Object.keys(r.body).slice(-4)).toEqual(['show_map', 'show_map_link', 'global_id', 'global_id_lineage']);
      const withGeo = venues.find((v) => v.meta.lat !== null)!;
      expect((await api.get(`${NS}/venues/${withGeo.id}`)).body.geo_lat).toBe(withGeo.meta.lat);
      const noGeo = venues.find((v) => v.meta.lat === null)!;
      expect((await api.get(`${NS}/venues/${noGeo.id}`)).body).not.toHaveProperty('geo_lat');
    });

    it('takes show_map as a string, and refuses a JSON boolean', async () => {
      const r = await api.send(
        'POST',
        `${NS}/venues`,
        { venue: 'Map Test Hall', show_map: 'false', show_map_link: 'yes' },
        'admin',
      );
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ show_map: false, show_map_link: true });
      const bad = await api.send('POST', `${NS}/venues`, { venue: 'Map Test Hall 2', show_map: true }, 'admin');
      expect(bad.status).toBe(400);
      expect(bad.body.data.details.show_map.code).toBe('rest_invalid_type');
    });

    it('answers a duplicate venue with the existing one instead of creating another', async () => {
      const body = { venue: 'Twin Hall', city: 'Paris', address: '1 Rue' };
      const first = await api.send('POST', `${NS}/venues`, body, 'admin');
      const count = sb.site.store.posts(VENUE).length;
      const second = await api.send('POST', `${NS}/venues`, body, 'admin');
      expect(second.status).toBe(201);
      expect(second.body.id).toBe(first.body.id);
      expect(sb.site.store.posts(VENUE).length).toBe(count);
      const other = await api.send('POST', `${NS}/venues`, { ...body, city: 'Lyon' }, 'admin');
      expect(other.body.id).not.toBe(first.body.id);
    });
  });
});
