/**
 * calendar/aggregator/v1 (calendar-upstream.md §3): the import service's
 * callbacks, guarded by the pending record's import ID and expected batch
 * hash; batches apply EA events and report activity per post type; the last
 * one closes the record; state reports; the sentence-as-code 500.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportCredentials } from '../../packages/sandbox/src/namespaces/extras/aggregator.ts';
import { extrasCredentials } from '../../packages/sandbox/src/namespaces/extras/index.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

const AGG = '/calendar/aggregator/v1/import';
const day = (days: number) => DateTime.now().plus({ days }).toFormat('yyyy-MM-dd');

describe('aggregator', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  let pending: ImportCredentials;
  let locked: ImportCredentials;
  let finished: ImportCredentials;
  let hash: string;
  let firstEventId: number;

  const imports = () => extrasCredentials(sb.site).aggregatorImports;
  const progress = (batchDone: number, batchTotal: number) => ({
    data: { total: 10, done: batchDone * 5 },
    batch: { total: batchTotal, done: batchDone },
  });
  const batch = (importId: string, body: Record<string, unknown>) => api.send('POST', `${AGG}/${importId}/batch`, body);
  const state = (importId: string, body: Record<string, unknown>) => api.send('POST', `${AGG}/${importId}/state`, body);
  const record = (importId: string) =>
    sb.site.store.posts<any>('calendar_ea_record').find((r) => r.meta.import_id === importId)!;

  const harbour = {
    global_id: 'ea.example/event/harbour-1',
    title: 'Imported harbour concert',
    description: '<p>From the feed.</p>',
    start_date: day(14),
    start_hour: '7',
    start_minute: '30',
    start_meridian: 'pm',
    end_date: day(14),
    end_hour: '21',
    end_minute: '45',
    timezone: 'Europe/Paris',
    url: 'https://feed.example/harbour',
    cost: '12',
    venue: {
      venue: 'Imported Quay Stage',
      address: '1 Quay Road',
      city: 'Lyon',
      country: 'France',
      zip: '69001',
      latitude: '45.76',
      longitude: '4.83',
    },
    organizer: [{ organizer: 'Imported Harbour Society', email: 'harbour@feed.example' }],
    categories: ['Imported Music'],
    tags: ['outdoor', 'imported'],
    image: 'https://feed.example/images/harbour.jpg',
  };

  beforeAll(async () => {
    sb = await testSandbox({ events: 20 });
    api = restClient(sb);
    [pending, locked, finished] = imports() as [ImportCredentials, ImportCredentials, ImportCredentials];
    hash = pending.nextBatchHash!;
  });
  afterAll(() => sb.close());

  describe('argument checks (no user authentication)', () => {
    it('lists the missing arguments', async () => {
      const r = await batch(pending.importId, {});
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): batch_hash, status, percentage_complete',
        data: { status: 400, params: ['batch_hash', 'status', 'percentage_complete'] },
      });
    });

    it('refuses a wrong batch hash, bad progress and a bad percentage as rest_invalid_param', async () => {
      const r = await batch(pending.importId, {
        batch_hash: 'f'.repeat(32),
        status: { data: { total: 1, done: 2 }, batch: { total: 1, done: 0 } },
        percentage_complete: 101,
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): batch_hash, status, percentage_complete',
        data: {
          status: 400,
          params: {
            batch_hash: 'Invalid parameter.',
            status: 'Invalid parameter.',
            percentage_complete: 'Invalid parameter.',
          },
          details: [],
        },
      });
    });

    it('refuses an import that is not pending, and unknown ones, on both routes', async () => {
      for (const id of [finished.importId, 'nosuchimport']) {
        const r = await state(id, {
          batch_hash: hash,
          status: 'failed',
          message: 'x',
          message_slug: 'x',
          percentage_complete: 1,
        });
        expect(r.status).toBe(400);
        expect(r.body.data.params).toEqual({ import_id: 'Invalid parameter.', batch_hash: 'Invalid parameter.' });
        expect((await batch(id, { batch_hash: hash, status: progress(0, 2), percentage_complete: 1 })).status).toBe(
          400,
        );
      }
      // The path only takes word characters.
      expect((await batch('not-a-word', {})).body.code).toBe('rest_no_route');
    });
  });

  describe('POST /import/<id>/batch', () => {
    it('applies the events, reports activity per post type, clamps the interval and hands out the next hash', async () => {
      const r = await batch(pending.importId, {
        batch_hash: hash,
        status: progress(0, 2),
        percentage_complete: 50,
        interval: 9999,
        events: [harbour, { title: 'No start date' }, 'junk'],
      });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['status', 'activity', 'interval', 'next_batch_hash']);
      expect(r.body.status).toBe('success');
      expect(r.body.interval).toBe(600);
      expect(r.body.next_batch_hash).toMatch(/^[0-9a-f]{32}$/);
      expect(r.body.next_batch_hash).not.toBe(hash);
      const a = r.body.activity;
      expect(Object.keys(a)).toEqual([
        'calendar_events',
        'calendar_organizer',
        'calendar_venue',
        'calendar_events_cat',
        'post_tag',
        'attachment',
      ]);
      expect(Object.keys(a.calendar_events)).toEqual(['created', 'updated', 'skipped', 'scheduled']);
      expect(a.calendar_events.created).toHaveLength(1);
      expect(a.calendar_organizer.created).toHaveLength(1);
      expect(a.calendar_venue.created).toHaveLength(1);
      expect(a.calendar_events_cat.created).toHaveLength(1);
      // `outdoor` exists in the demo data; only `imported` is new.
      expect(a.post_tag.created).toHaveLength(1);
      expect(a.attachment.created).toHaveLength(1);
      firstEventId = a.calendar_events.created[0];
      const e = (await api.get(`/calendar/events/v1/events/${firstEventId}`)).body;
      expect(e).toMatchObject({
        title: 'Imported harbour concert',
        status: 'publish',
        author: '1',
        timezone: 'Europe/Paris',
        start_date: `${day(14)} 19:30:00`,
        end_date: `${day(14)} 21:45:00`,
        website: 'https://feed.example/harbour',
        cost: '$12',
      });
      expect(e.venue).toMatchObject({ venue: 'Imported Quay Stage', city: 'Lyon', geo_lat: 45.76 });
      expect(e.organizer.map((o: any) => o.organizer)).toEqual(['Imported Harbour Society']);
      expect(e.categories.map((c: any) => c.name)).toEqual(['Imported Music']);
      expect(e.tags.map((t: any) => t.slug).sort()).toEqual(['imported', 'outdoor']);
      expect(e.image.url).toBe('https://feed.example/images/harbour.jpg');
      expect(record(pending.importId)).toMatchObject({
        status: 'tribe-ea-pending',
        meta: { percentage_complete: 50, next_batch_hash: r.body.next_batch_hash },
      });
      hash = r.body.next_batch_hash;
    });

    it('no longer accepts the hash it replaced', async () => {
      const old = imports()[0]!.nextBatchHash;
      expect(old).toBe(hash);
      const r = await batch(pending.importId, {
        batch_hash: pending.nextBatchHash,
        status: progress(1, 2),
        percentage_complete: 60,
      });
      expect(r.status).toBe(400);
      expect(r.body.data.params).toEqual({ batch_hash: 'Invalid parameter.' });
    });

    it('reaches the automation feeds like any new event', async () => {
      const zap = extrasCredentials(sb.site).zapier[0]!;
      const token = (
        await api.get(
          `/calendar/automation-a/v1/authorize?consumer_id=${zap.consumerId}&consumer_secret=${zap.consumerSecret}`,
        )
      ).body.access_token;
      expect((await api.get(`/calendar/automation-a/v1/new-events?access_token=${token}`)).body[0].id).toBe(
        String(firstEventId),
      );
    });
  });

  describe('POST /import/<id>/state', () => {
    it('records a pending report and keeps the hash', async () => {
      const r = await state(pending.importId, {
        batch_hash: hash,
        status: 'pending',
        message: 'Still going',
        message_slug: 'still-going',
        percentage_complete: 70,
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ status: 'success' });
      expect(record(pending.importId).meta).toMatchObject({ percentage_complete: 70, next_batch_hash: hash });
    });

    it('validates the status against success, failed and pending', async () => {
      const r = await state(pending.importId, {
        batch_hash: hash,
        status: 'done',
        message: 'x',
        message_slug: 'x',
        percentage_complete: 70,
      });
      expect(r.status).toBe(400);
      expect(r.body.data.params).toEqual({ status: 'status is not one of success, failed, and pending.' });
    });
  });

  describe('the last batch', () => {
    it('updates known events, creates new ones, omits next_batch_hash and closes the record', async () => {
      const r = await batch(pending.importId, {
        batch_hash: hash,
        status: progress(1, 2),
        percentage_complete: 100,
        interval: 5,
        events: [
          { ...harbour, title: 'Imported harbour concert (moved)', start_hour: '20' },
          {
            global_id: 'ea.example/event/2',
            title: 'Imported walk',
            start_date: `${day(15)} 09:00:00`,
            all_day: 'true',
          },
        ],
      });
      expect(r.status).toBe(200);
      expect(r.body).not.toHaveProperty('next_batch_hash');
      expect(r.body.interval).toBe(10);
      expect(r.body.activity.calendar_events.updated).toEqual([firstEventId]);
      expect(r.body.activity.calendar_events.created).toHaveLength(1);
      // Venue, organizer and terms were found by name this time.
      expect(r.body.activity.calendar_venue.created).toEqual([]);
      expect(r.body.activity.post_tag.created).toEqual([]);
      const walk = (await api.get(`/calendar/events/v1/events/${r.body.activity.calendar_events.created[0]}`)).body;
      expect(walk).toMatchObject({ all_day: true, start_date: `${day(15)} 00:00:00`, timezone: 'America/New_York' });
      expect((await api.get(`/calendar/events/v1/events/${firstEventId}`)).body.title).toBe(
        'Imported harbour concert (moved)',
      );
      const rec = record(pending.importId);
      expect(rec.status).toBe('tribe-ea-success');
      expect(rec.meta).not.toHaveProperty('next_batch_hash');
      expect(rec.meta.activity.calendar_events.created).toHaveLength(2);
      expect(rec.meta.activity.calendar_events.updated).toEqual([firstEventId]);
      expect(imports()[0]!.status).toBe('success');
      expect(imports()[0]).not.toHaveProperty('nextBatchHash');
      const again = await batch(pending.importId, {
        batch_hash: hash,
        status: progress(1, 2),
        percentage_complete: 100,
      });
      expect(again.status).toBe(400);
    });
  });

  describe('a record whose status cannot change', () => {
    it('skips events trashed since their import', async () => {
      expect((await api.send('DELETE', `/calendar/events/v1/events/${firstEventId}`, undefined, 'admin')).status).toBe(
        200,
      );
      const r = await batch(locked.importId, {
        batch_hash: locked.nextBatchHash,
        status: progress(0, 3),
        percentage_complete: 10,
        events: [harbour],
      });
      expect(r.status).toBe(200);
      expect(r.body.activity.calendar_events).toEqual({
        created: [],
        updated: [],
        skipped: [firstEventId],
        scheduled: [],
      });
      locked.nextBatchHash = r.body.next_batch_hash;
    });

    it('answers the WP_Error whose code is a sentence, with HTTP 500', async () => {
      const r = await state(locked.importId, {
        batch_hash: locked.nextBatchHash,
        status: 'failed',
        message: 'Feed gone',
        message_slug: 'feed-gone',
        percentage_complete: 10,
      });
      expect(r.status).toBe(500);
      const id = record(locked.importId).id;
      expect(r.body).toEqual({
        code: `Could not update the status of import ${id} to failed; current record status is tribe-ea-pending`,
        message: '',
        data: null,
      });
      expect(record(locked.importId).status).toBe('tribe-ea-pending');
    });
  });
});
