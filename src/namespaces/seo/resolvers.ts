/**
 * Query.seo and Mutation.seo (schema/seo.graphql). Every field is served from
 * its route declaration (routes.ts, derived by src/routes/declare.ts) but
 * `importRedirects`, which sends many `createRedirect` requests through the
 * bulk writer. The roots carry nothing; a site without `seo/v1` (or one of its
 * routes) fails the fields that need it, at the operation's session's gate.
 */
import type { Resolvers, SeoMutationResolvers, SeoQueryResolvers } from '../../generated/graphql.ts';
import type { EmptyModel } from '../../mapping/models.ts';
import * as map from './mapping.ts';
import { resolversOf, writeRequestOf } from '../../routes/declare.ts';
import { CREATE_REDIRECT, SEO_MUTATION_ROUTES, SEO_QUERY_ROUTES, checkTarget } from './routes.ts';
import { sendWrites } from '../../upstream/batch.ts';
import { GatewayError } from '../../errors.ts';

/** Most redirects `importRedirects` takes at once. */
const MAX_IMPORT = 500;

const SeoQuery: SeoQueryResolvers = resolversOf(SEO_QUERY_ROUTES);

const SeoMutation: SeoMutationResolvers = {
  ...resolversOf(SEO_MUTATION_ROUTES),
  importRedirects: async (_p, { inputs, ignoreWarning }, ctx) => {
    if (inputs.length > MAX_IMPORT)
      throw GatewayError.badInput(`importRedirects: at most ${MAX_IMPORT} inputs, got ${inputs.length}`, {
        arguments: ['inputs'],
      });
    inputs.forEach((input, i) => checkTarget(input, `inputs[${i}]`));
    const reqs = inputs.map((input) => writeRequestOf(CREATE_REDIRECT, { input, ignoreWarning }));
    const outcomes = await sendWrites(ctx.upstream, ctx.site, reqs, {});
    return outcomes.map((o, index) => {
      // Validation warnings and errors are HTTP 200 `success: false` bodies: data, like createRedirect.
      // A store failure (400) or a refusal is this item's error.
      if (o.ok) return { index, result: map.redirectResult({ status: o.status, body: o.body }), error: null };
      const { code, upstream } = o.error.extensions;
      return {
        index,
        result: null,
        error: { code, message: o.error.message, path: ['inputs', String(index)], upstream: upstream ?? null },
      };
    });
  },
};

export const seoResolvers: Resolvers = {
  // The roots carry nothing: every SeoQuery / SeoMutation field reads the context.
  Query: { seo: (): EmptyModel => ({}) },
  Mutation: { seo: (): EmptyModel => ({}) },
  SeoQuery,
  SeoMutation,
};
