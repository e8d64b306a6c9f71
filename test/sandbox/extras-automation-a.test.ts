/**
 * calendar/automation-a/v1, the Zapier connector (calendar-upstream.md §4):
 * authorize, the token checks, the three feeds filled by writes through every
 * interface (not drained, newest first, at most 15, `id|modified` on updated
 * and canceled), the mapped event, and the create/update/find actions.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_TAX, ORGANIZER, VENUE } from '../../packages/sandbox/src/calendar/model.ts';
import { encodeJwt } from '../../packages/sandbox/src/namespaces/extras/jwt.ts';
import { extrasCredentials } from '../../packages/sandbox/src/namespaces/extras/index.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient, type Who } from '../helpers/sandbox.ts';

const A = '/calendar/automation-a/v1';
const LEGACY = '/calendar/events/v1/events';
const CORE = '/calendar-core/v1/events';

/** `Y-m-d H:i:s`, `days` from now at `hour` o'clock (inside the legacy archive's default window). */
const at = (days: number, hour = 10) =>
  DateTime.now().plus({ days }).set({ hour, minute: 0, second: 0 }).toFormat('yyyy-MM-dd HH:mm:ss');

const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

describe('automation-a (Zapier)', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  let token: string;
  let readOnlyToken: string;
  let seq = 0;

  const authorize = async (id: string, secret: string, extra = '') =>
    api.get(`${A}/authorize?consumer_id=${id}&consumer_secret=${secret}${extra}`);
  const feed = async (name: string, t = token) => api.get(`${A}/${name}?access_token=${encodeURIComponent(t)}`);
  const ids = async (name: string) => ((await feed(name)).body as { id: string }[]).map((e) => e.id);
  const legacyCreate = async (body: Record<string, unknown> = {}, who: Who = 'admin') => {
    const r = await api.send(
      'POST',
      LEGACY,
      { title: `Zap event ${++seq}`, start_date: at(10), end_date: at(10, 12), ...body },
      who,
    );
    expect(r.status).toBe(201);
    return r.body;
  };
  const modifiedStamp = async (id: number) =>
    Math.floor(Date.parse(`${(await api.get(`${LEGACY}/${id}`, 'admin')).body.modified.replace(' ', 'T')}Z`) / 1000);
  const serialised = (code: string, message: string, status: number) => ({
    errors: { [code]: [message] },
    error_data: { [code]: { status } },
  });

  beforeAll(async () => {
    sb = await testSandbox({ events: 30 });
    api = restClient(sb);
    const [zap, readOnly] = extrasCredentials(sb.site).zapier;
    token = (await authorize(zap!.consumerId, zap!.consumerSecret, '&app_name=Sandbox%20Zap')).body.access_token;
    readOnlyToken = (await authorize(readOnly!.consumerId, readOnly!.consumerSecret)).body.access_token;
  });
  afterAll(() => sb.close());

  describe('GET /authorize', () => {
    it('exchanges the consumer pair for an HS256 JWT without exp', async () => {
      const zap = extrasCredentials(sb.site).zapier[0]!;
      const r = await authorize(zap.consumerId, zap.consumerSecret, '&app_name=Tom%20%26%20Jerry');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['access_token']);
      const [head] = r.body.access_token.split('.');
      expect(JSON.parse(Buffer.from(head, 'base64url').toString())).toEqual({ typ: 'JWT', alg: 'HS256' });
      const c = claims(r.body.access_token);
      expect(Object.keys(c)).toEqual(['iss', 'iat', 'nbf', 'data']);
      expect(c.iss).toBe(sb.origin);
      expect(c.nbf).toBe(c.iat);
      expect(Math.abs(c.iat - Date.now() / 1000)).toBeLessThan(60);
      // The pair as sent, the app name escaped (esc_html).
      expect(c.data).toEqual({
        consumer_id: zap.consumerId,
        consumer_secret: zap.consumerSecret,
        app_name: 'Tom &amp; Jerry',
      });
    });

    it("answers WordPress's missing-parameter error when the pair is incomplete", async () => {
      const r = await api.get(`${A}/authorize?consumer_id=ci_x`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): consumer_secret',
        data: { status: 400, params: ['consumer_secret'] },
      });
    });

    it('answers HTTP 400 with the serialised WP_Error for an unknown ID or a wrong secret', async () => {
      const zap = extrasCredentials(sb.site).zapier[0]!;
      let r = await authorize('ci_0000', zap.consumerSecret);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(
        serialised(
          'integration_consumer_id_not_found',
          'Consumer ID failed to load, please check the value and try again.',
          400,
        ),
      );
      r = await authorize(zap.consumerId, `ck_${'0'.repeat(40)}`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(
        serialised('integration_consumer_secret_no_match', 'Consumer Secret does not match.', 400),
      );
      // Another connection's secret does not open this one either.
      r = await authorize(zap.consumerId, extrasCredentials(sb.site).zapier[1]!.consumerSecret);
      expect(r.body.errors).toHaveProperty('integration_consumer_secret_no_match');
    });
  });

  describe('access tokens', () => {
    const secret = () => sb.site.store.option<string>('tec_automator_zapier_secret_key', '');
    const now = () => Math.floor(Date.now() / 1000);

    it("reports each kind of bad token as HTTP 400 carrying the error's own status", async () => {
      const good = claims(token);
      const cases: [string, string, string, number][] = [
        ['', 'missing_access_token', 'Missing access token.', 401],
        ['not-a-token', 'invalid_token', 'Wrong number of segments', 403],
        [`${token.slice(0, -4)}AAAA`, 'invalid_token', 'Signature verification failed', 403],
        [encodeJwt(good, 'another-secret'), 'invalid_token', 'Signature verification failed', 403],
        [
          encodeJwt({ ...good, nbf: now() + 3600 }, secret()),
          'invalid_token',
          `Cannot handle token with nbf prior to ${new Date((now() + 3600) * 1000).toISOString().slice(0, 19)}+0000`,
          403,
        ],
        [encodeJwt({ ...good, exp: now() - 10 }, secret()), 'invalid_token', 'Expired token', 403],
        [
          encodeJwt({ ...good, iss: 'https://elsewhere.example' }, secret()),
          'bad_issuer',
          'Access_token issuer does not match with this server.',
          401,
        ],
        [encodeJwt({ iss: sb.origin, iat: now() }, secret()), 'bad_request', 'Access_token is missing data.', 401],
        [
          encodeJwt({ ...good, data: { consumer_id: 'ci_nobody', consumer_secret: 'ck_x' } }, secret()),
          'integration_consumer_id_not_found',
          'Consumer ID failed to load, please check the value and try again.',
          400,
        ],
      ];
      for (const [t, code, message, status] of cases) {
        const r = await feed('new-events', t);
        expect(r.status, code).toBe(400);
        expect(r.body).toEqual(serialised(code, message, status));
      }
    });

    it('requires access_token on the feeds, and also reads tec_access_token', async () => {
      const r = await api.get(`${A}/updated-events`);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('rest_missing_callback_param');
      const alt = await api.get(`${A}/updated-events?access_token=&tec_access_token=${token}`);
      expect(alt.status).toBe(200);
    });

    it('refuses a token whose header names another algorithm', async () => {
      const [, body, sig] = token.split('.');
      const head = Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'RS256' })).toString('base64url');
      const r = await feed('new-events', `${head}.${body}.${sig}`);
      expect(r.body).toEqual(serialised('invalid_token', 'Incorrect key for this algorithm', 403));
    });
  });

  describe('feeds', () => {
    it('start empty: the demo data was saved before the connections existed', async () => {
      for (const [name, kind] of [
        ['new-events', 'new'],
        ['updated-events', 'updated'],
        ['canceled-events', 'canceled'],
      ]) {
        const r = await feed(name!);
        expect(r.status).toBe(200);
        expect(r.headers.get('cache-control')).toContain('no-store');
        expect(r.body).toEqual([{ id: `no-${kind}-events` }]);
      }
    });

    it('queue new events published through the legacy and the calendar-core interfaces, newest first', async () => {
      const a = await legacyCreate();
      const core = await api.send(
        'POST',
        CORE,
        { title: 'Core-made event', start_date: at(11), end_date: at(11, 13) },
        'admin',
      );
      expect(core.status).toBe(201);
      const draft = await legacyCreate({ status: 'draft' });
      expect((await ids('new-events')).slice(0, 2)).toEqual([String(core.body.id), String(a.id)]);
      expect(await ids('new-events')).not.toContain(String(draft.id));
      // Published later, a draft is new then (once), and also updated.
      expect((await api.send('PATCH', `${CORE}/${draft.id}`, { status: 'publish' }, 'admin')).status).toBe(200);
      expect((await ids('new-events'))[0]).toBe(String(draft.id));
      await api.send('PATCH', `${CORE}/${draft.id}`, { title: 'Draft, published' }, 'admin');
      expect((await ids('new-events')).filter((id) => id === String(draft.id))).toHaveLength(1);
    });

    it('queue updates from both interfaces as "<ID>|<post_modified as a unix time>", without duplicates', async () => {
      const e = await legacyCreate();
      expect(await ids('updated-events')).not.toContain(expect.stringMatching(new RegExp(`^${e.id}\\|`)));
      await api.send('POST', `${LEGACY}/${e.id}`, { title: 'Renamed on legacy' }, 'admin');
      let list = await ids('updated-events');
      expect(list[0]).toBe(`${e.id}|${await modifiedStamp(e.id)}`);
      const other = await legacyCreate();
      await api.send('PUT', `${CORE}/${other.id}`, { title: 'Renamed on core' }, 'admin');
      await api.send('PATCH', `${CORE}/${e.id}`, { excerpt: 'Again' }, 'admin');
      list = await ids('updated-events');
      expect(list.slice(0, 2).map((x) => x.split('|')[0])).toEqual([String(e.id), String(other.id)]);
      expect(list.filter((x) => x.startsWith(`${e.id}|`))).toHaveLength(1);
      // Unpublished events are not announced (calendar-core keeps the status; a legacy update without one publishes).
      const draft = await legacyCreate({ status: 'draft' });
      expect((await api.send('PATCH', `${CORE}/${draft.id}`, { title: 'Quiet draft edit' }, 'admin')).body.status).toBe(
        'draft',
      );
      expect((await ids('updated-events')).some((x) => x.startsWith(`${draft.id}|`))).toBe(false);
    });

    it('queue cancellations of published events set through update-events', async () => {
      const e = await legacyCreate();
      const draft = await legacyCreate({ status: 'draft' });
      for (const [id, status] of [
        [e.id, 'publish'],
        [draft.id, 'draft'],
      ]) {
        // The legacy update publishes unless told otherwise, so the draft says it stays one.
        const r = await api.send('POST', `${A}/update-events`, {
          access_token: token,
          id,
          status,
          event_status: 'canceled',
        });
        expect(r.status).toBe(200);
        expect(r.body.status).toBe(status);
      }
      const r = await feed('canceled-events');
      expect(r.body.map((x: any) => x.id)).toEqual([`${e.id}|${await modifiedStamp(e.id)}`]);
      expect(r.body[0].event_status).toBe('canceled');
      // Postponing is not canceling.
      const p = await legacyCreate();
      await api.send('PATCH', `${A}/update-events`, { access_token: token, id: p.id, event_status: 'postponed' });
      expect((await feed('canceled-events')).body).toHaveLength(1);
    });

    it('are not drained by reading, and keep only the 15 newest', async () => {
      const first = await feed('new-events');
      expect((await feed('new-events')).body).toEqual(first.body);
      const created: number[] = [];
      for (let i = 0; i < 16; i++) created.push((await legacyCreate()).id);
      const list = await ids('new-events');
      expect(list).toEqual(created.slice(-15).reverse().map(String));
    });
  });

  describe('the mapped event', () => {
    it('flattens the event with its organizers, venues, terms and ISO 8601 dates', async () => {
      const store = sb.site.store;
      const venue = store.posts(VENUE, ['publish'])[0]!;
      const organizer = store.posts(ORGANIZER, ['publish'])[0]!;
      const jazz = store.termBySlug(CATEGORY_TAX, 'jazz')!;
      const e = await legacyCreate({
        title: 'Mapped night',
        description: '<p>Full description.</p>',
        timezone: 'Asia/Tokyo',
        start_date: at(20, 19),
        end_date: at(21, 1),
        cost: '$15',
        website: 'https://mapped.example',
        featured: true,
        venue: venue.id,
        organizer: [organizer.id],
        categories: [jazz.id],
        tags: ['outdoor'],
      });
      const mapped = (await feed('new-events')).body[0];
      const start = at(20, 19).replace(' ', 'T');
      expect(mapped).toEqual({
        id: String(e.id),
        title: 'Mapped night',
        description: '<p>Full description.</p>',
        excerpt: '<p>Full description.</p>\n',
        permalink: `${sb.origin}/event/mapped-night/`,
        author_id: 1,
        author_email: 'admin@sandbox.example',
        event_status: 'scheduled',
        featured: true,
        sticky: false,
        organizers: [expect.objectContaining({ id: organizer.id, title: organizer.title })],
        venue: [expect.objectContaining({ id: venue.id, title: venue.title })],
        cost: '$15',
        website_url: 'https://mapped.example',
        featured_image_url: '',
        category: [
          {
            name: 'Jazz',
            slug: 'jazz',
            description: '',
            parent: { name: 'Music', slug: 'music', description: 'Music events' },
          },
        ],
        tag: [{ name: 'outdoor', slug: 'outdoor', description: '' }],
        tickets: { has_ticket: false, has_rsvp: false, in_date_range: false, sold_out: false, tickets: [], rsvps: [] },
        start_date: `${start}+09:00`,
        end_date: `${at(21, 1).replace(' ', 'T')}+09:00`,
        timezone: 'Asia/Tokyo',
        timezone_abbr: 'JST',
        all_day: false,
        multi_day: 2,
        is_past: false,
        duration: 6 * 3600,
      });
      expect(Object.keys(mapped.organizers[0])).toEqual([
        'id',
        'title',
        'description',
        'excerpt',
        'permalink',
        'featured_image_url',
        'phone',
        'website',
        'email',
      ]);
      expect(Object.keys(mapped.venue[0])).toEqual([
        'id',
        'title',
        'description',
        'excerpt',
        'permalink',
        'featured_image_url',
        'phone',
        'website',
        'address',
        'country',
        'city',
        'state_province',
        'state',
        'zip',
        'directions_link',
        'geolocation',
      ]);
    });
  });

  describe('POST /create-events', () => {
    const event = () => ({ title: `Created by Zapier ${++seq}`, start_date: at(30), end_date: at(30, 11) });

    it("creates through the legacy create as the connection's user: 201 with the legacy event, queued as new", async () => {
      const r = await api.send('POST', `${A}/create-events`, {
        access_token: token,
        ...event(),
        categories: ['Zapier Imports'],
      });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        status: 'publish',
        author: '2',
        rest_url: `${sb.url}calendar/events/v1/events/${r.body.id}`,
      });
      expect(r.body.categories.map((c: any) => c.name)).toEqual(['Zapier Imports']);
      expect((await ids('new-events'))[0]).toBe(String(r.body.id));
      // The connection's user wins over the caller's own credentials.
      const asAdmin = await api.send('POST', `${A}/create-events`, { access_token: token, ...event() }, 'admin');
      expect(asAdmin.body.author).toBe('2');
    });

    it('checks the arguments first, then refuses without a usable token or with a user who cannot edit events', async () => {
      const missing = await api.send('POST', `${A}/create-events`, { access_token: 'junk', title: 'No dates' });
      expect(missing.status).toBe(400);
      expect(missing.body.data.params).toEqual(['start_date', 'end_date']);
      const forbidden = {
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: 401 },
      };
      for (const body of [{}, { access_token: 'junk' }, { access_token: readOnlyToken }]) {
        const r = await api.send('POST', `${A}/create-events`, { ...event(), ...body });
        expect(r.status).toBe(401);
        expect(r.body).toEqual(forbidden);
      }
      // Signed in as someone else, the connection's user is not the current one: 403.
      const signedIn = await api.send(
        'POST',
        `${A}/create-events`,
        { ...event(), access_token: readOnlyToken },
        'admin',
      );
      expect(signedIn.status).toBe(403);
      expect(signedIn.body.code).toBe('rest_forbidden');
    });

    it('lets a connection whose user is also the signed-in caller create, scaled back like the legacy create', async () => {
      // can_create only compares the connection's user with the current one (TC), so a subscriber
      // signed in with their own connection gets through; without publish_posts no status means draft.
      const r = await api.send('POST', `${A}/create-events`, { ...event(), access_token: readOnlyToken }, 'subscriber');
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ status: 'draft', author: '5' });
      expect(await ids('new-events')).not.toContain(String(r.body.id));
    });

    it('refuses GET with zapier_incorrect_get_request', async () => {
      const r = await api.get(`${A}/create-events?access_token=${token}`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(
        serialised(
          'zapier_incorrect_get_request',
          'GET responses not accepted on the create events endpoint, please us a POST request.',
          400,
        ),
      );
    });
  });

  describe('/update-events', () => {
    it('updates through the legacy update with POST, PUT and PATCH, image cast to a string', async () => {
      const e = await legacyCreate();
      for (const method of ['POST', 'PUT', 'PATCH']) {
        const r = await api.send(method, `${A}/update-events`, {
          access_token: token,
          id: e.id,
          title: `Updated with ${method}`,
        });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ id: e.id, title: `Updated with ${method}`, image: '' });
      }
      expect((await api.get(`${LEGACY}/${e.id}`)).body.title).toBe('Updated with PATCH');
    });

    it('answers the legacy errors: no ID, an ID that is not an event, a bad event status', async () => {
      let r = await api.send('POST', `${A}/update-events`, { access_token: token, title: 'Nowhere' });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({
        code: 'could-not-update-event',
        message: 'The event could not be updated',
        data: { status: 403 },
      });
      const venue = sb.site.store.posts(VENUE)[0]!;
      r = await api.send('POST', `${A}/update-events`, { access_token: token, id: venue.id });
      expect(r.status).toBe(400);
      expect(r.body.data.params).toEqual({ id: 'Invalid parameter.' });
      r = await api.send('POST', `${A}/update-events`, {
        access_token: token,
        id: (await legacyCreate()).id,
        event_status: 'gone',
      });
      expect(r.status).toBe(400);
      expect(r.body.data.params.event_status).toBe('event_status is not one of scheduled, canceled, and postponed.');
    });

    it('refuses callers without a token or whose connection user cannot edit', async () => {
      const e = await legacyCreate();
      expect((await api.send('PATCH', `${A}/update-events`, { id: e.id, title: 'x' })).status).toBe(401);
      expect(
        (await api.send('PATCH', `${A}/update-events`, { access_token: readOnlyToken, id: e.id, title: 'x' })).status,
      ).toBe(401);
      expect((await api.get(`${LEGACY}/${e.id}`)).body.title).toBe(e.title);
    });
  });

  describe('GET /find-events', () => {
    it('runs the legacy archive query and answers [{"events":[mapped…]}]', async () => {
      const a = await legacyCreate({ title: 'Findable lantern parade' });
      const b = await legacyCreate({ title: 'Findable lantern market', start_date: at(12), end_date: at(12, 11) });
      const r = await api.get(`${A}/find-events?access_token=${token}&search=findable%20lantern`);
      expect(r.status).toBe(200);
      expect(r.body).toHaveLength(1);
      expect(r.body[0].events.map((e: any) => e.id)).toEqual([String(a.id), String(b.id)]);
      expect(r.body[0].events[0]).toHaveProperty('tickets');
    });

    it('answers [] when nothing matches, or the page is past the last', async () => {
      expect((await api.get(`${A}/find-events?access_token=${token}&search=no-such-thing-anywhere`)).body).toEqual([]);
      const past = await api.get(`${A}/find-events?access_token=${token}&search=findable&page=9`);
      expect(past.status).toBe(200);
      expect(past.body).toEqual([]);
    });

    it('checks the token in the callback: 400 with the serialised error, after the archive arguments', async () => {
      let r = await api.get(`${A}/find-events?search=x`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(serialised('missing_access_token', 'Missing access token.', 401));
      r = await api.get(`${A}/find-events?access_token=${token}&per_page=0`);
      expect(r.body.code).toBe('rest_invalid_param');
    });
  });
});
