/**
 * After the writes of a mutation: every create and update is checked against
 * what the site kept, repaired once where it can be, and failed with
 * WRITE_NOT_APPLIED where it still differs (docs/writes.md "Verification").
 *
 * For each item written:
 *
 * 1. the view after: the answer of its last write (writes/verify.ts `viewOf`);
 *    fields the check needs that this answer does not show (a legacy-only
 *    field after a calendar-core PATCH, which 6.15.14 resets) are read back,
 *    fresh, through the interface that shows them: one GET per item, all
 *    items in parallel;
 * 2. the comparison (`mismatches`): each field set holds the value asked, each
 *    field not set kept the value read before the write;
 * 3. each field that differs is written once more through a route that
 *    declares it and has not carried it yet: the other interface first (an
 *    event through the legacy interface gets its complete state, as the
 *    legacy update needs; anything else only the fields that differ). A field
 *    no such route takes is not repaired;
 * 4. the repair's answer is laid over the view, and what still differs fails
 *    the item with WRITE_NOT_APPLIED (its object is still returned: it was
 *    written, not as asked).
 *
 * Extra requests: none when the answer shows everything and holds it; one
 * read per item whose answer hides a field to check; one write per item that
 * needs a repair.
 */
import type { Context } from '../context.ts';
import { legacyEventState, restName, storedDates, type Json } from './inputs.ts';
import type { WriteOutcome, WriteRequest } from '../upstream/batch.ts';
import { offers, other, type Iface } from '../namespaces/calendar/vocabulary.ts';
import type { AnyInput, AnyModel, CalendarKind, PostKind } from './kinds.ts';
import { convertOptions, followMethod, legacyRepair, onlyDeclared, withCoreResets, type Job } from './plan.ts';
import { readState, type StateRead } from './reads.ts';
import { notKeptError, unknownError, upstreamOf, type ItemError, type NotApplied } from './results.ts';
import {
  askedOf,
  mismatches,
  overlay,
  shows,
  unseen,
  viewOf,
  type Asked,
  type FieldValue,
  type Mismatch,
  type View,
} from './verify.ts';

/** One answer about the object: a write's, or a read after the writes. */
export interface Answer {
  api: Iface;
  body: unknown;
  /** A read back, not a write's answer. */
  read?: boolean;
}

/**
 * An item written, to be checked: its job, the stored state read before it (through `read`), what the site answered
 * so far (`answers`, to which the checks add their reads and repairs) and the REST payloads sent, per interface, in
 * order.
 */
export interface Written<I extends AnyInput> {
  job: Job<I>;
  read: Iface | null;
  stored: StateRead | null;
  databaseId: number;
  answers: Answer[];
  sent: { api: Iface; payload: Json }[];
}

/** Sends requests the way the engine sends writes (batched where allowed; lost answers reconciled). */
export type Sender = (
  reqs: WriteRequest[],
  what: { api: Iface; databaseId: number; payload: Json }[],
) => Promise<WriteOutcome[]>;

interface State<I extends AnyInput> {
  item: Written<I>;
  /** Set when the check fails the item. */
  error: ItemError | null;
  kind: PostKind;
  asked: Asked;
  before: View | null;
  /** What the answers and reads after the write show, the latest winning. */
  after: View;
  /**
   * The same, from the answers and reads of the interface the stored state was
   * read through only: what a field not set is compared with (the interfaces
   * render some fields differently: calendar-core's excerpt is made from the
   * content when the post has none).
   */
  same: View;
  /** The interface of the last write (not read). */
  lastWrite: Iface;
}

const lastOf = <T>(xs: readonly T[]): T => xs[xs.length - 1]!;

/**
 * The interfaces other than the last writer's that show fields the check needs
 * and the answer hid. None when the answer already shows that an event needs
 * the legacy repair: it sends the complete state as read before, so what the
 * read would show is restored anyway, and the repair's answer shows it.
 */
function readBacks<I extends AnyInput>(ctx: Context, spec: CalendarKind<I, AnyModel>, s: State<I>): Iface[] {
  const has = (api: Iface) => offers(ctx.site, api);
  const last = lastOf(s.item.answers).api;
  const api = other(last);
  if (!has(api)) return [];
  const set = mismatches(s.asked, s.before, s.after, s.same).filter((m) => m.set);
  if (spec.wholeLegacyState && api === 'legacy' && repairRoutes(ctx, spec, s, set).has('legacy')) return [];
  return unseen(s.asked, s.before, s.after, s.same).some((f) => shows(spec.kind, api, f)) ? [api] : [];
}

/** The graph fields each interface's payloads carried. */
function carried<I extends AnyInput>(spec: CalendarKind<I, AnyModel>, item: Written<I>): Map<Iface, Set<string>> {
  const out = new Map<Iface, Set<string>>([
    ['core', new Set()],
    ['legacy', new Set()],
  ]);
  for (const s of item.sent)
    for (const key of Object.keys(s.payload)) out.get(s.api)!.add(spec.fieldOf(s.api, key, item.job.input));
  return out;
}

const DATE_FIELDS = new Set(['startDate', 'endDate', 'timezone', 'duration']);

/** The interface each differing field can be written through once more; fields with none are left out. */
function repairRoutes<I extends AnyInput>(
  ctx: Context,
  spec: CalendarKind<I, AnyModel>,
  s: State<I>,
  mm: Mismatch[],
): Map<Iface, Mismatch[]> {
  const has = (api: Iface) => offers(ctx.site, api);
  const sent = carried(spec, s.item);
  const out = new Map<Iface, Mismatch[]>();
  for (const m of mm) {
    const field = DATE_FIELDS.has(m.field) ? 'startDate' : m.field;
    const api = [other(s.lastWrite), s.lastWrite].find(
      (a) => has(a) && restName(spec.kind, field, a, s.item.job.declared) !== null && !sent.get(a)!.has(field),
    );
    if (api) out.set(api, [...(out.get(api) ?? []), m]);
  }
  return out;
}

/** A graph input holding the value each differing field should have (dates: the instants expected). */
function repairInput<I extends AnyInput>(s: State<I>, mm: Mismatch[]): Record<string, unknown> {
  const input = s.item.job.input as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const m of mm) {
    if (DATE_FIELDS.has(m.field)) continue;
    out[m.field] = m.set && input[m.field] !== undefined ? input[m.field] : (m.asked as FieldValue);
  }
  const d = s.asked.dates;
  if (d && mm.some((m) => DATE_FIELDS.has(m.field)))
    Object.assign(out, { startDate: d.start, endDate: d.end, timezone: d.zone });
  return out;
}

/** The request that writes the differing fields again through `api`; null when none can be made. */
function repairRequest<I extends AnyInput>(
  ctx: Context,
  spec: CalendarKind<I, AnyModel>,
  s: State<I>,
  api: Iface,
  mm: Mismatch[],
): WriteRequest | null {
  const { job, databaseId, read, stored } = s.item;
  const event = job.input ? spec.asEvent(job.input) : null;
  const before = job.target && stored?.ok ? stored.body : undefined;
  const latest = lastOf(s.item.answers);
  let payload: Json | null;
  if (event && api === 'legacy') {
    // The legacy update resets what it omits: the complete state, as of before the write (or the latest answer for a
    // new event).
    const base =
      before !== undefined ? legacyEventState(before, read ?? 'legacy') : legacyEventState(latest.body, latest.api);
    payload = legacyRepair(
      ctx.site,
      event,
      job.declared,
      base,
      legacyEventState(latest.body, latest.api),
      before !== undefined ? storedDates(before) : storedDates(latest.body),
    );
  } else {
    const synth = repairInput(s, mm) as I;
    const o = { ...convertOptions(ctx.site.timezone, spec, synth, s.asked.dates?.zone), declared: job.declared };
    payload = spec.payloads(synth, api, o).primary;
    if (s.asked.dates && 'start_date' in payload) payload.duration = s.asked.dates.duration;
    // What the calendar-core PATCH resets when omitted, as stored (plan.ts `withCoreResets`).
    if (api === 'core' && before !== undefined) {
      const fields = new Set(Object.keys(payload));
      payload = onlyDeclared(
        withCoreResets(spec.coreResets, payload, legacyEventState(before, read ?? 'legacy')),
        job.declared?.core,
        fields,
      );
    }
  }
  if (!payload || !Object.keys(payload).length) return null;
  return spec.request(api, followMethod(api), { id: databaseId }, payload);
}

function notApplied<I extends AnyInput>(s: State<I>, mm: Mismatch[]): NotApplied[] {
  return mm.map((m) => ({
    field: m.field,
    path: [...s.item.job.fieldPrefix, m.field],
    reason: m.set ? 'IGNORED' : 'CHANGED',
    asked: m.asked,
    kept: m.kept,
  }));
}

/**
 * An answer or read after the write, laid over what was seen before it. A
 * repair's answer through the other interface counts for the fields it
 * repaired: nothing else shows them since.
 */
function see<I extends AnyInput>(s: State<I>, api: Iface, body: unknown, repaired: readonly string[] = []): void {
  const v = viewOf(s.kind, api, body);
  s.after = overlay(s.after, v);
  if (api === s.item.read) s.same = overlay(s.same, v);
  else for (const f of repaired) if (v.has(f)) s.same.set(f, v.get(f)!);
}

/**
 * Checks every item written, reads back and repairs as needed; returns the
 * error of each item the site did not apply as asked, and appends the reads
 * and repairs to `answers`.
 */
export async function checkWrites<I extends AnyInput>(
  ctx: Context,
  spec: CalendarKind<I, AnyModel>,
  items: Written<I>[],
  send: Sender,
): Promise<Map<Written<I>, ItemError>> {
  const zone = ctx.site.timezone;
  const states: State<I>[] = items
    .filter((item) => item.job.input && item.answers.length)
    .map((item) => {
      const { job, read, stored } = item;
      const beforeBody = job.target && stored?.ok ? stored.body : undefined;
      const last = lastOf(item.answers);
      return {
        item,
        error: null,
        kind: spec.kind,
        asked: askedOf(spec.kind, job.input!, zone, beforeBody),
        before: beforeBody !== undefined && read ? viewOf(spec.kind, read, beforeBody) : null,
        after: viewOf(spec.kind, last.api, last.body),
        same: last.api === read ? viewOf(spec.kind, last.api, last.body) : new Map(),
        lastWrite: last.api,
      };
    });

  // 1. What the answers hid, read back (one level of parallel reads).
  await Promise.all(
    states.flatMap((s) =>
      readBacks(ctx, spec, s).map(async (api) => {
        const r = await readState(ctx, api, spec.kind, { id: s.item.databaseId });
        if (!r.ok) {
          // Unchecked is not verified: the item says so (its object is still returned).
          const fields = unseen(s.asked, s.before, s.after, s.same).filter((f) => shows(spec.kind, api, f));
          const what = `${spec.label} ${s.item.databaseId}`;
          s.error = {
            code: r.error.code,
            message: `Written (ID ${s.item.databaseId}), but ${fields.join(', ')}, which its answer does not show, could not be read back to check them (${r.error.message}): read the ${what} before relying on them.`,
            path: s.item.job.itemPath,
            upstream: upstreamOf(r.error),
          };
          return;
        }
        s.item.answers.push({ api, body: r.body, read: true });
        see(s, api, r.body);
      }),
    ),
  );

  // 2. What differs, and the repairs (one level of writes).
  const repairs: { s: State<I>; req: WriteRequest; api: Iface; fields: string[] }[] = [];
  const still = new Map<State<I>, Mismatch[]>();
  for (const s of states) {
    if (s.error) continue;
    const mm = mismatches(s.asked, s.before, s.after, s.same);
    if (!mm.length) continue;
    still.set(s, mm);
    for (const [api, fields] of repairRoutes(ctx, spec, s, mm)) {
      const req = repairRequest(ctx, spec, s, api, fields);
      if (req) repairs.push({ s, req, api, fields: fields.map((m) => m.field) });
    }
  }
  if (repairs.length) {
    const outcomes = await send(
      repairs.map((r) => r.req),
      repairs.map((r) => ({ api: r.api, databaseId: r.s.item.databaseId, payload: r.req.body ?? {} })),
    );
    repairs.forEach((r, k) => {
      const o = outcomes[k]!;
      const { item } = r.s;
      if (o.ok) {
        item.sent.push({ api: r.api, payload: r.req.body ?? {} });
        item.answers.push({ api: r.api, body: o.body });
        see(r.s, r.api, o.body, r.fields);
        return;
      }
      const why = `the repair through ${r.req.route} ${o.unknown ? 'was sent but its answer was lost' : 'failed'} (${o.error.message})`;
      r.s.error = o.unknown
        ? unknownError(o.error, item.job.itemPath, `Written (ID ${item.databaseId}), but ${why}`)
        : {
            ...notKeptError(notApplied(r.s, still.get(r.s)!), item.job.itemPath, `Written (ID ${item.databaseId})`),
            upstream: upstreamOf(o.error),
          };
    });
  }

  // 3. What still differs fails its item.
  const repaired = new Set(repairs.map((r) => r.s));
  for (const s of still.keys()) {
    if (s.error) continue;
    const mm = mismatches(s.asked, s.before, s.after, s.same);
    if (mm.length)
      s.error = notKeptError(
        notApplied(s, mm),
        s.item.job.itemPath,
        `Written (ID ${s.item.databaseId})${repaired.has(s) ? ' and repaired once' : ''}`,
      );
  }
  return new Map(states.flatMap((s) => (s.error ? [[s.item, s.error] as const] : [])));
}
