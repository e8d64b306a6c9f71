/**
 * WordPress posts-controller objects for `core/v2` posts and pages
 * (site-upstream.md §7; samples core-posts-list.json and batch-normal.json):
 * fields by context (`view`, `embed`, `edit`), dates without an offset,
 * `rendered` title without a "Protected:"/"Private:" prefix, empty rendered
 * content and excerpt on a password-protected post unless the context is
 * `edit`, `meta: []`, Yoast's `yoast_head`/`yoast_head_json` when `seo/v1` is
 * active, and the `_links` WordPress sends.
 */
import { can, type User } from '../../auth.ts';
import { autop, renderedExcerpt } from '../../calendar/core-repr.ts';
import { TAG_TAX, slugify } from '../../calendar/model.ts';
import { toRfc3339NoOffset } from '../../dates.ts';
import type { Origin, Site, Storage } from '../../capabilities.ts';
import type { PostRow } from '../../store/db.ts';
import { postMetaAll, type PostSeoMeta } from '../seo/analysis.ts';
import { seoActive, yoastPostHead, yoastSite, type YoastFields, type YoastSite } from '../../yoast-head.ts';

export const CORE_NS = 'core/v2';
/** The posts' hierarchical taxonomy (WordPress's `category`; events have their own). */
export const POST_CATEGORY_TAX = 'category';
export { TAG_TAX };

/** What the platform keeps in a post's JSON `meta` column (hidden, underscore-prefixed in WordPress). */
export interface PlatformPostMeta {
  /** Site-relative guid, fixed when the post was created (WordPress never changes it). */
  guid?: string;
  /** Yoast Duplicate Post: the ID of the post this one was copied from. */
  _dp_original?: number;
  _dp_is_rewrite_republish_copy?: number;
  _dp_has_rewrite_republish_copy?: number;
}

export type Context = 'view' | 'embed' | 'edit';

/** Statuses whose link is the `?p=` form (get_permalink's $draft_or_pending). */
const UNPUBLISHED = ['draft', 'pending', 'auto-draft', 'future'];

/** Sticky posts live in the `sticky_posts` option, as in WordPress. */
export function stickyIds(site: Storage): number[] {
  return site.store.option<number[]>('sticky_posts', []);
}

export function setSticky(site: Storage, id: number, sticky: boolean): void {
  const ids = stickyIds(site).filter((x) => x !== id);
  if (sticky) ids.push(id);
  site.store.setOption('sticky_posts', ids);
}

/** get_permalink: pretty `/<slug>/` once published (posts and pages alike), `?p=`/`?page_id=` before. */
export function postLink(site: Pick<Origin, 'origin'>, p: PostRow<unknown>): string {
  if (UNPUBLISHED.includes(p.status) || !p.slug)
    return p.type === 'page' ? `${site.origin}/?page_id=${p.id}` : `${site.origin}/?p=${p.id}`;
  return `${site.origin}/${p.slug}/`;
}

/** The guid as WordPress fixed it at insert time: the permalink of that moment. */
export function guidOf(site: Pick<Origin, 'origin'>, p: PostRow<PlatformPostMeta>): string {
  return `${site.origin}${p.meta.guid ?? `/?p=${p.id}`}`;
}

/** The slug a draft would get when published (get_sample_permalink). */
export function generatedSlug(site: Storage, p: PostRow<unknown>): string {
  if (p.slug) return p.slug;
  return site.store.uniqueSlug(p.type, slugify(p.title) || String(p.id), p.id);
}

/** has_blocks() decides `content.block_version`. */
function blockVersion(content: string): number {
  return content.includes('<!-- wp:') ? 1 : 0;
}

export interface PostJsonSource {
  site: Site;
  user: User | null;
  context: Context;
  sticky: Set<number>;
  /** With Yoast active: what its head fields need, read once per answer. */
  yoast: { site: YoastSite; meta: Record<string, PostSeoMeta> } | null;
}

export function postJsonSource(site: Site, user: User | null, context: Context): PostJsonSource {
  const yoast = seoActive(site) ? { site: yoastSite(site), meta: postMetaAll(site) } : null;
  return { site, user, context, sticky: new Set(stickyIds(site)), yoast };
}

/**
 * Yoast's REST fields on a post (real-site-behaviour.md, "Yoast SEO on other
 * namespaces"; sample core-posts-list.json): registered with
 * register_rest_field, so they follow the controller's own fields in every
 * context, just before `_links`. None without Yoast.
 */
function yoastFields(src: PostJsonSource, p: PostRow<unknown>, link: string): YoastFields | Record<string, never> {
  if (!src.yoast) return {};
  const author = src.site.store.userById(p.author);
  return yoastPostHead(src.yoast.site, {
    title: p.title,
    canonical: link,
    published: p.dateGmt,
    modified: p.modifiedGmt,
    ...(author ? { author: { name: author.displayName, url: `${src.site.origin}/author/${author.login}/` } } : {}),
    noindex: src.yoast.meta[p.id]?.noindex ?? false,
  });
}

type Json = Record<string, unknown>;

export function postJson(src: PostJsonSource, p: PostRow<PlatformPostMeta>): Json {
  const { site, context } = src;
  const edit = context === 'edit';
  const link = postLink(site, p);
  const isPost = p.type === 'post';
  // In view context a password-protected post shows neither content nor excerpt (can_access_password_content).
  const hidden = Boolean(p.password) && !edit;
  if (context === 'embed') {
    return {
      id: p.id,
      date: toRfc3339NoOffset(p.date),
      slug: p.slug,
      type: p.type,
      link,
      title: { rendered: p.title },
      author: p.author,
      excerpt: { rendered: p.password ? '' : renderedExcerpt(p), protected: Boolean(p.password) },
      featured_media: p.featuredMedia,
      ...yoastFields(src, p, link),
      _links: links(src, p),
    };
  }
  const out: Json = {
    id: p.id,
    date: toRfc3339NoOffset(p.date),
    date_gmt: toRfc3339NoOffset(p.dateGmt),
    guid: edit ? { rendered: guidOf(site, p), raw: guidOf(site, p) } : { rendered: guidOf(site, p) },
    modified: toRfc3339NoOffset(p.modified),
    modified_gmt: toRfc3339NoOffset(p.modifiedGmt),
  };
  if (edit) out.password = p.password;
  Object.assign(out, {
    slug: p.slug,
    status: p.status,
    type: p.type,
    link,
    title: edit ? { raw: p.title, rendered: p.title } : { rendered: p.title },
    content: edit
      ? {
          raw: p.content,
          rendered: autop(p.content),
          protected: Boolean(p.password),
          block_version: blockVersion(p.content),
        }
      : { rendered: hidden ? '' : autop(p.content), protected: Boolean(p.password) },
    excerpt: edit
      ? { raw: p.excerpt, rendered: p.password ? '' : renderedExcerpt(p), protected: Boolean(p.password) }
      : { rendered: hidden ? '' : renderedExcerpt(p), protected: Boolean(p.password) },
    author: p.author,
    featured_media: p.featuredMedia,
  });
  if (!isPost) Object.assign(out, { parent: p.parent, menu_order: p.menuOrder });
  Object.assign(out, { comment_status: p.commentStatus, ping_status: p.pingStatus });
  if (isPost) out.sticky = src.sticky.has(p.id);
  out.template = p.template;
  if (isPost) out.format = p.format || 'standard';
  out.meta = [];
  if (isPost) {
    out.categories = site.store.termIdsOf(p.id, POST_CATEGORY_TAX);
    out.tags = site.store.termIdsOf(p.id, TAG_TAX);
  }
  if (edit) {
    out.permalink_template = `${site.origin}/${p.type === 'page' ? '%pagename%' : '%postname%'}/`;
    out.generated_slug = generatedSlug(site, p);
  }
  Object.assign(out, yoastFields(src, p, link));
  out._links = links(src, p);
  return out;
}

function links(src: PostJsonSource, p: PostRow<unknown>): Json {
  const root = src.site.restRoot;
  const base = p.type === 'page' ? 'pages' : 'posts';
  const self = `${root}/${CORE_NS}/${base}/${p.id}`;
  const out: Json = {
    self: [{ href: self }],
    collection: [{ href: `${root}/${CORE_NS}/${base}` }],
    about: [{ href: `${root}/${CORE_NS}/types/${p.type}` }],
    author: [{ embeddable: true, href: `${root}/${CORE_NS}/users/${p.author}` }],
    replies: [{ embeddable: true, href: `${root}/${CORE_NS}/comments?post=${p.id}` }],
    'version-history': [{ count: 0, href: `${self}/revisions` }],
  };
  if (p.featuredMedia)
    out['wp:featuredmedia'] = [{ embeddable: true, href: `${root}/${CORE_NS}/media/${p.featuredMedia}` }];
  out['wp:attachment'] = [{ href: `${root}/${CORE_NS}/media?parent=${p.id}` }];
  if (p.type === 'post') {
    out['wp:term'] = [
      { taxonomy: POST_CATEGORY_TAX, embeddable: true, href: `${root}/${CORE_NS}/categories?post=${p.id}` },
      { taxonomy: TAG_TAX, embeddable: true, href: `${root}/${CORE_NS}/tags?post=${p.id}` },
    ];
  }
  if (src.context === 'edit' && p.type === 'post') {
    // The action links say what the caller may do to the post (WP_REST_Posts_Controller::get_available_actions).
    const user = src.user;
    const actions: string[] = [];
    if (can(user, 'publish_posts')) actions.push('wp:action-publish');
    if (can(user, 'edit_others_posts'))
      actions.push('wp:action-unfiltered-html', 'wp:action-sticky', 'wp:action-assign-author');
    if (can(user, 'manage_categories')) actions.push('wp:action-create-categories');
    if (can(user, 'edit_posts')) actions.push('wp:action-assign-categories');
    if (can(user, 'manage_categories')) actions.push('wp:action-create-tags');
    if (can(user, 'edit_posts')) actions.push('wp:action-assign-tags');
    for (const a of actions) out[a] = [{ href: self }];
  }
  out.curies = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];
  return out;
}
