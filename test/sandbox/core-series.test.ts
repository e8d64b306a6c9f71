/**
 * `GET /calendar-core/v1/series` (spec B4; calendar-upstream.md §2 "/series":
 * signed-in readers only, so an anonymous call is a 401 before the
 * experimental check).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const SERIES = '/calendar-core/v1/series';

describe('calendar-core/v1 series', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  const all = <T = any>(sql: string, ...args: unknown[]) => sb.site.store.db.prepare(sql).all(...args) as T[];
  /** Event IDs of a series by start, straight from the store. */
  const membersOf = (id: number) =>
    all<{ id: number }>(
      "SELECT id FROM posts WHERE type = 'calendar_events' AND status = 'publish' AND json_extract(meta, '$.seriesId') = ? ORDER BY json_extract(meta, '$.startDateUtc'), id",
      id,
    ).map((r) => r.id);

  beforeAll(async () => {
    // Event Tickets active, so `ticketed` filters (without it the list ignores it: tickets.test.ts).
    sb = await testSandbox({ anchor: '2026-06-01', tickets: true });
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  it('refuses anonymous callers with 401, before the experimental check', async () => {
    for (const headers of [{}, { 'x-tec-eea': '' }] as Record<string, string>[]) {
      const r = await api.get(SERIES, null, headers);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: 401 },
      });
    }
  });

  it('still checks arguments first: a 400 beats the 401', async () => {
    const r = await api.get(`${SERIES}?per_page=101`);
    expect(r.status).toBe(400);
    expect(r.body.data.details.per_page.code).toBe('rest_out_of_bounds');
  });

  it('needs the acknowledgement header from signed-in callers', async () => {
    const r = await api.get(SERIES, 'subscriber', { 'x-tec-eea': '' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('missing_experimental_endpoint_acknowledgement');
  });

  it('lists published series to any signed-in user, with totals and links', async () => {
    const published = all("SELECT id FROM posts WHERE type = 'calendar_event_series' AND status = 'publish'").length;
    const r = await api.get(`${SERIES}?per_page=3`, 'subscriber');
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(3);
    expect(r.headers.get('x-wp-total')).toBe(String(published));
    expect(r.headers.get('x-wp-totalpages')).toBe(String(Math.ceil(published / 3)));
    expect(r.headers.get('link')).toBe(`<${sb.url}calendar-core/v1/series?per_page=3&page=2>; rel="next"`);
    const gone = await api.get(`${SERIES}?page=99`, 'subscriber');
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({
      code: 'tec_rest_organizers_page_not_found',
      message: 'The requested page was not found.',
    });
  });

  it('answers posts-style series objects with their events ordered by start', async () => {
    const r = await api.get(`${SERIES}?per_page=100`, 'editor');
    for (const s of r.body) {
      expect(s.type).toBe('calendar_event_series');
      expect(Object.keys(s)).toEqual([
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
        'events',
      ]);
      expect(s.link).toBe(`${sb.origin}/series/${s.slug}/`);
      // Editors also see the drafts, privates and pendings among the members; compare the published ones.
      expect(s.events.filter((id: number) => membersOf(s.id).includes(id))).toEqual(membersOf(s.id));
    }
  });

  it("orders by the first event's start by default, and by title on request", async () => {
    const r = await api.get(`${SERIES}?per_page=100`, 'subscriber');
    const firsts = r.body.map((s: any) => sb.site.store.post<any>(s.events[0])!.meta.startDateUtc);
    expect([...firsts].sort()).toEqual(firsts);
    const byTitle = (await api.get(`${SERIES}?per_page=100&orderby=title&order=DESC`, 'subscriber')).body.map(
      (s: any) => s.title.rendered.toLowerCase(),
    );
    expect([...byTitle].sort().reverse()).toEqual(byTitle);
    expect((await api.get(`${SERIES}?orderby=size`, 'subscriber')).body.data.details.orderby.code).toBe(
      'rest_not_in_enum',
    );
  });

  it('finds the series of given events, by search and by tickets', async () => {
    const member = all<{ id: number; s: number }>(
      "SELECT id, json_extract(meta, '$.seriesId') s FROM posts WHERE type = 'calendar_events' AND status = 'publish' AND json_extract(meta, '$.seriesId') > 0 LIMIT 1",
    )[0]!;
    let r = await api.get(`${SERIES}?event_post_id=${member.id}`, 'subscriber');
    expect(r.body.map((s: any) => s.id)).toEqual([member.s]);
    expect(
      (await api.get(`${SERIES}?event_post_id=${member.id},${member.id}`, 'subscriber')).body.data.details.event_post_id
        .code,
    ).toBe('rest_duplicate_items');
    const title = sb.site.store.post(member.s)!.title;
    r = await api.get(`${SERIES}?search=${encodeURIComponent(title)}`, 'subscriber');
    expect(r.body.map((s: any) => s.title.rendered)).toContain(title);
    expect(r.body.every((s: any) => s.title.rendered.includes(title))).toBe(true);
    r = await api.get(`${SERIES}?ticketed=true&per_page=100`, 'subscriber');
    for (const s of r.body)
      expect(s.events.some((id: number) => sb.site.store.post<any>(id)!.meta.ticketed)).toBe(true);
  });

  it('shows draft series to editors only', async () => {
    const drafts = all("SELECT id FROM posts WHERE type = 'calendar_event_series' AND status = 'draft'").map(
      (r: any) => r.id,
    );
    expect(drafts.length).toBeGreaterThan(0);
    expect((await api.get(`${SERIES}?status=draft`, 'editor')).body.map((s: any) => s.id)).toEqual(drafts);
    expect(
      (await api.get(`${SERIES}?status=draft&per_page=100`, 'subscriber')).body.every(
        (s: any) => s.status === 'publish',
      ),
    ).toBe(true);
    expect((await api.get(`${SERIES}?status=archived`, 'editor')).body.data.details.status.code).toBe(
      'rest_not_in_enum',
    );
  });
});
