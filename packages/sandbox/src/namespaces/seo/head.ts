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

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const iso = (sql: string) => `${sql.replace(' ', 'T')}+00:00`;

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
    return { title: `${blogname}${tagline ? ` - ${tagline}` : ''}`, description: tagline, canonical: `${site.origin}/`, type: 'website', schemaType: 'WebPage', noindex: false };
  }
  const byId = u.searchParams.get('p') ?? u.searchParams.get('page_id');
  for (const post of indexablePosts(site)) {
    if (post.status !== 'publish' || post.password) continue;
    const hit = byId ? Number(byId) === post.id && path === '/' : norm(postUrl(site, post)) === path;
    if (!hit) continue;
    const meta = postSeoMeta(site, post.id);
    const excerpt = post.excerpt.replace(/<[^>]*>/g, '').trim() || post.content.replace(/<[^>]*>/g, '').trim().slice(0, 155);
    return {
      title: `${post.title} - ${blogname}`, description: excerpt, canonical: postUrl(site, post), type: 'article',
      schemaType: post.type === 'post' ? 'Article' : 'WebPage', noindex: Boolean(meta.noindex), published: post.dateGmt, modified: post.modifiedGmt,
    };
  }
  for (const [type, archive] of Object.entries(ARCHIVES)) {
    if (path === `/${archive}`) return { title: `${type === 'calendar_events' ? 'Events' : type} Archive - ${blogname}`, description: '', canonical: `${site.origin}/${archive}/`, type: 'website', schemaType: 'CollectionPage', noindex: false };
  }
  for (const term of indexableTerms(site)) {
    if (norm(termUrl(site, term)) === path) {
      return { title: `${term.name} Archives - ${blogname}`, description: term.description, canonical: termUrl(site, term), type: 'website', schemaType: 'CollectionPage', noindex: false };
    }
  }
  return null;
}

function render(site: Origin & Storage, page: Page, url: string): { html: string; json: Json } {
  const blogname = site.store.option('blogname', 'Sitegraph Sandbox');
  const robots = {
    index: page.noindex ? 'noindex' : 'index', follow: 'follow',
    ...(page.noindex ? {} : { 'max-snippet': 'max-snippet:-1', 'max-image-preview': 'max-image-preview:large', 'max-video-preview': 'max-video-preview:-1' }),
  };
  const canonical = page.canonical ?? url;
  const json: Json = {
    title: page.title,
    ...(page.description ? { description: page.description } : {}),
    robots,
    ...(page.canonical ? { canonical: page.canonical } : {}),
    og_locale: 'en_US',
    og_type: page.type,
    og_title: page.title,
    ...(page.description ? { og_description: page.description } : {}),
    og_url: canonical,
    og_site_name: blogname,
    ...(page.published ? { article_published_time: iso(page.published) } : {}),
    ...(page.modified ? { article_modified_time: iso(page.modified) } : {}),
    twitter_card: 'summary_large_image',
    schema: {
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': page.schemaType, '@id': canonical, url: canonical, name: page.title, isPartOf: { '@id': `${site.origin}/#website` }, inLanguage: 'en-US' },
        { '@type': 'WebSite', '@id': `${site.origin}/#website`, url: `${site.origin}/`, name: blogname, inLanguage: 'en-US' },
      ],
    },
  };
  const robotsContent = Object.values(robots).join(', ');
  const lines = [
    '<!-- This site is optimized with the Yoast SEO plugin - https://yoast.com/wordpress/plugins/seo/ -->',
    `<title>${esc(page.title)}</title>`,
    ...(page.description ? [`<meta name="description" content="${esc(page.description)}" />`] : []),
    `<meta name="robots" content="${robotsContent}" />`,
    ...(page.canonical ? [`<link rel="canonical" href="${esc(page.canonical)}" />`] : []),
    '<meta property="og:locale" content="en_US" />',
    `<meta property="og:type" content="${page.type}" />`,
    `<meta property="og:title" content="${esc(page.title)}" />`,
    ...(page.description ? [`<meta property="og:description" content="${esc(page.description)}" />`] : []),
    `<meta property="og:url" content="${esc(canonical)}" />`,
    `<meta property="og:site_name" content="${esc(blogname)}" />`,
    '<meta name="twitter:card" content="summary_large_image" />',
    `<script type="application/ld+json" class="yoast-schema-graph">${JSON.stringify(json.schema)}</script>`,
    '<!-- / Yoast SEO plugin. -->',
  ];
  return { html: `${lines.join('\n')}\n`, json };
}

function getHead(req: RestRequest): unknown {
  const { site } = req;
  const url = req.params.url as string;
  const page = findPage(site, url);
  if (page) return { ...render(site, page, url), status: 200 };
  const blogname = site.store.option('blogname', 'Sitegraph Sandbox');
  const notFound: Page = { title: `Page not found - ${blogname}`, description: '', canonical: null, type: 'website', schemaType: 'WebPage', noindex: true };
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
    route('get_head', endpoint('GET', () => true, getHead, {
      url: { type: 'string', required: true, description: 'The url to get the head for.', validate: isHttpUrl },
    }, 'The SEO head of a page of this site')),
  ];
}
