/**
 * The write engine (schema/writes.graphql; docs/ARCHITECTURE.md "Writes"), one
 * for every calendar kind, single, bulk and atomic:
 *
 * jobs planned (writes/plan.ts: validated input, target, interface, method,
 * the routes' declared arguments) -> what `atomic` needs is checked before
 * any request -> the objects updated are locked (store/lock.ts: one update
 * of an object at a time, across instances through Redis) -> one level of
 * reads the writes depend on (writes/reads.ts: the stored state of every
 * update, referenced objects, the object a calendar-core delete will not
 * return) -> the primary write requests, sent through /batch/v1 where the
 * site allows (upstream/batch.ts), else directly -> writes whose answer was
 * lost are reconciled by reading back (writes/reconcile.ts) -> for items
 * whose input spans both interfaces, a follow-up update through the other
 * interface -> every create and update checked against what the site kept,
 * repaired once where it differs (writes/check.ts) -> a missing object is
 * NOT_FOUND whatever the site said -> per-item results in input order
 * (writes/results.ts); the locks released. Loaders are cleared and re-primed
 * with what the site answered, so payload selections show the written state.
 * docs/writes.md says what is verified and serialized, and what it costs.
 */
import type { Context } from '../context.ts';
import { graphField, type Json } from './inputs.ts';
import { UpstreamShapeError } from '../mapping/json.ts';
import { checkAtomic, sendWrites, type WriteOutcome, type WriteRequest } from '../upstream/batch.ts';
import { writeRequest, type Target, type WriteMethod } from '../namespaces/calendar/write-requests.ts';
import { NAMESPACE, type Iface } from '../namespaces/calendar/vocabulary.ts';
import { GatewayError } from '../errors.ts';
import { checkWrites, type Answer, type Written } from './check.ts';
import { modelOf, type AnyInput, type AnyModel, type KindSpec, type PostKind } from './kinds.ts';
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
  siteError,
  unknownError,
  upstreamOf,
  type ItemError,
  type ItemResult,
  type Problem,
} from './results.ts';

// ---------------------------------------------------------------------------
// Loaders: what the site answered replaces what the request had read

export function clearPost(ctx: Context, kind: PostKind, id: number): void {
  const l = ctx.loaders;
  const all =
    kind === 'events'
      ? [l.eventLegacy, l.eventCore, l.eventLegacySingle]
      : kind === 'venues'
        ? [l.venueLegacy, l.venueCore]
        : [l.organizerLegacy, l.organizerCore];
  for (const loader of all) loader.clear(id);
}

/**
 * What the site answered about an object replaces what the request had read; the latest copy of each interface wins.
 */
function settle(ctx: Context, kind: PostKind, id: number, models: AnyModel[]): void {
  clearPost(ctx, kind, id);
  // A loader keeps the first value primed for a key: the latest first.
  for (const m of [...models].reverse()) ctx.loaders.prime(m);
}

// ---------------------------------------------------------------------------

function idOfBody(body: unknown): number | null {
  const id = body && typeof body === 'object' && 'id' in body ? body.id : undefined;
  return typeof id === 'number' && Number.isInteger(id) ? id : null;
}

function fromGateway(e: GatewayError, path: string[]): ItemError {
  return { code: e.code, message: e.message, path, upstream: upstreamOf(e) };
}

/** An upstream error of one job: its path is the input field of the first parameter the site refused. */
function jobSiteError<I extends AnyInput>(e: GatewayError, job: Job<I>, kind: PostKind, api: Iface): ItemError {
  return siteError(e, job.itemPath, (param) => [...job.fieldPrefix, graphField(kind, api, param, job.input)]);
}

/** Each job's result when the write stops before sending: its own problems, else NOT_EXECUTED. */
function shortCircuit<I extends AnyInput, M>(jobs: readonly Job<I>[]): ItemResult<M>[] {
  return jobs.map((j) => ({
    index: j.index,
    databaseId: databaseIdOfTarget(j.target),
    model: null,
    error: j.error ?? notExecuted(j.itemPath),
  }));
}

/**
 * The one level of reads the writes depend on (`readFor`, and every venue,
 * organizer, category and tag an event input references: calendar-core/v1
 * 6.15 writes whatever IDs it is given), then the payloads. Every problem
 * found becomes the job's error.
 */
async function prepare<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  jobs: Job<I>[],
): Promise<void> {
  const zone = ctx.site.timezone;
  const live = jobs.filter((j) => !j.error);
  for (const j of live) j.read = readFor(ctx.site, spec, j);
  const wanted = live.flatMap((j) => (j.read && j.target ? [{ api: j.read, kind: spec.kind, target: j.target }] : []));
  const refInputs = live.flatMap((j) => {
    const event = j.method !== 'DELETE' && j.input ? spec.asEvent(j.input) : null;
    return event ? [{ key: j.index, input: event }] : [];
  });
  const [states, refs] = await Promise.all([
    wanted.length ? readStates(ctx, wanted) : new Map<string, StateRead>(),
    refInputs.length ? checkReferences(ctx, refInputs) : new Map<number, RefProblem[]>(),
  ]);

  for (const j of live) if (j.read && j.target) j.stored = states.get(stateKey(j.read, spec.kind, j.target));
  // A calendar-core read refused ambiguously (its 403 for a missing ID): a legacy read tells.
  const unsure = live.flatMap((j) =>
    j.method !== 'DELETE' &&
    j.stored &&
    !j.stored.ok &&
    ambiguous(j.stored.error) &&
    databaseIdOfTarget(j.target) !== null
      ? [databaseIdOfTarget(j.target)!]
      : [],
  );
  const gone = unsure.length ? await confirmAbsent(ctx, spec.kind, unsure) : new Set<number>();

  for (const j of live) {
    if (j.method === 'DELETE') continue;
    const problems: Problem[] = (refs.get(j.index) ?? []).map((p) => ({
      path: [...j.fieldPrefix, p.field],
      message: refMessage(p),
    }));
    if (j.stored && !j.stored.ok) {
      // Without the stored state the payload cannot be made: the input's own problems come first.
      const e = j.stored.error;
      const missing = j.target && (absent(e) || gone.has(databaseIdOfTarget(j.target) ?? 0));
      j.error = problems.length
        ? inputError(problems)
        : missing
          ? {
              ...fromGateway(notFoundError(e, spec.kind, j.target!), j.idPath),
              message: `Not written: ${notFoundError(e, spec.kind, j.target!).message}`,
            }
          : {
              code: e.code,
              message: `Not written: the ${spec.type.toLowerCase()}'s stored state, which this update must send, could not be read: ${e.message}`,
              path: j.idPath,
              upstream: upstreamOf(e),
            };
      continue;
    }
    const p = completePayloads(zone, spec, j, j.stored?.ok ? j.stored.body : undefined);
    if (Array.isArray(p)) problems.push(...p);
    if (problems.length) j.error = inputError(problems);
    else if (!Array.isArray(p)) j.payloads = p;
  }
}

/**
 * A 2xx answer that is not what the write answers (the object written; a
 * calendar-core delete's `[]`) says the site did something, but not what:
 * the outcome is unknown, as if the answer had been lost.
 */
function readable<I extends AnyInput, M extends AnyModel>(
  spec: KindSpec<I, M>,
  job: { api: Iface; method: WriteMethod },
  o: WriteOutcome,
  route: string,
): WriteOutcome {
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
  const error = new GatewayError(
    'UPSTREAM_BAD_RESPONSE',
    `Bad upstream response (${route}): a ${o.status} whose body is not what this write answers.`,
    { upstream: { code: null, status: o.status, route } },
  );
  return { ok: false, error, batched: o.batched, unknown: true };
}

interface Sent<I extends AnyInput> {
  job: Job<I>;
  api: Iface;
  method: WriteMethod;
  target: Target | null;
  payload: Json | undefined;
}

/**
 * Reconciles the outcomes that are unknown (writes/reconcile.ts): each becomes
 * an answer (the object as read back) when the site shows the write happened,
 * and stays unknown, its message saying what to check, otherwise.
 */
async function settleUnknown<I extends AnyInput>(
  ctx: Context,
  kind: PostKind,
  sent: Sent<I>[],
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
      unsure.push({
        key: k,
        api: s.api,
        kind,
        method: s.method,
        target: s.target,
        input: s.job.input,
        payload: s.payload,
        force: Boolean(s.job.query?.force),
      });
    }
  });
  if (!unsure.length) return;
  const settled = await reconcile(ctx, unsure, { startedAt, claimed });
  for (const u of unsure) {
    const o = outcomes[u.key]!;
    const s = settled.get(u.key)!;
    if (o.ok) continue;
    if (s.written) {
      // A reconciled delete answers like the write: the trashed object (legacy) or `[]` (calendar-core, whose object
      // was read first).
      const body = u.method === 'DELETE' && (u.api === 'core' || s.body === null) ? [] : s.body;
      outcomes[u.key] = { ok: true, status: 200, body, batched: o.batched };
    } else {
      const error = new GatewayError(o.error.code, `${o.error.message.replace(/\.$/, '')}, ${s.message}`, {
        upstream: o.error.extensions.upstream,
      });
      outcomes[u.key] = { ...o, error };
    }
  }
}

/** Sends requests, marks bodies that are not what the writes answer as unknown, and reconciles what is unknown. */
async function send<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  sent: Sent<I>[],
  reqs: WriteRequest[],
  atomic: boolean,
): Promise<WriteOutcome[]> {
  const startedAt = Date.now();
  const outcomes = await sendWrites(ctx.upstream, ctx.site, reqs, { atomic });
  sent.forEach((s, k) => (outcomes[k] = readable(spec, s, outcomes[k]!, reqs[k]!.route)));
  await settleUnknown(ctx, spec.kind, sent, outcomes, startedAt);
  return outcomes;
}

// ---------------------------------------------------------------------------
// Serialization (store/lock.ts)

/**
 * The objects a job's update reads, merges and writes: its ID, or, for a
 * slug, the ID a fresh read of the slug gives (one more read, before the lock).
 */
async function lockIds<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  jobs: Job<I>[],
): Promise<Map<Job<I>, number>> {
  const out = new Map<Job<I>, number>();
  const updates = jobs.filter((j) => !j.error && j.target && j.method !== 'DELETE');
  await Promise.all(
    updates.map(async (j) => {
      const t = j.target!;
      if ('id' in t) return void out.set(j, t.id);
      const r = await readState(ctx, 'legacy', spec.kind, t);
      const id = r.ok && r.body && typeof r.body === 'object' && 'id' in r.body ? Number(r.body.id) : NaN;
      if (Number.isInteger(id) && id > 0) {
        j.lockId = id;
        out.set(j, id);
      } else if (!r.ok) {
        j.error = absent(r.error)
          ? fromGateway(notFoundError(r.error, spec.kind, t), j.idPath)
          : fromGateway(r.error, j.idPath);
      }
    }),
  );
  return out;
}

/** Locks every object the jobs update; a job whose lock cannot be had fails with WRITE_LOCK_TIMEOUT and is not sent. */
async function lockJobs<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  jobs: Job<I>[],
): Promise<HeldLocks> {
  const ids = await lockIds(ctx, spec, jobs);
  const keyOf = new Map<string, Job<I>[]>();
  for (const [j, id] of ids) {
    const key = lockKey(spec.kind, id);
    keyOf.set(key, [...(keyOf.get(key) ?? []), j]);
  }
  const held = await ctx.locks.acquire([...keyOf.keys()]);
  for (const f of held.failed) {
    for (const j of keyOf.get(f.key) ?? []) {
      const what = `${spec.type.toLowerCase()} ${ids.get(j)}`;
      const message =
        f.reason === 'store'
          ? `Not written: the lock of ${what} could not be taken: Redis (REDIS_URL) did not answer within ${f.waitedMs} ms (WRITE_LOCK_WAIT_MS). Nothing was sent; send it again.`
          : `Not written: another write of ${what} held its lock for more than ${f.waitedMs} ms (WRITE_LOCK_WAIT_MS). Nothing was sent; send it again.`;
      j.error = { code: 'WRITE_LOCK_TIMEOUT', message, path: j.idPath, upstream: null };
    }
  }
  return held;
}

// ---------------------------------------------------------------------------
// One not-found rule (docs/writes.md "Not found")

/**
 * A missing object is NOT_FOUND on every write, however the site says it: the
 * unambiguous answers at once, calendar-core's 401/403 `rest_forbidden` after
 * a read that says the object is not there (an object the caller may not edit
 * stays FORBIDDEN).
 */
async function notFoundRule<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  results: Map<Job<I>, ItemResult<M>>,
  errors: Map<Job<I>, GatewayError>,
): Promise<void> {
  const unsure: number[] = [];
  for (const [j, e] of errors) {
    const id = databaseIdOfTarget(j.target) ?? j.lockId ?? null;
    if (ambiguous(e) && id !== null) unsure.push(id);
  }
  const gone = unsure.length ? await confirmAbsent(ctx, spec.kind, unsure) : new Set<number>();
  for (const [j, e] of errors) {
    const id = databaseIdOfTarget(j.target) ?? j.lockId ?? null;
    if (!j.target || !(absent(e) || (id !== null && gone.has(id)))) continue;
    const r = results.get(j)!;
    r.error = fromGateway(notFoundError(e, spec.kind, j.target), j.idPath);
  }
}

/**
 * Sends the jobs' writes (primary, then follow-ups), checks them, and
 * returns per-item results in input order. Jobs already carrying an `error`
 * are not sent; with `atomic`, any such job stops every write.
 */
export async function run<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  jobs: Job<I>[],
  atomic: boolean,
): Promise<ItemResult<M>[]> {
  if (atomic) checkAtomic(ctx.site, atomicRequests(spec, jobs));
  if (atomic && jobs.some((j) => j.error)) return shortCircuit(jobs);
  if (!atomic) for (const j of jobs) throughOther(ctx.site, spec, j);
  const locks = await lockJobs(ctx, spec, jobs);
  try {
    if (atomic && jobs.some((j) => j.error)) return shortCircuit(jobs);
    await prepare(ctx, spec, jobs);
    if (atomic && jobs.some((j) => j.error)) return shortCircuit(jobs);
    const results = await sendAndCheck(ctx, spec, jobs, atomic);
    // Each write the site took goes to subscribers at once (src/subscriptions/, docs/subscriptions.md).
    results.forEach((r, i) => {
      const j = jobs[i]!;
      if (r.databaseId && (r.model || !r.error))
        ctx.changes?.written(
          spec.kind,
          r.databaseId,
          j.method === 'DELETE' ? 'DELETED' : j.target ? 'UPDATED' : 'CREATED',
          r.model,
        );
    });
    return results;
  } finally {
    await locks.release();
  }
}

async function sendAndCheck<I extends AnyInput, M extends AnyModel>(
  ctx: Context,
  spec: KindSpec<I, M>,
  jobs: Job<I>[],
  atomic: boolean,
): Promise<ItemResult<M>[]> {
  const live = jobs.filter((j) => !j.error);
  const primary = live.map((j) =>
    writeRequest(
      j.api,
      spec.kind,
      j.method,
      j.target,
      j.method === 'DELETE' ? undefined : j.payloads!.primary,
      j.query,
    ),
  );
  const outcomes = await send(
    ctx,
    spec,
    live.map((job) => ({ job, api: job.api, method: job.method, target: job.target, payload: job.payloads?.primary })),
    primary,
    atomic,
  );

  const results = new Map<Job<I>, ItemResult<M>>();
  const written = new Map<Job<I>, Written<I>>();
  const refused = new Map<Job<I>, GatewayError>();
  const follow: { job: Job<I>; api: Iface; req: WriteRequest }[] = [];
  live.forEach((job, k) => {
    const o = outcomes[k]!;
    const known = databaseIdOfTarget(job.target);
    if (!o.ok) {
      const what = `${spec.type.toLowerCase()} ${job.target ? (job.method === 'DELETE' ? 'delete' : 'update') : 'create'}`;
      const error = failedItem(o, job.itemPath, {
        unknown: (e) => `Outcome unknown: the ${what} was sent but its answer was lost (${e.message})`,
        fieldOf: (param) => [...job.fieldPrefix, graphField(spec.kind, job.api, param, job.input)],
      });
      if (!o.notExecuted && !o.unknown) refused.set(job, o.error);
      results.set(job, { index: job.index, databaseId: known, model: null, error });
      return;
    }
    if (job.method === 'DELETE') {
      // Legacy deletes answer the trashed object; calendar-core/v1 answers `[]` (docs/ARCHITECTURE.md "A write"), so
      // its payload is the object as read just before, trashed unless deleted for good.
      let model: M | null = null;
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
    written.set(job, {
      job,
      databaseId: model.databaseId,
      answers: [{ api: job.api, body: o.body }],
      sent: [{ api: job.api, payload: job.payloads?.primary ?? {} }],
    });
    results.set(job, { index: job.index, databaseId: model.databaseId, model, error: null });
    let second = job.payloads?.secondary;
    if (second && job.input) {
      const api: Iface = job.api === 'core' ? 'legacy' : 'core';
      const event = spec.asEvent(job.input);
      if (event && api === 'legacy')
        second = legacyFollowUp(job, event, o.body, second, convertOptions(ctx.site.timezone, spec, job.input));
      // Legacy follow-ups use POST (its canonical EDIT), core ones PATCH: only the named fields change.
      follow.push({
        job,
        api,
        req: writeRequest(api, spec.kind, api === 'legacy' ? 'POST' : 'PATCH', { id: model.databaseId }, second),
      });
    }
  });

  if (follow.length) {
    const sent = follow.map((f): Sent<I> => ({
      job: f.job,
      api: f.api,
      method: 'PATCH',
      target: { id: results.get(f.job)!.databaseId! },
      payload: f.req.body,
    }));
    const done = await send(
      ctx,
      spec,
      sent,
      follow.map((f) => f.req),
      false,
    );
    follow.forEach((f, k) => {
      const o = done[k]!;
      const r = results.get(f.job)!;
      const w = written.get(f.job)!;
      const ns = NAMESPACE[f.api];
      if (!o.ok && o.unknown) {
        r.error = unknownError(
          o.error,
          f.job.itemPath,
          `Written (ID ${r.databaseId}), but whether the ${ns} fields were written is unknown: the follow-up update was sent but its answer was lost (${o.error.message})`,
        );
        return;
      }
      if (o.ok) {
        w.answers.push({ api: f.api, body: o.body });
        w.sent.push({ api: f.api, payload: f.req.body ?? {} });
      } else {
        const e = jobSiteError(o.error, f.job, spec.kind, f.api);
        r.error = { ...e, message: `Written (ID ${r.databaseId}), but the ${ns} fields were not: ${e.message}` };
      }
    });
  }

  // Every item written in full is checked against what the site kept (writes/check.ts).
  const toCheck = [...written.values()].filter((w) => !results.get(w.job)!.error);
  await checkWrites(ctx, spec, toCheck, async (reqs, what) => {
    const sent = what.map((x, k): Sent<I> => ({
      job: toCheck.find((w) => w.databaseId === x.databaseId)!.job,
      api: x.api,
      method: reqs[k]!.method,
      target: { id: x.databaseId },
      payload: x.payload,
    }));
    return send(ctx, spec, sent, reqs, false);
  });
  for (const w of written.values()) {
    const r = results.get(w.job)!;
    if (w.error) r.error = w.error;
    // The latest write's answer is the freshest copy; fields it lacks come from the other copies, primed below.
    const latest = [...w.answers].reverse().find((a) => !a.read) ?? w.answers[0]!;
    r.model = modelOf(latest.api, spec.kind, latest.body) as M;
    settle(
      ctx,
      spec.kind,
      w.databaseId,
      w.answers.map((a: Answer) => modelOf(a.api, spec.kind, a.body)),
    );
  }
  await notFoundRule(ctx, spec, results, refused);
  return jobs.map((j) => results.get(j) ?? shortCircuit<I, M>([j])[0]!);
}
