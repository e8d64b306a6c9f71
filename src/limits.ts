/**
 * Abuse limits as GraphQL validation rules: query depth and aliases. (Token
 * count is capped at parse time through Apollo's `parseOptions.maxTokens`.)
 * Both report BAD_USER_INPUT with the limit, so callers can see what to change.
 */
import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';

function depthOf(set: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>, seen: Set<string>): number {
  if (!set) return 0;
  let max = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value.startsWith('__')) continue;
      max = Math.max(max, sel.selectionSet ? 1 + depthOf(sel.selectionSet, fragments, seen) : 1);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      max = Math.max(max, depthOf(sel.selectionSet, fragments, seen));
    } else {
      const name = sel.name.value;
      if (seen.has(name)) continue;
      const frag = fragments.get(name);
      max = Math.max(max, depthOf(frag?.selectionSet, fragments, new Set([...seen, name])));
    }
  }
  return max;
}

export function maxDepthRule(limit: number) {
  return (ctx: ValidationContext): ASTVisitor => ({
    OperationDefinition(op) {
      const fragments = new Map(ctx.getDocument().definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
      const depth = depthOf(op.selectionSet, fragments, new Set());
      if (depth > limit) {
        ctx.reportError(new GraphQLError(`Query depth ${depth} exceeds the limit of ${limit}.`, { nodes: [op], extensions: { code: 'BAD_USER_INPUT', limit: 'maxDepth', max: limit } }));
      }
    },
  });
}

export function maxAliasesRule(limit: number) {
  return (ctx: ValidationContext): ASTVisitor => {
    let count = 0;
    let reported = false;
    return {
      Field(node) {
        if (!node.alias) return;
        count += 1;
        if (count > limit && !reported) {
          reported = true;
          ctx.reportError(new GraphQLError(`The document uses more than ${limit} aliases.`, { nodes: [node], extensions: { code: 'BAD_USER_INPUT', limit: 'maxAliases', max: limit } }));
        }
      },
    };
  };
}
