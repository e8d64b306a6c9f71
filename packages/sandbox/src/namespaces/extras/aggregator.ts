/**
 * `calendar/aggregator/v1`: the callbacks the Event Aggregator service calls
 * while it imports into the site (spec E; calendar-upstream.md §3; TEC
 * `Aggregator/REST/V1/Endpoints/{Base,Batch,State}.php`).
 *
 * No user authentication: the arguments are the guard. `import_id` must name
 * a pending aggregator record and `batch_hash` must equal that record's
 * `next_batch_hash` (constant-time, failing closed when none is stored);
 * otherwise WordPress's 400 `rest_invalid_param`.
 *
 * Records are `calendar_ea_record` posts whose status is `tribe-ea-<status>`
 * and whose meta holds the import ID, the expected hash, the accumulated
 * activity and the progress.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { DateTime } from 'luxon';
import { SQL, localToUtc, nowIn, nowUtc } from '../../dates.ts';
import { RawError } from '../../errors.ts';
import { isNumberLike } from '../../rest/validate.ts';
import type { ArgSchema, RestRequest, RouteDecl } from '../../rest/types.ts';
import type { Clock, Secrets, Settings, Storage } from '../../capabilities.ts';
import type { PostRow } from '../../store/db.ts';
import { seededHex } from './credentials.ts';
import { emptyActivity, insertPosts, mergeActivity, type Activity } from './ea-import.ts';

export const NS = 'calendar/aggregator/v1';
export const EA_RECORD = 'calendar_ea_record';

/** `Tribe__Events__Aggregator__Records::$status`. */
const STATUS = { success: 'tribe-ea-success', failed: 'tribe-ea-failed', pending: 'tribe-ea-pending' } as const;

/** The batch interval bounds (`Batch::$interval_min`, `$interval_max`), seconds. */
export const INTERVAL_MIN = 10;
export const INTERVAL_MAX = 600;

export interface RecordMeta {
  import_id: string;
  /** Absent once the import is over (`delete_meta('next_batch_hash')`). */
  next_batch_hash?: string;
  origin: string;
  source: string;
  /** Status given to imported events. */
  post_status: string;
  percentage_complete: number;
  activity?: Activity;
  /** Batches received, for deriving the next hash. */
  batches: number;
  /** Status reports received on `/state` (failed ones are "logged on the record"). */
  log: { status: string; message: string; message_slug: string; at: string }[];
  /**
   * Sandbox fixture: `wp_update_post` refuses to change this record's status,
   * the one way to reach State's "Could not update the status" 500.
   */
  locked?: boolean;
}

type EaRecord = PostRow<RecordMeta>;

/** `Records::get_by_import_id`, optionally among pending records only. */
function findRecord(site: Storage, importId: unknown, pendingOnly: boolean): EaRecord | undefined {
  const records = site.store.posts<RecordMeta>(EA_RECORD, pendingOnly ? [STATUS.pending] : undefined);
  return records.find((r) => r.meta.import_id === String(importId));
}

/** `is_valid_import_id`: a pending record has this import ID. */
const isValidImportId = (v: unknown, req: RestRequest) => findRecord(req.site, v, true) !== undefined;

/** `is_expected_batch_hash`: equal to the pending record's stored hash; no stored hash, no match. */
function isExpectedBatchHash(v: unknown, req: RestRequest): boolean {
  const expected = findRecord(req.site, req.params.import_id, true)?.meta.next_batch_hash;
  if (typeof expected !== 'string' || expected === '' || typeof v !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(v);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `is_percentage` */
const isPercentage = (v: unknown) => isNumberLike(v) && Math.trunc(Number(v)) >= 0 && Math.trunc(Number(v)) <= 100;

/** `is_valid_status_information`: numeric `done` ≤ `total` for both `data` and `batch`. */
function isValidStatusInformation(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const part = (p: unknown) => {
    if (typeof p !== 'object' || p === null) return false;
    const { total, done } = p as Record<string, unknown>;
    return isNumberLike(total) && isNumberLike(done) && Math.trunc(Number(done)) <= Math.trunc(Number(total));
  };
  const s = v as Record<string, unknown>;
  return part(s.data) && part(s.batch);
}

const importIdArg: ArgSchema = {
  type: 'string',
  required: true,
  description: 'The import unique ID as provided by Event Aggregator service',
  validate: isValidImportId,
};
const batchHashArg: ArgSchema = {
  type: 'string',
  required: true,
  description: 'The hash of the next expected batch, as previously provided by the client',
  validate: isExpectedBatchHash,
};
const percentageArg: ArgSchema = {
  type: 'integer',
  required: true,
  description: 'The percentage of import completed.',
  validate: isPercentage,
};

/** `generate_next_batch_hash`: a fresh 32-hex token (derived, so runs are repeatable). */
function nextBatchHash(site: Secrets, r: EaRecord): string {
  return createHash('md5')
    .update(`${site.secret}|${r.meta.import_id}|${r.meta.next_batch_hash ?? ''}|${r.meta.batches}`)
    .digest('hex');
}

/** `set_status`: false when WordPress refuses the update (only the locked fixture). */
function setStatus(site: Clock & Storage, r: EaRecord, status: keyof typeof STATUS): boolean {
  if (r.meta.locked) return false;
  const now = site.now();
  site.store.updatePost(r.id, {
    status: STATUS[status],
    modified: nowIn(now, site.timezone),
    modifiedGmt: nowUtc(now),
  });
  return true;
}

function batch(req: RestRequest): unknown {
  const { site } = req;
  const p = req.params;
  const record = findRecord(site, p.import_id, true)!;
  const status = p.status as { batch: { total: unknown; done: unknown } };
  const isLast = Math.trunc(Number(status.batch.total)) === Math.trunc(Number(status.batch.done)) + 1;
  // `events` is read from the request though not declared as an argument.
  const items = Array.isArray(p.events)
    ? p.events
    : typeof p.events === 'object' && p.events !== null
      ? Object.values(p.events)
      : [];
  const activity = insertPosts(site, record, items);
  // The sandbox's `event_aggregator_event_batch_interval` filter answers the interval the
  // service sent (TEC's default filter value is the minimum); either way it is clamped.
  const asked = p.interval !== undefined && isNumberLike(p.interval) ? Math.trunc(Number(p.interval)) : INTERVAL_MIN;
  const interval = asked > INTERVAL_MIN ? Math.min(INTERVAL_MAX, asked) : INTERVAL_MIN;
  const body: Record<string, unknown> = { status: 'success', activity, interval };
  const meta: Partial<RecordMeta> = {
    percentage_complete: Number(p.percentage_complete),
    activity: mergeActivity(record.meta.activity ?? emptyActivity(), activity),
    batches: record.meta.batches + 1,
  };
  if (isLast) {
    meta.next_batch_hash = undefined;
  } else {
    meta.next_batch_hash = nextBatchHash(site, record);
    body.next_batch_hash = meta.next_batch_hash;
  }
  site.store.updatePost<RecordMeta>(record.id, { meta });
  setStatus(site, site.store.post<RecordMeta>(record.id)!, isLast ? 'success' : 'pending');
  return body;
}

function state(req: RestRequest): unknown {
  const { site } = req;
  const p = req.params;
  const record = findRecord(site, p.import_id, false)!;
  const status = p.status as keyof typeof STATUS;
  if (!setStatus(site, record, status)) {
    // `new WP_Error("Could not update…")`: the sentence is the code, the message is empty,
    // there is no data, and WordPress answers 500.
    throw new RawError(500, {
      code: `Could not update the status of import ${record.id} to ${status}; current record status is ${record.status}`,
      message: '',
      data: null,
    });
  }
  const entry = {
    status,
    message: String(p.message),
    message_slug: String(p.message_slug),
    at: nowIn(site.now(), site.timezone),
  };
  site.store.updatePost<RecordMeta>(record.id, {
    meta: {
      percentage_complete: Number(p.percentage_complete),
      log: [...record.meta.log, entry],
      ...(status !== 'pending' ? { next_batch_hash: undefined } : {}),
    },
  });
  return { status: 'success' };
}

export function aggregatorRoutes(): RouteDecl[] {
  return [
    {
      namespace: NS,
      path: `/${NS}/import/(?P<import_id>\\w+)/batch`,
      endpoints: [
        {
          methods: ['POST'],
          args: {
            import_id: importIdArg,
            batch_hash: batchHashArg,
            status: {
              type: 'object',
              required: true,
              description: 'The current status of the import.',
              validate: isValidStatusInformation,
            },
            percentage_complete: percentageArg,
            interval: {
              type: 'integer',
              description:
                'The current interval, in seconds, between the end of a batch process and the start of the next; as set on the server.',
              validate: isNumberLike,
            },
          },
          // The callback reads the batch's `events`, which the route does not declare.
          reads: ['events'],
          // `tribe_aggregator_batch_data_processing_enabled`, true by default.
          permission: () => true,
          handler: batch,
          summary: 'Processes one batch of an import',
        },
      ],
    },
    {
      namespace: NS,
      path: `/${NS}/import/(?P<import_id>\\w+)/state`,
      endpoints: [
        {
          methods: ['POST'],
          args: {
            import_id: importIdArg,
            batch_hash: batchHashArg,
            status: {
              type: 'string',
              required: true,
              enum: ['success', 'failed', 'pending'],
              description: 'The new status of the import.',
            },
            message: {
              type: 'string',
              required: true,
              description: 'The new status message for the user, not localized.',
            },
            message_slug: {
              type: 'string',
              required: true,
              description: 'The new status message slug, to allow for localized messages.',
            },
            percentage_complete: percentageArg,
          },
          // `tribe_aggregator_remote_status_enabled`, true by default.
          permission: () => true,
          handler: state,
          summary: 'Sets the status of an import',
        },
      ],
    },
  ];
}

// ---- seeding

/** The seeded records: an import waiting for its batches, one whose status cannot change, and a finished one. */
const SEEDED: { label: string; title: string; status: keyof typeof STATUS; locked?: boolean }[] = [
  { label: 'ea-pending', title: 'Sandbox ICS import', status: 'pending' },
  { label: 'ea-locked', title: 'Sandbox locked import', status: 'pending', locked: true },
  { label: 'ea-finished', title: 'Sandbox finished import', status: 'success' },
];

export function seedAggregator(site: Clock & Storage & Settings): void {
  const seed = site.options.seed;
  // Dated from the anchor day like the rest of the demo data, so the same seed and anchor give the same rows.
  const anchor = site.options.anchor
    ? DateTime.fromISO(site.options.anchor, { zone: 'utc' })
    : DateTime.fromJSDate(site.now(), { zone: 'utc' }).startOf('day');
  const date = anchor.minus({ days: 1 }).set({ hour: 9 }).toFormat(SQL);
  for (const s of SEEDED) {
    const meta: RecordMeta = {
      import_id: seededHex(seed, `${s.label}:import-id`, 32),
      ...(s.status === 'pending' ? { next_batch_hash: seededHex(seed, `${s.label}:batch-hash`, 32) } : {}),
      origin: 'ics',
      source: `https://calendar.example/${s.label}.ics`,
      post_status: 'publish',
      percentage_complete: s.status === 'success' ? 100 : 0,
      batches: 0,
      log: [],
      ...(s.locked ? { locked: true } : {}),
    };
    site.store.insertPost<RecordMeta>({
      type: EA_RECORD,
      status: STATUS[s.status],
      title: s.title,
      slug: s.label,
      author: 1,
      date,
      dateGmt: localToUtc(date, site.timezone),
      pingStatus: 'closed',
      commentStatus: 'closed',
      meta,
    });
  }
}

export interface ImportCredentials {
  title: string;
  importId: string;
  /** `pending`, `success` or `failed`. */
  status: string;
  /** The hash the next batch or state call must carry; absent once the import is over. */
  nextBatchHash?: string;
  locked: boolean;
}

/** The aggregator records as they stand now: what the import service would need to call back. */
export function aggregatorImports(site: Storage): ImportCredentials[] {
  return site.store.posts<RecordMeta>(EA_RECORD).map((r) => ({
    title: r.title,
    importId: r.meta.import_id,
    status: r.status.replace(/^tribe-ea-/, ''),
    ...(r.meta.next_batch_hash ? { nextBatchHash: r.meta.next_batch_hash } : {}),
    locked: Boolean(r.meta.locked),
  }));
}
