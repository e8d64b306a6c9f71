/** Query.category/categories/tag/tags and the Category and Tag types (legacy term routes, spec A3). */
import type { Context } from '../context.ts';
import type { CategoryResolvers, QueryResolvers, TagResolvers } from '../generated/graphql.ts';
import { idArgument, toGlobalId } from '../mapping/ids.ts';
import { legacyTerm } from '../namespaces/calendar/legacy-mapping.ts';
import type { TermModel } from '../mapping/models.ts';
import { legacyGet } from '../namespaces/calendar/legacy-requests.ts';
import { orNull } from '../loaders/index.ts';
import { GatewayError } from '../errors.ts';
import { eventsConnection, termsConnection } from './lists.ts';
import { prefetchCategoryTree } from './prefetch.ts';

async function termBy(
  ctx: Context,
  kind: 'categories' | 'tags',
  id: string,
  idType: string | null | undefined,
): Promise<TermModel | null> {
  const type = kind === 'categories' ? 'Category' : 'Tag';
  if (idType === 'SLUG') {
    const c = await termsConnection(ctx, kind, { first: 1, where: { slug: id, hideEmpty: false } });
    return c.nodes[0] ?? null;
  }
  const dbId = idArgument(id, idType, type);
  if (!dbId)
    throw GatewayError.badInput(
      `${type.toLowerCase()}: ${JSON.stringify(id)} is not a ${type} ID (a global ID or a database ID)`,
      { arguments: ['id'] },
    );
  // One term by ID: its own route (terms referenced by events batch through the include loader instead).
  const t = await orNull(legacyGet(ctx.upstream, kind, dbId).then((raw) => legacyTerm(raw, type)));
  if (t) ctx.loaders.prime(t);
  return t;
}

/** Fields an embedded term lacks come from the full (archive) term. */
async function full(ctx: Context, t: TermModel): Promise<TermModel> {
  if (t.url !== undefined) return t;
  return (await (t.kind === 'Category' ? ctx.loaders.category : ctx.loaders.tag).load(t.databaseId)) ?? t;
}

export const termQuery: Pick<QueryResolvers, 'category' | 'categories' | 'tag' | 'tags'> = {
  category: (_p, { id, idType }, ctx, info) => {
    prefetchCategoryTree(ctx, info);
    return termBy(ctx, 'categories', id, idType);
  },
  categories: (_p, args, ctx, info) => {
    prefetchCategoryTree(ctx, info);
    return termsConnection(ctx, 'categories', args);
  },
  tag: (_p, { id, idType }, ctx) => termBy(ctx, 'tags', id, idType),
  tags: (_p, args, ctx) => termsConnection(ctx, 'tags', args),
};

const common = {
  databaseId: (t: TermModel) => t.databaseId,
  name: (t: TermModel) => t.name,
  slug: (t: TermModel) => t.slug,
  description: (t: TermModel) => t.description,
  count: (t: TermModel) => t.count,
  url: async (t: TermModel, _a: unknown, ctx: Context) => (await full(ctx, t)).url ?? null,
  raw: (t: TermModel) => t.raw,
};

export const Category: CategoryResolvers = {
  ...common,
  id: (t) => toGlobalId('Category', t.databaseId),
  parent: async (t, _a, ctx) => {
    if (!t.parentId) return null;
    // The taxonomy already on its way (prefetched for `children`) has the parent: no request of its own.
    const tree = ctx.loaders.categoryTreeIfStarted();
    if (tree) await tree.catch(() => undefined);
    return ctx.loaders.category.load(t.parentId);
  },
  // From the complete taxonomy, read once per request: a tree of any size is one request when it fits one page.
  children: async (t, _a, ctx) => (await ctx.loaders.categoryTree()).filter((c) => c.parentId === t.databaseId),
  events: (t, args, ctx, info) => eventsConnection(ctx, args, info, { categoryIds: [t.databaseId] }),
};

export const Tag: TagResolvers = {
  ...common,
  id: (t) => toGlobalId('Tag', t.databaseId),
  events: (t, args, ctx, info) => eventsConnection(ctx, args, info, { tagIds: [t.databaseId] }),
};
