/**
 * Reading events on the legacy interface: the archive (spec A1,
 * calendar-upstream.md §1.1–§1.2) and single events (§1.3, §1.6).
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CATEGORY_TAX,
  EVENT,
  TAG_TAX,
  VENUE,
  type EventMeta,
  type EventPost,
} from '../../packages/sandbox/src/calendar/model.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';
import { localToUtc, utcToLocal } from '../../packages/sandbox/src/dates.ts';

const EVENTS = '/calendar/events/v1/events';

describe('legacy events (calendar/events/v1)', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  let all: EventPost[];

  beforeAll(async () => {
    sb = await testSandbox();
    api = restClient(sb);
    all = sb.site.store.posts<EventMeta>(EVENT);
  });
  afterAll(() => sb.close());

  const tz = () => sb.site.timezone;
  /** The default window of §1.2, computed independently of the sandbox. */
  const defaultWindow = () => {
    const now = DateTime.utc();
    const start = `${now.minus({ days: 1 }).set({ hour: 23, minute: 59 }).setZone(tz()).toFormat('yyyy-MM-dd')} 00:00:00`;
    const end = `${now.plus({ months: 24 }).toFormat('yyyy-MM-dd')} 23:59:59`;
    return { start, end };
  };
  const inWindow = (e: EventPost, w = defaultWindow()) => e.meta.startDate >= w.start && e.meta.endDate <= w.end;
  /** The window `include` forces (real-site-behaviour.md): the raw defaults, not widened to whole days. */
  const includeWindow = () => {
    const now = DateTime.utc();
    const start = now
      .minus({ days: 1 })
      .set({ hour: 23, minute: 59, second: 0 })
      .setZone(tz())
      .toFormat('yyyy-MM-dd HH:mm:ss');
    return { start, end: now.plus({ months: 24 }).toFormat('yyyy-MM-dd HH:mm:ss') };
  };
  const inIncludeWindow = (e: EventPost) => inWindow(e, includeWindow());
  const listed = (e: EventPost) => e.status === 'publish' && !e.meta.hideFromListings;
  const ids = (body: any) => (body.events as any[]).map((e) => e.id as number);
  const q = encodeURIComponent;

  describe('archive envelope', () => {
    it('answers with events, rest_url, next_rest_url, total and total_pages, totals in X-TEC-Total headers only', async () => {
      const r = await api.get(`${EVENTS}?per_page=2`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['events', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
      const expected = all.filter((e) => listed(e) && inWindow(e)).length;
      expect(r.body.total).toBe(expected);
      expect(r.body.total_pages).toBe(Math.ceil(expected / 2));
      expect(r.body.events).toHaveLength(2);
      expect(r.headers.get('x-tec-total')).toBe(String(expected));
      expect(r.headers.get('x-tec-totalpages')).toBe(String(Math.ceil(expected / 2)));
      expect(r.headers.get('x-wp-total')).toBeNull();
      expect(r.headers.get('x-wp-totalpages')).toBeNull();
      expect(r.headers.get('link')).not.toMatch(/rel="next"/);
    });

    it('lists 10 events per page by default and silently caps per_page at 50', async () => {
      let r = await api.get(EVENTS);
      expect(r.body.events).toHaveLength(10);
      expect(r.body.rest_url).toContain('per_page=10');
      r = await api.get(`${EVENTS}?per_page=100`);
      expect(r.status).toBe(200);
      expect(r.body.events).toHaveLength(50);
      expect(r.body.rest_url).toContain('per_page=50');
      expect(r.body.total_pages).toBe(Math.ceil(r.body.total / 50));
    });

    it('refuses a page or per_page that is not a positive integer', async () => {
      for (const query of ['page=0', 'per_page=0', 'per_page=-3', 'page=abc']) {
        const r = await api.get(`${EVENTS}?${query}`);
        expect(r.status, query).toBe(400);
        expect(r.body.code).toBe('rest_invalid_param');
        expect(Object.keys(r.body.data.params)).toEqual([query.split('=')[0]]);
      }
      const r = await api.get(`${EVENTS}?page=0`);
      expect(r.body.data).toEqual({ status: 400, params: { page: 'Invalid parameter.' }, details: [] });
    });

    it('sends event-archive-page-not-found past the last page', async () => {
      const r = await api.get(`${EVENTS}?page=999`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({
        code: 'event-archive-page-not-found',
        message: 'The requested event archive page does not exist',
        data: { status: 404 },
      });
    });

    it('answers an empty first page with total_pages 0 and no links', async () => {
      const r = await api.get(`${EVENTS}?search=no-such-words-anywhere`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ events: [], total: 0, total_pages: 0 });
      expect(r.body).not.toHaveProperty('next_rest_url');
      expect(r.body).not.toHaveProperty('previous_rest_url');
      expect(r.headers.get('x-tec-total')).toBe('0');
    });

    it('writes rest_url unencoded and the next and previous URLs encoded, dropping page when it points at page 1', async () => {
      const w = defaultWindow();
      const base = `${sb.url}calendar/events/v1/events/`;
      const enc = (s: string) => s.replace(' ', '+').replace(/:/g, '%3A');
      const first = await api.get(`${EVENTS}?per_page=2`);
      expect(first.body.rest_url).toBe(
        `${base}?page=1&per_page=2&start_date=${w.start}&end_date=${w.end}&status=publish`,
      );
      expect(first.body.next_rest_url).toBe(
        `${base}?per_page=2&start_date=${enc(w.start)}&end_date=${enc(w.end)}&status=publish&page=2`,
      );
      expect(first.body).not.toHaveProperty('previous_rest_url');
      const second = await api.get(`${EVENTS}?per_page=2&page=2`);
      expect(second.body.previous_rest_url).toBe(
        `${base}?per_page=2&start_date=${enc(w.start)}&end_date=${enc(w.end)}&status=publish`,
      );
      const third = await api.get(`${EVENTS}?per_page=2&page=3`);
      expect(third.body.previous_rest_url).toMatch(/&status=publish&page=2$/);
      expect(third.body.next_rest_url).toMatch(/&page=4$/);
      // Pages do not overlap.
      expect(ids(first.body).some((id) => ids(second.body).includes(id))).toBe(false);
    });

    it('has no next_rest_url on the last page', async () => {
      const first = await api.get(`${EVENTS}?per_page=50`);
      const last = await api.get(`${EVENTS}?per_page=50&page=${first.body.total_pages}`);
      expect(last.status).toBe(200);
      expect(last.body).not.toHaveProperty('next_rest_url');
      expect(last.body.previous_rest_url).toBeDefined();
    });
  });

  describe('date window', () => {
    it('defaults to the local day containing UTC yesterday 23:59 through 23:59:59 of the day 24 months ahead', async () => {
      const w = defaultWindow();
      const r = await api.get(`${EVENTS}?per_page=50`);
      expect(r.body.rest_url).toContain(`start_date=${w.start}&end_date=${w.end}`);
      const expected = all.filter((e) => listed(e) && inWindow(e)).length;
      expect(r.body.total).toBe(expected);
      for (const e of r.body.events) expect(e.start_date >= w.start).toBe(true);
      // Past events are hidden by default.
      expect(all.some((e) => listed(e) && e.meta.startDate < w.start)).toBe(true);
    });

    it('widens explicit dates to whole days unless strict_dates is true', async () => {
      const e = all.find(
        (x) =>
          listed(x) &&
          inWindow(x) &&
          !x.meta.allDay &&
          x.meta.startDate.slice(11) >= '09:00:00' &&
          x.meta.startDate.slice(11) < '21:00:00',
      )!;
      const later = `${e.meta.startDate.slice(0, 10)} ${String(Number(e.meta.startDate.slice(11, 13)) + 1).padStart(2, '0')}:00:00`;
      const loose = await api.get(
        `${EVENTS}?per_page=50&start_date=${q(later)}&end_date=${q(e.meta.endDate.slice(0, 10))}`,
      );
      expect(loose.body.rest_url).toContain(`start_date=${e.meta.startDate.slice(0, 10)} 00:00:00`);
      expect(loose.body.rest_url).toContain(`end_date=${e.meta.endDate.slice(0, 10)} 23:59:59`);
      // Strict bounds are read as UTC and moved into the site's zone, as 6.15.14 does.
      const strict = await api.get(
        `${EVENTS}?per_page=50&strict_dates=true&start_date=${q(later)}&end_date=${q(e.meta.endDate.slice(0, 10))}`,
      );
      expect(strict.body.rest_url).toContain(`start_date=${utcToLocal(later, tz())}`);
      expect(strict.body.rest_url).toContain(`end_date=${utcToLocal(`${e.meta.endDate.slice(0, 10)} 00:00:00`, tz())}`);
      const looseIds = await collectIds(`${EVENTS}?start_date=${q(later)}&end_date=${q(e.meta.endDate.slice(0, 10))}`);
      expect(looseIds).toContain(e.id);
      const strictIds = await collectIds(
        `${EVENTS}?strict_dates=true&start_date=${q(localToUtc(later, tz()))}&end_date=${q(localToUtc(`${e.meta.endDate.slice(0, 10)} 23:59:59`, tz()))}`,
      );
      expect(strictIds).not.toContain(e.id);
    });

    it('accepts strtotime-like dates and refuses unparsable ones with a bare "Invalid parameter."', async () => {
      const tomorrow = DateTime.now().setZone(tz()).plus({ days: 1 }).toFormat('yyyy-MM-dd');
      const r = await api.get(`${EVENTS}?start_date=tomorrow`);
      expect(r.status).toBe(200);
      expect(r.body.rest_url).toContain(`start_date=${tomorrow} 00:00:00`);
      const bad = await api.get(`${EVENTS}?start_date=notadate`);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): start_date',
        data: { status: 400, params: { start_date: 'Invalid parameter.' }, details: [] },
      });
      const two = await api.get(`${EVENTS}?ends_before=later&starts_after=soon`);
      expect(two.body.message).toBe('Invalid parameter(s): starts_after, ends_before');
    });

    it('drops the defaulted start_date and end_date when a starts_* or ends_* bound is given', async () => {
      const yearAgo = DateTime.now().setZone(tz()).minus({ years: 1 }).toFormat('yyyy-MM-dd');
      const r = await api.get(`${EVENTS}?per_page=50&starts_after=${yearAgo}`);
      expect(r.body.rest_url).not.toContain('start_date=');
      expect(r.body.rest_url).not.toContain('end_date=');
      expect(r.body.rest_url).toContain(`starts_after=${yearAgo} 23:59:59`);
      const bound = `${yearAgo} 23:59:59`;
      expect(r.body.total).toBe(all.filter((e) => listed(e) && e.meta.startDate >= bound).length);
      expect(r.body.total).toBeGreaterThan(all.filter((e) => listed(e) && inWindow(e)).length);
      // An explicit start_date stays next to the bound.
      const both = await api.get(`${EVENTS}?starts_after=${yearAgo}&start_date=${yearAgo}`);
      expect(both.body.rest_url).toContain(`start_date=${yearAgo} 00:00:00`);
      expect(both.body.rest_url).not.toContain('end_date=');
    });

    it('filters on each of starts_before, ends_after and ends_before', async () => {
      const w = defaultWindow();
      const day = w.start.slice(0, 10);
      const r1 = await collectEvents(
        `${EVENTS}?ends_after=${day}&starts_before=${q(DateTime.fromISO(day).plus({ days: 20 }).toFormat('yyyy-MM-dd'))}`,
      );
      expect(r1.length).toBeGreaterThan(0);
      for (const e of r1) {
        expect(e.end_date >= `${day} 23:59:59`).toBe(true);
        expect(e.start_date <= `${DateTime.fromISO(day).plus({ days: 20 }).toFormat('yyyy-MM-dd')} 23:59:59`).toBe(
          true,
        );
      }
      const r2 = await collectEvents(`${EVENTS}?ends_before=${day}`);
      expect(r2.length).toBe(all.filter((e) => listed(e) && e.meta.endDate <= `${day} 23:59:59`).length);
    });
  });

  describe('filters', () => {
    it('include returns those of the events that fall in the forced default window, hidden ones too, ignoring the given dates', async () => {
      // real-site-behaviour.md, "`include=` forces the default window": past events are not found by include.
      const past = all.find((e) => listed(e) && e.meta.endDate < defaultWindow().start)!;
      const hidden = all.find((e) => e.status === 'publish' && e.meta.hideFromListings && inIncludeWindow(e))!;
      const r = await api.get(`${EVENTS}?include=${past.id},${hidden.id}&start_date=2099-01-01`);
      expect(r.status).toBe(200);
      expect(ids(r.body)).toEqual([hidden.id]);
      expect(r.body.rest_url).toMatch(new RegExp(`&include=${past.id},${hidden.id}$`));
      expect(r.body.rest_url).toContain(`start_date=${includeWindow().start}&end_date=`);
      const arr = await api.get(`${EVENTS}?include[]=${hidden.id}`);
      expect(ids(arr.body)).toEqual([hidden.id]);
      expect(ids((await api.get(`${EVENTS}?include[]=${past.id}`)).body)).toEqual([]);
      expect((await api.get(`${EVENTS}?include=abc`)).status).toBe(400);
    });

    it('leaves hidden events out of listings', async () => {
      const hidden = all.filter((e) => e.status === 'publish' && e.meta.hideFromListings && inWindow(e));
      expect(hidden.length).toBeGreaterThan(0);
      const listedIds = await collectIds(EVENTS);
      for (const h of hidden) expect(listedIds).not.toContain(h.id);
    });

    it('filters by categories given as slugs or IDs, CSV or array, a parent matching its children', async () => {
      const music = sb.site.store.termBySlug(CATEGORY_TAX, 'music')!;
      const jazz = sb.site.store.termBySlug(CATEGORY_TAX, 'jazz')!;
      const bySlug = await collectIds(`${EVENTS}?categories=jazz`);
      const byId = await collectIds(`${EVENTS}?categories=${jazz.id}`);
      expect(bySlug.length).toBeGreaterThan(0);
      expect(byId).toEqual(bySlug);
      for (const id of bySlug) expect(sb.site.store.termIdsOf(id, CATEGORY_TAX)).toContain(jazz.id);
      const parent = await collectIds(`${EVENTS}?categories=music`);
      expect(parent.length).toBeGreaterThan(bySlug.length);
      expect(bySlug.every((id) => parent.includes(id))).toBe(true);
      const musicFamily = new Set(
        sb.site.store
          .terms(CATEGORY_TAX)
          .filter((t) => t.id === music.id || t.parent === music.id)
          .map((t) => t.id),
      );
      for (const id of parent)
        expect(sb.site.store.termIdsOf(id, CATEGORY_TAX).some((t) => musicFamily.has(t))).toBe(true);
      const csv = await collectIds(`${EVENTS}?categories=jazz,rock`);
      const arr = await collectIds(`${EVENTS}?categories[]=jazz&categories[]=rock`);
      expect(arr).toEqual(csv);
      expect(csv.length).toBeGreaterThan(bySlug.length);
      const bad = await api.get(`${EVENTS}?categories=no-such-category`);
      expect(bad.status).toBe(400);
      expect(bad.body.data.params).toEqual({ categories: 'Invalid parameter.' });
    });

    it('filters by tags given as slugs or IDs', async () => {
      const outdoor = sb.site.store.termBySlug(TAG_TAX, 'outdoor')!;
      const bySlug = await collectIds(`${EVENTS}?tags=outdoor`);
      expect(bySlug.length).toBeGreaterThan(0);
      expect(await collectIds(`${EVENTS}?tags=${outdoor.id}`)).toEqual(bySlug);
      for (const id of bySlug) expect(sb.site.store.termIdsOf(id, TAG_TAX)).toContain(outdoor.id);
      expect((await api.get(`${EVENTS}?tags=nope-tag`)).status).toBe(400);
    });

    it('filters by venue and organizer ID lists, and refuses IDs of other types', async () => {
      const e = all.find(
        (x) => listed(x) && inWindow(x) && x.meta.venueIds.length === 1 && x.meta.organizerIds.length > 0,
      )!;
      const v = e.meta.venueIds[0]!;
      const byVenue = await collectEvents(`${EVENTS}?venue=${v}`);
      expect(byVenue.map((x) => x.id)).toContain(e.id);
      for (const x of byVenue) expect([x.venue].flat().map((y: any) => y.id)).toContain(v);
      const o = e.meta.organizerIds[0]!;
      const byOrg = await collectEvents(`${EVENTS}?organizer=${o}`);
      for (const x of byOrg) expect(x.organizer.map((y: any) => y.id)).toContain(o);
      const r = await api.get(`${EVENTS}?venue=${v}&organizer=${o}`);
      expect(r.body.rest_url).toMatch(new RegExp(`&venue=${v}&organizer=${o}$`));
      expect((await api.get(`${EVENTS}?venue=${o}`)).status).toBe(400);
      expect((await api.get(`${EVENTS}?organizer=${v}`)).status).toBe(400);
    });

    it('filters by featured and ticketed', async () => {
      const featured = await collectEvents(`${EVENTS}?featured=true`);
      expect(featured.length).toBe(all.filter((e) => listed(e) && inWindow(e) && e.meta.featured).length);
      expect(featured.every((e) => e.featured)).toBe(true);
      const notFeatured = await collectEvents(`${EVENTS}?featured=0`);
      expect(notFeatured.every((e) => !e.featured)).toBe(true);
      expect(featured.length + notFeatured.length).toBe(all.filter((e) => listed(e) && inWindow(e)).length);
      // Without Event Tickets (the default, as on the real 6.15.14 site) `ticketed=1` is refused and
      // `ticketed=0` filters nothing; with it both filter (tickets.test.ts).
      const refused = await api.get(`${EVENTS}?ticketed=1`);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, params: { ticketed: 'Event Tickets plugin is not activated.' } },
      });
      expect((await collectIds(`${EVENTS}?ticketed=0`)).sort()).toEqual(
        all
          .filter((e) => listed(e) && inWindow(e))
          .map((e) => e.id)
          .sort(),
      );
    });

    it('takes geoloc, geoloc_lat and geoloc_lng and filters nothing by them, as without Events Calendar Pro', async () => {
      const every = (await collectEvents(EVENTS)).map((e) => e.id);
      expect((await collectEvents(`${EVENTS}?geoloc=true`)).map((e) => e.id)).toEqual(every);
      expect((await collectEvents(`${EVENTS}?geoloc=1&geoloc_lat=48.8566&geoloc_lng=2.3522`)).map((e) => e.id)).toEqual(
        every,
      );
      // One coordinate alone is taken too (200), and geoloc's echo carries both, empty when not given.
      for (const query of ['geoloc_lat=48.8', 'geoloc_lng=2.35'])
        expect((await api.get(`${EVENTS}?${query}`)).status, query).toBe(200);
      const echo = await api.get(`${EVENTS}?per_page=1&geoloc=1`);
      expect(echo.body.rest_url).toContain('&geoloc=1&geoloc_lat&geoloc_lng&');
      expect((await api.get(`${EVENTS}?per_page=1&geoloc_lat=48.8`)).body.rest_url).not.toContain('geoloc');
    });

    it('refuses a post_parent that is not an event (0, a venue, a missing ID) as an invalid parameter, as 5.7.1 and 6.15.14 do', async () => {
      const venueId = sb.site.store.posts(VENUE)[0]!.id;
      for (const parent of [0, venueId, 999_999]) {
        const r = await api.get(`${EVENTS}?post_parent=${parent}`);
        expect(r.status, String(parent)).toBe(400);
        expect(r.body).toMatchObject({
          code: 'rest_invalid_param',
          data: { params: { post_parent: 'Invalid parameter.' } },
        });
      }
      const ok = await api.get(`${EVENTS}?post_parent=${all[0]!.id}`);
      expect(ok.status).toBe(200);
      expect(ok.body.total).toBe(0);
    });

    it('searches titles and descriptions', async () => {
      const e = all.find((x) => listed(x) && inWindow(x))!;
      const r = await collectEvents(`${EVENTS}?search=${q(e.title)}`);
      expect(r.map((x) => x.id)).toContain(e.id);
      for (const x of r) expect(`${x.title} ${x.description}`.toLowerCase()).toContain(e.title.toLowerCase());
      expect((await api.get(`${EVENTS}?search=${q(e.title)}`)).body.rest_url).toContain(`search=${e.title}`);
    });
  });

  describe('status', () => {
    it('lists published events only to anonymous callers and non-editors', async () => {
      for (const who of [null, 'subscriber', 'contributor', 'author'] as const) {
        const r = await api.get(`${EVENTS}?per_page=50`, who);
        expect(r.body.rest_url, String(who)).toContain('status=publish');
        expect(r.body.events.every((e: any) => e.status === 'publish')).toBe(true);
      }
    });

    it('lists every status but trash to editors and administrators by default', async () => {
      for (const who of ['editor', 'admin'] as const) {
        const r = await api.get(`${EVENTS}?per_page=50`, who);
        expect(r.body.rest_url).toContain('status=any');
        const expected = all.filter(
          (e) => !['trash', 'auto-draft'].includes(e.status) && !e.meta.hideFromListings && inWindow(e),
        ).length;
        expect(r.body.total).toBe(expected);
        expect(expected).toBeGreaterThan(all.filter((e) => listed(e) && inWindow(e)).length);
      }
    });

    it('lets editors ask for a status, and refuses any other status to everyone else', async () => {
      const drafts = await collectEvents(`${EVENTS}?status=draft&start_date=2000-01-01`, 'editor');
      expect(drafts.length).toBe(all.filter((e) => e.status === 'draft' && !e.meta.hideFromListings).length);
      expect(drafts.every((e) => e.status === 'draft')).toBe(true);
      const r = await api.get(`${EVENTS}?status=draft,pending`, 'editor');
      expect(r.body.rest_url).toContain('status%5B0%5D=draft&status%5B1%5D=pending');
      for (const who of [null, 'subscriber', 'author'] as const) {
        const bad = await api.get(`${EVENTS}?status=draft`, who);
        expect(bad.status, String(who)).toBe(400);
        expect(bad.body.data.params).toEqual({ status: 'Invalid parameter.' });
      }
      expect((await api.get(`${EVENTS}?status=publish`)).status).toBe(200);
      expect((await api.get(`${EVENTS}?status=bogus`, 'editor')).status).toBe(400);
    });
  });

  describe('event object', () => {
    const KEYS = [
      'id',
      'global_id',
      'global_id_lineage',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'rest_url',
      'title',
      'description',
      'excerpt',
      'slug',
      'image',
      'all_day',
      'start_date',
      'start_date_details',
      'end_date',
      'end_date_details',
      'utc_start_date',
      'utc_start_date_details',
      'utc_end_date',
      'utc_end_date_details',
      'timezone',
      'timezone_abbr',
      'cost',
      'cost_details',
      'website',
      'show_map',
      'show_map_link',
      'hide_from_listings',
      'sticky',
      'featured',
      'categories',
      'tags',
      'venue',
      'organizer',
      'custom_fields',
    ];

    it('carries every key, in order, with json_ld only on a single GET', async () => {
      const e = all.find((x) => listed(x) && inIncludeWindow(x) && !x.password)!;
      const listedOne = await collectEvents(`${EVENTS}?include=${e.id}`);
      expect(Object.keys(listedOne[0])).toEqual(KEYS);
      const single = await api.get(`${EVENTS}/${e.id}`);
      expect(single.status).toBe(200);
      expect(Object.keys(single.body)).toEqual([...KEYS, 'json_ld']);
      expect(single.body.json_ld).toMatchObject({ '@context': 'http://schema.org', '@type': 'Event', name: e.title });
    });

    it('describes the post and its dates as TEC does', async () => {
      const e = all.find((x) => listed(x) && x.meta.timezone === 'Asia/Tokyo' && !x.meta.allDay && !x.password)!;
      const { body } = await api.get(`${EVENTS}/${e.id}`);
      const host = new URL(sb.origin).host;
      expect(body.global_id).toBe(`${host}?id=${e.id}`);
      expect(body.global_id_lineage).toEqual([`${host}?id=${e.id}`]);
      expect(body.author).toBe(String(e.author));
      expect(body.url).toBe(`${sb.origin}/event/${e.slug}/`);
      expect(body.rest_url).toBe(`${sb.url}calendar/events/v1/events/${e.id}`);
      expect(body.start_date).toBe(e.meta.startDate);
      expect(body.utc_start_date).toBe(e.meta.startDateUtc);
      const [d, t] = e.meta.startDate.split(' ');
      expect(body.start_date_details).toEqual({
        year: d!.slice(0, 4),
        month: d!.slice(5, 7),
        day: d!.slice(8, 10),
        hour: t!.slice(0, 2),
        minutes: t!.slice(3, 5),
        seconds: t!.slice(6, 8),
      });
      expect(body.timezone).toBe('Asia/Tokyo');
      expect(body.timezone_abbr).toBe('JST');
      expect(body.json_ld.startDate).toBe(`${e.meta.startDate.replace(' ', 'T')}+09:00`);
      expect(body.custom_fields).toEqual([]);
    });

    it('falls back to the permalink for an empty website and reports sticky from the menu order', async () => {
      const noSite = all.find((x) => listed(x) && !x.meta.website && !x.password)!;
      expect((await api.get(`${EVENTS}/${noSite.id}`)).body.website).toBe(`${sb.origin}/event/${noSite.slug}/`);
      const withSite = all.find((x) => listed(x) && x.meta.website && !x.password)!;
      expect((await api.get(`${EVENTS}/${withSite.id}`)).body.website).toBe(withSite.meta.website);
      const sticky = all.find((x) => listed(x) && x.menuOrder === -1 && !x.password)!;
      expect((await api.get(`${EVENTS}/${sticky.id}`)).body.sticky).toBe(true);
    });

    it('embeds no venue as [], one venue as an object and several as an array, organizers always as an array', async () => {
      const pick = (n: number) => all.find((x) => listed(x) && !x.password && x.meta.venueIds.length === n)!;
      const none = await api.get(`${EVENTS}/${pick(0).id}`);
      expect(none.body.venue).toEqual([]);
      const one = await api.get(`${EVENTS}/${pick(1).id}`);
      expect(one.body.venue.id).toBe(pick(1).meta.venueIds[0]);
      expect(one.body.venue.json_ld['@type']).toBe('Place');
      const two = await api.get(`${EVENTS}/${pick(2).id}`);
      expect(two.body.venue.map((v: any) => v.id)).toEqual(pick(2).meta.venueIds);
      const noOrg = all.find((x) => listed(x) && !x.password && x.meta.organizerIds.length === 0)!;
      expect((await api.get(`${EVENTS}/${noOrg.id}`)).body.organizer).toEqual([]);
      const orgs = all.find((x) => listed(x) && !x.password && x.meta.organizerIds.length > 1)!;
      const r = await api.get(`${EVENTS}/${orgs.id}`);
      expect(r.body.organizer.map((o: any) => o.id)).toEqual(orgs.meta.organizerIds);
      expect(r.body.json_ld.organizer['@type']).toBe('Person');
    });

    it('embeds categories and tags in the WP_Term form, with urls and up for children', async () => {
      const jazz = sb.site.store.termBySlug(CATEGORY_TAX, 'jazz')!;
      const e = all.find(
        (x) => listed(x) && !x.password && sb.site.store.termIdsOf(x.id, CATEGORY_TAX).includes(jazz.id),
      )!;
      const { body } = await api.get(`${EVENTS}/${e.id}`);
      const term = body.categories.find((c: any) => c.id === jazz.id);
      expect(Object.keys(term)).toEqual([
        'name',
        'slug',
        'term_group',
        'term_taxonomy_id',
        'taxonomy',
        'description',
        'parent',
        'count',
        'filter',
        'id',
        'urls',
      ]);
      expect(term).toMatchObject({
        name: 'Jazz',
        slug: 'jazz',
        taxonomy: CATEGORY_TAX,
        parent: jazz.parent,
        filter: 'raw',
        count: sb.site.store.termCount(jazz.id),
      });
      expect(term.urls).toEqual({
        self: `${sb.url}calendar/events/v1/categories/${jazz.id}`,
        collection: `${sb.url}calendar/events/v1/categories`,
        up: `${sb.url}calendar/events/v1/categories/${jazz.parent}`,
      });
      const tagged = all.find((x) => listed(x) && !x.password && sb.site.store.termIdsOf(x.id, TAG_TAX).length > 0)!;
      const tags = (await api.get(`${EVENTS}/${tagged.id}`)).body.tags;
      expect(tags[0].urls.self).toBe(`${sb.url}calendar/events/v1/tags/${tags[0].id}`);
      expect(tags[0].urls).not.toHaveProperty('up');
    });

    it('shows the featured image as an object with absolute URLs and sizes, and false without one', async () => {
      const e = all.find((x) => listed(x) && !x.password && x.featuredMedia > 0)!;
      const { body } = await api.get(`${EVENTS}/${e.id}`);
      expect(body.image).toMatchObject({ id: e.featuredMedia, extension: 'jpg', width: 1200, height: 800 });
      expect(body.image.url).toMatch(new RegExp(`^${sb.origin}/wp-content/uploads/demo-\\d\\.jpg$`));
      expect(body.image.sizes.thumbnail).toMatchObject({ width: 150, height: 150, 'mime-type': 'image/jpeg' });
      expect(body.image.sizes.medium).toMatchObject({ width: 300, height: 200 });
      expect(body.image.sizes.thumbnail.url).toMatch(/-150x150\.jpg$/);
      const plain = all.find((x) => listed(x) && !x.password && x.featuredMedia === 0)!;
      expect((await api.get(`${EVENTS}/${plain.id}`)).body.image).toBe(false);
    });

    it('formats costs with their currency: Free, empty, prefix, suffix and ranges', async () => {
      const byCost = (cost: string, tzName?: string) =>
        all.find((x) => listed(x) && !x.password && x.meta.cost === cost && (!tzName || x.meta.timezone === tzName))!;
      const cost = async (e: EventPost) => (await api.get(`${EVENTS}/${e.id}`)).body;
      expect((await cost(byCost('Free'))).cost).toBe('Free');
      expect((await cost(byCost(''))).cost).toBe('');
      expect((await cost(byCost(''))).cost_details.values).toEqual([]);
      const usd = await cost(byCost('10', 'America/New_York'));
      expect(usd.cost).toBe('$10');
      expect(usd.cost_details).toEqual({
        currency_symbol: '$',
        currency_code: 'USD',
        currency_position: 'prefix',
        values: ['10'],
      });
      const eur = await cost(byCost('10', 'Europe/Paris'));
      expect(eur.cost).toBe('10 €');
      expect(eur.cost_details.currency_position).toBe('suffix');
      const range = await cost(byCost('10-25', 'America/New_York'));
      expect(range.cost).toBe('$10 – $25');
      expect(range.cost_details.values).toEqual(['10', '25']);
    });

    it('blanks the description and excerpt of password-protected events in archives', async () => {
      const e = all.find((x) => x.status === 'publish' && x.password && inIncludeWindow(x))!;
      const [listedOne] = await collectEvents(`${EVENTS}?include=${e.id}`);
      expect(listedOne.title).toBe(e.title);
      expect(listedOne.description).toBe('');
      expect(listedOne.excerpt).toBe('');
    });
  });

  describe('single event', () => {
    it('is the same object by ID and by slug', async () => {
      const e = all.find((x) => listed(x) && !x.password)!;
      const byId = await api.get(`${EVENTS}/${e.id}`);
      const bySlug = await api.get(`${EVENTS}/by-slug/${e.slug}`);
      expect(bySlug.status).toBe(200);
      expect(bySlug.body).toEqual(byId.body);
      const missing = await api.get(`${EVENTS}/by-slug/no-such-event`);
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe('rest_invalid_param');
    });

    it("refuses a missing ID and another post type's with 400 rest_invalid_param naming id (is_event_id)", async () => {
      // real-site-behaviour.md, "Added 2026-11-25": both real releases answer so.
      const venueId = sb.site.store.posts(VENUE)[0]!.id;
      for (const id of [999999, venueId]) {
        const r = await api.get(`${EVENTS}/${id}`);
        expect(r.status).toBe(400);
        expect(r.body).toEqual({
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): id',
          data: { status: 400, params: { id: 'Invalid parameter.' }, details: [] },
        });
      }
    });

    it('answers a trashed event with 403 event-no-longer-available, even to administrators', async () => {
      const e = all.find((x) => x.status === 'trash')!;
      for (const who of [null, 'admin'] as const) {
        const r = await api.get(`${EVENTS}/${e.id}`, who);
        expect(r.status).toBe(403);
        expect(r.body.code).toBe('event-no-longer-available');
      }
    });

    it('hides unpublished events with 403 event-not-accessible from those who cannot read them', async () => {
      const draft = all.find((x) => x.status === 'draft' && x.author === 1)!;
      for (const who of [null, 'subscriber', 'contributor', 'author'] as const) {
        const r = await api.get(`${EVENTS}/${draft.id}`, who);
        expect(r.status, String(who)).toBe(403);
        expect(r.body).toEqual({
          code: 'event-not-accessible',
          message: 'The requested event is not accessible',
          data: { status: 403 },
        });
      }
      expect((await api.get(`${EVENTS}/${draft.id}`, 'editor')).body.status).toBe('draft');
      const own = all.find((x) => x.status === 'draft' && x.author === 3);
      if (own) expect((await api.get(`${EVENTS}/${own.id}`, 'author')).status).toBe(200);
    });

    it('asks for the password of a protected event with 403 event-password-protected', async () => {
      const e = all.find((x) => x.status === 'publish' && x.password && x.author !== 3)!;
      let r = await api.get(`${EVENTS}/${e.id}`);
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('event-password-protected');
      r = await api.get(`${EVENTS}/${e.id}?password=wrong`, 'author');
      expect(r.status).toBe(403);
      r = await api.get(`${EVENTS}/${e.id}?password=${e.password}`);
      expect(r.status).toBe(200);
      expect(r.body.description).toBe(e.content);
      // Those who may edit the event need no password.
      expect((await api.get(`${EVENTS}/${e.id}`, 'editor')).status).toBe(200);
    });
  });

  /** Every event of a query, all pages. */
  async function collectEvents(path: string, who: Parameters<RestClient['get']>[1] = null): Promise<any[]> {
    const out: any[] = [];
    const sep = path.includes('?') ? '&' : '?';
    for (let page = 1; ; page++) {
      const r = await api.get(`${path}${sep}per_page=50&page=${page}`, who);
      if (r.status === 404) break;
      expect(r.status, `${path} page ${page}: ${JSON.stringify(r.body).slice(0, 200)}`).toBe(200);
      out.push(...r.body.events);
      if (!r.body.next_rest_url) break;
    }
    return out;
  }

  async function collectIds(path: string): Promise<number[]> {
    return (await collectEvents(path)).map((e) => e.id);
  }
});
