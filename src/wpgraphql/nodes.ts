/**
 * `node(id:)` and `nodeByUri(uri:)`, and which WPGraphQL type a model is. A global ID names its loader (`post`,
 * `term`, `user`) but not the post type or taxonomy: every type of that loader is tried at once, batched with the
 * operation's other reads, and the one that has the ID answers. A URI is read by the permalink structure of WordPress
 * and The Events Calendar (`/<slug>/`, `/event/<slug>/`, `/venue/…`, `/organizer/…`, `/events/category/…`, `/tag/…`,
 * `/category/…`, `/author/…`); the object found must have that very URI, so a site with other bases answers null
 * rather than a wrong node.
 */
import type { Context } from '../context.ts';
import { GatewayError, isGatewayError } from '../errors.ts';
import { orNull } from '../loaders/index.ts';
import { siteOffers } from '../upstream/gate.ts';
import { eventBy, eventsList, placeBy, placesList } from './calendar.ts';
import {
  contentBy,
  contentList,
  homeOf,
  postBy,
  postsList,
  termBy,
  userBy,
  type ContentKind,
  type IdType,
} from './content.ts';
import type { WpPaging } from './args.ts';
import { databaseIdArg, fromWpGlobalId, pathOf, wpGlobalId } from './ids.ts';
import { readingOf, wpLoaders } from './loaders.ts';
import { contentTypeBy } from './site.ts';
import { fromTerm, type WpConnection, type WpNode } from './models.ts';
import type { TermModel } from '../mapping/models.ts';
import { legacyTerm } from '../namespaces/calendar/legacy-mapping.ts';
import { legacyGet } from '../namespaces/calendar/legacy-requests.ts';

/**
 * A read of an ID as one of the types it may be: not found is null, and so is the site refusing the ID as a parameter
 * (`include=` of a term list validates that the IDs are terms of its taxonomy: rest_invalid_param).
 */
async function probe<T>(p: Promise<T | null>): Promise<T | null> {
  try {
    return await orNull(p);
  } catch (err) {
    if (isGatewayError(err) && err.extensions.upstream?.code === 'rest_invalid_param') return null;
    throw err;
  }
}

/** A term read alone, put in the operation's loaders for its other fields. */
function primed(ctx: Context, t: TermModel): TermModel {
  ctx.loaders.prime(t);
  return t;
}

/** The first of the candidates that is not null (all read together). */
async function firstFound(candidates: Promise<WpNode | null>[]): Promise<WpNode | null> {
  for (const found of await Promise.all(candidates)) if (found) return found;
  return null;
}

export async function nodeById(ctx: Context, id: string | null | undefined): Promise<WpNode | null> {
  if (!id) return null;
  const g = fromWpGlobalId(id);
  if (!g)
    throw GatewayError.badInput(`node: ${JSON.stringify(id)} is not a WPGraphQL global ID`, { arguments: ['id'] });
  switch (g.loader) {
    case 'post':
      return firstFound([
        probe(wpLoaders(ctx).post.load(g.id)),
        ...(siteOffers(ctx.site, 'GET', '/core/v2/pages') ? [probe(wpLoaders(ctx).page.load(g.id))] : []),
        ...(siteOffers(ctx.site, 'GET', '/core/v2/media') ? [probe(wpLoaders(ctx).media.load(g.id))] : []),
        probe(ctx.loaders.event.load(g.id)),
        probe(ctx.loaders.venue.load(g.id)),
        probe(ctx.loaders.organizer.load(g.id)),
      ]);
    case 'term':
      // Single reads, not the loaders' `include=` batches: the legacy term archives refuse a whole batch with one ID
      // of another taxonomy (rest_invalid_param), which would fail the operation's other reads of the same batch.
      return firstFound([
        probe(legacyGet(ctx.upstream, 'categories', g.id)).then((raw) =>
          raw ? fromTerm(primed(ctx, legacyTerm(raw, 'Category')), 'EventsCategory') : null,
        ),
        probe(legacyGet(ctx.upstream, 'tags', g.id)).then((raw) =>
          raw ? fromTerm(primed(ctx, legacyTerm(raw, 'Tag')), 'Tag') : null,
        ),
        // The posts' categories only where the site lists their route (else the others alone answer).
        ...(siteOffers(ctx.site, 'GET', '/core/v2/categories') ? [probe(wpLoaders(ctx).category.load(g.id))] : []),
      ]);
    case 'user':
      return userBy(ctx, id, 'ID');
  }
}

export async function nodeByUri(ctx: Context, uri: string): Promise<WpNode | null> {
  const path = pathOf(uri, homeOf(ctx));
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0) return frontNode(ctx);
  const [first, second] = parts;
  if (parts.length === 2 && first === 'event') return eventBy(ctx, path, 'URI');
  if (parts.length === 2 && first === 'venue') return placeBy(ctx, 'venues', path, 'URI');
  if (parts.length === 2 && first === 'organizer') return placeBy(ctx, 'organizers', path, 'URI');
  // A child category's archive is under its parents' slugs (`/events/category/music/classical/`).
  if (parts.length >= 3 && first === 'events' && second === 'category')
    return termBy(ctx, 'EventsCategory', path, 'URI');
  if (parts.length === 2 && first === 'tag') return termBy(ctx, 'Tag', path, 'URI');
  if (parts.length >= 2 && first === 'category') return termBy(ctx, 'Category', path, 'URI');
  if (parts.length === 2 && first === 'author') return userBy(ctx, path, 'URI');
  return contentByUri(ctx, path);
}

/**
 * `/`: the page shown on the front, or else the posts' ContentType, as WPGraphQL resolves the home URI. Which one is
 * the reading settings', which WordPress shows administrators only (FORBIDDEN naming them for anyone else).
 */
async function frontNode(ctx: Context): Promise<WpNode | null> {
  const r = await readingOf(ctx, 'nodeByUri("/")');
  if (r.showOnFront === 'page' && r.pageOnFront) return contentBy(ctx, 'Page', String(r.pageOnFront), 'DATABASE_ID');
  return contentTypeBy(ctx, 'post', 'NAME');
}

/**
 * A post's or a page's URI (`/hello-world/`, `/about/team/`): both are read at once where the site lists pages, and the
 * one whose own link is that URI answers (WordPress's rewrite rules give a page the path before a post).
 */
async function contentByUri(ctx: Context, path: string): Promise<WpNode | null> {
  const pages = siteOffers(ctx.site, 'GET', '/core/v2/pages');
  const single = path.split('/').filter(Boolean).length === 1;
  return firstFound([
    ...(pages ? [contentBy(ctx, 'Page', path, 'URI')] : []),
    ...(single ? [postBy(ctx, path, 'URI')] : []),
  ]);
}

const CONTENT_TYPES: Record<string, ContentKind | 'Event' | 'Venue' | 'Organizer' | undefined> = {
  POST: 'Post',
  PAGE: 'Page',
  ATTACHMENT: 'MediaItem',
  TRIBE_EVENTS: 'Event',
  TRIBE_VENUE: 'Venue',
  TRIBE_ORGANIZER: 'Organizer',
};

/** `contentNode(id:, idType:, contentType:)`: a content node of any served type, or of the one named. */
export async function contentNodeBy(
  ctx: Context,
  id: string,
  idType: IdType,
  contentType: string | null,
): Promise<WpNode | null> {
  const only = contentType ? CONTENT_TYPES[contentType] : null;
  if (contentType && !only)
    throw GatewayError.badInput(`contentNode: contentType ${contentType} is not served by the compatible graph`, {
      arguments: ['contentType'],
    });
  let found: WpNode | null;
  if (only === 'Post' || only === 'Page' || only === 'MediaItem') found = await contentBy(ctx, only, id, idType);
  else if (only === 'Event') found = await eventBy(ctx, id, idType);
  else if (only === 'Venue') found = await placeBy(ctx, 'venues', id, idType);
  else if (only === 'Organizer') found = await placeBy(ctx, 'organizers', id, idType);
  else if (idType === 'URI') found = await nodeByUri(ctx, id);
  else
    found = await nodeById(
      ctx,
      idType === 'DATABASE_ID' ? wpGlobalId('post', databaseIdArg(id, idType, 'post', 'contentNode')) : id,
    );
  // A content node only: a term's or a user's global ID names none.
  return found && CONTENT_KINDS.has(found.kind) ? found : null;
}

const CONTENT_KINDS = new Set<string>(['Post', 'Page', 'MediaItem', 'Event', 'Venue', 'Organizer']);

/**
 * `contentNodes` of one content type: that type's own list, with the `where` it takes (`contentTypes` aside). Several
 * types, or none (WPGraphQL's default: every type), would be one list merged by date from lists the site pages
 * apart, which the compatible graph does not serve: refused, naming the argument.
 */
export function contentNodesOf(
  ctx: Context,
  args: WpPaging & { where?: ({ contentTypes?: (string | null)[] | null } & Record<string, unknown>) | null },
): Promise<WpConnection<WpNode>> {
  const { contentTypes, ...where } = args.where ?? {};
  const types = [...new Set((contentTypes ?? []).filter((t): t is string => !!t))];
  const only = types.length === 1 ? CONTENT_TYPES[types[0]!] : undefined;
  if (!only)
    throw GatewayError.badInput(
      'contentNodes: where.contentTypes must name one content type here (each type is its own list on the site; ' +
        'a list of several, merged by date, is not served): use posts, pages, mediaItems, events, venues or organizers, ' +
        'or contentNodes with one type',
      { arguments: ['where.contentTypes'] },
    );
  // GraphQL validated `where` against WPGraphQL's input type; each list refuses, by name, the keys it does not apply.
  type WhereOf<F extends (...a: never[]) => unknown> = NonNullable<Parameters<F>[1]>['where'];
  switch (only) {
    case 'Post':
    case 'Page':
    case 'MediaItem':
      return contentList(ctx, only, { ...args, where: where as WhereOf<typeof postsList> });
    case 'Event':
      return eventsList(ctx, { ...args, where: where as WhereOf<typeof eventsList> });
    case 'Venue':
    case 'Organizer':
      return placesList(ctx, only === 'Venue' ? 'venues' : 'organizers', {
        ...args,
        where: where as NonNullable<Parameters<typeof placesList>[2]>['where'],
      });
  }
}

/** WPGraphQL's type of a model (Node, UniformResourceIdentifiable, ContentNode, TermNode... resolve through it). */
export function typeOf(m: WpNode): string {
  return m.kind;
}
