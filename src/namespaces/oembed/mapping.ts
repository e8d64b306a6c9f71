/** Pure mapping of oembed/1.0 answers, JSON and XML. */
import { GatewayError } from '../../errors.ts';
import { int, obj, str, type Json } from '../../mapping/json.ts';

export interface OEmbedModel {
  format: 'JSON' | 'XML';
  version: string | null;
  type: string | null;
  providerName: string | null;
  providerUrl: string | null;
  authorName: string | null;
  authorUrl: string | null;
  title: string | null;
  width: number | null;
  height: number | null;
  html: string | null;
  thumbnailUrl: string | null;
  thumbnailWidth: number | null;
  thumbnailHeight: number | null;
  xml: string | null;
  raw: unknown;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unxml = (s: string) =>
  s
    .replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, '$1')
    .replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (m, e: string) =>
      e[0] === '#'
        ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
        : (XML_ENTITIES[e.toLowerCase()] ?? m),
    );

/** The flat `<oembed><key>value</key>…</oembed>` document WordPress writes (EMB `_oembed_create_xml`). */
export function parseOEmbedXml(xml: string): Json {
  const root = /<oembed>([\s\S]*)<\/oembed>/.exec(xml);
  if (!root) throw GatewayError.badInput('the site answered XML without an <oembed> root');
  const out: Json = {};
  for (const m of root[1]!.matchAll(/<([a-z_]+)>([\s\S]*?)<\/\1>/g)) out[m[1]!] = unxml(m[2]!);
  return out;
}

/** JSON bodies as they are; XML bodies (a string) read into the same fields. */
export function oembedOf(body: unknown): OEmbedModel {
  const xml = typeof body === 'string' ? body : null;
  const o = xml !== null ? parseOEmbedXml(xml) : obj(body, 'oEmbed response');
  return {
    format: xml !== null ? 'XML' : 'JSON',
    version: str(o.version),
    type: str(o.type),
    providerName: str(o.provider_name),
    providerUrl: str(o.provider_url),
    authorName: str(o.author_name),
    authorUrl: str(o.author_url),
    title: str(o.title),
    width: int(o.width),
    height: int(o.height),
    html: str(o.html),
    thumbnailUrl: str(o.thumbnail_url),
    thumbnailWidth: int(o.thumbnail_width),
    thumbnailHeight: int(o.thumbnail_height),
    xml,
    raw: xml !== null ? o : body,
  };
}
