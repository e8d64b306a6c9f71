/**
 * What an operation selects below a connection field, read from the
 * resolver's `info` before anything is sent: the fields of its `nodes` and
 * `edges { node }`, through fragments, so a list can be served by the
 * interface that has them all (namespaces/calendar/served.ts) instead of one request per
 * object for a field the serving list lacks. Planned once per list, as
 * graphql-tools plans a merged type from its selection set.
 */
import type { FragmentDefinitionNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';

const EMPTY: ReadonlySet<string> = new Set();

/** Field names selected directly in `set` (fragments expanded), each with the selection sets below it. */
function fieldsOf(
  set: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
  out: Map<string, SelectionSetNode[]>,
  seen = new Set<string>(),
): void {
  if (!set) return;
  for (const s of set.selections) {
    if (s.kind === 'Field') {
      const below = out.get(s.name.value) ?? [];
      if (s.selectionSet) below.push(s.selectionSet);
      out.set(s.name.value, below);
    } else if (s.kind === 'InlineFragment') {
      fieldsOf(s.selectionSet, fragments, out, seen);
    } else if (!seen.has(s.name.value)) {
      seen.add(s.name.value);
      fieldsOf(fragments[s.name.value]?.selectionSet, fragments, out, seen);
    }
  }
}

function children(
  sets: readonly (SelectionSetNode | undefined)[],
  info: GraphQLResolveInfo,
): Map<string, SelectionSetNode[]> {
  const out = new Map<string, SelectionSetNode[]>();
  for (const set of sets) fieldsOf(set, info.fragments, out);
  return out;
}

/**
 * Kept per field node list: graphql-js hands every object of a list the same
 * `fieldNodes` array, so `venues { events { … } }` walks its selection once.
 */
const memo = new WeakMap<readonly unknown[], ReadonlySet<string>>();

/** The field names selected on the objects of the connection `info` resolves (`nodes`, `edges.node`). */
export function nodeFields(info: GraphQLResolveInfo | undefined): ReadonlySet<string> {
  if (!info) return EMPTY;
  let found = memo.get(info.fieldNodes);
  if (!found) {
    const top = children(
      info.fieldNodes.map((f) => f.selectionSet),
      info,
    );
    const nodes = [...(top.get('nodes') ?? []), ...(children(top.get('edges') ?? [], info).get('node') ?? [])];
    found = new Set(children(nodes, info).keys());
    memo.set(info.fieldNodes, found);
  }
  return found;
}
