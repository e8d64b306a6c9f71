/**
 * Yoast "indexables": the rows Yoast keeps for every post, term, archive and
 * special page, as the indexing routes return them (sample
 * seo-indexing-posts.json: numeric columns as strings, unset ones as null).
 * The sandbox builds them from the store on demand.
 */
import { termLink } from '../../calendar/legacy-repr.ts';
import { permalink } from '../../calendar/model.ts';
import type { Origin, Storage } from '../../capabilities.ts';
import type { PostRow, PostType, TermRow } from '../../store/db.ts';
import { CONTENT_TYPES, TAXONOMIES, postSeoMeta, readabilityScore, seoScore, type PostSeoMeta } from './analysis.ts';
import { OPT, type Json } from './common.ts';

/** Statuses that have an indexable (Yoast skips auto-drafts). */
export function hasIndexable(post: PostRow<unknown>): boolean {
  return post.status !== 'auto-draft' && post.status !== 'trash';
}

/** Every post of every content type that has an indexable, in ID order. */
export function indexablePosts(site: Storage): PostRow[] {
  return Object.keys(CONTENT_TYPES)
    .flatMap((t) => site.store.posts(t as PostType))
    .filter(hasIndexable)
    .sort((a, b) => a.id - b.id);
}

export function indexableTerms(site: Storage): TermRow[] {
  return TAXONOMIES.flatMap((t) => site.store.terms(t)).sort((a, b) => a.id - b.id);
}

/** Post types with an archive page, and its path. */
export const ARCHIVES: Partial<Record<PostType, string>> = { calendar_events: 'events' };

/**
 * The URL Yoast stores: the pretty permalink once published, otherwise the
 * query form WordPress uses for unpublished posts (as in the sample).
 */
export function postUrl(site: Origin, post: PostRow<unknown>): string {
  if (post.status === 'publish') return permalink(site, post.type, post.slug, post.id);
  if (post.type === 'page') return `${site.origin}/?page_id=${post.id}`;
  if (post.type === 'post') return `${site.origin}/?p=${post.id}`;
  return `${site.origin}/?post_type=${post.type}&p=${post.id}`;
}

export function termUrl(site: Origin & Storage, term: TermRow): string {
  if (term.taxonomy === 'category') return `${site.origin}/category/${term.slug}/`;
  return termLink(site, term);
}

const str = (v: number | string | null | undefined): string | null =>
  v === null || v === undefined ? null : String(v);

/** The columns every indexable carries, unset. */
function blank(): Json {
  return {
    object_type: null,
    object_id: null,
    object_sub_type: null,
    permalink: null,
    primary_focus_keyword_score: null,
    readability_score: '0',
    is_cornerstone: '0',
    is_robots_noindex: null,
    is_robots_nofollow: '0',
    is_robots_noimageindex: null,
    is_robots_noarchive: null,
    is_robots_nosnippet: null,
    open_graph_image: null,
    open_graph_image_id: null,
    open_graph_image_source: null,
    open_graph_image_meta: null,
    twitter_image: null,
    twitter_image_id: null,
    twitter_image_source: null,
    primary_focus_keyword: null,
    canonical: null,
    title: null,
    description: null,
    breadcrumb_title: null,
    open_graph_title: null,
    open_graph_description: null,
    twitter_title: null,
    twitter_description: null,
    estimated_reading_time_minutes: null,
    author_id: null,
    post_parent: null,
    number_of_pages: null,
    post_status: null,
    is_protected: '0',
    is_public: null,
    has_public_posts: null,
    blog_id: '1',
    schema_page_type: null,
    schema_article_type: null,
    object_last_modified: null,
    object_published_at: null,
    version: '2',
  };
}

export function postIndexable(
  site: Origin & Storage,
  post: PostRow<unknown>,
  meta: PostSeoMeta = postSeoMeta(site, post.id),
): Json {
  const seo = seoScore(post, meta);
  const readability = readabilityScore(post);
  return {
    ...blank(),
    object_type: 'post',
    object_id: String(post.id),
    object_sub_type: post.type,
    permalink: postUrl(site, post),
    primary_focus_keyword_score: str(seo),
    readability_score: String(readability ?? 0),
    is_cornerstone: meta.cornerstone ? '1' : '0',
    is_robots_noindex: meta.noindex ? '1' : null,
    primary_focus_keyword: meta.focuskw ? meta.focuskw : null,
    breadcrumb_title: post.title,
    author_id: String(post.author),
    post_parent: String(post.parent),
    post_status: post.status,
    is_protected: post.password ? '1' : '0',
    // Yoast leaves is_public unset (null) when it follows the defaults, "0" when the post is not public.
    is_public: post.status === 'publish' && !meta.noindex ? null : '0',
    object_last_modified: post.modified,
    object_published_at: post.date,
  };
}

export function termIndexable(site: Origin & Storage, term: TermRow): Json {
  const cornerstone = site.store.option<Record<string, { cornerstone?: boolean }>>(OPT.termMeta, {})[term.id]
    ?.cornerstone;
  return {
    ...blank(),
    object_type: 'term',
    object_id: String(term.id),
    object_sub_type: term.taxonomy,
    permalink: termUrl(site, term),
    is_cornerstone: cornerstone ? '1' : '0',
    breadcrumb_title: term.name,
    description: term.description || null,
    post_status: null,
    has_public_posts: site.store.termCount(term.id) > 0 ? '1' : '0',
  };
}

export function archiveIndexable(site: Origin, type: PostType): Json {
  return {
    ...blank(),
    object_type: 'post-type-archive',
    object_sub_type: type,
    permalink: `${site.origin}/${ARCHIVES[type]}/`,
    breadcrumb_title: CONTENT_TYPES[type] ? `${CONTENT_TYPES[type]}s` : type,
    is_public: '1',
  };
}

/** The general indexables: home page, search results, 404 page and date archive. */
export function generalIndexables(site: Origin & Storage): Json[] {
  const blogname = site.store.option('blogname', 'Sitegraph Sandbox');
  return [
    {
      ...blank(),
      object_type: 'home-page',
      permalink: `${site.origin}/`,
      breadcrumb_title: 'Home',
      title: blogname,
      is_public: '1',
    },
    {
      ...blank(),
      object_type: 'system-page',
      object_sub_type: 'search-result',
      breadcrumb_title: 'You searched for',
      is_robots_noindex: '1',
      is_public: '0',
    },
    {
      ...blank(),
      object_type: 'system-page',
      object_sub_type: '404',
      breadcrumb_title: 'Error 404: Page not found',
      is_robots_noindex: '1',
      is_public: '0',
    },
    { ...blank(), object_type: 'date-archive', is_public: '0' },
  ];
}

/** Paths of the site's public pages, as a redirect stores them (no slashes at the ends), for the redirect checks. */
export function knownPaths(site: Origin & Storage): Set<string> {
  const paths = new Set<string>(['/', '']);
  const pathOf = (url: string) => url.slice(site.origin.length).replace(/^\/+|\/+$/g, '');
  for (const post of indexablePosts(site)) {
    if (post.status !== 'publish') continue;
    paths.add(pathOf(postUrl(site, post)));
    paths.add(post.type === 'page' ? `?page_id=${post.id}` : `?p=${post.id}`);
  }
  for (const term of indexableTerms(site)) paths.add(pathOf(termUrl(site, term)));
  for (const a of Object.values(ARCHIVES)) paths.add(a);
  for (const att of site.store.posts<{ url?: string }>('attachment'))
    if (att.meta.url) paths.add(att.meta.url.replace(/^\/+/, ''));
  return paths;
}
