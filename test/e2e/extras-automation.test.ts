/**
 * The automation connectors through the graph (schema/automation.graphql;
 * calendar-upstream.md §4): tokens from an argument or the
 * `X-Automation-Token` header, feeds as `Event`s filling after writes through
 * the connectors, the actions, token errors, and tokens kept out of logs and
 * errors.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeJwt } from '../../packages/sandbox/src/namespaces/extras/jwt.ts';
import { extrasCredentials } from '../../packages/sandbox/src/namespaces/extras/index.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';

const at = (days: number, hour = 10) =>
  DateTime.now().plus({ days }).set({ hour, minute: 0, second: 0 }).toFormat('yyyy-MM-dd HH:mm:ss');

const FEED = `items { itemId eventStatus event { databaseId title startDate startDateUtc timezone venues { databaseId } } } events { databaseId } emptyReason`;

describe('automation connectors', () => {
  let h: Harness;
  let tokenA: string;
  let readOnlyA: string;
  let tokenB: string;
  let seq = 0;

  beforeAll(async () => {
    h = await startHarness();
    const creds = extrasCredentials(h.sandbox.site);
    const auth = async (i: number) => {
      const c = creds.zapier[i]!;
      const r = await h.gql(
        `query($id: String!, $s: String!) { automationA { authorize(consumerId: $id, consumerSecret: $s, appName: "e2e") { accessToken } } }`,
        { id: c.consumerId, s: c.consumerSecret },
      );
      expect(r.errors).toBeUndefined();
      return r.data.automationA.authorize.accessToken as string;
    };
    tokenA = await auth(creds.zapier.findIndex((c) => c.user === 'editor'));
    readOnlyA = await auth(creds.zapier.findIndex((c) => c.user === 'subscriber'));
    tokenB = creds.powerAutomate[0]!.accessToken!;
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  const input = () => ({ title: `Automation e2e ${++seq}`, startDate: at(5), endDate: at(5, 12), status: 'publish' });
  const createA = async (token = tokenA) =>
    h.gql(
      `mutation($i: AutomationEventInput!, $t: String) { automationACreateEvent(input: $i, accessToken: $t) { databaseId title status } }`,
      { i: input(), t: token },
    );

  describe('API documents', () => {
    it("serves both connectors' OpenAPI documents", async () => {
      const r = await h.gql(
        `{ automationA { doc } automationB { doc } a: apiDocument(api: AUTOMATION_A) b: apiDocument(api: AUTOMATION_B) }`,
      );
      expect(r.errors).toBeUndefined();
      expect(r.data.automationA.doc.openapi).toBe('3.0.0');
      expect(r.data.automationB.doc.openapi).toBe('3.0.0');
      // The same document, maybe read twice: its date defaults (now + 2 years) may be a second apart.
      const dated = (doc: unknown) => JSON.stringify(doc).replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/g, '<date>');
      expect(dated(r.data.a)).toEqual(dated(r.data.automationA.doc));
      // Each document asked twice: one request when both are in flight at once (single flight), else two.
      expect([...new Set(h.calls().map((c) => c.path))].sort()).toEqual([
        '/calendar/automation-a/v1/doc',
        '/calendar/automation-b/v1/doc',
      ]);
      expect(h.calls().length).toBeLessThanOrEqual(4);
    });
  });

  describe('automation-a feeds', () => {
    it('start empty and say so', async () => {
      const r = await h.gql(`query($t: String) { automationA { newEvents(accessToken: $t) { ${FEED} } } }`, {
        t: tokenA,
      });
      expect(r.errors).toBeUndefined();
      expect(r.data.automationA.newEvents).toEqual({ items: [], events: [], emptyReason: 'no-new-events' });
    });

    it('fill after an event is created through the connector, as full Events', async () => {
      const created = await createA();
      expect(created.errors).toBeUndefined();
      const id = created.data.automationACreateEvent.databaseId;
      expect(created.data.automationACreateEvent.status).toBe('PUBLISH');
      const r = await h.gql(`query($t: String) { automationA { newEvents(accessToken: $t) { ${FEED} } } }`, {
        t: tokenA,
      });
      expect(r.errors).toBeUndefined();
      const feed = r.data.automationA.newEvents;
      expect(feed.emptyReason).toBeNull();
      expect(feed.items[0].itemId).toBe(String(id));
      expect(feed.items[0].eventStatus).toBe('scheduled');
      expect(feed.items[0].event.databaseId).toBe(id);
      expect(feed.items[0].event.title).toBe(created.data.automationACreateEvent.title);
      expect(feed.items[0].event.startDate).toMatch(/^\d{4}-\d\d-\d\dT10:00:00[+-]\d\d:\d\d$/);
      expect(feed.items[0].event.startDateUtc).toMatch(/Z$/);
      expect(feed.events[0].databaseId).toBe(id);
    });

    it('fill the updated and canceled feeds after updates through POST, PUT and PATCH', async () => {
      const id = (await createA()).data.automationACreateEvent.databaseId;
      for (const method of ['POST', 'PUT', 'PATCH']) {
        h.mark();
        const u = await h.gql(
          `mutation($id: Int!, $m: AutomationUpdateMethod, $t: String) { automationAUpdateEvent(id: $id, method: $m, accessToken: $t, input: { title: "Renamed ${method}" }) { databaseId title } }`,
          { id, m: method, t: tokenA },
        );
        expect(u.errors).toBeUndefined();
        expect(u.data.automationAUpdateEvent).toEqual({ databaseId: id, title: `Renamed ${method}` });
        expect(h.calls().map((c) => `${c.method} ${c.path}`)).toContain(
          `${method} /calendar/automation-a/v1/update-events`,
        );
      }
      const updated = await h.gql(`query($t: String) { automationA { updatedEvents(accessToken: $t) { ${FEED} } } }`, {
        t: tokenA,
      });
      expect(updated.errors).toBeUndefined();
      expect(updated.data.automationA.updatedEvents.items[0].itemId).toMatch(new RegExp(`^${id}\\|\\d+$`));
      expect(updated.data.automationA.updatedEvents.items[0].event.title).toBe('Renamed PATCH');

      const c = await h.gql(
        `mutation($id: Int!, $t: String) { automationAUpdateEvent(id: $id, eventStatus: CANCELED, accessToken: $t) { databaseId } }`,
        { id, t: tokenA },
      );
      expect(c.errors).toBeUndefined();
      const canceled = await h.gql(
        `query($t: String) { automationA { canceledEvents(accessToken: $t) { ${FEED} } } }`,
        { t: tokenA },
      );
      expect(canceled.errors).toBeUndefined();
      expect(canceled.data.automationA.canceledEvents.items[0].event.databaseId).toBe(id);
      expect(canceled.data.automationA.canceledEvents.items[0].eventStatus).toBe('canceled');
    });

    it('take the token from the X-Automation-Token header when no argument gives one', async () => {
      const r = await h.gql(`{ automationA { newEvents { items { itemId } } } }`, {}, null, {
        'x-automation-token': tokenA,
      });
      expect(r.errors).toBeUndefined();
      expect(r.data.automationA.newEvents.items.length).toBeGreaterThan(0);
    });

    it('finds events through find-events', async () => {
      const r = await h.gql(
        `query($t: String) { automationA { findEvents(accessToken: $t, where: { perPage: 3 }) { ${FEED} } } }`,
        { t: tokenA },
      );
      expect(r.errors).toBeUndefined();
      const f = r.data.automationA.findEvents;
      expect(f.items.length).toBeGreaterThan(0);
      expect(f.items.length).toBeLessThanOrEqual(3);
      expect(f.items.every((i: any) => i.event.databaseId === Number(i.itemId))).toBe(true);
      expect(h.calls().map((c) => c.path)).toContain('/calendar/automation-a/v1/find-events');
    });
  });

  describe('token errors', () => {
    const feed = (t: string | null) =>
      h.gql(`query($t: String) { automationA { newEvents(accessToken: $t) { emptyReason } } }`, { t });

    it('reports a missing token as UNAUTHENTICATED, before asking the site', async () => {
      const r = await feed(null);
      expect(r.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
      expect(r.errors![0]!.extensions!.arguments).toEqual(['accessToken']);
      expect(h.calls()).toEqual([]);
      // find-events takes the token as optional: the site's own check answers.
      const f = await h.gql(`{ automationA { findEvents { emptyReason } } }`);
      expect(f.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
      expect(f.errors![0]!.extensions!.upstream).toEqual({
        code: 'missing_access_token',
        status: 400,
        route: 'GET /calendar/automation-a/v1/find-events',
      });
    });

    it('reports a malformed token and a wrong signature as FORBIDDEN, without echoing the token', async () => {
      const forged = encodeJwt(
        { iss: h.sandbox.origin, iat: 1, nbf: 1, data: { consumer_id: 'ci_x', consumer_secret: 'ck_x', app_name: '' } },
        'not-the-secret',
      );
      for (const [token, message] of [
        ['not.a-token', 'Wrong number of segments'],
        [forged, 'Signature verification failed'],
      ] as const) {
        const r = await feed(token);
        expect(r.errors![0]!.extensions!.code).toBe('FORBIDDEN');
        expect(r.errors![0]!.extensions!.upstream.code).toBe('invalid_token');
        expect(r.errors![0]!.message).toContain(message);
        expect(JSON.stringify(r)).not.toContain(token);
      }
    });

    it('refuses actions with a read-only connection and with no token', async () => {
      const ro = await createA(readOnlyA);
      expect(ro.errors![0]!.extensions!.code).toMatch(/UNAUTHENTICATED|FORBIDDEN/);
      expect(ro.errors![0]!.extensions!.upstream.code).toBe('rest_forbidden');
      expect(JSON.stringify(ro)).not.toContain(readOnlyA);
      const none = await h.gql(
        `mutation($i: AutomationEventInput!) { automationBCreateEvent(input: $i) { databaseId } }`,
        { i: input() },
      );
      expect(none.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    });

    it('says update-events needs an event that exists', async () => {
      const r = await h.gql(
        `mutation($t: String) { automationAUpdateEvent(id: 999999, accessToken: $t) { databaseId } }`,
        { t: tokenA },
      );
      // The route's 400 naming `id`: NOT_FOUND, as every write (docs/writes.md "Not found").
      expect(r.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND', arguments: ['id'] });
    });
  });

  describe('automation-b', () => {
    it('pops one created event per call, then reports the empty queue', async () => {
      const c = await h.gql(
        `mutation($i: AutomationEventInput!, $t: String) { automationBCreateEvent(input: $i, accessToken: $t) { databaseId } }`,
        { i: input(), t: tokenB },
      );
      expect(c.errors).toBeUndefined();
      const id = c.data.automationBCreateEvent.databaseId;
      expect(h.calls().map((x) => `${x.method} ${x.path}`)).toContain('POST /calendar/automation-b/v1/create-events');
      // Earlier tests' events were queued too (newest first): drain until ours appears.
      const seen: number[] = [];
      for (let i = 0; i < 20; i++) {
        const r = await h.gql(`{ automationB { newEvents { ${FEED} } } }`, {}, null, { 'x-automation-token': tokenB });
        expect(r.errors).toBeUndefined();
        const f = r.data.automationB.newEvents;
        if (f.emptyReason) {
          expect(f.emptyReason).toBe('no-new-events');
          break;
        }
        expect(f.items).toHaveLength(1);
        seen.push(f.items[0].event.databaseId);
      }
      expect(seen[0]).toBe(id);
    });

    it('serves the updated and canceled feeds, and refuses a bad token with rest_forbidden', async () => {
      const r = await h.gql(
        `query($t: String) { automationB { updatedEvents(accessToken: $t) { emptyReason items { itemId } } canceledEvents(accessToken: $t) { emptyReason items { itemId } } } }`,
        { t: tokenB },
      );
      expect(r.errors).toBeUndefined();
      for (const f of [r.data.automationB.updatedEvents, r.data.automationB.canceledEvents])
        expect(f.emptyReason !== null || f.items.length === 1).toBe(true);
      const bad = await h.gql(`{ automationB { newEvents(accessToken: "garbage") { emptyReason } } }`);
      expect(bad.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
      expect(bad.errors![0]!.extensions!.upstream.code).toBe('rest_forbidden');
    });
  });

  describe('tokens are never logged', () => {
    it('keeps tokens out of the site log where the site does not need them', async () => {
      await createA();
      await h.gql(`{ automationA { updatedEvents { emptyReason } } }`, {}, null, { 'x-automation-token': tokenA });
      const log = h.calls();
      const create = log.find((e) => e.path === '/calendar/automation-a/v1/create-events')!;
      // Sent in the JSON body: the site reads it there, the request line (and so the log) never carries it.
      expect(JSON.stringify(create)).not.toContain(tokenA);
      // The feeds read it as a query parameter: the only place it travels.
      const feed = log.find((e) => e.path === '/calendar/automation-a/v1/updated-events')!;
      expect(feed.query.access_token).toBe(tokenA);
      expect(
        log
          .filter((e) => JSON.stringify(e).includes(tokenA))
          .every((e) => e.path.endsWith('-events') && e.method === 'GET'),
      ).toBe(true);
    });
  });
});
