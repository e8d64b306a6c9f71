/**
 * `GET seo/v1/get_head?url=` (Yoast src/routes/indexables-head-route.php,
 * src/actions/indexables/indexable-head-action.php; reference
 * other-upstream.md §7): the SEO `<head>` of a page of this site as
 * `{html, json, status}`, sent with HTTP status `status`. Public.
 *
 * The sandbox resolves the home page, published posts of the content types,
 * post type archives and terms of this site. Anything else (another host, or
 * a path nothing lives at) gets the head of the 404 page with status 404, as
 * Yoast answers for a URL it has no indexable for. A value that is not an
 * http(s) URL is refused by validation (400 rest_invalid_param).
 */
import { RestResult, type RestRequest, type RouteDecl } from '../../rest/types.ts';
import type { Origin, Storage } from '../../capabilities.ts';
import { postSeoMeta } from './analysis.ts';
import { endpoint, route, type Json } from './common.ts';
import { ARCHIVES, indexablePosts, indexableTerms, postUrl, termUrl } from './indexables.ts';
import { commonJson, commonLines, END_COMMENT, iso, schemaLine, yoastSite } from '../../yoast-head.ts';

interface Page {
  title: string;
  description: string;
  canonical: string | null;
  type: 'website' | 'article';
  schemaType: string;
  noindex: boolean;
  published?: string;
  modified?: string;
}

function findPage(site: Origin & Storage, url: string): Page | null {
  const blogname = site.store.option('blogname', 'Sitegraph Sandbox');
  const tagline = site.store.option('blogdescription', '');
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.host !== new URL(site.origin).host) return null;
  const path = u.pathname.replace(/\/+$/, '') || '/';
  const norm = (s: string) => new URL(s).pathname.replace(/\/+$/, '') || '/';
  if (path === '/' && !u.search) {
    return {
      title: `${blogname}${tagline ? ` - ${tagline}` : ''}`,
      description: tagline,
      canonical: `${site.origin}/`,
      type: 'website',
      schemaType: 'WebPage',
      noindex: false,
    };
  }
  const byId = u.searchParams.get('p') ?? u.searchParams.get('page_id');
  for (const post of indexablePosts(site)) {
    if (post.status !== 'publish' || post.password) continue;
    const hit = byId ? Number(byId) === post.id && path === '/' : norm(postUrl(site, post)) === path;
    if (!hit) continue;
    const meta = postSeoMeta(site, post.id);
    const excerpt =
      post.excerpt.replace(/<[^>]*>/g, '').trim() ||
      post.content
        .replace(/<[^>]*>/g, '')
        .trim()
        .slice(0, 155);
    return {
      title: `${post.title} - ${blogname}`,
      description: excerpt,
      canonical: postUrl(site, post),
      type: 'article',
      schemaType: post.type === 'post' ? 'Article' : 'WebPage',
      noindex: Boolean(meta.noindex),
      published: post.dateGmt,
      modified: post.modifiedGmt,
    };
  }
  for (const [type, archive] of Object.entries(ARCHIVES)) {
    if (path === `/${archive}`)
      return {
        title: `${type === 'calendar_events' ? 'Events' : type} Archive - ${blogname}`,
        description: '',
        canonical: `${site.origin}/${archive}/`,
        type: 'website',
        schemaType: 'CollectionPage',
        noindex: false,
      };
  }
  for (const term of indexableTerms(site)) {
    if (norm(termUrl(site, term)) === path) {
      return {
        title: `${term.name} Archives - ${blogname}`,
        description: term.description,
        canonical: termUrl(site, term),
        type: 'website',
        schemaType: 'CollectionPage',
        noindex: false,
      };
    }
  }
  return null;
}

function render(site: Origin & Storage, page: Page, url: string): { html: string; json: Json } {
  const head = yoastSite(site);
  const c = {
    title: page.title,
    description: page.description,
    canonical: page.canonical ?? url,
    canonicalTag: page.canonical !== null,
    ogType: page.type,
    noindex: page.noindex,
  };
  const json: Json = {
    ...commonJson(head, c),
    ...(page.published ? { article_published_time: iso(page.published) } : {}),
    ...(page.modified ? { article_modified_time: iso(page.modified) } : {}),
    twitter_card: 'summary_large_image',
    schema: {
      '@context': 'https://schema.org',
      '@graph': [
        {
          '@type': page.schemaType,
          '@id': c.canonical,
          url: c.canonical,
          name: page.title,
          isPartOf: { '@id': `${site.origin}/#website` },
          inLanguage: 'en-US',
        },
        {
          '@type': 'WebSite',
          '@id': `${site.origin}/#website`,
          url: `${site.origin}/`,
          name: head.name,
          inLanguage: 'en-US',
        },
      ],
    },
  };
  const lines = [
    ...commonLines(head, c),
    '<meta name="twitter:card" content="summary_large_image" />',
    schemaLine(json.schema as Json),
    END_COMMENT,
  ];
  return { html: `${lines.join('\n')}\n`, json };
}

function getHead(req: RestRequest): unknown {
  const { site } = req;
  const url = req.params.url as string;
  const page = findPage(site, url);
  if (page) return { ...render(site, page, url), status: 200 };
  const blogname = site.store.option('blogname', 'Sitegraph Sandbox');
  const notFound: Page = {
    title: `Page not found - ${blogname}`,
    description: '',
    canonical: null,
    type: 'website',
    schemaType: 'WebPage',
    noindex: true,
  };
  return new RestResult({ ...render(site, notFound, url), status: 404 }, 404);
}

function isHttpUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export function headRoutes(): RouteDecl[] {
  return [
    route(
      'get_head',
      endpoint(
        'GET',
        () => true,
        getHead,
        {
          url: { type: 'string', required: true, description: 'The url to get the head for.', validate: isHttpUrl },
        },
        'The SEO head of a page of this site',
      ),
    ),
  ];
}
