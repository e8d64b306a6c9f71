/**
 * Field resolution across the two calendar interfaces: a model carries what
 * its source served; a field it lacks (`undefined`) is read from the other
 * interface's copy, through a batched loader.
 */
import type DataLoader from 'dataloader';
import type { Context } from '../context.ts';
import type { PostStatus } from '../generated/graphql.ts';
import { otherCopy } from '../namespaces/calendar/choose.ts';
import type { CalendarKind } from '../namespaces/calendar/served.ts';
import type { Iface } from '../namespaces/calendar/vocabulary.ts';

interface Sourced {
  kind: CalendarKind;
  source: Iface;
  databaseId: number;
}

/** The loader of a kind's copies read through `iface`. */
export type OtherLoader<M> = (iface: Iface, ctx: Context) => DataLoader<number, M | null>;

/** A resolver of the field `key` of M: its value, or null, now or once the other copy is read. */
export type CrossField<M, K extends keyof M> = (
  m: M,
  _args: unknown,
  ctx: Context,
) => NonNullable<M[K]> | null | Promise<NonNullable<M[K]> | null>;

export function crossField<M extends Sourced, K extends keyof M>(key: K, other: OtherLoader<M>): CrossField<M, K> {
  // Synchronous when the model has the field (almost always): a promise per
  // field would send graphql-js down its async path for every object of a list.
  return (m, _args, ctx) => {
    const v = m[key];
    if (v !== undefined) return (v ?? null) as NonNullable<M[K]> | null;
    return fromOther(m, key, other, ctx);
  };
}

function fromOther<M extends Sourced, K extends keyof M>(
  m: M,
  key: K,
  loaderOf: OtherLoader<M>,
  ctx: Context,
): null | Promise<NonNullable<M[K]> | null> {
  // The site lacks the other interface, or its copy never has it either: null, and no request
  // (namespaces/calendar/served.ts).
  const iface = otherCopy(ctx.site, m, [String(key)]);
  return iface === null ? null : loadOther(m, key, loaderOf(iface, ctx));
}

async function loadOther<M extends Sourced, K extends keyof M>(
  m: M,
  key: K,
  loader: DataLoader<number, M | null>,
): Promise<NonNullable<M[K]> | null> {
  const copy = await loader.load(m.databaseId);
  return (copy?.[key] ?? null) as NonNullable<M[K]> | null;
}

/**
 * `f(value)`, synchronously when `value` is not a promise. (Not named `then`: a module exporting `then` is a thenable,
 * which `import()` would call.)
 */
export function andThen<T, U>(value: T | Promise<T>, f: (v: T) => U): U | Promise<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/**
 * Resolvers for many keys at once, each typed as its own field (not as the
 * union of them all), so the map checks against the generated resolver type.
 */
export function crossFields<M extends Sourced, K extends keyof M & string>(
  keys: readonly K[],
  other: OtherLoader<M>,
): { [P in K]: CrossField<M, P> } {
  const out: Partial<{ [P in K]: CrossField<M, P> }> = {};
  for (const k of keys) out[k] = crossField(k, other);
  return out as { [P in K]: CrossField<M, P> };
}

/** WordPress statuses -> the PostStatus enum (the schema's values; codegen checks both sides agree). */
const STATUSES: Record<string, PostStatus> = {
  publish: 'PUBLISH',
  pending: 'PENDING',
  draft: 'DRAFT',
  future: 'FUTURE',
  private: 'PRIVATE',
  trash: 'TRASH',
  'auto-draft': 'AUTO_DRAFT',
  inherit: 'INHERIT',
};

/** WordPress status -> the PostStatus enum; statuses of plugins the graph does not know read as null. */
export function statusEnum(s: string | null | undefined): PostStatus | null {
  if (!s || !Object.hasOwn(STATUSES, s)) return null;
  return STATUSES[s] ?? null;
}
