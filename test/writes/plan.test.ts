/**
 * Planning calendar writes (src/writes/plan.ts): pure, given a site's root
 * index. The interface chosen, the jobs and every problem of each item, what
 * must be read first, and the payloads completed from what was read.
 */
import { describe, expect, it } from 'vitest';
import { parseIndex, type SiteInfo } from '../../src/upstream/discovery.ts';
import { EVENTS, ORGANIZERS, VENUES } from '../../src/writes/kinds.ts';
import {
  atomicRequests,
  checkBulkSize,
  chooseApi,
  completePayloads,
  createJobs,
  deleteJobs,
  deleteManyApi,
  MAX_BULK_ITEMS,
  readFor,
  updateJobs,
  writeJob,
  type Completed,
} from '../../src/writes/plan.ts';
import type { Problem } from '../../src/writes/results.ts';

const CORE_EVENT = '/calendar-core/v1/events/(?P<id>[\\d]+)';

function site(namespaces: string[], coreBatchable = false): SiteInfo {
  const routes: Record<string, unknown> = {
    '/batch/v1': {
      namespace: '',
      methods: ['POST'],
      endpoints: [{ methods: ['POST'], args: { requests: { type: 'array', maxItems: 25 } } }],
    },
    // No `args`: the index does not describe them, so the spec's names are sent.
    [CORE_EVENT]: {
      namespace: 'calendar-core/v1',
      methods: ['GET', 'PATCH', 'DELETE'],
      endpoints: [{ methods: ['GET', 'PATCH', 'DELETE'], ...(coreBatchable ? { allow_batch: { v1: true } } : {}) }],
    },
  };
  return parseIndex({ namespaces, routes, timezone_string: 'Europe/Paris' });
}
const BOTH = site(['calendar/events/v1', 'calendar-core/v1']);
const LEGACY_ONLY = site(['calendar/events/v1']);
const CORE_ONLY = site(['calendar-core/v1']);
const ZONE = 'Europe/Paris';

const when = { startDate: '2032-04-02T18:00:00+02:00', endDate: '2032-04-02T20:00:00+02:00', timezone: ZONE };

describe('chooseApi', () => {
  it('calendar-core/v1 when the site has it; slugs, method POST and via LEGACY are legacy', () => {
    expect(chooseApi(BOTH, null)).toBe('core');
    expect(chooseApi(LEGACY_ONLY, null)).toBe('legacy');
    expect(chooseApi(BOTH, null, { slug: true })).toBe('legacy');
    expect(chooseApi(BOTH, null, { method: 'POST' })).toBe('legacy');
    expect(chooseApi(BOTH, 'LEGACY')).toBe('legacy');
    expect(chooseApi(BOTH, null, { preferLegacy: true })).toBe('legacy');
    expect(chooseApi(CORE_ONLY, null, { preferLegacy: true })).toBe('core');
  });

  it('refuses, before anything is sent, what the site or the arguments cannot do', () => {
    expect(() => chooseApi(BOTH, 'CORE', { slug: true })).toThrow(/idType: SLUG uses the legacy interface/);
    expect(() => chooseApi(LEGACY_ONLY, null, { force: true })).toThrow(
      /force: true needs calendar-core\/v1.*this site does not offer/,
    );
    expect(() => chooseApi(CORE_ONLY, 'LEGACY')).toThrow(/needs calendar\/events\/v1, which this site does not offer/);
  });

  it('bulk trashing deletes go legacy, unless atomic on a site that batches calendar-core deletes', () => {
    expect(deleteManyApi(BOTH, EVENTS, null, false, true)).toBe('legacy');
    expect(deleteManyApi(site(['calendar/events/v1', 'calendar-core/v1'], true), EVENTS, null, false, true)).toBe(
      'core',
    );
    expect(deleteManyApi(site(['calendar/events/v1', 'calendar-core/v1'], true), EVENTS, null, false, false)).toBe(
      'legacy',
    );
  });

  it('checkBulkSize: at most MAX_BULK_ITEMS', () => {
    expect(() => checkBulkSize(MAX_BULK_ITEMS, 'inputs')).not.toThrow();
    expect(() => checkBulkSize(MAX_BULK_ITEMS + 1, 'ids')).toThrow(
      expect.objectContaining({
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', arguments: ['ids'], max: MAX_BULK_ITEMS }),
      }),
    );
  });
});

describe('jobs and their problems', () => {
  it('createJobs: every problem of an item, none for a valid one', () => {
    const [bad, good] = createJobs(
      BOTH,
      EVENTS,
      [
        { ...when, duration: -1, cost: 'x'.repeat(256) },
        { ...when, title: 'ok' },
      ],
      'core',
    );
    expect(bad!.error).toMatchObject({ code: 'BAD_USER_INPUT', path: ['inputs', '0'] });
    expect(bad!.error!.problems!.map((p) => p.path.join('.'))).toEqual([
      'inputs.0.title',
      'inputs.0.cost',
      'inputs.0.duration',
    ]);
    expect(good!.error).toBeNull();
    expect(good!.job).toMatchObject({ index: 1, target: null, method: 'POST', api: 'core', itemPath: ['inputs', '1'] });
  });

  it('updateJobs: a bad ID, a repeated ID, and the input checked as an update (nothing is required)', () => {
    const jobs = updateJobs(
      BOTH,
      EVENTS,
      [
        { id: 'nope', input: { duration: -1 } },
        { id: '7', input: {} },
        { id: '7', input: { title: 'again' } },
        { id: '8', input: {} },
      ],
      'core',
      'PATCH',
    );
    expect(jobs[0]!.error!.problems!.map((p) => p.path.join('.'))).toEqual(['inputs.0.id', 'inputs.0.input.duration']);
    expect(jobs[1]!.error).toBeNull();
    expect(jobs[2]!.error).toMatchObject({
      path: ['inputs', '2', 'id'],
      message: 'Event 7 is already updated by inputs.1: give each object once (merge the inputs).',
    });
    expect(jobs[3]!.job).toMatchObject({
      target: { id: 8 },
      fieldPrefix: ['inputs', '3', 'input'],
      idPath: ['inputs', '3', 'id'],
    });
  });

  it('deleteJobs: one problem for a bad ID; force in the query', () => {
    const [bad, good] = deleteJobs(EVENTS, ['x', 'RXZlbnQ6OQ=='], 'core', true);
    expect(bad!.error).toMatchObject({
      code: 'BAD_USER_INPUT',
      path: ['ids', '0'],
      message: '"x" is not a Event ID (a global ID or a database ID).',
    });
    expect(good!.job).toMatchObject({ target: { id: 9 }, query: { force: true }, method: 'DELETE' });
  });

  it('atomicRequests: one request per job, on the routes the writes would use', () => {
    const jobs = [...createJobs(BOTH, VENUES, [{ title: 'v' }], 'core'), ...deleteJobs(VENUES, ['3'], 'core', false)];
    expect(atomicRequests(VENUES, jobs).map((r) => r.route)).toEqual([
      'POST /calendar-core/v1/venues',
      'DELETE /calendar-core/v1/venues/<id>',
    ]);
  });
});

describe('reads and payloads', () => {
  const update = (input: object, api: 'core' | 'legacy', method: 'PATCH' | 'DELETE' = 'PATCH') =>
    writeJob(BOTH, EVENTS, 0, { item: ['input'], fields: ['input'], id: ['id'] }, input, { id: 5 }, api, method).job;
  /** The payloads completed, or the problems found. */
  const payloadsOf = (p: Completed | Problem[]) => (Array.isArray(p) ? p : p.payloads);

  it('readFor: every update reads the stored state (events and venues through the legacy interface where the site has it); core deletes read first', () => {
    expect(readFor(BOTH, EVENTS, update({ title: 't' }, 'legacy'))).toBe('legacy');
    expect(readFor(BOTH, EVENTS, update({ website: 'https://x.org' }, 'core'))).toBe('legacy');
    expect(readFor(BOTH, EVENTS, update({ title: 't' }, 'core'))).toBe('legacy');
    expect(readFor(CORE_ONLY, EVENTS, update({ endDate: when.endDate }, 'core'))).toBe('core');
    expect(readFor(BOTH, EVENTS, { ...update({}, 'core'), method: 'DELETE' })).toBe('core');
    expect(readFor(BOTH, EVENTS, { ...update({}, 'legacy'), method: 'DELETE' })).toBeNull();
    expect(
      readFor(
        BOTH,
        VENUES,
        writeJob(BOTH, VENUES, 0, { item: [], fields: [], id: [] }, { city: 'x' }, { id: 2 }, 'core', 'PATCH').job,
      ),
    ).toBe('legacy');
    expect(
      readFor(
        BOTH,
        ORGANIZERS,
        writeJob(BOTH, ORGANIZERS, 0, { item: [], fields: [], id: [] }, { phone: '1' }, { id: 2 }, 'core', 'PATCH').job,
      ),
    ).toBe('core');
    expect(readFor(BOTH, EVENTS, createJobs(BOTH, EVENTS, [{ ...when, title: 'n' }], 'legacy')[0]!.job)).toBeNull();
  });

  it('completePayloads: a core end-date change sends both dates and the duration from the stored start', () => {
    const job = update({ endDate: '2032-04-02T21:00:00+02:00' }, 'core');
    const p = payloadsOf(
      completePayloads(ZONE, EVENTS, job, null, {
        start_date: '2032-04-02 18:00:00',
        end_date: '2032-04-02 20:00:00',
        timezone: ZONE,
      }),
    );
    expect(p).toEqual({
      primary: { start_date: '2032-04-02 18:00:00', end_date: '2032-04-02 21:00:00', duration: 10800 },
      secondary: null,
    });
  });

  it('completePayloads: dates that end before they start are a problem of the field', () => {
    const job = update({ endDate: '2032-04-01T10:00:00+02:00' }, 'core');
    const p = payloadsOf(
      completePayloads(ZONE, EVENTS, job, null, {
        start_date: '2032-04-02 18:00:00',
        end_date: '2032-04-02 20:00:00',
        timezone: ZONE,
      }),
    );
    expect(p).toEqual([
      { path: ['input', 'endDate'], message: expect.stringMatching(/^endDate must not be before startDate/) },
    ]);
  });

  it('completePayloads: a legacy update carries the stored state; the legacy state is kept for a follow-up after a core write', () => {
    const legacy = update({ cost: '12' }, 'legacy');
    const stored = {
      start_date: '2032-04-02 18:00:00',
      end_date: '2032-04-02 20:00:00',
      timezone: ZONE,
      featured: true,
      cost: '$10',
      website: 'https://e.org',
      url: 'https://site/e',
    };
    const p = payloadsOf(completePayloads(ZONE, EVENTS, legacy, null, stored));
    expect(p).toMatchObject({
      primary: {
        cost: '12',
        featured: true,
        website: 'https://e.org',
        start_date: '2032-04-02 18:00:00',
        end_date: '2032-04-02 20:00:00',
        timezone: ZONE,
      },
    });
    const core = completePayloads(ZONE, EVENTS, update({ showMap: true }, 'core'), 'legacy', stored);
    expect(!Array.isArray(core) && core.legacyState).toMatchObject({ featured: true, cost: '$10' });
  });
});
