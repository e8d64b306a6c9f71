/**
 * Which coding the sandbox answers in, as the web server in front of a
 * WordPress site chooses (nginx's gzip module, a CDN's brotli): a coding the
 * client lists with a positive q, the higher q first and gzip on a tie. A web
 * server never answers 406: a client that accepts neither gets the body as is,
 * whatever it says of `identity`. The gateway negotiates by RFC 9110's stricter
 * rules for its own answers (src/compression.ts); the sandbox stands for a site,
 * so it behaves like one and shares no code with the gateway.
 */
export type SiteCoding = 'gzip' | 'br' | 'identity';

/** `Accept-Encoding`'s weight for one coding: 0 when absent or refused (`q=0`); `*` counts for any. */
function weight(header: string, coding: 'gzip' | 'br'): number {
  let star = 0;
  for (const item of header.split(',')) {
    const [name = '', ...params] = item.split(';').map((p) => p.trim().toLowerCase());
    const q = params.map((p) => /^q\s*=\s*([0-9.]+)$/.exec(p)?.[1]).find((v) => v !== undefined);
    const value = q === undefined ? 1 : Math.min(1, Number(q) || 0);
    if (name === coding || (coding === 'gzip' && name === 'x-gzip')) return value;
    if (name === '*') star = value;
  }
  return star;
}

/** The coding for a body: `big` when it is over the size the server compresses. */
export function siteCoding(header: string | undefined, big: boolean): SiteCoding {
  if (!big || header === undefined) return 'identity';
  const gzip = weight(header, 'gzip');
  const br = weight(header, 'br');
  if (gzip <= 0 && br <= 0) return 'identity';
  return gzip >= br ? 'gzip' : 'br';
}
