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
  completeCoreDates,
  completeLegacyUpdate,
  eventPayloads,
  isIssue,
  legacyEventState,
  storedDates,
  touchesDates,
  type ConvertOptions,
  type Declared,
  type Json,
  type SplitPayloads,
  type StoredDates,
} from './inputs.ts';
import { allBatchable, type WriteRequest } from '../upstream/batch.ts';
import type { Target, WriteMethod } from '../namespaces/calendar/write-requests.ts';
import type { SiteInfo } from '../upstream/discovery.ts';
import { chooseInterface, chosenOr } from '../namespaces/calendar/choose.ts';
import { NAMESPACE, offers, other, type Iface } from '../namespaces/calendar/vocabulary.ts';
import { GatewayError } from '../errors.ts';
import type { AnyInput, AnyModel, CalendarKind, KindSpec } from './kinds.ts';
import { inputError, issuesAt, notAppliedError, type ItemError, type Problem } from './results.ts';

/**
 * Most items one bulk mutation takes: 20 batches of 25 (WordPress's default
 * `/batch/v1` limit), so one mutation stays a bounded amount of work.
 */
export const MAX_BULK_ITEMS = 500;

type Via = WriteInterface | null | undefined;
type MethodArg = UpdateMethod | null | undefined;

/** One item of a write, as planned: what is written, through which route, and where it sits in the arguments. */
export interface Job<I extends AnyInput> {
  readonly index: number;
  /** Where the item is in the arguments (`["inputs", "3"]`), where its fields are, and where its ID is. */
  readonly itemPath: string[];
  readonly fieldPrefix: string[];
  readonly idPath: string[];
  /** null: a delete. */
  readonly input: I | null;
  readonly target: Target | null;
  readonly api: Iface;
  readonly method: WriteMethod;
  readonly query: Record<string, string | number | boolean> | null;
  /** What the routes this job writes through declare (root index), per interface. */
  readonly declared: Declared;
}

/** The planning stage's result: a job, and every problem the gateway saw in it (then it is not sent). */
export interface Planned<I extends AnyInput> {
  readonly job: Job<I>;
  readonly error: ItemError | null;
}

// ---------------------------------------------------------------------------
// Choosing the interface

/** The interface chosen (or asked for with `via`) must be one the site has: said before anything is read or sent. */
export function needNamespace(site: SiteInfo, api: Iface): void {
  if (!offers(site, api))
    throw GatewayError.badInput(`This write needs ${NAMESPACE[api]}, which this site does not offer.`, {
      arguments: ['via'],
    });
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
 * POST updates), `via: CORE` and `force: true` are calendar-core. The rule is
 * the calendar's one interface choice (namespaces/calendar/choose.ts), given
 * those pins; `preferLegacy` (trashing deletes) turns the default round: the
 * legacy DELETE answers the trashed object, calendar-core's answers `[]`
 * (docs/ARCHITECTURE.md "A write").
 */
export function chooseApi(site: SiteInfo, via: Via, opts: ApiOptions = {}): Iface {
  const legacyOnly = opts.slug ? 'idType: SLUG' : opts.method === 'POST' ? 'method: POST' : null;
  const pins = (...xs: (string | false | null)[]) => xs.filter((x): x is string => Boolean(x));
  const c = chooseInterface(site, {
    only: {
      legacy: pins(legacyOnly, via === 'LEGACY' && 'via: LEGACY'),
      core: pins(via === 'CORE' && 'via: CORE', opts.force === true && 'force: true'),
    },
    prefer: opts.preferLegacy && !opts.force ? 'legacy' : 'core',
  });
  if (!('refused' in c)) return c.iface;
  const forceError = () =>
    GatewayError.badInput(
      `force: true needs ${NAMESPACE.core} and an ID (legacy deletes always trash)${site.hasCore ? '' : `; this site does not offer ${NAMESPACE.core}`}.`,
      { arguments: ['force'] },
    );
  switch (c.refused) {
    case 'conflict':
      if (via === 'CORE' && legacyOnly)
        throw GatewayError.badInput(`${legacyOnly} uses the legacy interface; it cannot go through via: CORE.`, {
          arguments: ['via'],
        });
      throw forceError();
    case 'absent':
      if (opts.force) throw forceError();
      needNamespace(site, c.needs);
      break;
    case 'neither':
    case 'undeclared':
      needNamespace(site, 'legacy');
      break;
  }
  throw new TypeError(`chooseApi: ${c.refused} refused without an error`);
}

/**
 * The interface of a bulk delete: trashing deletes go through the legacy
 * interface where the site has it (its DELETE answers the trashed object in
 * the same request), except atomic ones on a site that batches
 * calendar-core deletes, which need /batch/v1.
 */
export function deleteManyApi<I extends AnyInput, M extends AnyModel>(
  site: SiteInfo,
  spec: KindSpec<I, M>,
  via: Via,
  force: boolean,
  atomic: boolean,
): Iface {
  const coreBatches = site.hasCore && allBatchable(site, [spec.request('core', 'DELETE', { id: 1 })]);
  return chooseApi(site, via, { force, preferLegacy: !(atomic && coreBatches) });
}

/** WordPress never lets an anonymous caller write; refusing here sends nothing. */
export function needAuth(session: { authenticated: boolean }): void {
  if (!session.authenticated)
    throw GatewayError.unauthenticated('Writes need credentials: send an Authorization header (application password).');
}

export function checkBulkSize(n: number, arg: string): void {
  if (n > MAX_BULK_ITEMS)
    throw GatewayError.badInput(`${arg}: at most ${MAX_BULK_ITEMS} items per mutation; got ${n}.`, {
      arguments: [arg],
      max: MAX_BULK_ITEMS,
    });
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

// ---------------------------------------------------------------------------
// Declared arguments (docs/writes.md "Declared spellings")

/** The method of a follow-up (or a repair) through the other interface (vocabulary.ts `other`). */
export const followMethod = (api: Iface): WriteMethod => (api === 'legacy' ? 'POST' : 'PATCH');

/**
 * The argument names the site's root index declares for the route a write
 * request goes to; null when the index does not describe it (then the spec's
 * names are sent); an empty set when the site has no such interface.
 */
export function routeDeclared<I extends AnyInput, M extends AnyModel>(
  site: SiteInfo,
  api: Iface,
  spec: KindSpec<I, M>,
  method: WriteMethod,
  target: Target | null,
): ReadonlySet<string> | null {
  if (spec.verify === 'views' && !offers(site, api)) return new Set();
  const { path } = spec.request(api, method, target);
  const route = site.routes.find((r) => r.re?.test(path) && r.methods.includes(method));
  const names = route?.args[method];
  return names ? new Set(names) : null;
}

/** What the job's own route declares, and the other interface's follow-up route. */
export function jobDeclared<I extends AnyInput, M extends AnyModel>(
  site: SiteInfo,
  spec: KindSpec<I, M>,
  api: Iface,
  method: WriteMethod,
  target: Target | null,
): Declared {
  const mine = routeDeclared(
    site,
    api,
    spec,
    method,
    target && 'slug' in target && api === 'core' ? { id: 1 } : target,
  );
  // A kind of one interface has no follow-up route.
  if (spec.verify === 'answer') return { [api]: mine };
  const alt = other(api);
  const theirs = routeDeclared(site, alt, spec, followMethod(alt), { id: 1 });
  return api === 'core' ? { core: mine, legacy: theirs } : { legacy: mine, core: theirs };
}

/** The route label a field would go to through `api` (for messages). */
export function routeLabel<I extends AnyInput, M extends AnyModel>(
  api: Iface,
  spec: KindSpec<I, M>,
  method: WriteMethod,
  target: Target | null,
): string {
  return spec.request(api, method, api === 'core' && target && 'slug' in target ? { id: 1 } : target).route;
}

/** Fields neither route of the write declares: never sent, each a problem naming the routes. */
function undeclaredProblems<I extends AnyInput, M extends AnyModel>(
  site: SiteInfo,
  spec: KindSpec<I, M>,
  job: Job<I>,
  input: I,
  reported: ReadonlySet<string>,
): Problem[] {
  const split = spec.payloads(input, job.api, { siteZone: site.timezone, declared: job.declared });
  const alt = other(job.api);
  const routes = [
    routeLabel(job.api, spec, job.method, job.target),
    ...(spec.verify === 'views' && offers(site, alt) ? [routeLabel(alt, spec, followMethod(alt), { id: 1 })] : []),
  ];
  return (split.undeclared ?? [])
    .filter((f) => !reported.has(f))
    .map((field) => ({
      path: [...job.fieldPrefix, field],
      message: `${field}: this site does not declare it on ${routes.join(' nor on ')} (WordPress would drop it without a word), so nothing was sent.`,
    }));
}

/** A create or update job, every problem of its input found (payloads come after the reads). */
export function writeJob<I extends AnyInput, M extends AnyModel>(
  site: SiteInfo,
  spec: KindSpec<I, M>,
  index: number,
  paths: Paths,
  input: I,
  target: Target | null,
  api: Iface,
  method: WriteMethod,
  more: Problem[] = [],
): Planned<I> {
  const job: Job<I> = {
    index,
    itemPath: paths.item,
    fieldPrefix: paths.fields,
    idPath: paths.id,
    input,
    target,
    api,
    method,
    query: null,
    declared: jobDeclared(site, spec, api, method, target),
  };
  // An update whose ID is unusable (a problem in `more`) is still checked as an update.
  const create = target === null && method === 'POST' && more.length === 0;
  const problems = [...more, ...issuesAt(spec.validate(input, { create, api, site }), paths.fields)];
  const reported = new Set(
    problems.filter((p) => p.path.length === paths.fields.length + 1).map((p) => p.path[p.path.length - 1]!),
  );
  const undeclared = undeclaredProblems(site, spec, job, input, reported);
  // Only fields the site cannot store: the write is not applied (and nothing was sent); with other problems, they are
  // listed with them.
  if (undeclared.length && !problems.length)
    return { job, error: notAppliedError(undeclared, paths.item, (f) => (input as Record<string, unknown>)[f]) };
  if (problems.length || undeclared.length) return { job, error: inputError([...problems, ...undeclared]) };
  return { job, error: null };
}

export function createJobs<I extends AnyInput, M extends AnyModel>(
  site: SiteInfo,
  spec: KindSpec<I, M>,
  inputs: readonly I[],
  api: Iface,
): Planned<I>[] {
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
export function updateJobs<I extends AnyInput, M extends AnyModel>(
  site: SiteInfo,
  spec: KindSpec<I, M>,
  items: readonly { id: string; input: I }[],
  api: Iface,
  method: WriteMethod,
): Planned<I>[] {
  const seen = new Map<number, number>();
  return items.map((x, i) => {
    const item = ['inputs', String(i)];
    const paths = { item, fields: [...item, 'input'], id: [...item, 'id'] };
    const target = targetOf(x.id, 'ID', spec.type);
    const more: Problem[] = [];
    if (!target) more.push({ path: paths.id, message: idMessage(x.id, spec.type) });
    else if ('id' in target) {
      const first = seen.get(target.id);
      if (first !== undefined)
        more.push({
          path: paths.id,
          message: `${spec.type} ${target.id} is already updated by inputs.${first}: give each object once (merge the inputs).`,
        });
      else seen.set(target.id, i);
    }
    return writeJob(site, spec, i, paths, x.input, target, api, method, more);
  });
}

export function deleteJobs<I extends AnyInput, M extends AnyModel>(
  spec: KindSpec<I, M>,
  ids: readonly string[],
  api: Iface,
  force: boolean,
): Planned<I>[] {
  return ids.map((id, i): Planned<I> => {
    const itemPath = ['ids', String(i)];
    const target = targetOf(id, 'ID', spec.type);
    const job = deleteJob<I>(i, { item: itemPath, fields: itemPath, id: itemPath }, target, api, force);
    return { job, error: target ? null : inputError([{ path: itemPath, message: idMessage(id, spec.type) }]) };
  });
}

/** A delete's job: trash, or with `force` delete for good. */
export function deleteJob<I extends AnyInput>(
  index: number,
  paths: Paths,
  target: Target | null,
  api: Iface,
  force: boolean,
): Job<I> {
  return {
    index,
    itemPath: paths.item,
    fieldPrefix: paths.fields,
    idPath: paths.id,
    input: null,
    target,
    api,
    method: 'DELETE',
    query: force ? { force: true } : null,
    declared: {},
  };
}

/**
 * An update none of whose fields goes through its interface (only
 * legacy-only fields through calendar-core, or the other way round) is sent
 * through the other interface alone: one write instead of an empty one and a
 * follow-up (an empty calendar-core PATCH still resets what 6.15.14 resets).
 * Not for atomic writes, whose routes were checked as they were planned.
 */
export function throughOther<I extends AnyInput, M extends AnyModel>(
  site: SiteInfo,
  spec: KindSpec<I, M>,
  planned: Planned<I>,
): Planned<I> {
  const { job } = planned;
  if (spec.verify === 'answer' || planned.error || !job.input || !job.target || job.method === 'DELETE') return planned;
  const alt = other(job.api);
  if (alt === 'core' && (job.method === 'POST' || 'slug' in job.target)) return planned;
  const p = spec.payloads(job.input, job.api, { siteZone: site.timezone, declared: job.declared });
  if (Object.keys(p.primary).length || !p.secondary || p.undeclared?.length) return planned;
  return { job: { ...job, api: alt, declared: jobDeclared(site, spec, alt, job.method, job.target) }, error: null };
}

/** The requests an atomic write would send, for `checkAtomic` (what it needs is checked before anything is read). */
export function atomicRequests<I extends AnyInput, M extends AnyModel>(
  spec: KindSpec<I, M>,
  planned: readonly Planned<I>[],
): WriteRequest[] {
  return planned.map(({ job: j }) =>
    spec.request(
      j.api,
      j.method,
      j.target ?? (j.method === 'POST' ? null : { id: 0 }),
      undefined,
      j.query ?? undefined,
    ),
  );
}

/** The ID a target names, if it names one (slugs do not). */
export function databaseIdOfTarget(target: Target | null): number | null {
  return target && 'id' in target ? target.id : null;
}

// ---------------------------------------------------------------------------
// Reads and payloads

const NO_DATES: StoredDates = { start: null, end: null, timezone: null };

export function convertOptions<I extends AnyInput, M extends AnyModel>(
  siteZone: string,
  spec: CalendarKind<I, M>,
  input: I | null,
  eventZone?: string | null,
): ConvertOptions {
  const tz = input ? spec.asEvent(input)?.timezone : undefined;
  return { siteZone, eventZone: tz || eventZone || siteZone };
}

/**
 * What a job must read before it is sent, and through which interface:
 *
 * - every update reads the object's stored state: what the caller does not
 *   set must keep its value, and the verification after the write compares
 *   with it (docs/writes.md "Verification"). Events and venues are read
 *   through the legacy interface where the site has it: it shows the fields
 *   only it serves (`showMap`, `website`, ...), which a calendar-core PATCH
 *   may reset (6.15.14 does), and the legacy update needs the complete state
 *   anyway (it resets what it omits). Organizers show the same fields through
 *   both: they are read through the interface written;
 * - a calendar-core delete answers `[]`, so the object is read first.
 */
export function readFor<I extends AnyInput, M extends AnyModel>(
  site: SiteInfo,
  spec: CalendarKind<I, M>,
  job: Job<I>,
): Iface | null {
  if (!job.target) return null;
  if (job.method === 'DELETE') return job.api === 'core' ? 'core' : null;
  // calendar-core/v1 has no by-slug routes.
  if ('slug' in job.target) return 'legacy';
  if (spec.readThrough === 'written') return job.api;
  return chosenOr(chooseInterface(site, { prefer: 'legacy' }), 'core');
}

/**
 * Adds to a calendar-core update payload what 6.15.14 resets when omitted (the kind's `coreResets`, docs/writes.md
 * "Resets"), as stored (`state`: the legacy state of the stored object).
 */
export function withCoreResets(resets: readonly string[], payload: Json, state: Json): Json {
  for (const k of resets) if (!(k in payload) && state[k] !== undefined) payload[k] = state[k];
  return payload;
}

/**
 * Drops what the route does not declare from what the gateway adds itself (the stored state); the caller's fields were
 * routed before.
 */
export function onlyDeclared(
  payload: Json,
  declared: ReadonlySet<string> | null | undefined,
  asked: ReadonlySet<string>,
): Json {
  if (!declared) return payload;
  return Object.fromEntries(Object.entries(payload).filter(([k]) => declared.has(k) || asked.has(k)));
}

/** A create or update's payloads, and the event's legacy state as read before (for a legacy follow-up), if read. */
export interface Completed {
  payloads: SplitPayloads;
  legacyState: Json | null;
}

/**
 * A create or update job's payloads once its reads are in (`body`: the
 * stored object, read through `read`): a legacy event update carries the
 * complete state; a calendar-core one that touches a date, both dates and the
 * duration. Returns the problems found instead when the dates do not add up.
 * The legacy state is kept when a legacy follow-up will need it.
 */
export function completePayloads<I extends AnyInput, M extends AnyModel>(
  siteZone: string,
  spec: CalendarKind<I, M>,
  job: Job<I>,
  read: Iface | null,
  body: unknown,
): Completed | Problem[] {
  const input = job.input!;
  const event = spec.asEvent(input);
  const stored = body === undefined ? NO_DATES : storedDates(body);
  const o = { ...convertOptions(siteZone, spec, input, stored.timezone), declared: job.declared };
  const p = spec.payloads(input, job.api, o);
  const asked = new Set(Object.keys(p.primary));
  let legacyState: Json | null = null;
  if (event && job.target) {
    const state = body === undefined ? {} : legacyEventState(body, read ?? 'legacy');
    if (job.api === 'legacy') {
      const full = completeLegacyUpdate([state], p.primary, event, stored, o);
      if (isIssue(full)) return issuesAt([full], job.fieldPrefix);
      p.primary = full;
    } else {
      if (touchesDates(event)) {
        const issue = completeCoreDates(p.primary, event, stored, o);
        if (issue) return issuesAt([issue], job.fieldPrefix);
        for (const k of ['start_date', 'end_date', 'duration']) asked.add(k);
      }
      withCoreResets(spec.coreResets, p.primary, state);
      if (read === 'legacy') legacyState = state;
    }
  }
  p.primary = onlyDeclared(p.primary, job.declared[job.api], asked);
  // A new event has no website: "" needs no sending (the legacy interface refuses it as a URL).
  if (!job.target && job.api === 'legacy' && p.primary.website === '') delete p.primary.website;
  return { payloads: p, legacyState };
}

/**
 * The payload of a legacy follow-up after a calendar-core write of the same
 * event: it too must carry the complete state (the legacy update resets what
 * it omits). The core answer is the freshest copy of what core serves; what
 * only the legacy interface has comes from the read before the write (none
 * for a create: a new event has the defaults the reset would give).
 */
export function legacyFollowUp(
  job: { legacyState: Json | null; declared: Declared },
  input: EventInput,
  coreBody: unknown,
  second: Json,
  o: ConvertOptions,
): Json {
  const layers = [...(job.legacyState ? [job.legacyState] : []), legacyEventState(coreBody, 'core')];
  // The core answer already has the final dates and zone: the caller's were written there.
  const rest: EventInput = {
    ...input,
    startDate: undefined,
    endDate: undefined,
    duration: undefined,
    timezone: undefined,
  };
  const full = completeLegacyUpdate(layers, second, rest, storedDates(coreBody), o);
  return onlyDeclared(isIssue(full) ? second : full, job.declared.legacy, new Set(Object.keys(second)));
}

/**
 * The payload of a legacy event update that repairs an event after the
 * writes of an item (docs/writes.md "Repairs"): the complete state, as the
 * caller's input would have sent it through the legacy interface, completed
 * from the state read before (or, for a new event, the latest answer). The
 * objects the input created inline (a venue, organizers, a side-loaded image)
 * are not sent again: their IDs come from the latest answer.
 */
export function legacyRepair(
  site: SiteInfo,
  input: EventInput,
  declared: Declared | undefined,
  base: Json,
  latest: Json,
  stored: StoredDates,
): Json | null {
  const o: ConvertOptions = {
    siteZone: site.timezone,
    eventZone: input.timezone || stored.timezone || site.timezone,
    declared,
  };
  const inline = Boolean(input.venue || input.organizers?.length || input.featuredImageUrl);
  const plain: EventInput = { ...input, venue: undefined, organizers: undefined, featuredImageUrl: undefined };
  const payload = eventPayloadsFor(plain, o);
  const layers = [
    base,
    inline
      ? Object.fromEntries(['venue', 'organizer', 'image'].filter((k) => k in latest).map((k) => [k, latest[k]]))
      : {},
  ];
  const full = completeLegacyUpdate(layers, payload, plain, stored, o);
  if (isIssue(full)) return null;
  return onlyDeclared(full, declared?.legacy, new Set());
}

function eventPayloadsFor(input: EventInput, o: ConvertOptions): Json {
  // Every field the legacy route declares; none goes anywhere else here.
  const legacyOnly = { ...o, declared: { ...o.declared, core: new Set<string>() } };
  return eventPayloads(input, 'legacy', legacyOnly).primary;
}
