/**
 * Reconciling writes whose outcome is unknown (docs/ARCHITECTURE.md "A write", step 5): the
 * request was sent, but its answer never arrived or could not be read (a
 * timeout after sending, a reset, a proxy's 5xx page, a malformed or
 * wrong-shape body; upstream/batch.ts `outcomeUnknown`). Nothing is ever sent
 * again: the site is read, and what it shows decides.
 *
 * - update: the object is read by ID (or slug) through the interface that was
 *   written; when every field of the input the read shows equals the input
 *   (and, if the input has fields the read cannot show, the object was
 *   modified after the write started), the update happened;
 * - delete: the object is read; trashed (or, for `force`, gone) means the
 *   delete happened;
 * - create: the objects whose title contains the input's title are listed
 *   (`search`, every status; events within the input's dates); the candidates
 *   are those whose title and dates equal the input's, whose other readable
 *   fields equal the input's, modified after the write started, and not
 *   already claimed by another item of the same mutation. Exactly one
 *   candidate: written, with its ID. None or several: still unknown.
 *
 * Everything else stays unknown, with a message saying what to check.
 * Reads go through the operation's session (concurrency cap, budget, deadline), one per item
 * (creates with the same title share one).
 */
import type { Context } from '../context.ts';
import type { EventInput } from '../generated/graphql.ts';
import { UpstreamShapeError, type Json } from '../mapping/json.ts';
import { chooseInterface, chosenOr } from '../namespaces/calendar/choose.ts';
import { calendarGet } from '../namespaces/calendar/paths.ts';
import type { Target, WriteMethod } from '../namespaces/calendar/write-requests.ts';
import type { UpstreamRequest } from '../upstream/client.ts';
import { cleanText } from '../mapping/text.ts';
import { compareOf, sameOnModels } from '../mapping/calendar-models.ts';
import { fromTransportError } from '../upstream/errors.ts';
import type { GatewayError } from '../errors.ts';
import type { AnyInput, AnyModel, CalendarKind, PostKind } from './kinds.ts';
import { isMissing } from './reads.ts';
import type { Iface } from '../namespaces/calendar/vocabulary.ts';

export type { PostKind };

/** One write whose outcome is unknown. */
export interface Unsure {
  key: number;
  api: Iface;
  /** The kind written: how its objects are read, and what identifies a create (kinds.ts `reconcile`). */
  spec: CalendarKind<AnyInput, AnyModel>;
  method: WriteMethod;
  /** null: a create. */
  target: Target | null;
  input?: AnyInput;
  /** The REST payload sent (dates as the site stores them). */
  payload?: Json;
  force?: boolean;
}

export type Settled =
  /** `body`: the object as read back (for deletes, the trashed object; null when it is gone). */
  { written: true; body: unknown } | { written: false; message: string };

export interface ReconcileOptions {
  /** `Date.now()` just before the writes were sent. */
  startedAt: number;
  /** Object IDs other items of the mutation are known to have written: never matched to a create. */
  claimed: Set<number>;
}

const ANY_STATUS = ['publish', 'future', 'draft', 'pending', 'private'];
/** modified_gmt has whole seconds; the site's clock may lag the gateway's a little. */
const CLOCK_SLACK_MS = 2_000;
function tryModel(api: Iface, spec: CalendarKind<AnyInput, AnyModel>, body: unknown): AnyModel | null {
  try {
    // Calendar models keep the site's dates as they come: no zone is needed.
    return spec.model(api, body, 'UTC');
  } catch (err) {
    if (err instanceof UpstreamShapeError) return null;
    throw err;
  }
}

// ---------------------------------------------------------------------------
// Comparing what the site shows with what was sent

const text = (v: unknown) => (typeof v === 'string' ? cleanText(v) : v);
const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);
const idSet = (xs: unknown): string | undefined =>
  Array.isArray(xs)
    ? [...new Set(xs.map((x) => (typeof x === 'number' ? x : (x as { databaseId?: number })?.databaseId)))]
        .sort()
        .join(',')
    : undefined;

/** How each input field reads on a model: undefined when this read does not show it. */
const READ: Record<string, (m: Record<string, any>) => unknown> = {
  // Those whose model field is the input's (mapping/calendar-models.ts).
  ...Object.fromEntries(sameOnModels().map((f) => [f, (m: Record<string, any>) => m[f]])),
  featuredImageId: (m) => (m.featuredImage === undefined ? undefined : (m.featuredImage?.databaseId ?? null)),
  venueIds: (m) => (m.venues === undefined ? undefined : idSet(m.venues)),
  organizerIds: (m) => (m.organizers === undefined ? undefined : idSet(m.organizers)),
  categoryIds: (m) =>
    m.categoryIds !== undefined ? idSet(m.categoryIds) : m.categories === undefined ? undefined : idSet(m.categories),
  tagIds: (m) => (m.tagIds !== undefined ? idSet(m.tagIds) : m.tags === undefined ? undefined : idSet(m.tags)),
};

function same(field: string, stored: unknown, sent: unknown): boolean {
  if (field.endsWith('Ids')) return stored === idSet(sent);
  // How the field compares is the field table's (coordinates within a micro-degree; enums sent upper case).
  if (compareOf(field) === 'coordinate')
    return typeof stored === 'number' && typeof sent === 'number' && Math.abs(stored - sent) < 1e-6;
  if (typeof sent === 'string' && /^[A-Z_]+$/.test(sent) && compareOf(field) === 'lower')
    return lower(stored) === lower(sent);
  if (typeof sent === 'string') return typeof stored === 'string' && text(stored) === text(sent);
  return stored === sent;
}

interface Comparison {
  /** Fields the read shows with another value. */
  differ: string[];
  /** Fields of the input the read cannot show. */
  unseen: string[];
}

/** Compares a read-back object with the input (and the dates of the payload sent, as the site stores them). */
function compare(
  model: AnyModel,
  raw: unknown,
  input: AnyInput | undefined,
  payload: Json | undefined,
  create: boolean,
): Comparison {
  const out: Comparison = { differ: [], unseen: [] };
  // The fields by name: the READ table looks up whatever the kind's model has.
  const m: Record<string, unknown> = Object.fromEntries(Object.entries(model));
  const body = (raw && typeof raw === 'object' ? raw : {}) as Json;
  for (const [field, sent] of Object.entries(input ?? {})) {
    if (sent === undefined || sent === null) continue;
    // New objects get a unique slug (`-2`), and dates are compared as sent below.
    if (create && field === 'slug') continue;
    if (field === 'startDate' || field === 'endDate') {
      const key = field === 'startDate' ? 'start_date' : 'end_date';
      const want = payload?.[key];
      if (typeof want !== 'string' || typeof body[key] !== 'string') out.unseen.push(field);
      else if ((body[key] as string).slice(0, 19).replace('T', ' ') !== want.slice(0, 19).replace('T', ' '))
        out.differ.push(field);
      continue;
    }
    const read = READ[field];
    const stored = read ? read(m) : undefined;
    if (stored === undefined) out.unseen.push(field);
    else if (!same(field, stored, sent)) out.differ.push(field);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Reads

interface Read {
  ok: boolean;
  /** The interface read. */
  api: Iface;
  body?: unknown;
  error?: GatewayError;
  /** Site clock minus ours, from the `Date` header, when it differs by more than the slack. */
  skew: number;
}

async function get(ctx: Context, api: Iface, req: UpstreamRequest): Promise<Read> {
  try {
    const res = await ctx.upstream.request(req);
    const date = Date.parse(res.headers.date ?? '');
    const skew = Number.isNaN(date) ? 0 : date - Date.now();
    return { ok: true, api, body: res.body, skew: Math.abs(skew) > 5_000 ? skew : 0 };
  } catch (err) {
    return { ok: false, api, error: fromTransportError(err, req.route), skew: 0 };
  }
}

/**
 * The interface an item is read back through: the one written, except a
 * calendar-core event trash, read through the legacy interface where the
 * site has it (calendar-core answers a trashed event like a missing one, 404;
 * the legacy GET says 403 `event-no-longer-available`).
 */
function readApi(ctx: Context, u: Unsure): Iface {
  const trashed = u.api === 'core' && u.method === 'DELETE' && !u.force && u.spec.reconcile.trashReadsLegacy;
  return trashed ? chosenOr(chooseInterface(ctx.site, { prefer: 'legacy' }), u.api) : u.api;
}

function readOne(ctx: Context, u: Unsure): Promise<Read> {
  const api = readApi(ctx, u);
  return get(ctx, api, calendarGet(api, u.spec.kind, u.target!));
}

/** The kind's list, searched for the title (every status), with what else the kind narrows it by. */
function search(ctx: Context, u: Unsure, title: string): Promise<Read> {
  const more = u.spec.reconcile.search(u.api, u.input);
  const query =
    u.api === 'core'
      ? { search: title, status: ANY_STATUS, per_page: 100, ...more }
      : { search: title, per_page: 50, ...more };
  return get(ctx, u.api, calendarGet(u.api, u.spec.kind, null, query));
}

function listItems(api: Iface, kind: PostKind, body: unknown): unknown[] | null {
  if (api === 'core') return Array.isArray(body) ? body : null;
  const items = body && typeof body === 'object' ? (body as Json)[kind] : null;
  return Array.isArray(items) ? items : null;
}

function modifiedSince(model: AnyModel, since: number): boolean {
  const at = model.modifiedAtUtc ? Date.parse(model.modifiedAtUtc) : NaN;
  return !Number.isNaN(at) && at >= since - CLOCK_SLACK_MS;
}

// ---------------------------------------------------------------------------

function settleUpdate(u: Unsure, r: Read, since: number): Settled {
  const what = `${u.spec.label} ${'id' in u.target! ? u.target.id : u.target!.slug}`;
  if (!r.ok)
    return {
      written: false,
      message: `and reading the ${what} back failed (${r.error!.code}): read it and compare before sending the update again.`,
    };
  const model = tryModel(u.api, u.spec, r.body);
  if (!model)
    return {
      written: false,
      message: `and the ${what} read back is not readable: read it and compare before sending the update again.`,
    };
  const c = compare(model, r.body, u.input, u.payload, false);
  if (c.differ.length) {
    return {
      written: false,
      message: `and the ${what} read back does not show it (${c.differ.join(', ')} differ): it was probably not written, but the site may still be processing it; read it again before sending the update again.`,
    };
  }
  const given = Object.values(u.input ?? {}).filter((v) => v !== undefined && v !== null).length;
  const seen = given - c.unseen.length;
  if (seen > 0 && (c.unseen.length === 0 || modifiedSince(model, since))) return { written: true, body: r.body };
  return {
    written: false,
    message: `and the ${what} read back cannot show ${c.unseen.join(', ')}: read it and compare before sending the update again.`,
  };
}

function settleDelete(u: Unsure, r: Read): Settled {
  const what = `${u.spec.label} ${'id' in u.target! ? u.target.id : u.target!.slug}`;
  if (r.ok) {
    const model = tryModel(r.api, u.spec, r.body);
    if (model?.status === 'trash' && !u.force) return { written: true, body: r.body };
    return {
      written: false,
      message: `and the ${what} read back is still there${model?.status ? ` (status ${model.status})` : ''}: it was probably not deleted; read it again before deleting again.`,
    };
  }
  const e = r.error!;
  // The legacy single GET answers a trashed event 403 `event-no-longer-available` (docs/writes.md "Not found").
  const trashed = e.code === 'GONE' || e.extensions.upstream?.code === 'event-no-longer-available';
  if (trashed && !u.force) return { written: true, body: null };
  if (u.force && (e.code === 'NOT_FOUND' || isMissing(e))) return { written: true, body: null };
  return {
    written: false,
    message: `and reading the ${what} back answered ${e.code}: check it before deleting again.`,
  };
}

function settleCreates(group: Unsure[], r: Read, since: number, claimed: Set<number>, out: Map<number, Settled>): void {
  const { spec } = group[0]!;
  const what = spec.label;
  const items = r.ok ? listItems(group[0]!.api, spec.kind, r.body) : null;
  for (const u of group) {
    const title = (u.input as { title?: string | null }).title ?? '';
    if (!items) {
      out.set(u.key, {
        written: false,
        message: `and searching for it failed${r.error ? ` (${r.error.code})` : ''}: look for ${spec.aLabel} titled ${JSON.stringify(title)} before creating it again.`,
      });
      continue;
    }
    const matches: { id: number; body: unknown }[] = [];
    for (const raw of items) {
      const model = tryModel(u.api, spec, raw);
      if (!model || claimed.has(model.databaseId) || !modifiedSince(model, since)) continue;
      const c = compare(model, raw, u.input, u.payload, true);
      if (c.differ.length || spec.reconcile.identity.some((f) => c.unseen.includes(f))) continue;
      matches.push({ id: model.databaseId, body: raw });
    }
    if (matches.length === 1) {
      claimed.add(matches[0]!.id);
      out.set(u.key, { written: true, body: matches[0]!.body });
    } else {
      const found = matches.length
        ? `${matches.length} ${what}s (IDs ${matches.map((m) => m.id).join(', ')}) match it`
        : `no ${what} matching it was found yet (the site may still be processing it)`;
      out.set(u.key, {
        written: false,
        message: `and ${found}: look for ${spec.aLabel} titled ${JSON.stringify(title)} before creating it again.`,
      });
    }
  }
}

/**
 * Reads back what each unsure write may have done; one `Settled` per key.
 * Never throws for a failed read: the item then stays unknown.
 */
export async function reconcile(ctx: Context, unsure: Unsure[], opts: ReconcileOptions): Promise<Map<number, Settled>> {
  const out = new Map<number, Settled>();
  const creates = new Map<string, Unsure[]>();
  const singles: Unsure[] = [];
  for (const u of unsure) {
    if (u.target) singles.push(u);
    else {
      const title = (u.input as { title?: string | null } | undefined)?.title;
      if (!title) {
        out.set(u.key, {
          written: false,
          message: `and without a title it cannot be looked for: check the site before creating it again.`,
        });
        continue;
      }
      const k = `${u.api} ${u.spec.kind} ${title} ${(u.input as EventInput).startDate ?? ''} ${(u.input as EventInput).endDate ?? ''}`;
      creates.set(k, [...(creates.get(k) ?? []), u]);
    }
  }
  const [singleReads, createReads] = await Promise.all([
    Promise.all(singles.map((u) => readOne(ctx, u))),
    Promise.all(
      [...creates.values()].map((g) => search(ctx, g[0]!, cleanText((g[0]!.input as { title: string }).title))),
    ),
  ]);
  const skew = [...singleReads, ...createReads].find((r) => r.skew !== 0)?.skew ?? 0;
  const since = opts.startedAt + skew;
  singles.forEach((u, i) =>
    out.set(u.key, u.method === 'DELETE' ? settleDelete(u, singleReads[i]!) : settleUpdate(u, singleReads[i]!, since)),
  );
  [...creates.values()].forEach((g, i) => settleCreates(g, createReads[i]!, since, opts.claimed, out));
  return out;
}
