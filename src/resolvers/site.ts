/** Query.site, Query.namespaces, Query.namespace and Mutation.refreshSite. */
import type { MutationResolvers, NamespaceResolvers, QueryResolvers } from '../generated/graphql.ts';
import { obj } from '../mapping/json.ts';
import type { NamespaceModel, SiteInfo } from '../mapping/site-models.ts';
import { parseIndex } from '../upstream/discovery.ts';
import { GatewayError } from '../errors.ts';
import { INDEXED_NAMESPACES } from '../namespaces/catalog.ts';
import { namespaceIndex } from '../namespaces/site-index.ts';
import { specNamespace } from '../upstream/names.ts';

function fromSite(site: SiteInfo, name: string): NamespaceModel {
  const available = site.namespaces.includes(name);
  const routes = site.routes
    .filter((r) => r.namespace === name)
    .map(({ pattern, methods, batchMethods }) => ({ pattern, methods, batchMethods }));
  return { name, available, routes: available ? routes : [], raw: null };
}

export const siteQuery: Pick<QueryResolvers, 'site' | 'namespaces' | 'namespace'> = {
  site: (_p, _a, ctx) => ctx.site,
  namespaces: (_p, _a, ctx) =>
    [...new Set([...INDEXED_NAMESPACES, ...ctx.site.namespaces])].map((n) => fromSite(ctx.site, n)),
  namespace: async (_p, args, ctx) => {
    // A plugin's own name (`tribe/events/v1`) names the same namespace as the spec's (upstream/names.ts).
    const name = specNamespace(args.name);
    if (!(INDEXED_NAMESPACES as readonly string[]).includes(name) && !ctx.site.namespaces.includes(name)) {
      throw GatewayError.badInput(
        `namespace: ${JSON.stringify(name)} is neither in the spec nor on this site (known: ${INDEXED_NAMESPACES.join(', ')})`,
        { arguments: ['name'] },
      );
    }
    if (!ctx.site.namespaces.includes(name)) return fromSite(ctx.site, name);
    const raw = await namespaceIndex(ctx.upstream, name);
    // The namespace index has the root index's `routes` shape (docs/real-sites.md).
    const parsed = parseIndex({ namespaces: [name], routes: obj(raw, 'namespace index').routes ?? {} });
    return { ...fromSite(parsed, name), raw };
  },
};

export const siteMutation: Pick<MutationResolvers, 'refreshSite'> = {
  refreshSite: (_p, _a, ctx) => ctx.refreshSite(),
};

export const Namespace: NamespaceResolvers = {
  name: (n) => n.name,
  available: (n) => n.available,
  routes: (n) => n.routes,
  raw: (n) => n.raw,
};
