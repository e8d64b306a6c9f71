/**
 * Apollo Federation 2 subgraph mode (`FEDERATION=1`).
 *
 * The same SDL (schema/*.graphql, as `buildSchema` merges it) and the same
 * resolvers as the plain schema, with the federation directives added here,
 * to the parsed document, so the `.graphql` files stay plain GraphQL:
 *
 * - `extend schema @link(url: ".../federation/v2.4", import: ["@key"])`;
 * - `@key(fields: "id")` on `Node` and on every type that implements it
 *   (Event, Venue, Organizer, Post, Category, Tag, Series), found in the AST,
 *   so a node type added later is keyed the day it implements `Node`.
 *
 * `@apollo/subgraph`'s `buildSubgraphSchema` then adds `_service { sdl }` and
 * `_entities(representations:)`. Each representation is resolved by
 * `Query.node`'s own resolver, i.e. through the request's DataLoaders: the
 * `_entities` resolver asks for every representation in the same tick, so
 * 20 Event references are one upstream `include=` request, as `nodes(ids:)` is.
 */
import { buildSubgraphSchema } from '@apollo/subgraph';
import {
  Kind,
  parse,
  printSchema,
  type ConstDirectiveNode,
  type DocumentNode,
  type GraphQLSchema,
  type ObjectTypeDefinitionNode,
  type SchemaExtensionNode,
} from 'graphql';
import type { Context } from './context.ts';
import { fromGlobalId } from './mapping/ids.ts';
import { nodeOf } from './resolvers/base.ts';
import { mergeResolvers, resolvers } from './resolvers/index.ts';
import type { Resolvers } from './generated/graphql.ts';
import { buildSchema } from './schema.ts';
import { GatewayError } from './errors.ts';

/**
 * Federation 2.4: keys on interfaces (2.3: entity interfaces, so other
 * subgraphs can add fields to every `Node` with `@interfaceObject`) and the
 * subgraph's `Subscription` fields, which Apollo Router serves only from a
 * 2.4 link (docs/subscriptions.md). Apollo Router 1.x/2.x, @apollo/gateway
 * 2.4+ and Hive Gateway compose it; nothing newer is used.
 */
export const FEDERATION_SPEC_URL = 'https://specs.apollo.dev/federation/v2.4';

/** The interface whose implementations are entities, keyed by their global `id`. */
const NODE = 'Node';

const name = (value: string) => ({ kind: Kind.NAME, value }) as const;
const str = (value: string) => ({ kind: Kind.STRING, value }) as const;

const keyDirective: ConstDirectiveNode = {
  kind: Kind.DIRECTIVE,
  name: name('key'),
  arguments: [{ kind: Kind.ARGUMENT, name: name('fields'), value: str('id') }],
};

const linkExtension: SchemaExtensionNode = {
  kind: Kind.SCHEMA_EXTENSION,
  directives: [
    {
      kind: Kind.DIRECTIVE,
      name: name('link'),
      arguments: [
        { kind: Kind.ARGUMENT, name: name('url'), value: str(FEDERATION_SPEC_URL) },
        { kind: Kind.ARGUMENT, name: name('import'), value: { kind: Kind.LIST, values: [str('@key')] } },
      ],
    },
  ],
};

const implementsNode = (d: ObjectTypeDefinitionNode): boolean =>
  (d.interfaces ?? []).some((i) => i.name.value === NODE);

/**
 * The schema's SDL as one document with `@link` and the `@key`s added. One
 * document printed from the schema `buildSchema` makes, not the files: the
 * files repeat some definitions (`enum PostFormat` in two of them), which
 * graphql-tools merges and federation's own SDL reader refuses.
 */
export function federatedTypeDefs(schema: GraphQLSchema = buildSchema()): DocumentNode {
  const doc = parse(printSchema(schema));
  const definitions = doc.definitions.map((d) => {
    const keyed =
      (d.kind === Kind.OBJECT_TYPE_DEFINITION && implementsNode(d)) ||
      (d.kind === Kind.INTERFACE_TYPE_DEFINITION && d.name.value === NODE);
    return keyed ? { ...d, directives: [...(d.directives ?? []), keyDirective] } : d;
  });
  return { kind: Kind.DOCUMENT, definitions: [linkExtension, ...definitions] };
}

/** The names of the entity types (`Node` and its implementations) in the document. */
export function keyedTypes(doc: DocumentNode): string[] {
  return doc.definitions.flatMap((d) =>
    (d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.INTERFACE_TYPE_DEFINITION) &&
    d.directives?.some((x) => x.name.value === 'key')
      ? [d.name.value]
      : [],
  );
}

/**
 * `__resolveReference` of an entity type: the representation's `id` must be a
 * global ID of that type (of any node type for `Node`); it is then read as
 * `node(id:)` reads it, through the loaders. An unknown ID resolves to null,
 * as `node(id:)` does; a malformed one is the caller's error.
 */
function referenceResolver(type: string) {
  // Async, so a bad representation rejects its own item: a synchronous throw would fail the whole `_entities`
  // list. The load itself still starts in the caller's tick, so the loaders batch every representation.
  return async (ref: { id?: unknown }, ctx: Context): Promise<unknown> => {
    const g = typeof ref.id === 'string' ? fromGlobalId(ref.id) : null;
    if (!g || (type !== NODE && g.type !== type)) {
      // At most 100 characters of it in the message: a representation can be as long as the request body.
      throw GatewayError.badInput(
        `_entities: ${JSON.stringify(ref.id ?? null).slice(0, 100)} is not a global ID of type ${type}`,
        { arguments: ['representations'] },
      );
    }
    return nodeOf(ctx, ref.id as string);
  };
}

/** The executable schema as a Federation 2 subgraph (config `federation: true`). */
export function buildFederatedSchema(): GraphQLSchema {
  const typeDefs = federatedTypeDefs();
  const references = Object.fromEntries(
    keyedTypes(typeDefs).map((t) => [t, { __resolveReference: referenceResolver(t) }]),
  );
  // `__resolveReference` is not a field, so mergeResolvers' one-definition check still holds.
  // One module (the array form): its resolver map is typed for any context, where the legacy `{typeDefs, resolvers}`
  // form wants `unknown`.
  return buildSubgraphSchema([{ typeDefs, resolvers: mergeResolvers(resolvers, references as Resolvers) }]);
}
