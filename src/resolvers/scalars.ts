/** `DateTime` (RFC 3339; inputs checked here, so a bad date never reaches the site) and `JSON`. */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { isValidDateTimeInput } from '../mapping/dates.ts';

function checkDate(v: unknown): string {
  if (typeof v !== 'string' || !isValidDateTimeInput(v)) {
    throw new GraphQLError(
      `DateTime must be an RFC 3339 date-time such as 2026-11-22T20:00:00+01:00 (or a date), got ${JSON.stringify(v)}`,
      {
        extensions: { code: 'BAD_USER_INPUT' },
      },
    );
  }
  return v.trim();
}

/**
 * The scalars' descriptions live in the SDL (schema/base.graphql). graphql-tools
 * copies every own property of a scalar resolver onto the SDL's scalar,
 * `description: undefined` included, which would drop them from the served
 * schema and GraphiQL's docs; so the resolvers carry no description key.
 */
function describedBySdl(s: GraphQLScalarType): GraphQLScalarType {
  delete (s as { description?: unknown }).description;
  return s;
}

export const DateTime = describedBySdl(
  new GraphQLScalarType({
    name: 'DateTime',
    serialize: (v) => v,
    parseValue: checkDate,
    parseLiteral: (ast) => checkDate(ast.kind === Kind.STRING ? ast.value : undefined),
  }),
);

function literal(ast: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value, variables)]));
    case Kind.LIST:
      return ast.values.map((v) => literal(v, variables));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
    default:
      return null;
  }
}

export const JSONScalar = describedBySdl(
  new GraphQLScalarType({
    name: 'JSON',
    serialize: (v) => v,
    parseValue: (v) => v,
    parseLiteral: literal,
  }),
);
