/**
 * Calendar write mutations (schema/writes.graphql): single, bulk and atomic.
 *
 * One engine serves every kind: each item becomes a job (validated input,
 * target, interface, method) -> what `atomic` needs is checked before any
 * request -> one level of reads the writes depend on (writes/reads.ts: stored
 * state for updates that must send it whole, referenced objects, the object
 * a calendar-core delete will not return) -> the primary write requests,
 * sent through /batch/v1 where the site allows (upstream/batch.ts), else
 * directly -> for items whose input spans both interfaces, a follow-up update
 * through the other interface -> per-item results in input order. Loaders
 * are cleared and re-primed with what the site answered, so payload
 * selections show the written state.
 */
import type { Context } from '../context.ts';
import type {
  CategoryInput, EventInput, MutationResolvers, OrganizerInput, Resolvers, TagInput, VenueInput,
} from '../generated/graphql.ts';
import { coreEvent, coreOrganizer, coreVenue } from '../mapping/core.ts';
import { databaseIdOf, idArgument, type NodeType } from '../mapping/ids.ts';
import {
  completeCoreDates, completeLegacyUpdate, eventPayloads, graphField, isIssue, legacyEventState, organizerPayloads, storedDates, termPayload, touchesDates,
  validateEvent, validateOrganizer, validateTerm, validateVenue, venuePayloads,
  type Api, type ConvertOptions, type FieldIssue, type Json, type SplitPayloads, type ValidateOptions,
} from '../mapping/inputs.ts';
import { legacyEvent, legacyOrganizer, legacyTerm, legacyVenue } from '../mapping/legacy.ts';
import type { EventModel, OrganizerModel, TermModel, VenueModel } from '../mapping/models.ts';
import { allBatchable, checkAtomic, sendWrites, type WriteOutcome, type WriteRequest } from '../upstream/batch.ts';
import { writeRequest, type Target, type WriteKind, type WriteMethod } from '../upstream/calendarWrites.ts';
import { CORE_NS, LEGACY_NS } from '../upstream/discovery.ts';
import { GatewayError } from '../upstream/errors.ts';
import { UpstreamShapeError } from '../mapping/json.ts';
import { checkReferences, readStates, refMessage, stateKey, type StateRead } from '../writes/reads.ts';
import { reconcile, type Unsure } from '../writes/reconcile.ts';

/** Most items one bulk mutation takes (20 batches of 25). */
export const MAX_BULK_ITEMS = 500;

type PostKind = 'events' | 'venues' | 'organizers';
type AnyModel = EventModel | VenueModel | OrganizerModel;

/** A per-item error as the graph shows it (`MutationError`). */
export interface MutationErrorOut {
  code: string;
  message: string;
  path: string[];
  upstream: unknown;
}

export interface ItemResult<M> {
  index: number;
  databaseId: number | null;
  model: M | null;
  error: MutationErrorOut | null;
}

interface KindSpec<I> {
  kind: PostKind;
  type: NodeType;
  validate(input: I, o: ValidateOptions): FieldIssue[];
  payloads(input: I, api: Api, o: ConvertOptions): SplitPayloads;
  fromCore(body: unknown): AnyModel;
  fromLegacy(body: unknown): AnyModel;
}

const EVENTS: KindSpec<EventInput> = {
  kind: 'events', type: 'Event', validate: validateEvent, payloads: eventPayloads, fromCore: coreEvent, fromLegacy: legacyEvent,
};
const VENUES: KindSpec<VenueInput> = {
  kind: 'venues', type: 'Venue', validate: validateVenue, payloads: venuePayloads, fromCore: coreVenue, fromLegacy: legacyVenue,
};
const ORGANIZERS: KindSpec<OrganizerInput> = {
  kind: 'organizers', type: 'Organizer', validate: validateOrganizer, payloads: organizerPayloads, fromCore: coreOrganizer, fromLegacy: legacyOrganizer,
};

// ---------------------------------------------------------------------------
// Choosing the interface

type Via = 'CORE' | 'LEGACY' | null | undefined;
type MethodArg = 'PATCH' | 'PUT' | 'POST' | null | undefined;

/** The interface chosen (or asked for with `via`) must be one the site has: said before anything is read or sent. */
function needNamespace(ctx: Context, api: Api): void {
  const ns = api === 'core' ? CORE_NS : LEGACY_NS;
  if (!(api === 'core' ? ctx.site.hasCore : ctx.site.hasLegacy)) throw GatewayError.badInput(`This write needs ${ns}, which this site does not offer.`, { arguments: ['via'] });
}

/**
 * calendar-core/v1 when the site has it, else legacy; slugs, `method: POST`
 * and `via: LEGACY` are legacy (calendar-core/v1 has no by-slug routes and no
 * POST updates). `preferLegacy` (trashing deletes) turns the default round:
 * the legacy DELETE answers the trashed object, calendar-core's answers `[]`
 * (real-site-behaviour.md "calendar-core/v1 ... Delete").
 */
function chooseApi(ctx: Context, via: Via, opts: { slug?: boolean; method?: MethodArg; force?: boolean; preferLegacy?: boolean } = {}): Api {
  const legacyOnly = opts.slug ? 'idType: SLUG' : opts.method === 'POST' ? 'method: POST' : null;
  if (via === 'CORE' && legacyOnly) throw GatewayError.badInput(`${legacyOnly} uses the legacy interface; it cannot go through via: CORE.`, { arguments: ['via'] });
  if (opts.force && (legacyOnly || via === 'LEGACY' || !ctx.site.hasCore)) {
    throw GatewayError.badInput(`force: true needs calendar-core/v1 and an ID (legacy deletes always trash)${ctx.site.hasCore ? '' : '; this site does not offer calendar-core/v1'}.`, { arguments: ['force'] });
  }
  const fallback: Api = opts.force ? 'core' : opts.preferLegacy && ctx.site.hasLegacy ? 'legacy' : ctx.site.hasCore ? 'core' : 'legacy';
  const api: Api = via === 'LEGACY' || legacyOnly ? 'legacy' : via === 'CORE' ? 'core' : fallback;
  needNamespace(ctx, api);
  return api;
}

function needAuth(ctx: Context): void {
  // WordPress never lets an anonymous caller write; refusing here sends nothing.
  if (!ctx.upstream.authenticated) throw GatewayError.unauthenticated('Writes need credentials: send an Authorization header (application password).');
}

function checkBulkSize(n: number, arg: string): void {
  if (n > MAX_BULK_ITEMS) throw GatewayError.badInput(`${arg}: at most ${MAX_BULK_ITEMS} items per mutation; got ${n}.`, { arguments: [arg], max: MAX_BULK_ITEMS });
}

// ---------------------------------------------------------------------------
// Errors

function upstreamOf(e: GatewayError): unknown {
  const x = e.extensions;
  if (!x.upstream) return null;
  const out: Record<string, unknown> = { ...x.upstream };
  if (x.params !== undefined) out.params = x.params;
  if (x.details !== undefined) out.details = x.details;
  return out;
}

/** The graph path of an upstream error: the item, then the field its first bad parameter came from. */
function errorOut(e: GatewayError, itemPath: string[], fieldPrefix: string[], kind: WriteKind, api: Api, input?: object): MutationErrorOut {
  const params = e.extensions.params;
  const first = Array.isArray(params) ? params[0] : params ? Object.keys(params)[0] : undefined;
  const path = first ? [...fieldPrefix, graphField(kind, api, first, input)] : itemPath;
  return { code: e.code, message: e.message, path, upstream: upstreamOf(e) };
}

/** An item whose write was sent but whose answer was lost, not settled by reading back. Never "failed": it may be written. */
function unknownOut(e: GatewayError, itemPath: string[], message: string): MutationErrorOut {
  return { code: 'OUTCOME_UNKNOWN', message: `${message.replace(/\.$/, '')}.`, path: itemPath, upstream: upstreamOf(e) };
}

function issueOut(issue: FieldIssue, fieldPrefix: string[]): MutationErrorOut {
  return { code: 'BAD_USER_INPUT', message: issue.message, path: [...fieldPrefix, ...issue.path], upstream: null };
}

/** A single mutation's failure as a GraphQL error naming the argument. */
function toGraphError(err: MutationErrorOut, databaseId: number | null): GatewayError {
  const init: Record<string, unknown> = { arguments: [err.path.join('.')] };
  const up = err.upstream as Record<string, unknown> | null;
  if (up) {
    const { params, details, ...source } = up;
    init.upstream = source;
    if (params !== undefined) init.params = params;
    if (details !== undefined) init.details = details;
  }
  if (databaseId !== null) init.databaseId = databaseId;
  return new GatewayError(err.code as GatewayError['code'], err.message, init as never);
}

// ---------------------------------------------------------------------------
// Loaders: what the site answered replaces what the request had read

function clearPost(ctx: Context, kind: PostKind, id: number): void {
  const l = ctx.loaders;
  const all = kind === 'events' ? [l.eventLegacy, l.eventCore, l.eventLegacySingle] : kind === 'venues' ? [l.venueLegacy, l.venueCore] : [l.organizerLegacy, l.organizerCore];
  for (const loader of all) loader.clear(id);
}

function settle(ctx: Context, kind: PostKind, id: number, models: AnyModel[]): void {
  clearPost(ctx, kind, id);
  for (const m of models) ctx.loaders.prime(m);
}

// ---------------------------------------------------------------------------
// The engine

interface Job<I> {
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
  error?: MutationErrorOut;
  /** The stored object this write needs first, through which interface. */
  read?: Api;
  stored?: StateRead;
  /** The event's legacy state as read before the write (for a legacy follow-up after a core update). */
  legacyState?: Json;
}

interface RunOptions {
  atomic: boolean;
}

function shortCircuit<M>(jobs: Job<unknown>[]): ItemResult<M>[] {
  return jobs.map((j) => ({
    index: j.index,
    databaseId: j.target && 'id' in j.target ? j.target.id : null,
    model: null,
    error: j.error ?? { code: 'NOT_EXECUTED', message: 'Not written: another item of this atomic write is invalid.', path: j.itemPath, upstream: null },
  }));
}

function idOfBody(body: unknown): number | null {
  const id = body && typeof body === 'object' ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'number' && Number.isInteger(id) ? id : null;
}

const NO_DATES = { start: null, end: null, timezone: null };

function convertOptions(ctx: Context, input: EventInput | VenueInput | OrganizerInput, eventZone?: string | null): ConvertOptions {
  const tz = (input as EventInput).timezone;
  return { siteZone: ctx.site.timezone, eventZone: tz || eventZone || ctx.site.timezone };
}

/**
 * What `atomic: true` needs (every route batchable, one batch), checked
 * before anything is sent — reads included (real sites batch no calendar
 * route: real-site-behaviour.md "No calendar-core route is batchable").
 */
function checkAtomicJobs(ctx: Context, spec: KindSpec<unknown>, jobs: Job<unknown>[]): void {
  const reqs = jobs.map((j) => writeRequest(j.api, spec.kind, j.method, j.target ?? (j.method === 'POST' ? null : { id: 0 }), undefined, j.query));
  checkAtomic(ctx.site, reqs);
}

/**
 * The one level of reads the writes depend on, then the payloads:
 * - a legacy event update sends the event's complete state (the site resets
 *   what the request omits), so it reads the event with the legacy single GET
 *   first; so does a calendar-core update whose legacy-only fields go in a
 *   legacy follow-up;
 * - a calendar-core event update that touches a date sends both dates and
 *   the matching `duration`, so it reads the stored ones (and the zone) when
 *   the caller did not give them all;
 * - a calendar-core delete answers `[]`, so the object is read first;
 * - every venue, organizer, category and tag an event input references is
 *   checked to exist (calendar-core/v1 6.15 writes whatever IDs it is given).
 */
async function prepare<I>(ctx: Context, spec: KindSpec<I>, jobs: Job<I>[]): Promise<void> {
  const live = jobs.filter((j) => !j.error);
  for (const j of live) {
    if (!j.target) continue;
    if (j.method === 'DELETE') {
      if (j.api === 'core') j.read = 'core';
      continue;
    }
    if (spec.kind !== 'events') continue;
    const input = j.input as EventInput;
    const secondary = spec.payloads(j.input as I, j.api, convertOptions(ctx, input)).secondary;
    if (j.api === 'legacy' || secondary) j.read = 'legacy';
    else if (touchesDates(input) && !(input.startDate && input.endDate && input.timezone)) j.read = 'core';
  }
  const wanted = live.filter((j) => j.read).map((j) => ({ api: j.read!, kind: spec.kind, target: j.target! }));
  const refInputs = spec.kind === 'events' ? live.filter((j) => j.method !== 'DELETE' && j.input).map((j) => ({ key: j.index, input: j.input as EventInput })) : [];
  const [states, refs] = await Promise.all([
    wanted.length ? readStates(ctx, wanted) : Promise.resolve(new Map<string, StateRead>()),
    refInputs.length ? checkReferences(ctx, refInputs) : Promise.resolve(new Map<number, never>()),
  ]);

  for (const j of live) {
    if (j.read) j.stored = states.get(stateKey(j.read, spec.kind, j.target!));
    if (j.method === 'DELETE') continue;
    const problem = refs.get(j.index);
    if (problem) {
      j.error = { code: 'BAD_USER_INPUT', message: refMessage(problem), path: [...j.fieldPrefix, problem.field], upstream: null };
      continue;
    }
    if (j.stored && !j.stored.ok) {
      const e = j.stored.error;
      j.error = { code: e.code, message: `Not written: the ${spec.type.toLowerCase()}'s stored state, which this update must send, could not be read: ${e.message}`, path: j.idPath, upstream: upstreamOf(e) };
      continue;
    }
    const input = j.input as EventInput;
    const body = j.stored?.ok ? j.stored.body : undefined;
    const stored = body === undefined ? NO_DATES : storedDates(body);
    const o = convertOptions(ctx, input, stored.timezone);
    const p = spec.payloads(j.input as I, j.api, o);
    if (spec.kind === 'events' && j.target) {
      if (j.api === 'legacy') {
        const full = completeLegacyUpdate([legacyEventState(body, 'legacy')], p.primary, input, stored, o);
        if (isIssue(full)) {
          j.error = issueOut(full, j.fieldPrefix);
          continue;
        }
        p.primary = full;
      } else {
        if (touchesDates(input)) {
          const issue = completeCoreDates(p.primary, input, stored, o);
          if (issue) {
            j.error = issueOut(issue, j.fieldPrefix);
            continue;
          }
        }
        if (j.read === 'legacy') j.legacyState = legacyEventState(body, 'legacy');
      }
    }
    // A new event has no website: "" needs no sending (the legacy interface refuses it as a URL).
    if (!j.target && j.api === 'legacy' && p.primary.website === '') delete p.primary.website;
    j.payloads = p;
  }
}

/**
 * The payload of a legacy follow-up after a calendar-core write of the same
 * event: it too must carry the complete state (the legacy update resets what
 * it omits). The core answer is the freshest copy of what core serves; what
 * only the legacy interface has comes from the read before the write (none
 * for a create: a new event has the defaults the reset would give).
 */
function legacyFollowUp(job: Job<EventInput>, coreBody: unknown, second: Json, o: ConvertOptions): Json {
  const layers = [...(job.legacyState ? [job.legacyState] : []), legacyEventState(coreBody, 'core')];
  // The core answer already has the final dates and zone: the caller's were written there.
  const rest: EventInput = { ...(job.input ?? {}), startDate: undefined, endDate: undefined, duration: undefined, timezone: undefined };
  const full = completeLegacyUpdate(layers, second, rest, storedDates(coreBody), o);
  return isIssue(full) ? second : full;
}

/**
 * A 2xx answer that is not what the write answers (the object written; a
 * calendar-core delete's `[]`) says the site did something, but not what:
 * the outcome is unknown, as if the answer had been lost.
 */
function readable<I>(spec: KindSpec<I>, job: Pick<Job<I>, 'api' | 'method'>, o: WriteOutcome, route: string): WriteOutcome {
  if (!o.ok) return o;
  let fine: boolean;
  if (job.method === 'DELETE') fine = idOfBody(o.body) !== null || (job.api === 'core' && Array.isArray(o.body));
  else {
    try {
      (job.api === 'core' ? spec.fromCore : spec.fromLegacy)(o.body);
      fine = true;
    } catch (err) {
      if (!(err instanceof UpstreamShapeError)) throw err;
      fine = false;
    }
  }
  if (fine) return o;
  const error = new GatewayError('UPSTREAM_BAD_RESPONSE', `Bad upstream response (${route}): a ${o.status} whose body is not what this write answers.`, { upstream: { code: null, status: o.status, route } });
  return { ok: false, error, batched: o.batched, unknown: true };
}

/**
 * Reconciles the outcomes that are unknown (writes/reconcile.ts): each becomes
 * an answer (the object as read back) when the site shows the write happened,
 * and stays unknown, its message saying what to check, otherwise.
 */
async function settleUnknown(
  ctx: Context,
  kind: PostKind,
  sent: { job: Job<unknown>; api: Api; method: WriteMethod; target: Target | null; payload: Json | undefined }[],
  outcomes: WriteOutcome[],
  startedAt: number,
): Promise<void> {
  const unsure: Unsure[] = [];
  const claimed = new Set<number>();
  sent.forEach((s, k) => {
    const o = outcomes[k]!;
    if (o.ok) {
      const id = idOfBody(o.body);
      if (id !== null) claimed.add(id);
    } else if (o.unknown) {
      unsure.push({ key: k, api: s.api, kind, method: s.method, target: s.target, input: s.job.input as Unsure['input'], payload: s.payload, force: Boolean(s.job.query?.force) });
    }
  });
  if (!unsure.length) return;
  const settled = await reconcile(ctx, unsure, { startedAt, claimed });
  for (const u of unsure) {
    const o = outcomes[u.key]!;
    const s = settled.get(u.key)!;
    if (o.ok) continue;
    if (s.written) {
      // A reconciled delete answers like the write: the trashed object (legacy) or `[]` (calendar-core, whose object was read first).
      const body = u.method === 'DELETE' && (u.api === 'core' || s.body === null) ? [] : s.body;
      outcomes[u.key] = { ok: true, status: 200, body, batched: o.batched };
    } else {
      const error = new GatewayError(o.error.code, `${o.error.message.replace(/\.$/, '')}, ${s.message}`, { upstream: o.error.extensions.upstream });
      outcomes[u.key] = { ...o, error };
    }
  }
}

/**
 * Sends the jobs' writes (primary, then follow-ups) and returns per-item
 * results. Jobs already carrying an `error` are not sent; with `atomic`, any
 * such job stops every write.
 */
async function run<I>(ctx: Context, spec: KindSpec<I>, jobs: Job<I>[], opts: RunOptions): Promise<ItemResult<AnyModel>[]> {
  if (opts.atomic) checkAtomicJobs(ctx, spec as KindSpec<unknown>, jobs as Job<unknown>[]);
  if (opts.atomic && jobs.some((j) => j.error)) return shortCircuit<AnyModel>(jobs as Job<unknown>[]);
  await prepare(ctx, spec, jobs);
  if (opts.atomic && jobs.some((j) => j.error)) return shortCircuit<AnyModel>(jobs as Job<unknown>[]);
  const live = jobs.filter((j) => !j.error);
  const primary: WriteRequest[] = live.map((j) => writeRequest(j.api, spec.kind, j.method, j.target, j.method === 'DELETE' ? undefined : j.payloads!.primary, j.query));
  const startedAt = Date.now();
  const outcomes = await sendWrites(ctx.upstream, ctx.site, primary, { atomic: opts.atomic });
  live.forEach((job, k) => (outcomes[k] = readable(spec, job, outcomes[k]!, primary[k]!.route)));
  await settleUnknown(ctx, spec.kind, live.map((job, k) => ({ job, api: job.api, method: job.method, target: job.target, payload: job.payloads?.primary })), outcomes, startedAt);

  const results = new Map<Job<I>, ItemResult<AnyModel>>();
  const models = new Map<Job<I>, AnyModel[]>();
  const follow: { job: Job<I>; api: Api; req: WriteRequest }[] = [];
  live.forEach((job, k) => {
    const o = outcomes[k]!;
    const known = job.target && 'id' in job.target ? job.target.id : null;
    if (!o.ok) {
      const error = o.notExecuted
        ? { code: 'NOT_EXECUTED', message: o.error.message, path: job.itemPath, upstream: null }
        : o.unknown
          ? unknownOut(o.error, job.itemPath, `Outcome unknown: the ${spec.type.toLowerCase()} ${job.target ? (job.method === 'DELETE' ? 'delete' : 'update') : 'create'} was sent but its answer was lost (${o.error.message})`)
          : errorOut(o.error, job.itemPath, job.fieldPrefix, spec.kind, job.api, job.input as object | undefined);
      results.set(job, { index: job.index, databaseId: known, model: null, error });
      return;
    }
    if (job.method === 'DELETE') {
      // Legacy deletes answer the trashed object; calendar-core/v1 answers `[]` (real-site-behaviour.md), so
      // its payload is the object as read just before, trashed unless deleted for good.
      let model: AnyModel | null = null;
      if (job.api === 'legacy' && idOfBody(o.body) !== null) model = spec.fromLegacy(o.body);
      else if (job.api === 'core' && job.stored?.ok) {
        model = spec.fromCore(job.stored.body);
        if (!job.query?.force) model.status = 'trash';
      }
      const id = known ?? idOfBody(o.body) ?? model?.databaseId ?? null;
      if (id !== null) clearPost(ctx, spec.kind, id);
      if (model && !job.query?.force) ctx.loaders.prime(model);
      results.set(job, { index: job.index, databaseId: id, model, error: null });
      return;
    }
    const model = job.api === 'core' ? spec.fromCore(o.body) : spec.fromLegacy(o.body);
    models.set(job, [model]);
    results.set(job, { index: job.index, databaseId: model.databaseId, model, error: null });
    let second = job.payloads?.secondary;
    if (second) {
      const api: Api = job.api === 'core' ? 'legacy' : 'core';
      if (spec.kind === 'events' && api === 'legacy') second = legacyFollowUp(job as Job<EventInput>, o.body, second, convertOptions(ctx, job.input as EventInput));
      // Legacy follow-ups use POST (its canonical EDIT), core ones PATCH: only the named fields change.
      follow.push({ job, api, req: writeRequest(api, spec.kind, api === 'legacy' ? 'POST' : 'PATCH', { id: model.databaseId }, second) });
    }
  });

  if (follow.length) {
    const followStarted = Date.now();
    const done = await sendWrites(ctx.upstream, ctx.site, follow.map((f) => f.req), {});
    follow.forEach((f, k) => (done[k] = readable(spec, { api: f.api, method: 'PATCH' }, done[k]!, f.req.route)));
    await settleUnknown(
      ctx,
      spec.kind,
      follow.map((f) => ({ job: f.job, api: f.api, method: 'PATCH', target: { id: results.get(f.job)!.databaseId! }, payload: f.req.body as Json | undefined })),
      done,
      followStarted,
    );
    follow.forEach((f, k) => {
      const o: WriteOutcome = done[k]!;
      const r = results.get(f.job)!;
      const ns = f.api === 'core' ? CORE_NS : LEGACY_NS;
      if (!o.ok && o.unknown) {
        r.error = unknownOut(o.error, f.job.itemPath, `Written (ID ${r.databaseId}), but whether the ${ns} fields were written is unknown: the follow-up update was sent but its answer was lost (${o.error.message})`);
        return;
      }
      if (o.ok) {
        const m = f.api === 'core' ? spec.fromCore(o.body) : spec.fromLegacy(o.body);
        models.get(f.job)!.push(m);
        // The latest write is the freshest copy; fields it lacks come from the primary's copy, primed below.
        r.model = m;
      } else {
        const e = errorOut(o.error, f.job.itemPath, f.job.fieldPrefix, spec.kind, f.api, f.job.input as object | undefined);
        r.error = { ...e, message: `Written (ID ${r.databaseId}), but the ${ns} fields were not: ${e.message}` };
      }
    });
  }
  for (const [, ms] of models) settle(ctx, spec.kind, ms[0]!.databaseId, ms);
  return jobs.map((j) => results.get(j) ?? shortCircuit<AnyModel>([j as Job<unknown>])[0]!);
}

// ---------------------------------------------------------------------------
// Building jobs

function targetOf(id: string, idType: string | null | undefined, type: NodeType): Target | null {
  if (idType === 'SLUG') return id.trim() ? { slug: id } : null;
  const n = idArgument(id, idType, type);
  return n ? { id: n } : null;
}

function updateMethod(method: MethodArg): WriteMethod {
  return method === 'PUT' ? 'PUT' : method === 'POST' ? 'POST' : 'PATCH';
}

/** A create or update job, its input checked (payloads come after the reads, in `prepare`). */
function writeJob<I extends EventInput | VenueInput | OrganizerInput>(
  ctx: Context, spec: KindSpec<I>, index: number, paths: { item: string[]; fields: string[]; id: string[] }, input: I, target: Target | null, api: Api, method: WriteMethod,
): Job<I> {
  const job: Job<I> = { index, itemPath: paths.item, fieldPrefix: paths.fields, idPath: paths.id, input, target, api, method };
  const issues = spec.validate(input, { create: target === null, api, site: ctx.site });
  if (issues.length) job.error = issueOut(issues[0]!, paths.fields);
  return job;
}

function badId(itemPath: string[], type: NodeType, id: string): MutationErrorOut {
  return { code: 'BAD_USER_INPUT', message: `${JSON.stringify(id)} is not a ${type} ID (a global ID or a database ID).`, path: itemPath, upstream: null };
}

// ---------------------------------------------------------------------------
// Single and bulk operations, generic over the three post kinds

async function createOne<I extends EventInput | VenueInput | OrganizerInput>(ctx: Context, spec: KindSpec<I>, input: I, via: Via): Promise<AnyModel> {
  needAuth(ctx);
  const api = chooseApi(ctx, via);
  const [r] = await run(ctx, spec, [writeJob(ctx, spec, 0, { item: ['input'], fields: ['input'], id: ['input'] }, input, null, api, 'POST')], { atomic: false });
  if (r!.error) throw toGraphError(r!.error, r!.databaseId);
  return r!.model as AnyModel;
}

async function updateOne<I extends EventInput | VenueInput | OrganizerInput>(
  ctx: Context, spec: KindSpec<I>, id: string, idType: string | null | undefined, input: I, method: MethodArg, via: Via,
): Promise<AnyModel> {
  needAuth(ctx);
  const target = targetOf(id, idType, spec.type);
  if (!target) throw GatewayError.badInput(`${JSON.stringify(id)} is not a ${spec.type} ${idType === 'SLUG' ? 'slug' : 'ID (a global ID or a database ID)'}.`, { arguments: ['id'] });
  const api = chooseApi(ctx, via, { slug: 'slug' in target, method });
  const [r] = await run(ctx, spec, [writeJob(ctx, spec, 0, { item: ['input'], fields: ['input'], id: ['id'] }, input, target, api, updateMethod(method))], { atomic: false });
  if (r!.error) throw toGraphError(r!.error, r!.databaseId);
  return r!.model as AnyModel;
}

async function deleteOne<I>(ctx: Context, spec: KindSpec<I>, id: string, idType: string | null | undefined, force: boolean, via: Via) {
  needAuth(ctx);
  const target = targetOf(id, idType, spec.type);
  if (!target) throw GatewayError.badInput(`${JSON.stringify(id)} is not a ${spec.type} ${idType === 'SLUG' ? 'slug' : 'ID (a global ID or a database ID)'}.`, { arguments: ['id'] });
  const api = chooseApi(ctx, via, { slug: 'slug' in target, force, preferLegacy: true });
  const job: Job<I> = { index: 0, itemPath: ['id'], fieldPrefix: [], idPath: ['id'], target, api, method: 'DELETE' };
  if (force) job.query = { force: true };
  const [r] = await run(ctx, spec, [job], { atomic: false });
  if (r!.error) throw toGraphError(r!.error, r!.databaseId);
  return { databaseId: r!.databaseId ?? 0, permanently: force, model: r!.model };
}

async function createMany<I extends EventInput | VenueInput | OrganizerInput>(ctx: Context, spec: KindSpec<I>, inputs: readonly I[], atomic: boolean, via: Via) {
  needAuth(ctx);
  checkBulkSize(inputs.length, 'inputs');
  const api = chooseApi(ctx, via);
  const jobs = inputs.map((input, i) => {
    const item = ['inputs', String(i)];
    return writeJob(ctx, spec, i, { item, fields: item, id: item }, input, null, api, 'POST');
  });
  return run(ctx, spec, jobs, { atomic });
}

async function updateMany<I extends EventInput | VenueInput | OrganizerInput>(
  ctx: Context, spec: KindSpec<I>, items: readonly { id: string; input: I }[], atomic: boolean, method: MethodArg, via: Via,
) {
  needAuth(ctx);
  checkBulkSize(items.length, 'inputs');
  const api = chooseApi(ctx, via, { method });
  const seen = new Map<number, number>();
  const jobs = items.map((x, i) => {
    const item = ['inputs', String(i)];
    const t = targetOf(x.id, 'ID', spec.type) as { id: number } | null;
    if (!t) return { index: i, itemPath: item, fieldPrefix: item, idPath: [...item, 'id'], target: null, api, method: updateMethod(method), error: badId([...item, 'id'], spec.type, x.id) } as Job<I>;
    const job = writeJob(ctx, spec, i, { item, fields: [...item, 'input'], id: [...item, 'id'] }, x.input, t, api, updateMethod(method));
    // Direct writes run in parallel, and a legacy update sends the whole state as read before:
    // two updates of one object would race, the later undoing the earlier. One item per object.
    const first = seen.get(t.id);
    if (first !== undefined && !job.error) {
      job.error = { code: 'BAD_USER_INPUT', message: `${spec.type} ${t.id} is already updated by inputs.${first}: give each object once (merge the inputs).`, path: [...item, 'id'], upstream: null };
    } else if (first === undefined) seen.set(t.id, i);
    return job;
  });
  return run(ctx, spec, jobs, { atomic });
}

/**
 * Trashing deletes go through the legacy interface where the site has it (its
 * DELETE answers the trashed object in the same request) — except atomic
 * ones on a site that batches calendar-core deletes, which need /batch/v1.
 */
async function deleteMany<I>(ctx: Context, spec: KindSpec<I>, ids: readonly string[], force: boolean, atomic: boolean, via: Via) {
  needAuth(ctx);
  checkBulkSize(ids.length, 'ids');
  const coreBatches = ctx.site.hasCore && allBatchable(ctx.site, [writeRequest('core', spec.kind, 'DELETE', { id: 1 })]);
  const api = chooseApi(ctx, via, { force, preferLegacy: !(atomic && coreBatches) });
  const jobs = ids.map((id, i): Job<I> => {
    const itemPath = ['ids', String(i)];
    const target = targetOf(id, 'ID', spec.type);
    const job: Job<I> = { index: i, itemPath, fieldPrefix: itemPath, idPath: itemPath, target, api, method: 'DELETE' };
    if (!target) job.error = badId(itemPath, spec.type, id);
    if (force) job.query = { force: true };
    return job;
  });
  return run(ctx, spec, jobs, { atomic });
}

/**
 * `written`: items whose object was written (an item whose follow-up failed
 * also counts in `failed` or `unknown`); `failed`: items with an error the
 * site or the gateway vouches for (nothing written, or not completely);
 * `unknown`: items whose write was sent but whose outcome is not known
 * (`OUTCOME_UNKNOWN`).
 */
function bulkPayload<K extends string>(key: K, results: ItemResult<AnyModel>[]) {
  return {
    results: results.map((r) => ({ index: r.index, databaseId: r.databaseId, [key]: r.model, error: r.error })),
    written: results.filter((r) => r.databaseId !== null && (!r.error || r.model)).length,
    failed: results.filter((r) => r.error && r.error.code !== 'OUTCOME_UNKNOWN').length,
    unknown: results.filter((r) => r.error?.code === 'OUTCOME_UNKNOWN').length,
  } as { results: never[]; written: number; failed: number; unknown: number };
}

// ---------------------------------------------------------------------------
// Terms (legacy only; never batched unless the site says so)

async function termWrite(ctx: Context, kind: 'categories' | 'tags', method: WriteMethod, id: string | null, input: CategoryInput | TagInput | null): Promise<{ databaseId: number; model: TermModel | null }> {
  needAuth(ctx);
  needNamespace(ctx, 'legacy');
  const type: NodeType = kind === 'categories' ? 'Category' : 'Tag';
  let target: Target | null = null;
  if (id !== null) {
    const n = databaseIdOf(id, type);
    if (!n) throw GatewayError.badInput(`${JSON.stringify(id)} is not a ${type} ID (a global ID or a database ID).`, { arguments: ['id'] });
    target = { id: n };
  }
  if (input) {
    const issues = validateTerm(input, target === null);
    if (issues.length) throw toGraphError(issueOut(issues[0]!, ['input']), null);
  }
  const req = writeRequest('legacy', kind, method, target, input ? termPayload(input, kind) : undefined);
  const [o] = await sendWrites(ctx.upstream, ctx.site, [req], {});
  if (!o!.ok && o!.unknown) {
    const what = `${type.toLowerCase()} ${method === 'POST' && !target ? 'create' : method === 'DELETE' ? 'delete' : 'update'}`;
    throw toGraphError(unknownOut(o!.error, id ? ['id'] : ['input'], `Outcome unknown: the ${what} was sent but its answer was lost (${o!.error.message}); read the ${type.toLowerCase()}s before sending it again`), target && 'id' in target ? target.id : null);
  }
  if (!o!.ok) throw toGraphError(errorOut(o!.error, id ? ['id'] : ['input'], ['input'], kind, 'legacy', input ?? undefined), target && 'id' in target ? target.id : null);
  const model = legacyTerm(o!.body, type);
  const loader = kind === 'categories' ? ctx.loaders.category : ctx.loaders.tag;
  loader.clear(model.databaseId);
  // A deleted term answers as it was: return it, but do not keep it.
  if (method !== 'DELETE') ctx.loaders.prime(model);
  return { databaseId: model.databaseId, model };
}

// ---------------------------------------------------------------------------

const M: MutationResolvers = {
  createEvent: async (_p, a, ctx) => ({ event: (await createOne(ctx, EVENTS, a.input, a.via)) as EventModel }),
  updateEvent: async (_p, a, ctx) => ({ event: (await updateOne(ctx, EVENTS, a.id, a.idType, a.input, a.method, a.via)) as EventModel }),
  deleteEvent: async (_p, a, ctx) => {
    const r = await deleteOne(ctx, EVENTS, a.id, a.idType, Boolean(a.force), a.via);
    return { databaseId: r.databaseId, permanently: r.permanently, event: r.model as EventModel | null };
  },
  createVenue: async (_p, a, ctx) => ({ venue: (await createOne(ctx, VENUES, a.input, a.via)) as VenueModel }),
  updateVenue: async (_p, a, ctx) => ({ venue: (await updateOne(ctx, VENUES, a.id, a.idType, a.input, a.method, a.via)) as VenueModel }),
  deleteVenue: async (_p, a, ctx) => {
    const r = await deleteOne(ctx, VENUES, a.id, a.idType, Boolean(a.force), a.via);
    return { databaseId: r.databaseId, permanently: r.permanently, venue: r.model as VenueModel | null };
  },
  createOrganizer: async (_p, a, ctx) => ({ organizer: (await createOne(ctx, ORGANIZERS, a.input, a.via)) as OrganizerModel }),
  updateOrganizer: async (_p, a, ctx) => ({ organizer: (await updateOne(ctx, ORGANIZERS, a.id, a.idType, a.input, a.method, a.via)) as OrganizerModel }),
  deleteOrganizer: async (_p, a, ctx) => {
    const r = await deleteOne(ctx, ORGANIZERS, a.id, a.idType, Boolean(a.force), a.via);
    return { databaseId: r.databaseId, permanently: r.permanently, organizer: r.model as OrganizerModel | null };
  },

  createCategory: async (_p, a, ctx) => ({ category: (await termWrite(ctx, 'categories', 'POST', null, a.input)).model }),
  updateCategory: async (_p, a, ctx) => ({ category: (await termWrite(ctx, 'categories', updateMethod(a.method), a.id, a.input)).model }),
  deleteCategory: async (_p, a, ctx) => {
    const r = await termWrite(ctx, 'categories', 'DELETE', a.id, null);
    return { databaseId: r.databaseId, category: r.model };
  },
  createTag: async (_p, a, ctx) => ({ tag: (await termWrite(ctx, 'tags', 'POST', null, a.input)).model }),
  updateTag: async (_p, a, ctx) => ({ tag: (await termWrite(ctx, 'tags', updateMethod(a.method), a.id, a.input)).model }),
  deleteTag: async (_p, a, ctx) => {
    const r = await termWrite(ctx, 'tags', 'DELETE', a.id, null);
    return { databaseId: r.databaseId, tag: r.model };
  },

  createEvents: async (_p, a, ctx) => bulkPayload('event', await createMany(ctx, EVENTS, a.inputs, Boolean(a.atomic), a.via)),
  updateEvents: async (_p, a, ctx) => bulkPayload('event', await updateMany(ctx, EVENTS, a.inputs, Boolean(a.atomic), a.method, a.via)),
  deleteEvents: async (_p, a, ctx) => bulkPayload('event', await deleteMany(ctx, EVENTS, a.ids, Boolean(a.force), Boolean(a.atomic), a.via)),
  createVenues: async (_p, a, ctx) => bulkPayload('venue', await createMany(ctx, VENUES, a.inputs, Boolean(a.atomic), a.via)),
  updateVenues: async (_p, a, ctx) => bulkPayload('venue', await updateMany(ctx, VENUES, a.inputs, Boolean(a.atomic), a.method, a.via)),
  deleteVenues: async (_p, a, ctx) => bulkPayload('venue', await deleteMany(ctx, VENUES, a.ids, Boolean(a.force), Boolean(a.atomic), a.via)),
  createOrganizers: async (_p, a, ctx) => bulkPayload('organizer', await createMany(ctx, ORGANIZERS, a.inputs, Boolean(a.atomic), a.via)),
  updateOrganizers: async (_p, a, ctx) => bulkPayload('organizer', await updateMany(ctx, ORGANIZERS, a.inputs, Boolean(a.atomic), a.method, a.via)),
  deleteOrganizers: async (_p, a, ctx) => bulkPayload('organizer', await deleteMany(ctx, ORGANIZERS, a.ids, Boolean(a.force), Boolean(a.atomic), a.via)),
};

export const mutationsResolvers: Resolvers = { Mutation: M };
