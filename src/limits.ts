/**
 * Abuse limits as GraphQL validation rules: query depth, aliases and an
 * upstream-cost estimate. (Token
 * count is capped at parse time through Apollo's `parseOptions.maxTokens`.)
 * Both report BAD_USER_INPUT with the limit, so callers can see what to change.
 */
import {
  GraphQLError, Kind,
  type ASTVisitor, type ArgumentNode, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext,
} from 'graphql';

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

/**
 * An estimate of the upstream calls a document can cause: every connection
 * field costs one list request per parent object, and multiplies what is
 * below it by its page size (`first`/`last`, or the default). Plain list
 * fields multiply by `listFactor`. Nested connections are what make a short
 * query expensive (`events { venues { events { ... } } }`), and this counts
 * exactly that.
 */
export function maxCostRule(limit: number, defaultPageSize: number, listFactor = 5) {
  return (ctx: ValidationContext): ASTVisitor => {
    const schema = ctx.getSchema();
    const fragments = new Map(ctx.getDocument().definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
    const variables: Record<string, unknown> = {};

    const pageSize = (args: readonly ArgumentNode[] | undefined): number => {
      for (const a of args ?? []) {
        if (a.name.value !== 'first' && a.name.value !== 'last') continue;
        if (a.value.kind === Kind.INT) return Number(a.value.value);
        if (a.value.kind === Kind.VARIABLE) {
          const v = variables[a.value.name.value];
          if (typeof v === 'number') return v;
        }
      }
      return defaultPageSize;
    };

    const costOf = (set: SelectionSetNode | undefined, typeName: string, mult: number, seen: Set<string>): number => {
      if (!set) return 0;
      const type = schema.getType(typeName);
      let total = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.INLINE_FRAGMENT) {
          total += costOf(sel.selectionSet, sel.typeCondition?.name.value ?? typeName, mult, seen);
        } else if (sel.kind === Kind.FRAGMENT_SPREAD) {
          const frag = fragments.get(sel.name.value);
          if (frag && !seen.has(frag.name.value)) total += costOf(frag.selectionSet, frag.typeCondition.name.value, mult, new Set([...seen, frag.name.value]));
        } else if (type && 'getFields' in type) {
          // Duck-typed on purpose: graphql's instanceof checks fail across its ESM/CJS builds.
          const def = type.getFields()[sel.name.value];
          if (!def) continue;
          const typeText = String(def.type);
          const named = { name: typeText.replace(/[[\]!]/g, '') };
          const isConnection = named.name.endsWith('Connection') && 'args' in def && def.args.some((a) => a.name === 'first');
          if (isConnection) {
            total += mult + costOf(sel.selectionSet, named.name, mult * Math.max(1, pageSize(sel.arguments)), seen);
          } else if (named.name.endsWith('Connection') || named.name.endsWith('Edge')) {
            total += costOf(sel.selectionSet, named.name, mult, seen);
          } else {
            total += costOf(sel.selectionSet, named.name, typeText.startsWith('[') ? mult * listFactor : mult, seen);
          }
        }
      }
      return total;
    };

    return {
      OperationDefinition(op) {
        for (const v of op.variableDefinitions ?? []) {
          if (v.defaultValue?.kind === Kind.INT) variables[v.variable.name.value] = Number(v.defaultValue.value);
        }
        const root = op.operation === 'query' ? schema.getQueryType() : op.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
        if (!root) return;
        const cost = costOf(op.selectionSet, root.name, 1, new Set());
        if (cost > limit) {
          ctx.reportError(
            new GraphQLError(`Query cost ${cost} exceeds the limit of ${limit}: it may need about ${cost} upstream list requests. Ask for fewer nested connections or smaller pages.`, {
              nodes: [op],
              extensions: { code: 'BAD_USER_INPUT', limit: 'maxCost', cost, max: limit },
            }),
          );
        }
      },
    };
  };
}
