/**
 * Validation of documents sent to the compatible graph: graphql-js's rules, with the two that name unknown fields and
 * types replaced by ones that tell a WPGraphQL field or type left out of the subset (schema-wpgraphql/outside.json)
 * from a name WPGraphQL never had. A front end asking for `Post.comments` or `... on MenuItem` is told the compatible
 * graph does not serve it and where its coverage is listed, not handed a null.
 */
import { readFileSync } from 'node:fs';
import {
  FieldsOnCorrectTypeRule,
  GraphQLError,
  KnownTypeNamesRule,
  isInterfaceType,
  isObjectType,
  specifiedRules,
  type ValidationRule,
} from 'graphql';

export const OUTSIDE_FILE = new URL('../../schema-wpgraphql/outside.json', import.meta.url);

export interface Outside {
  types: string[];
  fields: Record<string, string[]>;
}

export function loadOutside(file: URL = OUTSIDE_FILE): Outside {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const o = typeof parsed === 'object' && parsed !== null ? parsed : {};
  const types = 'types' in o && Array.isArray(o.types) ? o.types.map(String) : [];
  const fields: Record<string, string[]> = {};
  if ('fields' in o && typeof o.fields === 'object' && o.fields !== null)
    for (const [k, v] of Object.entries(o.fields)) fields[k] = Array.isArray(v) ? v.map(String) : [];
  return { types, fields };
}

const COVERAGE = 'docs/wpgraphql.md lists what it serves';

export const NOT_SERVED = 'WPGRAPHQL_NOT_SERVED';

/** Unknown fields: WPGraphQL's left out of the subset named as such; any other as graphql-js says it. */
export function fieldsRule(outside: Outside): ValidationRule {
  return (context) => ({
    Field(node) {
      const parent = context.getParentType();
      if (!parent || !(isObjectType(parent) || isInterfaceType(parent))) return;
      const name = node.name.value;
      if (name.startsWith('__') || parent.getFields()[name]) return;
      const wp = outside.fields[parent.name]?.includes(name);
      context.reportError(
        new GraphQLError(
          wp
            ? `${parent.name}.${name} is part of WPGraphQL's schema but not served by this WPGraphQL-compatible graph; ${COVERAGE}.`
            : `Cannot query field "${name}" on type "${parent.name}".`,
          { nodes: node, ...(wp ? { extensions: { code: NOT_SERVED, coordinate: `${parent.name}.${name}` } } : {}) },
        ),
      );
    },
  });
}

/** Unknown type names (fragments, variables): WPGraphQL's left out of the subset named as such. */
export function typesRule(outside: Outside): ValidationRule {
  return (context) => ({
    NamedType(node) {
      const name = node.name.value;
      if (context.getSchema().getType(name)) return;
      const wp = outside.types.includes(name);
      context.reportError(
        new GraphQLError(
          wp
            ? `${name} is a type of WPGraphQL's schema not served by this WPGraphQL-compatible graph; ${COVERAGE}.`
            : `Unknown type "${name}".`,
          { nodes: node, ...(wp ? { extensions: { code: NOT_SERVED, coordinate: name } } : {}) },
        ),
      );
    },
  });
}

/** graphql-js's rules with the two above in place of FieldsOnCorrectTypeRule and KnownTypeNamesRule. */
export function wpGraphqlRules(outside: Outside = loadOutside()): ValidationRule[] {
  return specifiedRules.map((r) =>
    r === FieldsOnCorrectTypeRule ? fieldsRule(outside) : r === KnownTypeNamesRule ? typesRule(outside) : r,
  );
}
