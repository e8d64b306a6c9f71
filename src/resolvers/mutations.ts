/** Resolvers of this part of the graph (see the schema file(s) it serves). */
import type { Resolvers } from '../generated/graphql.ts';

export const mutationsResolvers: Resolvers = {};
