/**
 * calendar/views/v2/html (calendar-upstream.md §5): GET or POST with the view
 * URL in `u`, guarded by `_view_rest` nonces (tvn1 for the current user, tvn2
 * for a visitor), answering `{"html": …}` with the requested view of real
 * events and the next nonces embedded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient, type Who } from '../helpers/sandbox.ts';

const HTML = '/calendar/views/v2/html';

describe('views html', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  let visitorNonce: string;
  let editorNonce: string;
  const ev: Record<string, number> = {};

  const nonce = async (who: Exclude<Who, null> | null, action = '_view_rest') =>
    (
      await fetch(`${sb.origin}/__sandbox/nonce?action=${action}`, {
        headers: who ? { authorization: api.auth(who) } : {},
      })
    ).text();
  const view = async (u: string, extra = '', who: Who = null, tvn1 = visitorNonce) =>
    api.get(`${HTML}?u=${encodeURIComponent(u)}&tvn1=${tvn1}${extra}`, who);
  const eventIds = (html: string) => [...html.matchAll(/data-event-id="(\d+)"/g)].map((m) => Number(m[1]));
  const viewData = (html: string) =>
    JSON.parse(/<script data-js="tribe-events-view-data" type="application\/json">(.*?)<\/script>/.exec(html)![1]!);
  const nonces = (html: string) =>
    JSON.parse(
      /<script data-js='tribe-events-view-nonce-data' type='application\/json'>(.*?)<\/script>/.exec(html)![1]!,
    );
  const dayCell = (html: string, date: string) => new RegExp(`data-date="${date}">(.*?)</div>`).exec(html)?.[1] ?? '';

  beforeAll(async () => {
    // No demo events: the views hold exactly what the tests create.
    sb = await testSandbox({ events: 0 });
    api = restClient(sb);
    visitorNonce = await nonce(null);
    editorNonce = await nonce('editor');
    const create = async (key: string, body: Record<string, unknown>) => {
      const r = await api.send(
        'POST',
        '/calendar/events/v1/events',
        { timezone: 'America/New_York', ...body },
        'admin',
      );
      expect(r.status).toBe(201);
      ev[key] = r.body.id;
    };
    await create('early', {
      title: 'Early March fair',
      start_date: '2027-03-01 10:00:00',
      end_date: '2027-03-01 12:00:00',
    });
    await create('concert', {
      title: 'Unique lantern concert',
      start_date: '2027-03-10 19:00:00',
      end_date: '2027-03-10 21:00:00',
      categories: ['Jazz'],
    });
    await create('hidden', {
      title: 'Hidden rehearsal',
      start_date: '2027-03-10 09:00:00',
      end_date: '2027-03-10 10:00:00',
      hide_from_listings: true,
    });
    await create('draft', {
      title: 'Draft talk',
      start_date: '2027-03-10 12:00:00',
      end_date: '2027-03-10 13:00:00',
      status: 'draft',
    });
    await create('festival', {
      title: 'Spring festival',
      start_date: '2027-03-30 10:00:00',
      end_date: '2027-04-02 18:00:00',
    });
    await create('april', { title: 'April run', start_date: '2027-04-20 08:00:00', end_date: '2027-04-20 10:00:00' });
  });
  afterAll(() => sb.close());

  describe('permission and arguments', () => {
    const forbidden = (status: number) => ({
      code: 'rest_forbidden',
      message: 'Sorry, you are not allowed to do that.',
      data: { status },
    });

    it('wants u before anything else', async () => {
      const r = await api.get(`${HTML}?tvn1=nope`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): u',
        data: { status: 400, params: ['u'] },
      });
      const bad = await api.send('POST', HTML, { u: 5, view_data: 'x', tvn1: visitorNonce });
      expect(bad.status).toBe(400);
      expect(bad.body.data.params).toEqual({ u: 'Invalid parameter.', view_data: 'Invalid parameter.' });
    });

    it('refuses a missing or wrong nonce: 401 for visitors, 403 when signed in', async () => {
      expect((await api.get(`${HTML}?u=/events/`)).body).toEqual(forbidden(401));
      expect((await view('/events/', '', null, 'abcdef0123')).body).toEqual(forbidden(401));
      expect((await view('/events/', '', 'editor', 'abcdef0123')).body).toEqual(forbidden(403));
      // A user's nonce is not a visitor's, nor another user's.
      expect((await view('/events/', '', null, editorNonce)).status).toBe(401);
      expect((await view('/events/', '', 'author', editorNonce)).status).toBe(403);
      // A nonce for another action does not do either.
      expect((await view('/events/', '', null, await nonce(null, 'wp_rest'))).status).toBe(401);
    });

    it('accepts tvn1 for the current user, or a visitor nonce in tvn2', async () => {
      expect((await view('/events/', '', null)).status).toBe(200);
      expect((await view('/events/', '', 'editor', editorNonce)).status).toBe(200);
      expect((await api.get(`${HTML}?u=/events/&tvn1=junk&tvn2=${visitorNonce}`, 'editor')).status).toBe(200);
    });
  });

  describe('rendering', () => {
    it('answers JSON {"html"} with the view container and the next nonces', async () => {
      const r = await view('/events/list/');
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain('application/json');
      expect(Object.keys(r.body)).toEqual(['html']);
      expect(r.body.html).toContain(
        '<div class="tribe-common tribe-events tribe-events-view tribe-events-view--list" data-js="tribe-events-view"',
      );
      const visitor = nonces(r.body.html);
      expect(visitor.tvn2).toBe('');
      // The embedded nonce opens the next request.
      expect((await view('/events/list/', '', null, visitor.tvn1)).status).toBe(200);
      const signedIn = nonces((await view('/events/list/', '', 'editor', editorNonce)).body.html);
      expect(signedIn.tvn1).toBe(editorNonce);
      expect((await api.get(`${HTML}?u=/events/&tvn2=${signedIn.tvn2}`)).status).toBe(200);
    });

    it('renders the list from tribe-bar-date: published, listed, not over, in start order', async () => {
      const r = await view(`${sb.origin}/events/list/?tribe-bar-date=2027-03-05`);
      expect(eventIds(r.body.html)).toEqual([ev.concert, ev.festival, ev.april]);
      expect(viewData(r.body.html)).toMatchObject({
        slug: 'list',
        title: 'Upcoming Events',
        date: '2027-03-05',
        prev_url: '',
        next_url: '',
      });
      expect(r.body.html).toContain('Unique lantern concert');
    });

    it('renders past events newest first with eventDisplay=past, and filters by search and category', async () => {
      const past = await view('/events/list/?eventDisplay=past&tribe-bar-date=2027-03-20');
      expect(eventIds(past.body.html)).toEqual([ev.concert, ev.early]);
      expect(viewData(past.body.html).title).toBe('Past Events');
      const search = await view('/events/list/?tribe-bar-date=2027-01-01&tribe-bar-search=lantern');
      expect(eventIds(search.body.html)).toEqual([ev.concert]);
      const jazz = await view('/events/category/jazz/list/?tribe-bar-date=2027-01-01');
      expect(eventIds(jazz.body.html)).toEqual([ev.concert]);
      const none = await view('/events/category/no-such-category/list/');
      expect(none.body.html).toContain('There were no results found.');
    });

    it("renders the month grid from the path, with multi-day events on each day and neighbours' links", async () => {
      const r = await view('/events/month/2027-03/');
      const html = r.body.html;
      expect(viewData(html)).toMatchObject({
        slug: 'month',
        title: 'Events for March 2027',
        prev_url: `${sb.origin}/events/month/2027-02/`,
        next_url: `${sb.origin}/events/month/2027-04/`,
      });
      // Weeks start on Monday (start_of_week 1): 2027-03-01 is one, and the grid runs to Sunday 2027-04-04.
      const days = [...html.matchAll(/data-date="(\d{4}-\d{2}-\d{2})"/g)].map((m) => m[1]);
      expect([days[0], days.at(-1), days.length]).toEqual(['2027-03-01', '2027-04-04', 35]);
      expect(eventIds(dayCell(html, '2027-03-10'))).toEqual([ev.concert]);
      for (const d of ['2027-03-30', '2027-03-31', '2027-04-01', '2027-04-02'])
        expect(eventIds(dayCell(html, d))).toEqual([ev.festival]);
      expect(eventIds(dayCell(html, '2027-04-03'))).toEqual([]);
      expect(html).toContain('tribe-events-calendar-month__day--other-month" data-date="2027-04-01"');
      expect(html).not.toContain(`data-event-id="${ev.hidden}"`);
      expect(html).not.toContain(`data-event-id="${ev.draft}"`);
    });

    it('renders a day from /events/<date>/ and lets `view` override the URL', async () => {
      const day = await view('/events/2027-03-10/');
      expect(viewData(day.body.html)).toMatchObject({
        slug: 'day',
        title: 'Events for March 10, 2027',
        next_url: `${sb.origin}/events/2027-03-11/`,
      });
      expect(eventIds(day.body.html)).toEqual([ev.concert]);
      const overridden = await view('/events/list/?tribe-bar-date=2027-04-01', '&view=day');
      expect(eventIds(overridden.body.html)).toEqual([ev.festival]);
      const week = await view('/events/week/2027-04-01/');
      expect(viewData(week.body.html)).toMatchObject({ slug: 'week', title: 'Events for week of March 29, 2027' });
      expect([...new Set(eventIds(week.body.html))]).toEqual([ev.festival]);
    });

    it('answers POST like GET, taking view_data as query vars', async () => {
      const r = await api.send('POST', HTML, {
        u: '/events/list/',
        tvn1: visitorNonce,
        view_data: { 'tribe-bar-date': '2027-04-10' },
      });
      expect(r.status).toBe(200);
      expect(eventIds(r.body.html)).toEqual([ev.april]);
    });
  });
});
