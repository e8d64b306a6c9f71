/**
 * Views, the embeddable calendar, occurrence notices, API documents, the
 * onboarding wizard and the aggregator callbacks through the graph
 * (schema/views.graphql, schema/imports.graphql; spec B2, C, D, E).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { leaveOccurrenceNotice } from '../../packages/sandbox/src/namespaces/core/notices.ts';
import { extrasCredentials } from '../../packages/sandbox/src/namespaces/extras/index.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import type { Who } from '../helpers/sandbox.ts';

describe('calendar extras', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  const nonce = async (action: string, who: Who = null) => {
    const res = await fetch(`${h.sandbox.origin}/__sandbox/nonce?action=${action}`, {
      headers: who ? { authorization: h.auth(who) } : {},
    });
    return res.text();
  };

  describe('API documents', () => {
    it('serves the legacy and core documents as JSON', async () => {
      const r = await h.gql(`{ legacy: apiDocument(api: LEGACY_EVENTS) core: apiDocument(api: CALENDAR_CORE) }`);
      expect(r.errors).toBeUndefined();
      expect(typeof r.data.legacy).toBe('object');
      expect(r.data.legacy).not.toBeNull();
      expect(r.data.core.openapi ?? r.data.core.swagger).toBeTruthy();
      expect(
        h
          .calls()
          .map((c) => c.path)
          .sort(),
      ).toEqual(['/calendar-core/v1/docs', '/calendar/events/v1/doc']);
    });
  });

  describe('calendarView (calendar/views/v2/html)', () => {
    it('renders a view by GET and by POST with a visitor nonce, and hands out the next nonces', async () => {
      const tvn2 = await nonce('_view_rest');
      for (const method of ['GET', 'POST']) {
        h.mark();
        const r = await h.gql(
          `query($i: CalendarViewInput!, $m: ViewRequestMethod) { calendarView(input: $i, method: $m) { html nonces { tvn1 tvn2 } } }`,
          { i: { url: '/events/list/', tvn2, viewData: { 'tribe-bar-search': '' } }, m: method },
        );
        expect(r.errors).toBeUndefined();
        expect(r.data.calendarView.html).toContain('tribe-events-view--list');
        expect(typeof r.data.calendarView.nonces.tvn1).toBe('string');
        expect(h.calls().map((c) => `${c.method} ${c.path}`)).toEqual([`${method} /calendar/views/v2/html`]);
      }
    });

    it("renders the view asked for with the signed-in user's nonce", async () => {
      const tvn1 = await nonce('_view_rest', 'editor');
      const r = await h.gql(
        `query($t: String) { calendarView(input: { url: "/events/", view: "month", tvn1: $t }) { html } }`,
        { t: tvn1 },
        'editor',
      );
      expect(r.errors).toBeUndefined();
      expect(r.data.calendarView.html).toContain('tribe-events-view--month');
    });

    it('refuses a bad nonce (rest_forbidden)', async () => {
      const r = await h.gql(`{ calendarView(input: { url: "/events/", tvn1: "abcdef0123" }) { html } }`);
      expect(r.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
      expect(r.errors![0]!.extensions!.upstream.code).toBe('rest_forbidden');
      const signedIn = await h.gql(
        `{ calendarView(input: { url: "/events/", tvn1: "abcdef0123" }) { html } }`,
        {},
        'editor',
      );
      expect(signedIn.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    });
  });

  describe('calendarEmbed (calendar-core/v1/events/calendar-embed)', () => {
    it('returns the HTML document with typed B2 parameters', async () => {
      const n = await nonce('wp_rest', 'editor');
      const r = await h.gql(
        `query($n: String!) { calendarEmbed(nonce: $n, input: { view: MONTH, tribeBar: true, keyword: "x", eventsPerPage: 3 }) }`,
        { n },
        'editor',
      );
      expect(r.errors).toBeUndefined();
      expect(r.data.calendarEmbed).toMatch(/^<!DOCTYPE html>/);
      expect(r.data.calendarEmbed).toContain('tribe-events-view--month');
      const call = h.calls()[0]!;
      expect(call.path).toBe('/calendar-core/v1/events/calendar-embed');
      expect(call.query).toMatchObject({ view: 'month', tribe_bar: 'true', events_per_page: '3' });
    });

    it('refuses a nonce of another user or none at all', async () => {
      const n = await nonce('wp_rest', 'admin');
      const r = await h.gql(`query($n: String!) { calendarEmbed(nonce: $n) }`, { n }, 'editor');
      expect(r.errors![0]!.extensions!.code).toBe('FORBIDDEN');
      const anon = await h.gql(`query($n: String!) { calendarEmbed(nonce: $n) }`, { n });
      expect(anon.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
      expect(JSON.stringify(anon.errors)).not.toContain(n);
    });
  });

  describe('occurrence notices', () => {
    it('reads (and so clears) a notice, and clears one by DELETE', async () => {
      const id = (await h.gql(`{ events(first: 1) { nodes { databaseId } } }`)).data.events.nodes[0].databaseId;
      leaveOccurrenceNotice(h.sandbox.site, id);
      h.mark();
      const r = await h.gql(
        `query($id: Int!) { occurrencesNotices(eventId: $id) { type message raw } }`,
        { id },
        'editor',
      );
      expect(r.errors).toBeUndefined();
      expect(r.data.occurrencesNotices).toHaveLength(1);
      expect(r.data.occurrencesNotices[0].type).toBe('occurrences');
      expect(r.data.occurrencesNotices[0].message).toMatch(/series/);
      const again = await h.gql(`query($id: Int!) { occurrencesNotices(eventId: $id) { type } }`, { id }, 'editor');
      expect(again.data.occurrencesNotices).toEqual([]);
      leaveOccurrenceNotice(h.sandbox.site, id);
      const d = await h.gql(`mutation($id: Int!) { clearOccurrencesNotice(eventId: $id) }`, { id }, 'editor');
      expect(d.errors).toBeUndefined();
      expect(d.data.clearOccurrencesNotice).toBe(true);
      expect(h.calls().map((c) => c.method)).toEqual(['GET', 'GET', 'DELETE']);
      expect(
        (await h.gql(`query($id: Int!) { occurrencesNotices(eventId: $id) { type } }`, { id }, 'editor')).data
          .occurrencesNotices,
      ).toEqual([]);
    });

    it('needs a signed-in caller and an event ID', async () => {
      const anon = await h.gql(`{ occurrencesNotices(eventId: 1) { type } }`);
      expect(anon.errors![0]!.extensions!.code).toMatch(/BAD_USER_INPUT|UNAUTHENTICATED/);
      // The route's 400 naming `id` for an ID that is no event: NOT_FOUND, as every write (docs/writes.md "Not found").
      const bad = await h.gql(`mutation { clearOccurrencesNotice(eventId: 999999) }`, {}, 'editor');
      expect(bad.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND', arguments: ['eventId'] });
    });
  });

  describe('saveOnboardingWizard', () => {
    it("saves a step with the administrator's nonce and creates an organizer", async () => {
      const n = await nonce('_tec_wizard', 'admin');
      const r = await h.gql(
        `mutation($i: OnboardingWizardInput!) { saveOnboardingWizard(input: $i) { success failed messages organizerId venueId } }`,
        {
          i: {
            actionNonce: n,
            currentTab: 5,
            begun: true,
            completedTabs: [0, 1],
            organizer: { name: 'Wizard Organizer', email: 'w@example.org' },
          },
        },
        'admin',
      );
      expect(r.errors).toBeUndefined();
      const w = r.data.saveOnboardingWizard;
      expect(w.success).toBe(true);
      expect(w.failed).toBe(false);
      expect(w.messages).toContain('Organizer created.');
      expect(typeof w.organizerId).toBe('number');
      expect(h.calls().map((c) => `${c.method} ${c.path}`)).toEqual(['POST /calendar-core/v2/onboarding/wizard']);
    });

    it("reports a failing step as failed, still with the site's messages", async () => {
      const n = await nonce('_tec_wizard', 'admin');
      const r = await h.gql(
        `mutation($n: String!) { saveOnboardingWizard(input: { actionNonce: $n, currentTab: 5, venue: { name: " " }, extra: { marker: 1 } }) { success failed messages } }`,
        { n },
        'admin',
      );
      expect(r.errors).toBeUndefined();
      expect(r.data.saveOnboardingWizard.failed).toBe(true);
      expect(r.data.saveOnboardingWizard.messages).toContain('Failed to create venue.');
    });

    it('refuses a bad nonce as BAD_USER_INPUT (tec_invalid_nonce) and non-administrators', async () => {
      const r = await h.gql(
        `mutation { saveOnboardingWizard(input: { actionNonce: "bad" }) { success } }`,
        {},
        'admin',
      );
      expect(r.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
      expect(r.errors![0]!.extensions!.params).toEqual({ action_nonce: 'Invalid nonce.' });
      const n = await nonce('_tec_wizard', 'editor');
      const editor = await h.gql(
        `mutation($n: String!) { saveOnboardingWizard(input: { actionNonce: $n }) { success } }`,
        { n },
        'editor',
      );
      expect(editor.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    });
  });

  describe('aggregator callbacks', () => {
    const BATCH = `mutation($i: ImportBatchInput!) { reportImportBatch(input: $i) { status interval nextBatchHash activity { type created updated skipped } } }`;
    const STATE = `mutation($i: ImportStateInput!) { reportImportState(input: $i) { status } }`;

    it('applies a batch, reports activity and the next hash, and fills the automation feeds', async () => {
      const imp = extrasCredentials(h.sandbox.site).aggregatorImports.find((i) => i.status === 'pending' && !i.locked)!;
      const r = await h.gql(BATCH, {
        i: {
          importId: imp.importId,
          batchHash: imp.nextBatchHash,
          data: { done: 0, total: 10 },
          batch: { done: 0, total: 3 },
          percentageComplete: 10,
          interval: 5,
          events: [
            {
              global_id: 'e2e.example/1',
              title: 'Imported through the graph',
              start_date: '2030-01-02',
              start_hour: '09',
              start_minute: '00',
              start_meridian: 'am',
              end_date: '2030-01-02',
              end_hour: '11',
              end_minute: '00',
              end_meridian: 'am',
            },
          ],
        },
      });
      expect(r.errors).toBeUndefined();
      const b = r.data.reportImportBatch;
      expect(b.status).toBe('success');
      expect(b.interval).toBe(10);
      expect(b.nextBatchHash).toMatch(/^[0-9a-f]{32}$/);
      const events = b.activity.find((a: any) => a.type === 'calendar_events');
      expect(events.created).toHaveLength(1);
      expect(
        extrasCredentials(h.sandbox.site).aggregatorImports.find((i) => i.importId === imp.importId)!.nextBatchHash,
      ).toBe(b.nextBatchHash);

      // Imported events reach the connectors' feeds.
      const tokenB = extrasCredentials(h.sandbox.site).powerAutomate[0]!.accessToken!;
      const f = await h.gql(
        `query($t: String) { automationB { newEvents(accessToken: $t) { items { event { databaseId title } } } } }`,
        { t: tokenB },
      );
      expect(f.errors).toBeUndefined();
      expect(f.data.automationB.newEvents.items[0].event).toEqual({
        databaseId: events.created[0],
        title: 'Imported through the graph',
      });

      // The old hash is spent.
      const replay = await h.gql(BATCH, {
        i: {
          importId: imp.importId,
          batchHash: imp.nextBatchHash,
          data: { done: 1, total: 10 },
          batch: { done: 1, total: 3 },
          percentageComplete: 20,
        },
      });
      expect(replay.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
      expect(replay.errors![0]!.extensions!.params).toMatchObject({ batch_hash: 'Invalid parameter.' });

      // State: failed, with the current hash.
      const s = await h.gql(STATE, {
        i: {
          importId: imp.importId,
          batchHash: b.nextBatchHash,
          status: 'FAILED',
          message: 'stopped',
          messageSlug: 'stopped',
          percentageComplete: 20,
        },
      });
      expect(s.errors).toBeUndefined();
      expect(s.data.reportImportState.status).toBe('success');
      expect(
        h
          .calls()
          .map((c) => c.route ?? c.path)
          .filter((p) => p.includes('aggregator')),
      ).toHaveLength(3);
    });

    it("refuses a wrong hash and unknown imports, and reports the locked import's failure", async () => {
      const imps = extrasCredentials(h.sandbox.site).aggregatorImports;
      const wrong = await h.gql(STATE, {
        i: {
          importId: 'nosuchimport',
          batchHash: 'f'.repeat(32),
          status: 'SUCCESS',
          message: 'x',
          messageSlug: 'x',
          percentageComplete: 1,
        },
      });
      expect(wrong.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
      expect(wrong.errors![0]!.extensions!.params).toEqual({
        import_id: 'Invalid parameter.',
        batch_hash: 'Invalid parameter.',
      });
      const locked = imps.find((i) => i.locked)!;
      const l = await h.gql(STATE, {
        i: {
          importId: locked.importId,
          batchHash: locked.nextBatchHash,
          status: 'SUCCESS',
          message: 'x',
          messageSlug: 'x',
          percentageComplete: 100,
        },
      });
      expect(l.errors![0]!.extensions!.code).toBe('UPSTREAM_ERROR');
      expect(l.errors![0]!.message).toMatch(/^Could not update the status of import \d+ to success/);
    });
  });
});
