/**
 * Text as WordPress sends it, made plain: messages, titles and descriptions may
 * carry tags (`<strong>`) and HTML entities (`&hellip;`, `&#8217;`).
 */

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  rsquo: '\u2019',
  lsquo: '\u2018',
  rdquo: '\u201d',
  ldquo: '\u201c',
  hellip: '\u2026',
  ndash: '\u2013',
  mdash: '\u2014',
  rsaquo: '\u203a',
  laquo: '\u00ab',
  raquo: '\u00bb',
};

/** Strips HTML tags and decodes common entities: WordPress messages may carry `<strong>`, `&hellip;`. */
export function cleanText(s: string): string {
  return s
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A URL as `esc_url()` sent it: `&` written `&#038;` (or `&amp;`), so as sent
 * its query stops at the first `#`. The graph serves the URL itself.
 */
export function unescapeUrl(v: string | null): string | null {
  return v === null ? null : v.replace(/&#0?38;|&amp;/g, '&');
}
