/**
 * Planning a calendar write, before anything is sent. Pure: it takes what
 * the site offers (SiteInfo), never the request context.
 *
 * - which interface each write goes through (`chooseApi`), and which method;
 * - one job per item: its target, its path in the arguments, and every
 *   problem the gateway can see in it without asking the site;
 * - what each job must read first (`readFor`), and, once read, the complete
 *   payloads (`completePayloads`, `legacyFollowUp`).
 */
import type { EventInput, UpdateMethod, WriteInterface } from '../generated/graphql.ts';
import { idArgument, type NodeType } from '../mapping/ids.ts';
import {
  completeCoreDates, completeLegacyUpdate, isIssue, legacyEventState, storedDates, touchesDates,
  type Api, type ConvertOptions, type Json, type SplitPayloads, type StoredDates,
} from '../mapping/inputs.ts';
import { allBatchable, type WriteRequest } from '../upstream/batch.ts';
import { writeRequest, type Target, type WriteMethod } from '../upstream/calendar-writes.ts';
import { CORE_NS, LEGACY_NS, type SiteInfo } from '../upstream/discovery.ts';
import { GatewayError } from '../errors.ts';
import type { AnyInput, AnyModel, KindSpec, PostKind } from './kinds.ts';
import { inputError, issuesAt, type ItemError, type Problem } from './results.ts';
import type { StateRead } from './reads.ts';

/**
 * Most items one bulk mutation takes: 20 batches of 25 (WordPress's default
 * `/batch/v1` limit), so one mutation stays a bounded amount of work.
 */
export const MAX_BULK_ITEMS = 500;

type Via = WriteInterface | null | undefined;
type MethodArg = UpdateMethod | null | undefined;

export interface Job<I extends AnyInput> {
  index: number;
  /** Where the item is in the arguments (`["inputs", "3"]`), where its fields are, and where its ID is. */
  itemPath: string[];
  fieldPrefix: string[];
  idPath: string[];
  input?: I;
  target: Target | null;
  api: Api;
  method: WriteMethod;
  query?: Record<string, string | number | boolean>;
  payloads?: SplitPayloads;
  /** Set once the item will not be sent: every problem found, or why it was not written. */
  error?: ItemError;
  /** The stored object this write needs first, through which interface. */
  read?: Api;
  stored?: StateRead;
  /** The event's legacy state as read before the write (for a legacy follow-up after a core update). */
  legacyState?: Json;
}

// ---------------------------------------------------------------------------
// Choosing the interface

/** The interface chosen (or asked for with `via`) must be one the site has: said before anything is read or sent. */
export function needNamespace(site: SiteInfo, api: Api): void {
  const ns = api === 'core' ? CORE_NS : LEGACY_NS;
  if (!(api === 'core' ? site.hasCore : site.hasLegacy)) throw GatewayError.badInput(`This write needs ${ns}, which this site does not offer.`, { arguments: ['via'] });
}

export interface ApiOptions {
  slug?: boolean;
  method?: MethodArg;
  force?: boolean;
  preferLegacy?: boolean;
}

/**
 * calendar-core/v1 when the site has it, else legacy; slugs, `method: POST`
 * and `via: LEGACY` are legacy (calendar-core/v1 has no by-slug routes and no
 * POST updates). `preferLegacy` (trashing deletes) turns the default round:
 * the legacy DELETE answers the trashed object, calendar-core's answers `[]`
 * (../shared/reference/real-site-behaviour.md "calendar-core/v1 ... Delete").
 */
export function chooseApi(site: SiteInfo, via: Via, opts: ApiOptions = {}): Api {
  const legacyOnly = opts.slug ? 'idType: SLUG' : opts.method === 'POST' ? 'method: POST' : null;
  if (via === 'CORE' && legacyOnly) throw GatewayError.badInput(`${legacyOnly} uses the legacy interface; it cannot go through via: CORE.`, { arguments: ['via'] });
  if (opts.force && (legacyOnly || via === 'LEGACY' || !site.hasCore)) {
    throw GatewayError.badInput(`force: true needs calendar-core/v1 and an ID (legacy deletes always trash)${site.hasCore ? '' : '; this site does not offer calendar-core/v1'}.`, { arguments: ['force'] });
  }
  const fallback: Api = opts.force ? 'core' : opts.preferLegacy && site.hasLegacy ? 'legacy' : site.hasCore ? 'core' : 'legacy';
  const api: Api = via === 'LEGACY' || legacyOnly ? 'legacy' : via === 'CORE' ? 'core' : fallback;
  needNamespace(site, api);
  return api;
}

/**
 * The interface of a bulk delete: trashing deletes go through the legacy
 * interface where the site has it (its DELETE answers the trashed object in
 * the same request), except atomic ones on a site that batches
 * calendar-core deletes, which need /batch/v1.
 */
export function deleteManyApi(site: SiteInfo, kind: PostKind, via: Via, force: boolean, atomic: boolean): Api {
  const coreBatches = site.hasCore && allBatchable(site, [writeRequest('core', kind, 'DELETE', { id: 1 })]);
  return chooseApi(site, via, { force, preferLegacy: !(atomic && coreBatches) });
}

/** WordPress never lets an anonymous caller write; refusing here sends nothing. */
export function needAuth(session: { authenticated: boolean }): void {
  if (!session.authenticated) throw GatewayError.unauthenticated('Writes need credentials: send an Authorization header (application password).');
}

export function checkBulkSize(n: number, arg: string): void {
  if (n > MAX_BULK_ITEMS) throw GatewayError.badInput(`${arg}: at most ${MAX_BULK_ITEMS} items per mutation; got ${n}.`, { arguments: [arg], max: MAX_BULK_ITEMS });
}

export function updateMethod(method: MethodArg): WriteMethod {
  return method === 'PUT' ? 'PUT' : method === 'POST' ? 'POST' : 'PATCH';
}

export function targetOf(id: string, idType: string | null | undefined, type: NodeType): Target | null {
  if (idType === 'SLUG') return id.trim() ? { slug: id } : null;
  const n = idArgument(id, idType, type);
  return n ? { id: n } : null;
}

export function idMessage(id: string, type: NodeType, slug = false): string {
  return `${JSON.stringify(id)} is not a ${type} ${slug ? 'slug' : 'ID (a global ID or a database ID)'}.`;
}

// ---------------------------------------------------------------------------
// Jobs

interface Paths {
  item: string[];
  fields: string[];
  id: string[];
}

/** A create or update job, every problem of its input found (payloads come after the reads). */
export function writeJob<I extends AnyInput>(
  site: SiteInfo, spec: KindSpec<I, AnyModel>, index: number, paths: Paths, input: I, target: Target | null, api: Api, method: WriteMethod, more: Problem[] = [],
): Job<I> {
  const job: Job<I> = { index, itemPath: paths.item, fieldPrefix: paths.fields, idPath: paths.id, input, target, api, method };
  // An update whose ID is unusable (a problem in `more`) is still checked as an update.
  const create = target === null && method === 'POST' && more.length === 0;
  const problems = [...more, ...issuesAt(spec.validate(input, { create, api, site }), paths.fields)];
  if (problems.length) job.error = inputError(problems);
  return job;
}

export function createJobs<I extends AnyInput>(site: SiteInfo, spec: KindSpec<I, AnyModel>, inputs: readonly I[], api: Api): Job<I>[] {
  return inputs.map((input, i) => {
    const item = ['inputs', String(i)];
    return writeJob(site, spec, i, { item, fields: item, id: item }, input, null, api, 'POST');
  });
}

/**
 * One job per `{id, input}`. Direct writes run in parallel, and a legacy
 * update sends the whole state as read before: two updates of one object
 * would race, the later undoing the earlier. So each object is updated by
 * one item; a second one is a problem of that item.
 */
export function updateJobs<I extends AnyInput>(site: SiteInfo, spec: KindSpec<I, AnyModel>, items: readonly { id: string; input: I }[], api: Api, method: WriteMethod): Job<I>[] {
  const seen = new Map<number, number>();
  return items.map((x, i) => {
    const item = ['inputs', String(i)];
    const paths = { item, fields: [...item, 'input'], id: [...item, 'id'] };
    const target = targetOf(x.id, 'ID', spec.type);
    const more: Problem[] = [];
    if (!target) more.push({ path: paths.id, message: idMessage(x.id, spec.type) });
    else if ('id' in target) {
      const first = seen.get(target.id);
      if (first !== undefined) more.push({ path: paths.id, message: `${spec.type} ${target.id} is already updated by inputs.${first}: give each object once (merge the inputs).` });
      else seen.set(target.id, i);
    }
    return writeJob(site, spec, i, paths, x.input, target, api, method, more);
  });
}

export function deleteJobs<I extends AnyInput>(spec: KindSpec<I, AnyModel>, ids: readonly string[], api: Api, force: boolean): Job<I>[] {
  return ids.map((id, i): Job<I> => {
    const itemPath = ['ids', String(i)];
    const target = targetOf(id, 'ID', spec.type);
    const job: Job<I> = { index: i, itemPath, fieldPrefix: itemPath, idPath: itemPath, target, api, method: 'DELETE' };
    if (!target) job.error = inputError([{ path: itemPath, message: idMessage(id, spec.type) }]);
    if (force) job.query = { force: true };
    return job;
  });
}

/** The requests an atomic write would send, for `checkAtomic` (what it needs is checked before anything is read). */
export function atomicRequests<I extends AnyInput>(spec: KindSpec<I, AnyModel>, jobs: readonly Job<I>[]): WriteRequest[] {
  return jobs.map((j) => writeRequest(j.api, spec.kind, j.method, j.target ?? (j.method === 'POST' ? null : { id: 0 }), undefined, j.query));
}

/** The ID a target names, if it names one (slugs do not). */
export function databaseIdOfTarget(target: Target | null): number | null {
  return target && 'id' in target ? target.id : null;
}

// ---------------------------------------------------------------------------
// Reads and payloads

const NO_DATES: StoredDates = { start: null, end: null, timezone: null };

export function convertOptions<I extends AnyInput>(siteZone: string, spec: KindSpec<I, AnyModel>, input: I | undefined, eventZone?: string | null): ConvertOptions {
  const tz = input ? spec.asEvent(input)?.timezone : undefined;
  return { siteZone, eventZone: tz || eventZone || siteZone };
}

/**
 * What a job must read before it is sent, if anything:
 * - a legacy event update sends the event's complete state (the site resets
 *   what the request omits), so it reads the event with the legacy single
 *   GET first; so does a calendar-core update whose legacy-only fields go in
 *   a legacy follow-up;
 * - a calendar-core event update that touches a date sends both dates and
 *   the matching `duration`, so it reads the stored ones (and the zone) when
 *   the caller did not give them all;
 * - a calendar-core delete answers `[]`, so the object is read first.
 */
export function readFor<I extends AnyInput>(siteZone: string, spec: KindSpec<I, AnyModel>, job: Job<I>): Api | undefined {
  if (!job.target) return undefined;
  if (job.method === 'DELETE') return job.api === 'core' ? 'core' : undefined;
  const event = job.input ? spec.asEvent(job.input) : null;
  if (!event || !job.input) return undefined;
  const secondary = spec.payloads(job.input, job.api, convertOptions(siteZone, spec, job.input)).secondary;
  if (job.api === 'legacy' || secondary) return 'legacy';
  if (touchesDates(event) && !(event.startDate && event.endDate && event.timezone)) return 'core';
  return undefined;
}

/**
 * A create or update job's payloads once its reads are in (`body`: the
 * stored object, when read): a legacy event update carries the complete
 * state; a calendar-core one that touches a date, both dates and the
 * duration. Returns the problems found instead when the dates do not add up.
 * Sets `job.legacyState` when a legacy follow-up will need it.
 */
export function completePayloads<I extends AnyInput>(siteZone: string, spec: KindSpec<I, AnyModel>, job: Job<I>, body: unknown): SplitPayloads | Problem[] {
  const input = job.input!;
  const event = spec.asEvent(input);
  const stored = body === undefined ? NO_DATES : storedDates(body);
  const o = convertOptions(siteZone, spec, input, stored.timezone);
  const p = spec.payloads(input, job.api, o);
  if (event && job.target) {
    if (job.api === 'legacy') {
      const full = completeLegacyUpdate([legacyEventState(body, 'legacy')], p.primary, event, stored, o);
      if (isIssue(full)) return issuesAt([full], job.fieldPrefix);
      p.primary = full;
    } else {
      if (touchesDates(event)) {
        const issue = completeCoreDates(p.primary, event, stored, o);
        if (issue) return issuesAt([issue], job.fieldPrefix);
      }
      if (job.read === 'legacy') job.legacyState = legacyEventState(body, 'legacy');
    }
  }
  // A new event has no website: "" needs no sending (the legacy interface refuses it as a URL).
  if (!job.target && job.api === 'legacy' && p.primary.website === '') delete p.primary.website;
  return p;
}

/**
 * The payload of a legacy follow-up after a calendar-core write of the same
 * event: it too must carry the complete state (the legacy update resets what
 * it omits). The core answer is the freshest copy of what core serves; what
 * only the legacy interface has comes from the read before the write (none
 * for a create: a new event has the defaults the reset would give).
 */
export function legacyFollowUp(job: Pick<Job<EventInput>, 'legacyState'>, input: EventInput, coreBody: unknown, second: Json, o: ConvertOptions): Json {
  const layers = [...(job.legacyState ? [job.legacyState] : []), legacyEventState(coreBody, 'core')];
  // The core answer already has the final dates and zone: the caller's were written there.
  const rest: EventInput = { ...input, startDate: undefined, endDate: undefined, duration: undefined, timezone: undefined };
  const full = completeLegacyUpdate(layers, second, rest, storedDates(coreBody), o);
  return isIssue(full) ? second : full;
}
