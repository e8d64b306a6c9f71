/**
 * WPGraphQL Yoast SEO's `seo` of a content node, from the `yoast_head_json` and `yoast_head` Yoast adds to the REST
 * answers of posts (Yoast 19.3): the same values WPGraphQL Yoast SEO 4.18.1 reads from Yoast's own objects. A node
 * whose answer carries no head (Yoast inactive, or a type Yoast's REST fields do not reach) answers an error saying
 * so, not an empty `seo`.
 */
import { GatewayError } from '../errors.ts';
import { isJson, str, type Json } from '../mapping/json.ts';

export interface PostSeo {
  title: string | null;
  metaDesc: string;
  canonical: string | null;
  metaRobotsNoindex: string | null;
  metaRobotsNofollow: string | null;
  opengraphTitle: string | null;
  opengraphDescription: string;
  opengraphType: string | null;
  opengraphUrl: string | null;
  opengraphSiteName: string | null;
  opengraphAuthor: string;
  opengraphPublisher: string;
  opengraphPublishedTime: string | null;
  opengraphModifiedTime: string;
  twitterTitle: string;
  twitterDescription: string;
  readingTime: number;
  breadcrumbs: { text: string | null; url: string | null }[];
  schema: { pageType: string[]; articleType: string[]; raw: string | null };
  fullHead: string | null;
}

const types = (node: Json | undefined): string[] => {
  const t = node?.['@type'];
  return Array.isArray(t) ? t.map(String) : typeof t === 'string' ? [t] : [];
};

/** Minutes of "Est. reading time" (`twitter_misc`), which Yoast prints only when it has an estimate. */
function readingMinutes(misc: unknown): number {
  const v = isJson(misc) ? str(misc['Est. reading time']) : null;
  const m = v ? /(\d+(?:\.\d+)?)/.exec(v) : null;
  // WPGraphQL Yoast SEO answers 0 when Yoast has no estimate.
  return m ? Number(m[1]) : 0;
}

export function postSeo(raw: unknown, what: string): PostSeo {
  const o = isJson(raw) ? raw : {};
  const head = o.yoast_head_json;
  if (!isJson(head))
    throw new GatewayError(
      'NOT_IMPLEMENTED',
      `seo: the site's answer for this ${what} carries no Yoast head (yoast_head_json): Yoast SEO is not active, or ` +
        'its REST fields do not reach this type',
    );
  const robots = isJson(head.robots) ? head.robots : {};
  const schema = isJson(head.schema) ? head.schema : null;
  const graph = schema && Array.isArray(schema['@graph']) ? schema['@graph'].filter(isJson) : [];
  const canonical = str(head.canonical);
  const crumbs = graph.find((n) => types(n).includes('BreadcrumbList'));
  const items = crumbs && Array.isArray(crumbs.itemListElement) ? crumbs.itemListElement.filter(isJson) : [];
  const pageNode = graph.find((n) => types(n).some((t) => t.endsWith('Page')));
  const articleNode = graph.find((n) => types(n).some((t) => /Article|Posting/.test(t)));
  return {
    title: str(head.title),
    metaDesc: str(head.description) ?? '',
    canonical,
    metaRobotsNoindex: str(robots.index),
    metaRobotsNofollow: str(robots.follow),
    opengraphTitle: str(head.og_title),
    opengraphDescription: str(head.og_description) ?? '',
    opengraphType: str(head.og_type),
    opengraphUrl: str(head.og_url),
    opengraphSiteName: str(head.og_site_name),
    opengraphAuthor: str(head.article_author) ?? '',
    opengraphPublisher: str(head.article_publisher) ?? '',
    opengraphPublishedTime: str(head.article_published_time),
    opengraphModifiedTime: str(head.article_modified_time) ?? '',
    twitterTitle: str(head.twitter_title) ?? '',
    twitterDescription: str(head.twitter_description) ?? '',
    readingTime: readingMinutes(head.twitter_misc),
    // The last crumb (the page itself) has no `item`: WPGraphQL Yoast SEO gives it the page's own URL.
    breadcrumbs: items.map((i) => ({ text: str(i.name), url: str(i.item) ?? canonical })),
    schema: { pageType: types(pageNode), articleType: types(articleNode), raw: schema ? JSON.stringify(schema) : null },
    fullHead: str(o.yoast_head),
  };
}
