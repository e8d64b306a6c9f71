/**
 * Field resolution across the two calendar interfaces: a model carries what
 * its source served; a field it lacks (`undefined`) is read from the other
 * interface's copy, through a batched loader.
 */
import type DataLoader from 'dataloader';
import type { Context } from '../context.ts';
import type { Source } from '../mapping/models.ts';

interface Sourced {
  source: Source;
  databaseId: number;
}

export type OtherLoader<M> = (m: M, ctx: Context) => DataLoader<number, M | null> | null;

export function crossField<M extends Sourced, K extends keyof M>(key: K, other: OtherLoader<M>) {
  // Synchronous when the model has the field (almost always): a promise per
  // field would send graphql-js down its async path for every object of a list.
  return (m: M, _args: unknown, ctx: Context): NonNullable<M[K]> | null | Promise<NonNullable<M[K]> | null> => {
    const v = m[key];
    if (v !== undefined) return (v ?? null) as NonNullable<M[K]> | null;
    return fromOther(m, key, other, ctx);
  };
}

async function fromOther<M extends Sourced, K extends keyof M>(m: M, key: K, other: OtherLoader<M>, ctx: Context): Promise<NonNullable<M[K]> | null> {
  const loader = other(m, ctx);
  if (!loader) return null;
  const copy = await loader.load(m.databaseId);
  return (copy?.[key] ?? null) as NonNullable<M[K]> | null;
}

/** `f(value)`, synchronously when `value` is not a promise. (Not named `then`: a module exporting `then` is a thenable, which `import()` would call.) */
export function andThen<T, U>(value: T | Promise<T>, f: (v: T) => U): U | Promise<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/** Resolvers for many keys at once. */
export function crossFields<M extends Sourced, K extends keyof M & string>(keys: readonly K[], other: OtherLoader<M>): Record<K, ReturnType<typeof crossField<M, K>>> {
  return Object.fromEntries(keys.map((k) => [k, crossField<M, K>(k, other)])) as Record<K, ReturnType<typeof crossField<M, K>>>;
}

const STATUSES = ['publish', 'pending', 'draft', 'future', 'private', 'trash', 'auto-draft', 'inherit'];

/** WordPress status -> the PostStatus enum; statuses of plugins the graph does not know read as null. */
export function statusEnum(s: string | null | undefined): string | null {
  if (!s || !STATUSES.includes(s)) return null;
  return s.toUpperCase().replace('-', '_');
}
