/**
 * Which GraphQL field reaches which REST route, checked by the compiler: a
 * row names the schema's field coordinates (`Query.events`, `Event.website`,
 * `Mutation.createEvent`), typed from the generated resolver map, so a field
 * renamed or removed in schema/*.graphql fails `npm run typecheck` here. An
 * argument value, a type or a note is added with `use(...)`, whose argument
 * names and values are checked against the field's generated argument type.
 *
 * Declared routes (src/routes/declare.ts) derive their rows; hand-written
 * routes write theirs with these types; src/namespaces/route-table.ts
 * collects them all. `npm run routes` prints the table;
 * the route-coverage test proves each row is reached through the gateway.
 *
 * This module names the generated types, which name `Context`: a module that
 * imports it must not be reachable from src/context.ts (type-only imports
 * count for `npm run imports`), so rows live beside route declarations and
 * resolvers, never in a module the loaders or the session import.
 */
import type { GraphQLScalarType } from 'graphql';
import type { Resolvers } from '../generated/graphql.ts';

type TypeMap = Required<Resolvers>;

/** The schema's object, interface and union types (everything of the resolver map but scalars). */
export type SchemaTypeName = { [T in keyof TypeMap]: TypeMap[T] extends GraphQLScalarType ? never : T }[keyof TypeMap] &
  string;

/** The fields of type T (not `__isTypeOf` / `__resolveType`). */
export type FieldName<T extends SchemaTypeName> = Exclude<keyof TypeMap[T], `__${string}`> & string;

/** A schema coordinate of a field, e.g. `Query.events`, `SeoMutation.createRedirect`. */
export type FieldCoordinate = { [T in SchemaTypeName]: `${T}.${FieldName<T>}` }[SchemaTypeName];

/**
 * The resolver function of field K in a generated resolver map R (codegen's `Resolver` is a function or `{resolve}`).
 */
type FieldFn<R, K extends keyof R> = Extract<NonNullable<R[K]>, (...args: never[]) => unknown>;
/** The arguments of field K as codegen types them (defaulted arguments are required). */
export type ArgsOf<R, K extends keyof R> = Parameters<FieldFn<R, K>>[1];

/** The arguments of the field at coordinate C. */
export type ArgsAt<C extends FieldCoordinate> = C extends `${infer T}.${infer F}`
  ? T extends SchemaTypeName
    ? F extends keyof TypeMap[T]
      ? ArgsOf<TypeMap[T], F>
      : never
    : never
  : never;

/** Argument values that pick a route (`method: PUT`, `api: LEGACY_EVENTS`), each a value of the argument's type. */
export type ArgValues<C extends FieldCoordinate> = { readonly [K in keyof ArgsAt<C>]?: NonNullable<ArgsAt<C>[K]> };

declare const QUALIFIED: unique symbol;
/** A coordinate with a checked qualifier, made only by `use`. */
export type QualifiedField = string & { readonly [QUALIFIED]: true };

/** A field that reaches a route: a bare coordinate, or one qualified by `use`. */
export type FieldUse = FieldCoordinate | QualifiedField;

export interface Qualifier<C extends FieldCoordinate> {
  /** The argument values that make the field reach this route. */
  readonly args?: ArgValues<C>;
  /** The concrete type, for a field that returns an interface (`Query.node` for a `Post`). */
  readonly type?: SchemaTypeName;
  /** Free text after the checked parts: when the field takes this route (`sites without calendar-core/v1`). */
  readonly note?: string;
}

const argText = (v: unknown): string =>
  typeof v === 'string' ? (/^[A-Z][A-Z0-9_]*$/.test(v) ? v : JSON.stringify(v)) : JSON.stringify(v);

/**
 * `use('Query.apiDocument', { args: { api: 'LEGACY_EVENTS' } })` -> `Query.apiDocument(api: LEGACY_EVENTS)`;
 * `use('Query.node', { type: 'Post' })` -> `Query.node (Post)`; a note is appended in parentheses.
 */
export function use<C extends FieldCoordinate>(field: C, q: Qualifier<C>): QualifiedField {
  const args = Object.entries(q.args ?? {}).map(([k, v]) => `${k}: ${argText(v)}`);
  let text: string = field;
  if (args.length) text += `(${args.join(', ')})`;
  if (q.type) text += ` (${q.type})`;
  if (q.note) text += ` (${q.note})`;
  return text as QualifiedField;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteUse {
  method: Method;
  /** As in spec/routes.tsv, e.g. `/calendar-core/v1/events/<id>`. */
  path: string;
  /** The fields that reach it, e.g. `'Query.events'` or `['Query.posts', use('Query.node', { type: 'Post' })]`. */
  field: FieldUse | readonly FieldUse[];
}

/** A row's fields as `npm run routes` prints them. */
export function fieldText(field: RouteUse['field'] | string): string {
  return typeof field === 'string' ? field : field.join(', ');
}

/** The route table's row of a hand-written route (routes/hand.ts): its method and path from the route itself. */
export function rowOf(route: { readonly method: Method; readonly path: string }, field: RouteUse['field']): RouteUse {
  return { method: route.method, path: route.path, field };
}
