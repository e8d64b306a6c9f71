/**
 * `oembed/1.0` (WordPress's WP_oEmbed_Controller and embed.php;
 * site-upstream.md §9).
 *
 * `/embed` is public: the URL must name a publicly viewable post of this site
 * (post, page, event, venue, organizer, series, image attachment), else 404
 * `oembed_invalid_url` "Not Found". Width is clamped to 200-600 and height is
 * `max(ceil(width * 9 / 16), 200)`. `format=xml` answers `text/xml` with an
 * `<oembed>` root, errors of the callback included (_oembed_rest_pre_serve_request).
 *
 * `/proxy` needs `edit_posts`. Own-site URLs are answered locally, exactly as
 * `/embed` would; the sandbox never goes to the internet, so any other URL is
 * what an unreachable or unknown provider gives: 404 `oembed_invalid_url`.
 */
import { createHmac } from 'node:crypto';
import { can } from '../../auth.ts';
import { permalink, type AttachmentMeta } from '../../calendar/model.ts';
import { RestError, authStatus } from '../../errors.ts';
import { RestResult, type ArgSchema, type RestRequest, type RouteDecl } from '../../rest/types.ts';
import type { Origin, Secrets, Storage } from '../../capabilities.ts';
import type { PostRow, PostType } from '../../store/db.ts';
import { imageForWidth } from './media.ts';
import { postLink } from './post-json.ts';

const NS = 'oembed/1.0';

/** PHP's absint. */
export function absint(v: unknown): number {
  const n = parseInt(String(v).trim(), 10);
  return Number.isFinite(n) ? Math.abs(n) : 0;
}

/** Post types with public permalinks, by their URL base (model.ts permalink). */
const BASES: Record<string, PostType> = {
  event: 'calendar_events',
  venue: 'calendar_venue',
  organizer: 'calendar_organizer',
  series: 'calendar_event_series',
  attachment: 'attachment',
};

/** url_to_postid for the sandbox's permalink structure; 0 when the URL is not one of this site's posts. */
export function urlToPostId(site: Origin & Storage, raw: string): number {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 0;
  }
  // Only the host is compared (not the port), with a leading "www." ignored, as url_to_postid does.
  const host = (h: string) => h.replace(/^www\./, '');
  if (host(url.hostname) !== host(new URL(site.origin).hostname)) return 0;
  const byQuery = /[?&](p|page_id|attachment_id)=(\d+)/.exec(url.search);
  if (byQuery) return Number(byQuery[2]);
  const parts = url.pathname.split('/').filter(Boolean);
  if (parts[parts.length - 1] === 'embed') parts.pop();
  const { store } = site;
  if (parts.length === 2 && BASES[parts[0]!]) return store.postBySlug(BASES[parts[0]!]!, parts[1]!)?.id ?? 0;
  if (parts.length === 1) return (store.postBySlug('post', parts[0]!) ?? store.postBySlug('page', parts[0]!))?.id ?? 0;
  return 0;
}

const EMBEDDABLE: PostType[] = [
  'post',
  'page',
  'calendar_events',
  'calendar_venue',
  'calendar_organizer',
  'calendar_event_series',
  'attachment',
];

function linkOf(site: Origin, p: PostRow<unknown>): string {
  return p.type === 'post' || p.type === 'page' ? postLink(site, p) : permalink(site, p.type, p.slug, p.id);
}

/** get_post_status: an attachment takes its parent's status, or `publish` without one. */
function viewable(site: Storage, p: PostRow<unknown>): boolean {
  if (!EMBEDDABLE.includes(p.type)) return false;
  if (p.type === 'attachment') return p.parent ? site.store.post(p.parent)?.status === 'publish' : true;
  return p.status === 'publish';
}

/** A stable per-post secret (WordPress draws a random one per response). */
function secretOf(site: Secrets, id: number): string {
  return createHmac('sha256', site.secret)
    .update(`embed:${id}`)
    .digest('base64')
    .replace(/[^a-zA-Z0-9]/g, '')
    .slice(0, 10);
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');

/** get_post_embed_html: blockquote, sandboxed iframe, then the host script. */
function embedHtml(site: Origin & Storage & Secrets, p: PostRow<unknown>, width: number, height: number): string {
  const link = linkOf(site, p);
  const embedUrl = link.includes('?') ? `${link}&embed=true` : `${link}embed/`;
  const secret = secretOf(site, p.id);
  const title = p.password ? `Protected: ${p.title}` : p.title;
  const siteName = site.store.option('blogname', 'Sitegraph Sandbox');
  return (
    `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${esc(link)}">${esc(title)}</a></blockquote>` +
    `<iframe sandbox="allow-scripts" security="restricted" src="${esc(`${embedUrl}#?secret=${secret}`)}" width="${width}" height="${height}" ` +
    `title="${esc(`“${title}” — ${siteName}`)}" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>` +
    `<script type="text/javascript">\n/*! This file is auto-generated */\n!function(d,l){"use strict";l.querySelector&&d.addEventListener&&"undefined"!=typeof URL&&(d.wp=d.wp||{},d.wp.receiveEmbedMessage||(d.wp.receiveEmbedMessage=function(e){}))}(window,document);\n</script>`
  );
}

/** get_oembed_response_data + get_oembed_response_data_rich; null when the post may not be embedded. */
export function oembedData(
  site: Origin & Storage & Secrets,
  id: number,
  requestedWidth: number,
): Record<string, unknown> | null {
  const p = id ? site.store.post(id) : undefined;
  if (!p || !viewable(site, p)) return null;
  const width = Math.min(Math.max(200, requestedWidth), 600);
  const height = Math.max(Math.ceil((width / 16) * 9), 200);
  const siteName = site.store.option('blogname', 'Sitegraph Sandbox');
  const data: Record<string, unknown> = {
    version: '1.0',
    provider_name: siteName,
    provider_url: site.origin,
    author_name: siteName,
    author_url: site.origin,
    title: p.title,
    type: 'link',
  };
  const author = site.store.userById(p.author);
  if (author) {
    data.author_name = author.displayName;
    data.author_url = `${site.origin}/author/${author.login}/`;
  }
  Object.assign(data, { width, height, type: 'rich', html: embedHtml(site, p, width, height) });
  const thumbnailId = p.type === 'attachment' ? p.id : p.featuredMedia;
  const thumb = thumbnailId ? site.store.post<AttachmentMeta>(thumbnailId) : undefined;
  if (thumb?.type === 'attachment' && thumb.meta.mime?.startsWith('image/')) {
    const img = imageForWidth(site.origin, thumb, width);
    Object.assign(data, { thumbnail_url: img.url, thumbnail_width: img.width, thumbnail_height: img.height });
  }
  return data;
}

/** _oembed_create_xml: one element per key, numeric keys as <oembed>, values HTML-escaped once. */
export function oembedXml(data: unknown): string {
  const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const node = (key: string, value: unknown): string => {
    const name = /^\d+$/.test(key) ? 'oembed' : key;
    if (value !== null && typeof value === 'object') return `<${name}>${children(value)}</${name}>`;
    const text = value === true ? '1' : value === false || value === null || value === undefined ? '' : String(value);
    return text === '' ? `<${name}/>` : `<${name}>${xmlText(text)}</${name}>`;
  };
  const children = (obj: object) =>
    Object.entries(obj)
      .map(([k, v]) => node(k, v))
      .join('');
  return `<?xml version="1.0"?>\n<oembed>${children(data as object)}</oembed>\n`;
}

/** wp_oembed_ensure_format */
const ensureFormat = (v: unknown) => (v === 'xml' ? 'xml' : 'json');

const urlArg: ArgSchema = {
  type: 'string',
  format: 'uri',
  required: true,
  description: 'The URL of the resource for which to fetch oEmbed data.',
};

function notFound(): RestError {
  return new RestError('oembed_invalid_url', 'Not Found', 404);
}

function embed(req: RestRequest): unknown {
  const { site } = req;
  const data = oembedData(site, urlToPostId(site, req.params.url as string), req.params.maxwidth as number);
  if (req.params.format !== 'xml') {
    if (!data) throw notFound();
    return data;
  }
  if (!data) return new RestResult(oembedXml(notFound().toBody()), 404, {}, 'text/xml; charset=UTF-8');
  return new RestResult(oembedXml(data), 200, {}, 'text/xml; charset=UTF-8');
}

function proxy(req: RestRequest): unknown {
  const data = oembedData(req.site, urlToPostId(req.site, req.params.url as string), req.params.maxwidth as number);
  if (!data) throw notFound();
  return data;
}

export function oembedRoutes(): RouteDecl[] {
  return [
    {
      namespace: NS,
      path: `/${NS}/embed`,
      endpoints: [
        {
          methods: ['GET'],
          summary: "oEmbed data of one of this site's posts",
          args: {
            url: urlArg,
            format: {
              default: 'json',
              sanitize: ensureFormat,
              description: 'The oEmbed format to use (json or xml; anything else means json).',
            },
            maxwidth: {
              default: 600,
              sanitize: absint,
              description: 'The maximum width of the embed frame in pixels.',
            },
          },
          permission: () => true,
          handler: embed,
        },
      ],
    },
    {
      namespace: NS,
      path: `/${NS}/proxy`,
      endpoints: [
        {
          methods: ['GET'],
          summary: 'oEmbed data of any URL, fetched for the editor',
          args: {
            url: urlArg,
            format: {
              type: 'string',
              default: 'json',
              enum: ['json', 'xml'],
              description: 'The oEmbed format to use.',
            },
            maxwidth: {
              type: 'integer',
              default: 600,
              sanitize: absint,
              description: 'The maximum width of the embed frame in pixels.',
            },
            maxheight: {
              type: 'integer',
              sanitize: absint,
              description: 'The maximum height of the embed frame in pixels.',
            },
            discover: {
              type: 'boolean',
              default: true,
              description: 'Whether to perform an oEmbed discovery request for unsanctioned providers.',
            },
          },
          permission: (req) =>
            can(req.user, 'edit_posts') ||
            new RestError(
              'rest_forbidden',
              'Sorry, you are not allowed to make proxied oEmbed requests.',
              authStatus(req.user !== null),
            ),
          handler: proxy,
        },
      ],
    },
  ];
}
