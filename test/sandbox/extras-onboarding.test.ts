/**
 * calendar-core/v2/onboarding/wizard (calendar-upstream.md §6): the
 * `_tec_wizard` nonce checked as an argument (400 before the 401/403),
 * manage_options, the wizard state saved in options, and the steps that run
 * once the wizard reaches their tab.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORGANIZER, VENUE } from '../../packages/sandbox/src/calendar/model.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient, type Who } from '../helpers/sandbox.ts';

const WIZARD = '/calendar-core/v2/onboarding/wizard';
const DONE = 'Onboarding wizard step completed successfully.';

describe('onboarding wizard', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  let adminNonce: string;

  const nonce = async (who: Exclude<Who, null> | null, action = '_tec_wizard') =>
    (
      await fetch(`${sb.origin}/__sandbox/nonce?action=${action}`, {
        headers: who ? { authorization: api.auth(who) } : {},
      })
    ).text();
  const wizard = (body: Record<string, unknown>, who: Who = 'admin') =>
    api.send('POST', WIZARD, { action_nonce: adminNonce, ...body }, who);
  const saved = () => sb.site.store.option<Record<string, any>>('tec_onboarding_wizard_data', {});

  beforeAll(async () => {
    sb = await testSandbox({ events: 0 });
    api = restClient(sb);
    adminNonce = await nonce('admin');
  });
  afterAll(() => sb.close());

  describe('checks', () => {
    it('requires action_nonce', async () => {
      const r = await api.send('POST', WIZARD, {}, 'admin');
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): action_nonce',
        data: { status: 400, params: ['action_nonce'] },
      });
    });

    it("refuses a nonce that is not the caller's _tec_wizard one with details code tec_invalid_nonce, before the permission", async () => {
      const invalid = {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): action_nonce',
        data: {
          status: 400,
          params: { action_nonce: 'Invalid nonce.' },
          details: { action_nonce: { code: 'tec_invalid_nonce', message: 'Invalid nonce.', data: { status: 403 } } },
        },
      };
      for (const [n, who] of [
        ['0123456789', 'admin'],
        [await nonce('admin', 'wp_rest'), 'admin'],
        [await nonce('editor'), 'admin'],
        [adminNonce, null],
      ] as const) {
        const r = await api.send('POST', WIZARD, { action_nonce: n }, who);
        expect(r.status).toBe(400);
        expect(r.body).toEqual(invalid);
      }
    });

    it('needs manage_options: 401 for visitors with their own nonce, 403 for editors', async () => {
      let r = await api.send('POST', WIZARD, { action_nonce: await nonce(null) });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('rest_forbidden');
      r = await api.send('POST', WIZARD, { action_nonce: await nonce('editor') }, 'editor');
      expect(r.status).toBe(403);
      expect(saved()).toEqual({});
    });
  });

  describe('saving', () => {
    it('stores the wizard state and answers the success message', async () => {
      const r = await wizard({
        begun: true,
        completedTabs: [1, 2],
        skippedTabs: [2, 3],
        timezones: ['x'],
        countries: ['y'],
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ success: true, message: [DONE] });
      const s = saved();
      expect(s).toMatchObject({ begun: true, finished: false, current_tab: 0, skipped_tabs: [3] });
      // TEC assigns array_push's return value (the new count) to the completed tabs.
      expect(s.completed_tabs).toEqual([3]);
      expect(s.last_send).toMatchObject({ begun: true, completedTabs: [1, 2], skippedTabs: [2, 3] });
      expect(s.last_send).not.toHaveProperty('action_nonce');
      expect(s.last_send).not.toHaveProperty('timezones');
    });

    it('reports an unchanged save as a failed update, still 200 and success', async () => {
      const body = { begun: true, completedTabs: [1, 2], skippedTabs: [2, 3], timezones: ['x'], countries: ['y'] };
      const r = await wizard(body);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ success: true, message: ['Failed to update wizard settings.'] });
    });

    it('marks a finished wizard as begun', async () => {
      await wizard({ finished: true });
      expect(saved()).toMatchObject({ begun: true, finished: true, completed_tabs: [], skipped_tabs: [] });
    });
  });

  describe('steps', () => {
    it('save the opt-in at tab 0 and the settings at tab 1', async () => {
      const r = await wizard({
        currentTab: 1,
        optin: true,
        currency: 'eur',
        date_format: 'j F Y',
        timezone_string: 'Europe/Paris',
        start_of_week: 0,
        tribeEnableViews: ['all', 'list', 'month'],
      });
      expect(r.status).toBe(200);
      expect(r.body.message).toEqual([
        DONE,
        'Successfully saved opt-in status.',
        'Successfully saved setting defaultCurrencyCode.',
        'Successfully saved setting defaultCurrencySymbol.',
        'Successfully saved option date_format.',
        'Successfully saved option timezone_string.',
        // 0 is falsy: a Sunday start of week is never saved.
        'Did not attempt saving option start_of_week.',
        'Successfully saved setting tribeEnableViews.',
        'Successfully saved settings.',
      ]);
      expect(sb.site.store.option('tribe_events_calendar_options', {})).toEqual({
        'opt-in-status': true,
        defaultCurrencyCode: 'EUR',
        defaultCurrencySymbol: '€',
        tribeEnableViews: ['list', 'month'],
      });
      expect(sb.site.store.option('date_format', '')).toBe('j F Y');
      const again = await wizard({ currentTab: 1, optin: true, currency: 'eur', date_format: 'j F Y' });
      expect(again.body.message).toEqual(
        expect.arrayContaining([
          'Opt-in status is already set to the requested value.',
          'The defaultCurrencyCode setting is already set to the requested value.',
          'The date_format option is already set to the requested value.',
        ]),
      );
    });

    it('create the organizer and venue at tab 5, or skip them', async () => {
      const before = [sb.site.store.posts(ORGANIZER).length, sb.site.store.posts(VENUE).length];
      const r = await wizard({
        currentTab: 5,
        optin: true,
        organizer: { name: 'Wizard Society', email: 'wizard@example.com', phone: '+1 555 0100' },
        venue: {
          name: 'Wizard Hall',
          address: '1 Main St',
          city: 'Boston',
          state: 'MA',
          zip: '02108',
          country: 'US',
          phone: '',
          website: 'https://hall.example',
        },
      });
      expect(r.status).toBe(200);
      expect(r.body.message).toEqual(expect.arrayContaining(['Organizer created.', 'Venue created.']));
      expect(Object.keys(r.body)).toEqual(['success', 'message', 'organizer_id', 'venue_id']);
      const venue = (await api.get(`/calendar/events/v1/venues/${r.body.venue_id}`)).body;
      expect(venue).toMatchObject({
        venue: 'Wizard Hall',
        city: 'Boston',
        country: 'United States',
        stateprovince: 'MA',
      });
      expect((await api.get(`/calendar/events/v1/organizers/${r.body.organizer_id}`)).body).toMatchObject({
        organizer: 'Wizard Society',
        email: 'wizard@example.com',
      });
      const skip = await wizard({ currentTab: 5, organizer: { organizerId: r.body.organizer_id }, venue: '' });
      expect(skip.body.message.slice(-2)).toEqual([
        'Existing organizer. Step skipped.',
        'No venue to save. Step skipped',
      ]);
      expect([sb.site.store.posts(ORGANIZER).length, sb.site.store.posts(VENUE).length]).toEqual([
        before[0]! + 1,
        before[1]! + 1,
      ]);
    });

    it('stop at a failing step with HTTP 500, the body still saying success', async () => {
      const r = await wizard({
        currentTab: 5,
        organizer: { email: 'nameless@example.com' },
        venue: { name: 'Never created' },
      });
      expect(r.status).toBe(500);
      expect(r.body.success).toBe(true);
      expect(r.body.message.at(-1)).toBe('Failed to create organizer.');
      expect(sb.site.store.posts(VENUE).some((v) => v.title === 'Never created')).toBe(false);
    });
  });
});
