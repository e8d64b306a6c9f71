/**
 * HTTP content codings of the gateway's answers (src/respond.ts): which coding an
 * `Accept-Encoding` asks for (RFC 9110 §12.5.3: q-values, `*`, `identity`),
 * and brotli or gzip through node:zlib streams (the work runs on libuv's
 * thread pool, not the event loop).
 */
import {
  constants,
  createBrotliCompress,
  createGzip,
  type BrotliCompress,
  type BrotliOptions,
  type Gzip,
  type ZlibOptions,
} from 'node:zlib';

export type Coding = 'br' | 'gzip';

/** What to send: a coding, `identity` (as is), or `none`: nothing the client accepts (406). */
export type Negotiated = Coding | 'identity' | 'none';

/** The codings a server offers, best first (the order breaks ties between equal q-values). */
export const OFFERED: readonly Coding[] = ['br', 'gzip'];

/** `Accept-Encoding` as coding -> q (lower-case names; `x-gzip` is gzip). Null: the header is absent. */
function parse(header: string | undefined): Map<string, number> | null {
  if (header === undefined) return null;
  const out = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name, ...params] = item.split(';').map((p) => p.trim());
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^q\s*=\s*([0-9.]+)$/i.exec(p);
      if (m) q = Math.min(1, Math.max(0, Number(m[1]) || 0));
    }
    const coding = name.toLowerCase() === 'x-gzip' ? 'gzip' : name.toLowerCase();
    // A coding listed twice keeps its best weight.
    out.set(coding, Math.max(q, out.get(coding) ?? 0));
  }
  return out;
}

/**
 * The coding to answer with. `big`: the body reaches the size worth
 * compressing; a smaller one goes as is unless the client refuses `identity`.
 *
 * - no header: identity (RFC 9110: any coding is acceptable, and as is is the safest);
 * - the best q among the offered codings and identity; `*` stands for any not named,
 *   identity included; identity not named at all weighs as the lowest positive q listed
 *   (as the `negotiator` package of Express's compression does), so `br;q=0.5, gzip;q=0.8`
 *   is gzip, while `gzip;q=0.2, identity;q=0.9` stays as is;
 *   on a tie a coding wins over identity for a big body, and the offer's order between codings;
 * - `identity;q=0` (or `*;q=0` without identity) and nothing offered acceptable: `none`.
 */
export function negotiate(header: string | undefined, big: boolean, offered: readonly Coding[] = OFFERED): Negotiated {
  const accept = parse(header);
  if (accept === null) return 'identity';
  const star = accept.get('*');
  const qOf = (c: string): number => accept.get(c) ?? star ?? 0;
  const positive = [...accept.values()].filter((q) => q > 0);
  const identityQ = accept.get('identity') ?? star ?? (positive.length ? Math.min(...positive) : 1);
  let best: Coding | null = null;
  let bestQ = 0;
  for (const c of offered) {
    const q = qOf(c);
    if (q > bestQ) {
      best = c;
      bestQ = q;
    }
  }
  if (best && (identityQ === 0 || (big && bestQ >= identityQ))) return best;
  if (identityQ > 0) return 'identity';
  return best ?? 'none';
}

/**
 * brotli at quality 4: about gzip's speed at a smaller size; 11 (zlib's default) costs ~20x the CPU on a 30 KB answer.
 */
const BROTLI: BrotliOptions = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};
/** gzip at level 6, zlib's default balance. */
const GZIP: ZlibOptions = { level: 6 };

/** A compressing stream for the coding; `sizeHint` (bytes, when known) lets brotli size its window. */
export function compressor(coding: Coding, sizeHint?: number): BrotliCompress | Gzip {
  if (coding === 'br') {
    const params = { ...BROTLI.params, ...(sizeHint ? { [constants.BROTLI_PARAM_SIZE_HINT]: sizeHint } : {}) };
    return createBrotliCompress({ params });
  }
  return createGzip(GZIP);
}

/** `Vary` with `Accept-Encoding` added (once) to what is already there. */
export function varyWithEncoding(current: string | number | string[] | undefined): string {
  const parts = (Array.isArray(current) ? current.join(',') : current === undefined ? '' : String(current))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!parts.some((p) => p.toLowerCase() === 'accept-encoding' || p === '*')) parts.push('Accept-Encoding');
  return parts.join(', ');
}
