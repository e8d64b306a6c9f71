/**
 * The write engine (schema/writes.graphql, schema/content.graphql; docs/ARCHITECTURE.md "Writes"), one for every
 * kind (writes/kinds.ts: events, venues, organizers, categories, tags, posts), single, bulk and atomic. A write goes
 * through six stages, each taking the previous one's result and returning its own type; an item that stops at a stage
 * becomes a `Stopped` item carrying its error, and is not sent:
 *
 * 1. planned (writes/plan.ts `Planned`): the validated input, target, interface, method, the routes' declared
 *    arguments; what `atomic` needs is checked before any request;
 * 2. locked (`Locked`): every object updated or deleted by ID is locked (store/lock.ts: one write of an object at a
 *    time, across instances through Redis); a slug is resolved to its ID first;
 * 3. prepared (`Prepared`): the one level of reads the writes depend on (writes/reads.ts: the stored state of every
 *    update, referenced objects, the object a calendar-core delete will not return), then the payloads;
 * 4. sent (`Sent`): the primary write requests, through /batch/v1 where the site allows (upstream/batch.ts), else
 *    directly; each answer the site gave is published to subscribers at once (before anything else is read or sent:
 *    a poll must not see the change first);
 * 5. reconciled (`Reconciled`): writes whose answer was lost are settled by reading the site back
 *    (writes/reconcile.ts), where the kind declares how; those found written are published then;
 * 6. checked (`Checked`): for items whose input spans both interfaces, a follow-up through the other interface; every
 *    create and update checked against what the site kept (writes/check.ts for the calendar's posts, the answer
 *    against the input for terms and posts), repaired once where it can be; WRITE_NOT_APPLIED where it still
 *    differs; a missing object is NOT_FOUND whatever the site said.
 *
 * Then the per-item results in input order (writes/results.ts); the locks released. Loaders are cleared and re-primed
 * with what the site answered, so payload selections show the written state, and a later state than the one
 * published (a follow-up, a repair) is published as a merge (the subscriptions' ledger records it without a second
 * delivery). docs/writes.md says what is verified and serialized, and what it costs.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from '../context.ts';
import type { Json } from './inputs.ts';
import { UpstreamShapeError } from '../mapping/json.ts';
import { checkAtomic, sendOne, sendWrites, type WriteOutcome, type WriteRequest } from '../upstream/batch.ts';
import type { Target, WriteMethod } from '../namespaces/calendar/write-requests.ts';
import { NAMESPACE, other, type Iface } from '../namespaces/calendar/vocabulary.ts';
import { GatewayError } from '../errors.ts';
import { checkWrites, type Written } from './check.ts';
import { idOfBody, type AnyInput, type AnyModel, type CalendarKind, type KindSpec } from './kinds.ts';
import { lockKey, type HeldLocks } from '../store/lock.ts';
import {
  atomicRequests,
  completePayloads,
  convertOptions,
  databaseIdOfTarget,
  legacyFollowUp,
  readFor,
  throughOther,
  type Job,
  type Planned,
} from './plan.ts';
import {
  absent,
  ambiguous,
  checkReferences,
  confirmAbsent,
  notFoundError,
  readState,
  readStates,
  refMessage,
  stateKey,
  type RefProblem,
  type StateRead,
} from './reads.ts';
import { reconcile, type Unsure } from './reconcile.ts';
import {
  failedItem,
  inputError,
  notExecuted,
  notKeptError,
  siteError,
  unknownError,
  upstreamOf,
  type ItemError,
  type ItemResult,
  type Problem,
} from './results.ts';
import type { SplitPayloads } from './inputs.ts';

// ---------------------------------------------------------------------------
// The stages' results

/** An item that will not be sent (or not further): why, and the ID it names, if known. */
export interface Stopped<I extends AnyInput> {
  readonly stage: 'stopped';
  readonly job: Job<I>;
  readonly error: ItemError;
  /** The object's ID when the target is a slug that was resolved (for the not-found rule). */
  readonly lockId: number | null;
}

/** Locked: the object's lock is held (`lockId`: the ID locked; null for a create, or a delete by slug). */
export interface Locked<I extends AnyInput> {
  readonly stage: 'locked';
  readonly job: Job<I>;
  readonly lockId: number | null;
}

/** Prepared: what was read before the write (through `read`), and the payloads (null for a delete). */
export interface Prepared<I extends AnyInput> {
  readonly stage: 'prepared';
  readonly job: Job<I>;
  readonly lockId: number | null;
  readonly read: Iface | null;
  readonly stored: StateRead | null;
  readonly payloads: SplitPayloads | null;
  /** The event's legacy state as read before the write (for a legacy follow-up after a core update). */
  readonly legacyState: Json | null;
}

/** Sent: the site's first answer to the primary write (an unknown outcome until reconciled). */
export interface Sent<I extends AnyInput> {
  readonly stage: 'sent';
  readonly prepared: Prepared<I>;
  readonly outcome: WriteOutcome;
  /** `Date.now()` just before the request was sent. */
  readonly startedAt: number;
  /** Whether subscribers were told of it. */
  readonly published: boolean;
}

/** Reconciled: a lost answer settled by reading back (written: the object as read) or left unknown, saying why. */
export interface Reconciled<I extends AnyInput> {
  readonly stage: 'reconciled';
  readonly prepared: Prepared<I>;
  readonly outcome: WriteOutcome;
  readonly published: boolean;
}

/** Checked: the item's result, and the answers about its object the loaders are settled with. */
export interface Checked<I extends AnyInput, M extends AnyModel> {
  readonly stage: 'checked';
  readonly job: Job<I>;
  readonly result: ItemResult<M>;
  /** What the site answered about the object (writes, reads back), oldest first; the latest wins. */
  readonly answers: readonly M[];
  readonly published: boolean;
}

type Item<S, I extends AnyInput> = S | Stopped<I>;

const live = <S extends { stage: string }, I extends AnyInput>(xs: readonly Item<S, I>[]): S[] =>
  xs.filter((x): x is S => x.stage !== 'stopped');
const stoppedAny = <I extends AnyInput>(xs: readonly { stage: string }[]): boolean =>
  xs.some((x) => x.stage === 'stopped');

function stop<I extends AnyInput>(job: Job<I>, error: ItemError, lockId: number | null = null): Stopped<I> {
  return { stage: 'stopped', job, error, lockId };
}

// ---------------------------------------------------------------------------
// Which mutations run the engine (test/e2e/mutations-engine.test.ts walks the schema's Mutation type)

interface EngineScope {
  field: string;
  ran: boolean;
}

const scope = new AsyncLocalStorage<EngineScope>();
const RESOLVERS = new WeakSet<object>();
/** The mutation fields that ran the engine in this process (what the test reads). */
export const ENGINE_RUNS = new Set<string>();

/**
 * A mutation resolver that writes through the engine: it runs in a scope the engine marks; one that answers without
 * running it (and without refusing the call first) is a bug, answered as an internal error rather than a success.
 */
export function engineMutation<P, A, R>(
  fn: (parent: P, args: A, ctx: Context, info: { fieldName: string }) => Promise<R>,
): (parent: P, args: A, ctx: Context, info: { fieldName: string }) => Promise<R> {
  const wrapped = async (parent: P, args: A, ctx: Context, info: { fieldName: string }): Promise<R> => {
    const s: EngineScope = { field: info.fieldName, ran: false };
    const out = await scope.run(s, () => fn(parent, args, ctx, info));
    // A bug, not the caller's: answered as an internal error.
    if (!s.ran) throw new Error(`${info.fieldName} answered without running the write engine.`);
    return out;
  };
  RESOLVERS.add(wrapped);
  return wrapped;
}

/** Whether a resolver was made by `engineMutation`. */
export function isEngineMutation(fn: unknown): boolean {
  return typeof fn === 'function' && RESOLVERS.has(fn);
}

// ---------------------------------------------------------------------------
// Loaders: what the site answered replaces what the request had read

/** What the site answered about an object replaces what the request had read; the latest copy wins. */
function settle<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  id: number,
  models: readonly M[],
): void {
  spec.clear(ctx, id);
  // A loader keeps the first value primed for a key: the latest first.
  for (const m of [...models].reverse()) spec.prime(ctx, m);
}

function fromGateway(e: GatewayError, path: string[]): ItemError {
  return { code: e.code, message: e.message, path, upstream: upstreamOf(e) };
}

/** Each item's result when the write stops before sending: its own problems, else NOT_EXECUTED. */
function shortCircuit<I extends AnyInput, M>(items: readonly { stage: string; job: Job<I> }[]): ItemResult<M>[] {
  return items.map((x) => ({
    index: x.job.index,
    databaseId: databaseIdOfTarget(x.job.target),
    model: null,
    error: 'error' in x && x.stage === 'stopped' ? (x as Stopped<I>).error : notExecuted(x.job.itemPath),
  }));
}

const changeOf = (job: Job<AnyInput>) => (job.method === 'DELETE' ? 'DELETED' : job.target ? 'UPDATED' : 'CREATED');
const opOf = (job: Job<AnyInput>) => (job.target ? (job.method === 'DELETE' ? 'delete' : 'update') : 'create');

// ---------------------------------------------------------------------------
// 2. Locked (store/lock.ts)

/**
 * Locks every object the jobs update or delete by ID, and every object an update names by slug (its ID from a fresh
 * read of the slug: one more read, before the lock). A job whose lock cannot be had fails with WRITE_LOCK_TIMEOUT and
 * is not sent.
 */
async function lock<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  planned: readonly Planned<I>[],
): Promise<{ items: Item<Locked<I>, I>[]; held: HeldLocks }> {
  const items: Item<Locked<I>, I>[] = await Promise.all(
    planned.map(async ({ job, error }): Promise<Item<Locked<I>, I>> => {
      if (error) return stop(job, error);
      const t = job.target;
      if (!t) return { stage: 'locked', job, lockId: null };
      if ('id' in t) return { stage: 'locked', job, lockId: t.id };
      // By slug (calendar kinds only): deletes go unlocked, rather than read once more.
      if (job.method === 'DELETE' || spec.verify !== 'views') return { stage: 'locked', job, lockId: null };
      const r = await readState(ctx, 'legacy', spec.kind, t);
      const id = r.ok ? idOfBody(r.body) : null;
      if (id !== null && id > 0) return { stage: 'locked', job, lockId: id };
      if (!r.ok)
        return stop(
          job,
          absent(r.error)
            ? fromGateway(notFoundError(r.error, spec.label, t), job.idPath)
            : fromGateway(r.error, job.idPath),
        );
      return { stage: 'locked', job, lockId: null };
    }),
  );
  const keyOf = new Map<string, number[]>();
  items.forEach((x, k) => {
    if (x.stage !== 'locked' || x.lockId === null) return;
    const key = lockKey(spec.kind, x.lockId);
    keyOf.set(key, [...(keyOf.get(key) ?? []), k]);
  });
  const held = await ctx.locks.acquire([...keyOf.keys()]);
  for (const f of held.failed) {
    for (const k of keyOf.get(f.key) ?? []) {
      const x = items[k] as Locked<I>;
      const what = `${spec.label} ${x.lockId}`;
      const message =
        f.reason === 'store'
          ? `Not written: the lock of ${what} could not be taken: Redis (REDIS_URL) did not answer within ${f.waitedMs} ms (WRITE_LOCK_WAIT_MS). Nothing was sent; send it again.`
          : `Not written: another write of ${what} held its lock for more than ${f.waitedMs} ms (WRITE_LOCK_WAIT_MS). Nothing was sent; send it again.`;
      items[k] = stop(x.job, { code: 'WRITE_LOCK_TIMEOUT', message, path: x.job.idPath, upstream: null }, x.lockId);
    }
  }
  return { items, held };
}

// ---------------------------------------------------------------------------
// 3. Prepared

/**
 * The one level of reads the writes depend on (`readFor`, and every venue, organizer, category and tag an event input
 * references: calendar-core/v1 6.15 writes whatever IDs it is given), then the payloads. Every problem found stops its
 * item. Kinds verified by their answer read nothing first.
 */
async function prepare<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  items: readonly Item<Locked<I>, I>[],
): Promise<Item<Prepared<I>, I>[]> {
  if (spec.verify === 'answer')
    return items.map((x) =>
      x.stage === 'stopped'
        ? x
        : {
            stage: 'prepared',
            job: x.job,
            lockId: x.lockId,
            read: null,
            stored: null,
            payloads: x.job.input ? spec.payloads(x.job.input, x.job.api, { siteZone: ctx.site.timezone }) : null,
            legacyState: null,
          },
    );
  return prepareCalendar(ctx, spec, items);
}

async function prepareCalendar<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: CalendarKind<I, M>,
  items: readonly Item<Locked<I>, I>[],
): Promise<Item<Prepared<I>, I>[]> {
  const zone = ctx.site.timezone;
  const reads = new Map<Locked<I>, Iface>();
  for (const x of live(items)) {
    const api = readFor(ctx.site, spec, x.job);
    if (api) reads.set(x, api);
  }
  const wanted = [...reads].flatMap(([x, api]) =>
    x.job.target ? [{ api, kind: spec.kind, target: x.job.target }] : [],
  );
  const refInputs = live(items).flatMap((x) => {
    const event = x.job.method !== 'DELETE' && x.job.input ? spec.asEvent(x.job.input) : null;
    return event ? [{ key: x.job.index, input: event }] : [];
  });
  const [states, refs] = await Promise.all([
    wanted.length ? readStates(ctx, wanted) : new Map<string, StateRead>(),
    refInputs.length ? checkReferences(ctx, refInputs) : new Map<number, RefProblem[]>(),
  ]);
  const storedOf = (x: Locked<I>): StateRead | null => {
    const api = reads.get(x);
    return api && x.job.target ? (states.get(stateKey(api, spec.kind, x.job.target)) ?? null) : null;
  };

  // A calendar-core read refused ambiguously (its 403 for a missing ID): a legacy read tells.
  const unsure = live(items).flatMap((x) => {
    const s = storedOf(x);
    const id = databaseIdOfTarget(x.job.target);
    return x.job.method !== 'DELETE' && s && !s.ok && ambiguous(s.error) && id !== null ? [id] : [];
  });
  const gone = unsure.length ? await confirmAbsent(ctx, spec.kind, unsure) : new Set<number>();

  return items.map((x): Item<Prepared<I>, I> => {
    if (x.stage === 'stopped') return x;
    const { job } = x;
    const read = reads.get(x) ?? null;
    const stored = storedOf(x);
    const base = { stage: 'prepared' as const, job, lockId: x.lockId, read, stored };
    if (job.method === 'DELETE') return { ...base, payloads: null, legacyState: null };
    const problems: Problem[] = (refs.get(job.index) ?? []).map((p) => ({
      path: [...job.fieldPrefix, p.field],
      message: refMessage(p),
    }));
    if (stored && !stored.ok) {
      // Without the stored state the payload cannot be made: the input's own problems come first.
      const e = stored.error;
      const missing = job.target && (absent(e) || gone.has(databaseIdOfTarget(job.target) ?? 0));
      const error: ItemError = problems.length
        ? inputError(problems)
        : missing
          ? {
              ...fromGateway(notFoundError(e, spec.label, job.target!), job.idPath),
              message: `Not written: ${notFoundError(e, spec.label, job.target!).message}`,
            }
          : {
              code: e.code,
              message: `Not written: the ${spec.label}'s stored state, which this update must send, could not be read: ${e.message}`,
              path: job.idPath,
              upstream: upstreamOf(e),
            };
      return stop(job, error, x.lockId);
    }
    const p = completePayloads(zone, spec, job, read, stored?.ok ? stored.body : undefined);
    if (Array.isArray(p)) problems.push(...p);
    if (problems.length || Array.isArray(p)) return stop(job, inputError(problems), x.lockId);
    return { ...base, payloads: p.payloads, legacyState: p.legacyState };
  });
}

// ---------------------------------------------------------------------------
// Sending (the primary writes, the follow-ups, the repairs)

/** One write request of an item, as reconciliation needs it. */
interface Out<I extends AnyInput> {
  job: Job<I>;
  api: Iface;
  method: WriteMethod;
  target: Target | null;
  payload: Json | undefined;
  stored: StateRead | null;
}

/**
 * A 2xx answer that is not what the write answers (the object written; a calendar-core delete's `[]`) says the site
 * did something, but not what: the outcome is unknown, as if the answer had been lost.
 */
function readable<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  out: Out<I>,
  o: WriteOutcome,
  route: string,
): WriteOutcome {
  if (!o.ok) return o;
  let fine: boolean;
  try {
    if (out.method === 'DELETE')
      fine =
        spec.deleted(
          out.api,
          o.body,
          Boolean(out.job.query?.force),
          out.stored?.ok ? out.stored.body : undefined,
          ctx.site.timezone,
        ) !== null;
    else {
      spec.model(out.api, o.body, ctx.site.timezone);
      fine = true;
    }
  } catch (err) {
    if (!(err instanceof UpstreamShapeError)) throw err;
    fine = false;
  }
  if (fine) return o;
  const error = new GatewayError(
    'UPSTREAM_BAD_RESPONSE',
    `Bad upstream response (${route}): a ${o.status} whose body is not what this write answers.`,
    { upstream: { code: null, status: o.status, route } },
  );
  return { ok: false, error, batched: o.batched, unknown: true };
}

/** Sends requests (a lone one directly: a batch of one adds an envelope and nothing else) and checks the answers. */
async function send<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  outs: readonly Out<I>[],
  reqs: WriteRequest[],
  atomic: boolean,
): Promise<WriteOutcome[]> {
  if (!reqs.length) return [];
  const outcomes =
    reqs.length === 1 && !atomic
      ? [await sendOne(ctx.upstream, reqs[0]!)]
      : await sendWrites(ctx.upstream, ctx.site, reqs, { atomic });
  return outcomes.map((o, k) => readable(ctx, spec, outs[k]!, o, reqs[k]!.route));
}

/**
 * Reconciles the outcomes that are unknown (writes/reconcile.ts), where the kind says how: each becomes an answer (the
 * object as read back) when the site shows the write happened, and stays unknown, its message saying what to check,
 * otherwise. Kinds without a reconciliation keep them unknown, with what to look for.
 */
async function settleUnknown<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  outs: readonly Out<I>[],
  outcomes: readonly WriteOutcome[],
  startedAt: number,
): Promise<WriteOutcome[]> {
  const out = [...outcomes];
  // Its result says what to look for (`firstAnswer`).
  if (spec.verify === 'answer') return out;
  const unsure: Unsure[] = [];
  const claimed = new Set<number>();
  outs.forEach((s, k) => {
    const o = out[k]!;
    if (o.ok) {
      const id = idOfBody(o.body);
      if (id !== null) claimed.add(id);
    } else if (o.unknown) {
      unsure.push({
        key: k,
        api: s.api,
        spec,
        method: s.method,
        target: s.target,
        input: s.job.input ?? undefined,
        payload: s.payload,
        force: Boolean(s.job.query?.force),
      });
    }
  });
  if (!unsure.length) return out;
  const settled = await reconcile(ctx, unsure, { startedAt, claimed });
  for (const u of unsure) {
    const o = out[u.key]!;
    const s = settled.get(u.key)!;
    if (o.ok) continue;
    if (s.written) {
      // A reconciled delete answers like the write: the trashed object (legacy) or `[]` (calendar-core, whose object
      // was read first).
      const body = u.method === 'DELETE' && (u.api === 'core' || s.body === null) ? [] : s.body;
      out[u.key] = { ok: true, status: 200, body, batched: o.batched };
    } else {
      const error = new GatewayError(o.error.code, `${o.error.message.replace(/\.$/, '')}, ${s.message}`, {
        upstream: o.error.extensions.upstream,
      });
      out[u.key] = { ...o, error };
    }
  }
  return out;
}

/** Sends, and settles what is unknown: what the follow-ups and repairs use. */
async function sendSettled<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  outs: readonly Out<I>[],
  reqs: WriteRequest[],
): Promise<WriteOutcome[]> {
  const startedAt = Date.now();
  return settleUnknown(ctx, spec, outs, await send(ctx, spec, outs, reqs, false), startedAt);
}

/** Tells subscribers of a write the site took (src/subscriptions/), with the object as answered. */
function publish<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  p: Prepared<I>,
  o: WriteOutcome,
): boolean {
  if (!o.ok || !ctx.changes) return false;
  const { job } = p;
  let id: number | null = databaseIdOfTarget(job.target);
  let model: M | null = null;
  try {
    if (job.method === 'DELETE') {
      const d = spec.deleted(
        job.api,
        o.body,
        Boolean(job.query?.force),
        p.stored?.ok ? p.stored.body : undefined,
        ctx.site.timezone,
      );
      id = id ?? d?.id ?? d?.model?.databaseId ?? null;
    } else {
      model = spec.model(job.api, o.body, ctx.site.timezone);
      id = model.databaseId;
    }
  } catch (err) {
    if (!(err instanceof UpstreamShapeError)) throw err;
  }
  if (id === null) return false;
  ctx.changes.written(spec.kind, id, changeOf(job), model);
  return true;
}

// ---------------------------------------------------------------------------
// 4. Sent, 5. Reconciled

function primaryRequest<I extends AnyInput, M extends AnyModel>(spec: KindSpec<I, M>, p: Prepared<I>): WriteRequest {
  const { job } = p;
  return spec.request(
    job.api,
    job.method,
    job.target,
    job.method === 'DELETE' ? undefined : p.payloads!.primary,
    job.query ?? undefined,
  );
}

function outOf<I extends AnyInput>(p: Prepared<I>): Out<I> {
  const { job } = p;
  return { job, api: job.api, method: job.method, target: job.target, payload: p.payloads?.primary, stored: p.stored };
}

async function sendPrimary<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  items: readonly Item<Prepared<I>, I>[],
  atomic: boolean,
): Promise<Item<Sent<I>, I>[]> {
  const ready = live(items);
  const startedAt = Date.now();
  const outcomes = await send(
    ctx,
    spec,
    ready.map(outOf),
    ready.map((p) => primaryRequest(spec, p)),
    atomic,
  );
  const sent = new Map<Prepared<I>, Sent<I>>();
  ready.forEach((p, k) => {
    const outcome = outcomes[k]!;
    // The site's first answer goes to subscribers now: a poll must not find the change before the gateway tells it.
    const published = publish(ctx, spec, p, outcome);
    sent.set(p, { stage: 'sent', prepared: p, outcome, startedAt, published });
  });
  return items.map((x) => (x.stage === 'stopped' ? x : sent.get(x)!));
}

async function reconcileSent<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  items: readonly Item<Sent<I>, I>[],
): Promise<Item<Reconciled<I>, I>[]> {
  const sent = live(items);
  const settled = await settleUnknown(
    ctx,
    spec,
    sent.map((s) => outOf(s.prepared)),
    sent.map((s) => s.outcome),
    sent[0]?.startedAt ?? Date.now(),
  );
  const out = new Map<Sent<I>, Reconciled<I>>();
  sent.forEach((s, k) => {
    const outcome = settled[k]!;
    // Found written by reading back: published now.
    const published = s.published || (s.outcome !== outcome && publish(ctx, spec, s.prepared, outcome));
    out.set(s, { stage: 'reconciled', prepared: s.prepared, outcome, published });
  });
  return items.map((x) => (x.stage === 'stopped' ? x : out.get(x)!));
}

// ---------------------------------------------------------------------------
// 6. Checked

/** An upstream error of one item: its path is the input field of the first parameter the site refused. */
function jobSiteError<I extends AnyInput, M extends AnyModel>(
  spec: KindSpec<I, M>,
  e: GatewayError,
  job: Job<I>,
  api: Iface,
): ItemError {
  return siteError(e, job.itemPath, (param) => [...job.fieldPrefix, spec.fieldOf(api, param, job.input)]);
}

/** What the site answered to each item's primary write, before follow-ups and verification. */
interface FirstAnswer<I extends AnyInput, M extends AnyModel> {
  r: Reconciled<I>;
  result: ItemResult<M>;
  /** Set for a create or update the site took: what the checks work on. */
  written: Written<I> | null;
  /** Set when the site refused the write (for the not-found rule). */
  refused: GatewayError | null;
}

function firstAnswer<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  r: Reconciled<I>,
): FirstAnswer<I, M> {
  const { job } = r.prepared;
  const o = r.outcome;
  const known = databaseIdOfTarget(job.target);
  if (!o.ok) {
    const what = `${spec.label} ${opOf(job)}`;
    // Kinds without a reconciliation say what to look for; the others' reading back said it already.
    const hint = spec.verify === 'answer' ? `; ${spec.unknownHint(!job.target)}` : '';
    const error = failedItem(o, job.itemPath, {
      unknown: (e) => `Outcome unknown: the ${what} was sent but its answer was lost (${e.message})${hint}`,
      fieldOf: (param) => [...job.fieldPrefix, spec.fieldOf(job.api, param, job.input)],
    });
    return {
      r,
      result: { index: job.index, databaseId: known, model: null, error },
      written: null,
      refused: !o.notExecuted && !o.unknown ? o.error : null,
    };
  }
  if (job.method === 'DELETE') {
    const force = Boolean(job.query?.force);
    const d = spec.deleted(
      job.api,
      o.body,
      force,
      r.prepared.stored?.ok ? r.prepared.stored.body : undefined,
      ctx.site.timezone,
    );
    const model = d?.model ?? null;
    const id = known ?? d?.id ?? model?.databaseId ?? null;
    if (id !== null) spec.clear(ctx, id);
    if (model && spec.keepDeleted(force)) spec.prime(ctx, model);
    return { r, result: { index: job.index, databaseId: id, model, error: null }, written: null, refused: null };
  }
  const model = spec.model(job.api, o.body, ctx.site.timezone);
  return {
    r,
    result: { index: job.index, databaseId: model.databaseId, model, error: null },
    written: {
      job,
      read: r.prepared.read,
      stored: r.prepared.stored,
      databaseId: model.databaseId,
      answers: [{ api: job.api, body: o.body }],
      sent: [{ api: job.api, payload: r.prepared.payloads?.primary ?? {} }],
    },
    refused: null,
  };
}

/** The follow-ups through the other interface, for the items whose input spans both (calendar kinds). */
async function followUps<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: CalendarKind<I, M>,
  firsts: readonly FirstAnswer<I, M>[],
  errors: Map<FirstAnswer<I, M>, ItemError>,
): Promise<void> {
  const follow: { f: FirstAnswer<I, M>; w: Written<I>; api: Iface; req: WriteRequest }[] = [];
  for (const f of firsts) {
    const w = f.written;
    const p = f.r.prepared;
    let second = p.payloads?.secondary;
    if (!w || !second || !p.job.input) continue;
    const api = other(p.job.api);
    const event = spec.asEvent(p.job.input);
    const body = w.answers[0]!.body;
    if (event && api === 'legacy')
      second = legacyFollowUp(
        { legacyState: p.legacyState, declared: p.job.declared },
        event,
        body,
        second,
        convertOptions(ctx.site.timezone, spec, p.job.input),
      );
    // Legacy follow-ups use POST (its canonical EDIT), core ones PATCH: only the named fields change.
    const req = spec.request(api, api === 'legacy' ? 'POST' : 'PATCH', { id: w.databaseId }, second);
    follow.push({ f, w, api, req });
  }
  if (!follow.length) return;
  const outs = follow.map((x): Out<I> => ({
    job: x.w.job,
    api: x.api,
    method: 'PATCH',
    target: { id: x.w.databaseId },
    payload: x.req.body,
    stored: null,
  }));
  const done = await sendSettled(
    ctx,
    spec,
    outs,
    follow.map((x) => x.req),
  );
  follow.forEach((x, k) => {
    const o = done[k]!;
    const ns = NAMESPACE[x.api];
    const id = x.w.databaseId;
    if (!o.ok && o.unknown) {
      errors.set(
        x.f,
        unknownError(
          o.error,
          x.w.job.itemPath,
          `Written (ID ${id}), but whether the ${ns} fields were written is unknown: the follow-up update was sent but its answer was lost (${o.error.message})`,
        ),
      );
      return;
    }
    if (o.ok) {
      x.w.answers.push({ api: x.api, body: o.body });
      x.w.sent.push({ api: x.api, payload: x.req.body ?? {} });
    } else {
      const e = jobSiteError(spec, o.error, x.w.job, x.api);
      errors.set(x.f, { ...e, message: `Written (ID ${id}), but the ${ns} fields were not: ${e.message}` });
    }
  });
}

/** Terms and posts: the write's answer compared with the input; what differs fails the item with WRITE_NOT_APPLIED. */
function checkAnswers<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M> & { verify: 'answer' },
  firsts: readonly FirstAnswer<I, M>[],
  errors: Map<FirstAnswer<I, M>, ItemError>,
): void {
  for (const f of firsts) {
    const w = f.written;
    if (!w || !w.job.input || errors.has(f)) continue;
    const answer = w.answers[0]!;
    const model = spec.model(answer.api, answer.body, ctx.site.timezone);
    const mm = spec.mismatches(w.job.input, answer.body, model);
    if (!mm.length) continue;
    errors.set(
      f,
      notKeptError(
        mm.map((m) => ({
          field: m.field,
          path: [...w.job.fieldPrefix, m.field],
          reason: 'IGNORED' as const,
          asked: m.asked,
          kept: m.kept,
        })),
        w.job.itemPath,
        `Written (ID ${w.databaseId})`,
      ),
    );
  }
}

async function check<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  items: readonly Item<Reconciled<I>, I>[],
): Promise<Item<Checked<I, M>, I>[]> {
  const firsts = live(items).map((r) => firstAnswer(ctx, spec, r));
  const errors = new Map<FirstAnswer<I, M>, ItemError>();
  if (spec.verify === 'views') {
    await followUps(ctx, spec, firsts, errors);
    // Every item written in full is checked against what the site kept (writes/check.ts).
    const toCheck = firsts.filter((f) => f.written && !errors.has(f)).map((f) => f.written!);
    const failed = await checkWrites(ctx, spec, toCheck, (reqs, what) =>
      sendSettled(
        ctx,
        spec,
        what.map((x, k): Out<I> => {
          const job = toCheck.find((w) => w.databaseId === x.databaseId)!.job;
          return {
            job,
            api: x.api,
            method: reqs[k]!.method,
            target: { id: x.databaseId },
            payload: x.payload,
            stored: null,
          };
        }),
        reqs,
      ),
    );
    for (const f of firsts) if (f.written && failed.has(f.written)) errors.set(f, failed.get(f.written)!);
  } else checkAnswers(ctx, spec, firsts, errors);

  // A missing object is NOT_FOUND, however the site says it (docs/writes.md "Not found").
  const refused = firsts.filter((f) => f.refused);
  const idOf = (f: FirstAnswer<I, M>) => databaseIdOfTarget(f.r.prepared.job.target) ?? f.r.prepared.lockId;
  const unsure = refused.filter((f) => ambiguous(f.refused!) && idOf(f) !== null);
  // Only the calendar's legacy interface tells "not found" from "not allowed" (reads.ts `confirmAbsent`).
  const gone =
    spec.verify === 'views' && unsure.length
      ? await confirmAbsent(
          ctx,
          spec.kind,
          unsure.map((f) => idOf(f)!),
        )
      : new Set<number>();
  for (const f of refused) {
    const { job } = f.r.prepared;
    const id = idOf(f);
    if (job.target && (absent(f.refused!) || (id !== null && gone.has(id))))
      errors.set(f, fromGateway(notFoundError(f.refused!, spec.label, job.target), job.idPath));
  }

  const checked = new Map<Reconciled<I>, Checked<I, M>>();
  for (const f of firsts) {
    const w = f.written;
    const answers = w ? w.answers.map((a) => spec.model(a.api, a.body, ctx.site.timezone)) : [];
    // The latest write's answer is the freshest copy; fields it lacks come from the other copies, primed with it.
    const latest = w ? ([...w.answers].reverse().find((a) => !a.read) ?? w.answers[0]!) : null;
    const model = latest ? spec.model(latest.api, latest.body, ctx.site.timezone) : f.result.model;
    checked.set(f.r, {
      stage: 'checked',
      job: f.r.prepared.job,
      result: { ...f.result, model, error: errors.get(f) ?? f.result.error },
      answers,
      published: f.r.published,
    });
  }
  return items.map((x) => (x.stage === 'stopped' ? x : checked.get(x)!));
}

/** The loaders settled with what the site answered; a later state than the one published, merged into the ledger. */
function finish<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  items: readonly Item<Checked<I, M>, I>[],
): ItemResult<M>[] {
  return items.map((x) => {
    if (x.stage === 'stopped') return shortCircuit<I, M>([x])[0]!;
    const { result } = x;
    if (result.databaseId !== null && x.answers.length) {
      settle(ctx, spec, result.databaseId, x.answers);
      const first = x.answers[0]!;
      const last = x.answers[x.answers.length - 1]!;
      if (x.published && last !== first && last.modifiedAtUtc && last.modifiedAtUtc !== first.modifiedAtUtc)
        ctx.changes?.written(spec.kind, result.databaseId, 'UPDATED', last, { merge: true });
    }
    return result;
  });
}

/**
 * Runs the planned items through the stages and returns per-item results in input order. Items planned with an error
 * are not sent; with `atomic`, any item stopped before sending stops every write.
 */
export async function run<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  planned: readonly Planned<I>[],
  atomic: boolean,
): Promise<ItemResult<M>[]> {
  const s = scope.getStore();
  if (s) {
    s.ran = true;
    ENGINE_RUNS.add(s.field);
  }
  const stoppedPlan = planned.map((p) => (p.error ? stop(p.job, p.error) : { stage: 'planned', job: p.job }));
  if (atomic) checkAtomic(ctx.site, atomicRequests(spec, planned));
  if (atomic && stoppedAny(stoppedPlan)) return shortCircuit(stoppedPlan);
  const routed = atomic ? planned : planned.map((p) => throughOther(ctx.site, spec, p));
  const { items: locked, held } = await lock(ctx, spec, routed);
  try {
    if (atomic && stoppedAny(locked)) return shortCircuit(locked);
    const prepared = await prepare(ctx, spec, locked);
    if (atomic && stoppedAny(prepared)) return shortCircuit(prepared);
    const sent = await sendPrimary(ctx, spec, prepared, atomic);
    const reconciled = await reconcileSent(ctx, spec, sent);
    const checked = await check(ctx, spec, reconciled);
    return finish(ctx, spec, checked);
  } finally {
    await held.release();
  }
}
