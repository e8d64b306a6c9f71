/**
 * Reads an operation will need, started before the answer they depend on
 * arrives (docs/graph.md "How reads go upstream": one round trip per level of
 * real data dependency). Only where the read would be made anyway, so the
 * upstream request count does not grow.
 */
import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { Context } from '../context.ts';

/** Whether a field named `name` is selected anywhere below the resolving field (fragments followed). */
export function selectsBelow(info: GraphQLResolveInfo, name: string): boolean {
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode | undefined): boolean => {
    if (!set) return false;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        if (s.name.value === name || walk(s.selectionSet)) return true;
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        if (walk(s.selectionSet)) return true;
      } else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        if (walk(info.fragments[s.name.value]?.selectionSet)) return true;
      }
    }
    return false;
  };
  return info.fieldNodes.some((f) => walk(f.selectionSet));
}

/**
 * `Category.children` (only categories have a `children` field) is computed
 * from the complete category taxonomy, which is otherwise read only once the
 * categories themselves have arrived: a second round trip. Selected below a
 * list or a category, the taxonomy is read in parallel with it.
 */
export function prefetchCategoryTree(ctx: Context, info: GraphQLResolveInfo): void {
  if (!ctx.site.hasLegacy || !selectsBelow(info, 'children')) return;
  // The resolvers that need it await the same promise and see its error there.
  ctx.loaders.categoryTree().catch(() => undefined);
}
