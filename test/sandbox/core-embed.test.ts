/**
 * `GET /calendar-core/v1/events/calendar-embed` (spec B2; calendar-upstream.md
 * §2 "ECP routes"): a `wp_rest` nonce of the caller plus edit rights, and a
 * complete HTML document of the matching events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient, type Who } from '../helpers/sandbox.ts';

const EMBED = '/calendar-core/v1/events/calendar-embed';

describe('calendar-core/v1 calendar embed', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  let editorNonce: string;
  const post = (id: number) => sb.site.store.post<any>(id)!;
  const one = <T = any>(sql: string, ...args: unknown[]) => sb.site.store.db.prepare(sql).get(...args) as T;
  const nonceOf = async (who: Exclude<Who, null>) => {
    const res = await fetch(`${sb.origin}/wp-admin/admin-ajax.php?action=rest-nonce`, {
      headers: { authorization: api.auth(who) },
    });
    return res.text();
  };
  /** The event IDs an embed lists, in order. */
  const embed = async (query = '', who: Who = 'editor', nonce?: string) => {
    const r = await api.get(`${EMBED}?_wpnonce=${nonce ?? editorNonce}${query ? `&${query}` : ''}`, who);
    return { ...r, ids: [...r.text.matchAll(/data-event-id="(\d+)"/g)].map((m) => Number(m[1])) };
  };

  beforeAll(async () => {
    // Anchor and clock pinned together: "upcoming" means the same on any day the tests run.
    sb = await testSandbox({ anchor: '2026-06-01', now: '2026-06-01T12:00:00Z' });
    api = restClient(sb);
    editorNonce = await nonceOf('editor');
  });
  afterAll(() => sb.close());

  describe('access', () => {
    it('answers a complete HTML document to an editor with a valid nonce, without the acknowledgement header', async () => {
      const r = await embed('', 'editor', undefined);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/html; charset=UTF-8');
      expect(r.text.startsWith('<!DOCTYPE html>\n<html lang="en-US">')).toBe(true);
      expect(r.text.trimEnd().endsWith('</html>')).toBe(true);
      expect(r.text).toContain('data-view="list"');
      const plain = await api.get(`${EMBED}?_wpnonce=${editorNonce}`, 'editor', { 'x-tec-eea': '' });
      expect(plain.status).toBe(200);
    });

    it('refuses a missing, foreign or anonymous nonce, and callers without edit rights', async () => {
      const forbidden = (status: number) => ({
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status },
      });
      let r = await api.get(EMBED, 'editor');
      expect(r.status).toBe(403);
      expect(r.body).toEqual(forbidden(403));
      r = await api.get(`${EMBED}?_wpnonce=${await nonceOf('admin')}`, 'editor');
      expect(r.status).toBe(403);
      r = await api.get(`${EMBED}?_wpnonce=${editorNonce}`);
      expect(r.status).toBe(401);
      expect(r.body).toEqual(forbidden(401));
      r = await api.get(`${EMBED}?_wpnonce=${await nonceOf('subscriber')}`, 'subscriber');
      expect(r.status).toBe(403);
      r = await api.get(`${EMBED}?_wpnonce=${await nonceOf('contributor')}`, 'contributor');
      expect(r.status).toBe(200);
    });

    it('checks its arguments before the nonce', async () => {
      const r = await api.get(`${EMBED}?view=agenda`);
      expect(r.status).toBe(400);
      expect(r.body.data.params.view).toBe('view is not one of month, list, day, photo, week, map, and summary.');
      expect((await api.get(`${EMBED}?events_per_page=0`)).body.data.details.events_per_page.code).toBe(
        'rest_out_of_bounds',
      );
    });
  });

  describe('rendering', () => {
    it('lists up to 12 upcoming published events from now by default, in start order', async () => {
      const { ids } = await embed();
      expect(ids).toHaveLength(12);
      const now = sb.site.now().toISOString().slice(0, 19).replace('T', ' ');
      const starts = ids.map((id) => post(id).meta.startDateUtc);
      expect([...starts].sort()).toEqual(starts);
      for (const id of ids) {
        expect(post(id).status).toBe('publish');
        expect(post(id).meta.endDateUtc >= now.slice(0, 10)).toBe(true);
        expect(post(id).meta.hideFromListings).toBe(false);
      }
    });

    it('honours events_per_page, featured, keyword, venue, organizer and author', async () => {
      expect((await embed('events_per_page=3')).ids).toHaveLength(3);
      for (const id of (await embed('featured=1&events_per_page=50')).ids) expect(post(id).meta.featured).toBe(true);
      const kw = await embed('keyword=Lecture&events_per_page=50');
      expect(kw.ids.length).toBeGreaterThan(0);
      for (const id of kw.ids) expect(post(id).title + post(id).content).toMatch(/lecture/i);
      const sample = post(
        (await embed('events_per_page=50')).ids.find(
          (id) => post(id).meta.venueIds.length && post(id).meta.organizerIds.length,
        )!,
      );
      for (const id of (await embed(`venue=${sample.meta.venueIds[0]}&events_per_page=50`)).ids)
        expect(post(id).meta.venueIds).toContain(sample.meta.venueIds[0]);
      for (const id of (await embed(`organizer=${sample.meta.organizerIds[0]}&events_per_page=50`)).ids)
        expect(post(id).meta.organizerIds).toContain(sample.meta.organizerIds[0]);
      const byAuthor = await embed('author=3&events_per_page=50');
      expect(byAuthor.ids.length).toBeGreaterThan(0);
      for (const id of byAuthor.ids) expect(post(id).author).toBe(3);
    });

    it('honours category and tag slugs, their exclusions and the AND operand', async () => {
      const jazz = one("SELECT id FROM terms WHERE slug = 'jazz'").id;
      const music = one("SELECT id FROM terms WHERE slug = 'music'").id;
      const free = one("SELECT id FROM terms WHERE slug = 'free'").id;
      const termsOf = (id: number) =>
        (
          sb.site.store.db.prepare('SELECT term_id t FROM term_relationships WHERE post_id = ?').all(id) as {
            t: number;
          }[]
        ).map((r) => r.t);
      const jazzIds = (await embed('category=jazz&events_per_page=50&past=1')).ids;
      expect(jazzIds.length).toBeGreaterThan(0);
      for (const id of jazzIds) expect(termsOf(id)).toContain(jazz);
      for (const id of (await embed('category=music&exclude_category=jazz&events_per_page=50')).ids)
        expect(termsOf(id)).not.toContain(jazz);
      for (const id of (await embed('tag=free&events_per_page=50')).ids) expect(termsOf(id)).toContain(free);
      for (const id of (await embed('exclude_tag=free&events_per_page=50')).ids)
        expect(termsOf(id)).not.toContain(free);
      for (const id of (await embed('tag_category=free&events_per_page=50')).ids)
        expect(termsOf(id)).not.toContain(free);
      for (const id of (await embed('category=music&tag=free&tax_operand=AND&events_per_page=50&past=1')).ids) {
        expect(termsOf(id)).toContain(music);
        expect(termsOf(id)).toContain(free);
      }
      expect((await embed('category=no-such-category')).ids).toEqual([]);
      expect((await embed('category=no-such-category')).text).toContain('There were no results found.');
    });

    it('shows past events newest first', async () => {
      const { ids } = await embed('past=true&events_per_page=20');
      expect(ids).toHaveLength(20);
      const now = new Date().toISOString().slice(0, 10);
      const starts = ids.map((id) => post(id).meta.startDateUtc);
      expect([...starts].sort().reverse()).toEqual(starts);
      for (const id of ids) expect(post(id).meta.endDate.slice(0, 10) <= now).toBe(true);
    });

    it('shows one day, one week or one month around the date', async () => {
      const day = await embed('view=day&date=2026-06-10');
      for (const id of day.ids)
        expect(
          post(id).meta.startDate.slice(0, 10) <= '2026-06-10' && post(id).meta.endDate.slice(0, 10) >= '2026-06-10',
        ).toBe(true);
      const week = await embed('view=week&date=2026-06-10');
      expect(week.text).toContain('data-view="week"');
      expect(week.ids.length).toBeGreaterThan(0);
      for (const id of week.ids)
        expect(post(id).meta.startDate <= '2026-06-14 23:59:59' && post(id).meta.endDate >= '2026-06-08 00:00:00').toBe(
          true,
        );
      const month = await embed('view=month&date=2026-06-10');
      expect(month.ids.length).toBeGreaterThan(week.ids.length);
      for (const id of month.ids)
        expect(post(id).meta.startDate <= '2026-06-30 23:59:59' && post(id).meta.endDate >= '2026-06-01 00:00:00').toBe(
          true,
        );
      const capped = await embed('view=month&date=2026-06-10&month_events_per_day=1');
      const days = capped.ids.map((id) => post(id).meta.startDate.slice(0, 10));
      expect(new Set(days).size).toBe(days.length);
      expect(capped.ids.length).toBeLessThan(month.ids.length);
    });

    it('shows the search bar when asked', async () => {
      expect((await embed('tribe_bar=true&keyword=Harbor')).text).toContain('<form class="tribe-events-c-search"');
      expect((await embed()).text).not.toContain('<form');
    });
  });
});
