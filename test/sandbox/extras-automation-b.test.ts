/**
 * calendar/automation-b/v1, the Power Automate connector (calendar-upstream.md
 * §4): the token issued with the connection, feeds guarded by the permission
 * callback, one event popped per call then sentinel objects, and create-events.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeJwt } from '../../packages/sandbox/src/namespaces/extras/jwt.ts';
import { extrasCredentials } from '../../packages/sandbox/src/namespaces/extras/index.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const B = '/calendar/automation-b/v1';
const LEGACY = '/calendar/events/v1/events';

const at = (days: number, hour = 10) =>
  DateTime.now().plus({ days }).set({ hour, minute: 0, second: 0 }).toFormat('yyyy-MM-dd HH:mm:ss');

describe('automation-b (Power Automate)', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  let token: string;
  let seq = 0;

  const pop = async (name: string, t = token) => api.get(`${B}/${name}?access_token=${encodeURIComponent(t)}`);
  const legacyCreate = async (body: Record<string, unknown> = {}) => {
    const r = await api.send(
      'POST',
      LEGACY,
      { title: `Flow event ${++seq}`, start_date: at(5), end_date: at(5, 11), ...body },
      'admin',
    );
    expect(r.status).toBe(201);
    return r.body;
  };

  beforeAll(async () => {
    sb = await testSandbox({ events: 20 });
    api = restClient(sb);
    token = extrasCredentials(sb.site).powerAutomate[0]!.accessToken!;
  });
  afterAll(() => sb.close());

  it("issues the connection's token for this site, with the same claims as Zapier's", () => {
    const pa = extrasCredentials(sb.site).powerAutomate[0]!;
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({
      iss: sb.origin,
      data: { consumer_id: pa.consumerId, consumer_secret: pa.consumerSecret, app_name: 'Sandbox Power Automate' },
    });
    expect(claims).not.toHaveProperty('exp');
  });

  it('has no /authorize', async () => {
    expect((await api.get(`${B}/authorize?consumer_id=a&consumer_secret=b`)).body.code).toBe('rest_no_route');
  });

  describe('feeds', () => {
    it('refuse a missing or bad token in the permission callback: rest_forbidden, 401 or 403', async () => {
      const forbidden = (status: number) => ({
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status },
      });
      let r = await api.get(`${B}/new-events`);
      expect(r.status).toBe(401);
      expect(r.body).toEqual(forbidden(401));
      r = await pop('updated-events', `${token}x`);
      expect(r.body).toEqual(forbidden(401));
      r = await api.get(`${B}/canceled-events?access_token=${token}x`, 'editor');
      expect(r.status).toBe(403);
      expect(r.body).toEqual(forbidden(403));
      // A Zapier token is signed with Zapier's secret.
      const zap = extrasCredentials(sb.site).zapier[0]!;
      const zapToken = (
        await api.get(
          `/calendar/automation-a/v1/authorize?consumer_id=${zap.consumerId}&consumer_secret=${zap.consumerSecret}`,
        )
      ).body.access_token;
      expect((await pop('new-events', zapToken)).status).toBe(401);
      // A well-signed token for a connection that does not exist.
      const secret = sb.site.store.option<string>('tec_automator_power_automate_secret_key', '');
      const ghost = encodeJwt(
        { iss: sb.origin, iat: 1, nbf: 1, data: { consumer_id: 'ci_ghost', consumer_secret: 'ck_ghost' } },
        secret,
      );
      expect((await pop('new-events', ghost)).status).toBe(401);
    });

    it('answer the sentinel objects while empty', async () => {
      for (const kind of ['new', 'updated', 'canceled']) {
        const r = await pop(`${kind}-events`);
        expect(r.status).toBe(200);
        expect(r.body).toEqual({ events: { id: `no-${kind}-events` } });
      }
    });

    it('pop one event per call, newest first, then answer the sentinel', async () => {
      const a = await legacyCreate();
      const b = await legacyCreate();
      let r = await pop('new-events');
      expect(r.body.events).toHaveLength(1);
      expect(r.body.events[0]).toMatchObject({ id: String(b.id), title: b.title, event_status: 'scheduled' });
      r = await pop('new-events');
      expect(r.body.events.map((e: any) => e.id)).toEqual([String(a.id)]);
      expect((await pop('new-events')).body).toEqual({ events: { id: 'no-new-events' } });
    });

    it('pop updates and cancellations without a modified suffix', async () => {
      const e = await legacyCreate();
      await pop('new-events');
      await api.send('PATCH', `/calendar-core/v1/events/${e.id}`, { title: 'Flow rename' }, 'admin');
      const r = await pop('updated-events');
      expect(r.body.events[0]).toMatchObject({ id: String(e.id), title: 'Flow rename' });
      expect((await pop('updated-events')).body).toEqual({ events: { id: 'no-updated-events' } });
      const zap = extrasCredentials(sb.site).zapier[0]!;
      const zapToken = (
        await api.get(
          `/calendar/automation-a/v1/authorize?consumer_id=${zap.consumerId}&consumer_secret=${zap.consumerSecret}`,
        )
      ).body.access_token;
      await api.send('POST', '/calendar/automation-a/v1/update-events', {
        access_token: zapToken,
        id: e.id,
        event_status: 'canceled',
      });
      const c = await pop('canceled-events');
      expect(c.body.events[0]).toMatchObject({ id: String(e.id), event_status: 'canceled' });
      expect((await pop('canceled-events')).body).toEqual({ events: { id: 'no-canceled-events' } });
    });

    it('answer not-a-valid-post-type for a queued event that no longer exists, and move on', async () => {
      const gone = await legacyCreate();
      const kept = await legacyCreate();
      sb.site.store.deletePost(kept.id);
      expect((await pop('new-events')).body).toEqual({ events: { id: 'not-a-valid-post-type' } });
      expect((await pop('new-events')).body.events[0].id).toBe(String(gone.id));
    });
  });

  describe('POST /create-events', () => {
    it("creates through the legacy create as the connection's user, queued for the feeds", async () => {
      const r = await api.send('POST', `${B}/create-events`, {
        access_token: token,
        title: 'Made by a flow',
        start_date: at(7),
        end_date: at(7, 12),
      });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ title: 'Made by a flow', author: '2', status: 'publish' });
      expect((await pop('new-events')).body.events[0].id).toBe(String(r.body.id));
    });

    it('refuses a missing token with rest_forbidden after the argument checks', async () => {
      let r = await api.send('POST', `${B}/create-events`, { title: 'No token' });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('rest_missing_callback_param');
      r = await api.send('POST', `${B}/create-events`, { title: 'No token', start_date: at(7), end_date: at(7, 12) });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('rest_forbidden');
    });

    it('refuses GET with its own (oddly spelled) code', async () => {
      const r = await api.get(`${B}/create-events`);
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual({
        'Power Automate_incorrect_get_request': [
          'GET responses not accepted on the create events endpoint, please us a POST request.',
        ],
      });
    });
  });
});
