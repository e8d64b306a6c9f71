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
  return async (m: M, _args: unknown, ctx: Context): Promise<NonNullable<M[K]> | null> => {
    if (m[key] !== undefined) return (m[key] ?? null) as NonNullable<M[K]> | null;
    const loader = other(m, ctx);
    if (!loader) return null;
    const copy = await loader.load(m.databaseId);
    return (copy?.[key] ?? null) as NonNullable<M[K]> | null;
  };
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
