/**
 * The reads a write needs before it is sent (docs/writes.md), all in one
 * level of parallel requests (the operation's session caps the concurrency):
 *
 * - the event's stored state, for updates that must send it whole (the legacy
 *   update resets what it omits; a calendar-core update of one date leaves
 *   `duration` stale: docs/writes.md "Resets") — legacy single GETs (they find
 *   past events too, unlike `include=` lists) or calendar-core single GETs,
 *   deduplicated by target;
 * - the objects an input references (venues, organizers, categories, tags),
 *   because calendar-core/v1 6.15 writes an event whatever IDs it is given
 *   (same file, "Query arguments are not validated"): one `loadMany` per kind
 *   through the request's loaders, whatever the number of items.
 */
import type { Context } from '../context.ts';
import { eventReferences, type RefKind } from './inputs.ts';
import type { EventInput } from '../generated/graphql.ts';
import { legacyGet } from '../namespaces/calendar/legacy-requests.ts';
import { stateRead, type Target } from '../namespaces/calendar/write-requests.ts';
import { GatewayError, isGatewayError } from '../errors.ts';
import { calendarPath } from '../namespaces/calendar/paths.ts';
import type { PostKind, Iface } from '../namespaces/calendar/vocabulary.ts';
import { fromTransportError } from '../upstream/errors.ts';

export type StateRead = { ok: true; body: unknown } | { ok: false; error: GatewayError };

export function stateKey(api: Iface, kind: PostKind, target: Target): string {
  return `${api} ${kind} ${'id' in target ? `#${target.id}` : `slug:${target.slug}`}`;
}

/**
 * One fresh read of an object (never from the upstream cache: upstream/calendar-writes.ts `stateRead`); failures are
 * values.
 */
export async function readState(ctx: Context, api: Iface, kind: PostKind, target: Target): Promise<StateRead> {
  const req = stateRead(api, kind, target);
  try {
    return { ok: true, body: (await ctx.upstream.request(req)).body };
  } catch (err) {
    return { ok: false, error: fromTransportError(err, req.route) };
  }
}

/**
 * Reads each distinct (interface, target) once, in parallel (the operation's
 * session caps the concurrency). Failures are values: the item that needed the read
 * carries the error, its neighbours are not affected.
 */
export async function readStates(
  ctx: Context,
  wanted: { api: Iface; kind: PostKind; target: Target }[],
): Promise<Map<string, StateRead>> {
  const out = new Map<string, StateRead>();
  const todo = new Map<string, { api: Iface; kind: PostKind; target: Target }>();
  for (const w of wanted) todo.set(stateKey(w.api, w.kind, w.target), w);
  await Promise.all([...todo].map(async ([key, w]) => out.set(key, await readState(ctx, w.api, w.kind, w.target))));
  return out;
}

// ---------------------------------------------------------------------------
// One not-found rule for writes (docs/writes.md "Not found")

/**
 * Whether a site's error says, unambiguously, that the object does not exist:
 * a 404 (the legacy `rest-event-not-found`, calendar-core's "The entity could
 * not be read."), the legacy 400 `rest_invalid_param` naming only `id` or
 * `slug` (how 5.7.1 and 6.15.14 answer a missing ID), or an ID of another type.
 */
export function absent(e: GatewayError): boolean {
  const up = e.extensions.upstream;
  if (!up) return false;
  if (e.code === 'NOT_FOUND') return true;
  if (up.code === 'rest-invalid-event-id' || up.code === 'rest-event-not-found') return true;
  if (e.code !== 'BAD_USER_INPUT' || up.code !== 'rest_invalid_param') return false;
  const params = e.extensions.params;
  const names = Array.isArray(params) ? params : Object.keys(params ?? {});
  return names.length > 0 && names.every((n) => n === 'id' || n === 'slug');
}

/**
 * An answer that may mean "no such object" or "not allowed": calendar-core
 * answers a missing ID 403 `rest_forbidden` (401 to some callers), as it
 * answers an object the caller may not edit. Only a read can tell.
 */
export function ambiguous(e: GatewayError): boolean {
  const up = e.extensions.upstream;
  return (
    Boolean(up) &&
    (e.code === 'FORBIDDEN' || e.code === 'UNAUTHENTICATED') &&
    (up!.code === 'rest_forbidden' || up!.code === null)
  );
}

/**
 * Of `ids` whose write was refused ambiguously, those that do not exist: one
 * fresh legacy single read each (the legacy interface says "not found" and
 * "not allowed" apart), in parallel. Without the legacy interface nothing can
 * be told apart, and the refusal stands.
 */
export async function confirmAbsent(ctx: Context, kind: PostKind, ids: readonly number[]): Promise<Set<number>> {
  const gone = new Set<number>();
  if (!ctx.site.hasLegacy) return gone;
  await Promise.all(
    [...new Set(ids)].map(async (id) => {
      const r = await readState(ctx, 'legacy', kind, { id });
      if (!r.ok && absent(r.error)) gone.add(id);
    }),
  );
  return gone;
}

/** The NOT_FOUND a write answers for a missing object (`label`: its kind's, kinds.ts), keeping what the site said. */
export function notFoundError(e: GatewayError, label: string, target: Target): GatewayError {
  const which = 'id' in target ? `ID ${target.id}` : `slug ${JSON.stringify(target.slug)}`;
  return new GatewayError('NOT_FOUND', `No ${label} with ${which} exists on the site.`, {
    ...(e.extensions.upstream ? { upstream: e.extensions.upstream } : {}),
  });
}

/** A loader answer that means "no such object" (null, or the site refusing the ID itself). */
export function isMissing(v: unknown): boolean {
  return missing(v);
}

function missing(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (!isGatewayError(v) || v.extensions.upstream === undefined) return false;
  // Legacy single venue/organizer GETs validate the ID: a bad one is 400 rest_invalid_param, not 404 (docs/writes.md
  // "Not found");
  // calendar-core answers 401/403 rest_forbidden for an ID that does not exist (§2).
  if (v.code === 'NOT_FOUND' || v.code === 'GONE') return true;
  if (v.code === 'FORBIDDEN') return v.extensions.upstream.code === 'rest_forbidden';
  return v.code === 'BAD_USER_INPUT' && !listRefused(v);
}

/** A list read refused as a whole because one of its `include` IDs is not a term: which one is unknown. */
function listRefused(v: unknown): boolean {
  if (!isGatewayError(v) || v.code !== 'BAD_USER_INPUT') return false;
  const params = v.extensions.params;
  const names = Array.isArray(params) ? params : Object.keys(params ?? {});
  return names.includes('include');
}

export interface RefProblem {
  /** The input field, e.g. `venueIds`. */
  field: string;
  kind: RefKind;
  ids: number[];
}

const LABEL: Record<RefKind, string> = { venue: 'venue', organizer: 'organizer', category: 'category', tag: 'tag' };

export function refMessage(p: RefProblem): string {
  const list = p.ids.join(', ');
  return `${p.field}: no ${LABEL[p.kind]} with ID ${list} exists on the site (the gateway checks references before writing: calendar-core/v1 does not).`;
}

/**
 * Checks that every venue, organizer, category and tag the inputs reference
 * exists: one `loadMany` per kind over the distinct IDs of all items. Returns
 * every problem of each input that has one (by position; one per field, in
 * field order). A kind that
 * cannot be read (a site without the route, a timeout) is not held against
 * the items: the site then decides.
 */
export async function checkReferences(
  ctx: Context,
  inputs: { key: number; input: EventInput }[],
): Promise<Map<number, RefProblem[]>> {
  const byKind = new Map<RefKind, Set<number>>();
  const refs = inputs.map((x) => ({ key: x.key, refs: eventReferences(x.input) }));
  for (const r of refs)
    for (const f of r.refs)
      for (const id of f.ids) {
        if (!byKind.has(f.kind)) byKind.set(f.kind, new Set());
        byKind.get(f.kind)!.add(id);
      }
  const loader = (kind: RefKind) =>
    ({
      venue: ctx.loaders.venue,
      organizer: ctx.loaders.organizer,
      category: ctx.loaders.category,
      tag: ctx.loaders.tag,
    })[kind] as {
      loadMany(ids: readonly number[]): Promise<unknown[]>;
    };
  const absent = new Map<RefKind, Set<number>>();
  await Promise.all(
    [...byKind].map(async ([kind, set]) => {
      const ids = [...set];
      let found: unknown[];
      try {
        found = await loader(kind).loadMany(ids);
      } catch {
        return;
      }
      const gone = new Set<number>();
      const unsure: number[] = [];
      found.forEach((v, i) => {
        if (listRefused(v)) unsure.push(ids[i]!);
        else if (missing(v)) gone.add(ids[i]!);
      });
      // Terms come in `include=` lists, which the site may refuse whole for one unknown ID:
      // then each of that list's IDs is read alone (only when something is wrong, so rarely).
      if (unsure.length && (kind === 'category' || kind === 'tag')) {
        const route = kind === 'category' ? 'categories' : 'tags';
        await Promise.all(
          unsure.map((id) =>
            legacyGet(ctx.upstream, route, id).then(
              () => undefined,
              (err: unknown) => {
                if (missing(fromTransportError(err, `GET ${calendarPath('legacy', route).label}/<id>`))) gone.add(id);
              },
            ),
          ),
        );
      }
      absent.set(kind, gone);
    }),
  );
  const out = new Map<number, RefProblem[]>();
  for (const r of refs) {
    const problems = r.refs
      .map((f) => ({ field: f.field, kind: f.kind, ids: f.ids.filter((id) => absent.get(f.kind)?.has(id)) }))
      .filter((p) => p.ids.length);
    if (problems.length) out.set(r.key, problems);
  }
  return out;
}
