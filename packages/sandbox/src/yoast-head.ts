/**
 * The `yoast_head` / `yoast_head_json` fields Yoast SEO adds to the REST
 * objects of other namespaces (real-site-behaviour.md, "Yoast SEO on other
 * namespaces"): `core/v2` posts and terms and the legacy calendar's categories
 * and tags. Shapes follow the recorded answers of Yoast 19.3: posts in
 * samples/core-posts-list.json, terms in samples/legacy-categories-archive.json.
 *
 * Pure builders over plain inputs, so any namespace can call them; `yoastSite`
 * and `seoActive` read what they need from the sandbox. They sit below both
 * their callers, the namespaces (platform/post-json.ts) and the calendar's
 * representations (calendar/legacy-repr.ts), and import neither.
 */
import { createHash } from 'node:crypto';
import type { Origin, Settings, Storage } from './capabilities.ts';

/** Yoast's namespace under the spec's name; `NS` of namespaces/seo/common.ts. */
export const SEO_NAMESPACE = 'seo/v1';

export type Json = Record<string, unknown>;

/** The two fields, named as Yoast names them, ready to spread into an object. */
export interface YoastFields {
  yoast_head: string;
  yoast_head_json: Json;
}

/** Site-wide values every head repeats. */
export interface YoastSite {
  /** `http://host:port`, no trailing slash. */
  origin: string;
  /** `blogname` */
  name: string;
  /** `blogdescription` */
  description: string;
}

export interface YoastPostInput {
  /** The post title as written (the head's title adds " - <site name>"). */
  title: string;
  /** Meta description; Yoast has no default one, so leave it empty unless the post sets one. */
  description?: string;
  /** The post's public URL. */
  canonical: string;
  /** `og:type`: `article` for posts and pages. */
  type?: 'article' | 'website';
  /** Schema type of the page node: `WebPage` (Yoast's default for every post type) or `Article`. */
  schemaType?: string;
  /** UTC `Y-m-d H:i:s`. */
  published?: string;
  modified?: string;
  author?: { name: string; url: string };
  noindex?: boolean;
}

export interface YoastTermInput {
  name: string;
  /** Term description; an empty one gives no `description` key, as in the term sample. */
  description?: string;
  /** The term archive's public URL. */
  canonical: string;
  noindex?: boolean;
}

const VERSION_COMMENT =
  '<!-- This site is optimized with the Yoast SEO plugin v19.3 - https://yoast.com/wordpress/plugins/seo/ -->';
export const END_COMMENT = '<!-- / Yoast SEO plugin. -->';

/** Whether Yoast is active: `seo/v1` is served unless the `disable` option names it. */
export function seoActive(site: Settings): boolean {
  return !site.options.disable.includes(SEO_NAMESPACE);
}

export function yoastSite(site: Origin & Storage): YoastSite {
  return {
    origin: site.origin,
    name: site.store.option('blogname', 'Sitegraph Sandbox'),
    description: site.store.option('blogdescription', ''),
  };
}

/** `esc_attr` / `esc_html` for the values the head prints. */
function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** UTC `Y-m-d H:i:s` -> `2026-11-22T01:50:15+00:00`, as the sample prints dates. */
export function iso(utc: string): string {
  return `${utc.replace(' ', 'T')}+00:00`;
}

function robots(noindex = false): Json {
  return noindex
    ? { index: 'noindex', follow: 'follow' }
    : {
        index: 'index',
        follow: 'follow',
        'max-snippet': 'max-snippet:-1',
        'max-image-preview': 'max-image-preview:large',
        'max-video-preview': 'max-video-preview:-1',
      };
}

function webSiteNode(site: YoastSite): Json {
  return {
    '@type': 'WebSite',
    '@id': `${site.origin}/#website`,
    url: `${site.origin}/`,
    name: site.name,
    description: site.description,
    potentialAction: [
      {
        '@type': 'SearchAction',
        target: { '@type': 'EntryPoint', urlTemplate: `${site.origin}/?s={search_term_string}` },
        'query-input': 'required name=search_term_string',
      },
    ],
    inLanguage: 'en-US',
  };
}

function breadcrumbNode(site: YoastSite, canonical: string, name: string): Json {
  return {
    '@type': 'BreadcrumbList',
    '@id': `${canonical}#breadcrumb`,
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: 'Home', item: `${site.origin}/` },
      { '@type': 'ListItem', position: 2, name },
    ],
  };
}

function personId(site: YoastSite, name: string): string {
  return `${site.origin}/#/schema/person/${createHash('md5').update(name).digest('hex')}`;
}

function personNode(site: YoastSite, author: { name: string; url: string }): Json {
  const avatar = `http://2.gravatar.com/avatar/${createHash('md5').update(author.name).digest('hex')}?s=96&d=mm&r=g`;
  return {
    '@type': 'Person',
    '@id': personId(site, author.name),
    name: author.name,
    image: {
      '@type': 'ImageObject',
      inLanguage: 'en-US',
      '@id': `${site.origin}/#/schema/person/image/`,
      url: avatar,
      contentUrl: avatar,
      caption: author.name,
    },
    sameAs: [site.origin],
    url: author.url,
  };
}

/**
 * What every head shares (these, seo/v1's `get_head`): the JSON keys and `<head>` lines up to
 * `og:site_name`.
 */
export interface Common {
  title: string;
  description: string;
  /** The page's canonical URL, else the URL asked for (`og:url` either way). */
  canonical: string;
  /** False when the page has no canonical URL of its own: no `canonical` key or link. */
  canonicalTag?: boolean;
  ogType: string;
  noindex: boolean;
}

export function commonJson(site: YoastSite, c: Common): Json {
  return {
    title: c.title,
    ...(c.description ? { description: c.description } : {}),
    robots: robots(c.noindex),
    ...(c.canonicalTag === false ? {} : { canonical: c.canonical }),
    og_locale: 'en_US',
    og_type: c.ogType,
    og_title: c.title,
    ...(c.description ? { og_description: c.description } : {}),
    og_url: c.canonical,
    og_site_name: site.name,
  };
}

export function commonLines(site: YoastSite, c: Common): string[] {
  return [
    VERSION_COMMENT,
    `<title>${esc(c.title)}</title>`,
    ...(c.description ? [`<meta name="description" content="${esc(c.description)}" />`] : []),
    `<meta name="robots" content="${Object.values(robots(c.noindex)).join(', ')}" />`,
    ...(c.canonicalTag === false ? [] : [`<link rel="canonical" href="${esc(c.canonical)}" />`]),
    '<meta property="og:locale" content="en_US" />',
    `<meta property="og:type" content="${c.ogType}" />`,
    `<meta property="og:title" content="${esc(c.title)}" />`,
    ...(c.description ? [`<meta property="og:description" content="${esc(c.description)}" />`] : []),
    `<meta property="og:url" content="${esc(c.canonical)}" />`,
    `<meta property="og:site_name" content="${esc(site.name)}" />`,
  ];
}

export function schemaLine(schema: Json): string {
  return `<script type="application/ld+json" class="yoast-schema-graph">${JSON.stringify(schema)}</script>`;
}

/** The head of a post (sample core-posts-list.json): article times, author, Written by. */
export function yoastPostHead(site: YoastSite, post: YoastPostInput): YoastFields {
  const c: Common = {
    title: `${post.title} - ${site.name}`,
    description: post.description ?? '',
    canonical: post.canonical,
    ogType: post.type ?? 'article',
    noindex: post.noindex ?? false,
  };
  // Yoast prints the modified time only when it differs from the published one.
  const modified = post.modified && post.modified !== post.published ? post.modified : undefined;
  const page: Json = {
    '@type': post.schemaType ?? 'WebPage',
    '@id': c.canonical,
    url: c.canonical,
    name: c.title,
    isPartOf: { '@id': `${site.origin}/#website` },
    ...(post.published ? { datePublished: iso(post.published) } : {}),
    ...((post.modified ?? post.published) ? { dateModified: iso((post.modified ?? post.published)!) } : {}),
    ...(post.author ? { author: { '@id': personId(site, post.author.name) } } : {}),
    breadcrumb: { '@id': `${c.canonical}#breadcrumb` },
    inLanguage: 'en-US',
    potentialAction: [{ '@type': 'ReadAction', target: [c.canonical] }],
  };
  const schema = {
    '@context': 'https://schema.org',
    '@graph': [
      webSiteNode(site),
      page,
      breadcrumbNode(site, c.canonical, post.title),
      ...(post.author ? [personNode(site, post.author)] : []),
    ],
  };
  const json: Json = {
    ...commonJson(site, c),
    ...(post.published ? { article_published_time: iso(post.published) } : {}),
    ...(modified ? { article_modified_time: iso(modified) } : {}),
    ...(post.author ? { author: post.author.name } : {}),
    twitter_card: 'summary_large_image',
    ...(post.author ? { twitter_misc: { 'Written by': post.author.name } } : {}),
    schema,
  };
  const lines = [
    ...commonLines(site, c),
    ...(post.published ? [`<meta property="article:published_time" content="${iso(post.published)}" />`] : []),
    ...(modified ? [`<meta property="article:modified_time" content="${iso(modified)}" />`] : []),
    ...(post.author ? [`<meta name="author" content="${esc(post.author.name)}" />`] : []),
    '<meta name="twitter:card" content="summary_large_image" />',
    ...(post.author
      ? [
          '<meta name="twitter:label1" content="Written by" />',
          `\t<meta name="twitter:data1" content="${esc(post.author.name)}" />`,
        ]
      : []),
    schemaLine(schema),
    END_COMMENT,
  ];
  return { yoast_head: lines.join('\n'), yoast_head_json: json };
}

/**
 * The head of a term archive (sample legacy-categories-archive.json): title
 * "<name> Archives - <site>", og:type article, a CollectionPage with its
 * breadcrumb, no dates or author.
 */
export function yoastTermHead(site: YoastSite, term: YoastTermInput): YoastFields {
  const c: Common = {
    title: `${term.name} Archives - ${site.name}`,
    description: (term.description ?? '').replace(/<[^>]*>/g, '').trim(),
    canonical: term.canonical,
    ogType: 'article',
    noindex: term.noindex ?? false,
  };
  const schema = {
    '@context': 'https://schema.org',
    '@graph': [
      webSiteNode(site),
      {
        '@type': 'CollectionPage',
        '@id': c.canonical,
        url: c.canonical,
        name: c.title,
        isPartOf: { '@id': `${site.origin}/#website` },
        breadcrumb: { '@id': `${c.canonical}#breadcrumb` },
        inLanguage: 'en-US',
        potentialAction: [{ '@type': 'ReadAction', target: [c.canonical] }],
      },
      breadcrumbNode(site, c.canonical, term.name),
    ],
  };
  const json: Json = { ...commonJson(site, c), twitter_card: 'summary_large_image', schema };
  const lines = [
    ...commonLines(site, c),
    '<meta name="twitter:card" content="summary_large_image" />',
    schemaLine(schema),
    END_COMMENT,
  ];
  return { yoast_head: lines.join('\n'), yoast_head_json: json };
}
