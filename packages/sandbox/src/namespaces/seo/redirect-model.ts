/**
 * Yoast Premium's redirects (reference/site-upstream.md §8; YP
 * classes/redirect/redirect.php, redirect-option.php, redirect-manager.php).
 *
 * Normalisation (WPSEO_Redirect): a plain origin that is an absolute URL of
 * this site becomes its path; leading and trailing slashes are trimmed unless
 * the value is `/` or still has a scheme, so `/old/` is stored as `old`. A
 * regex origin is kept verbatim. Targets get the same treatment in both formats.
 * Storage: the option `wpseo-premium-redirects-base`, a list of
 * `{origin, url, type, format}` covering both formats.
 */
import type { Origin, Storage } from '../../capabilities.ts';
import { OPT } from './common.ts';

export type RedirectFormat = 'plain' | 'regex';
export const FORMATS: readonly RedirectFormat[] = ['plain', 'regex'];
/** WPSEO_Redirect_Types: 301, 302, 307, 410 (content deleted), 451 (unavailable for legal reasons). */
export const TYPES = [301, 302, 307, 410, 451] as const;
/** Types whose target may be empty, and that skip the wp-json, accessible and endpoint rules. */
export const GONE_TYPES: readonly number[] = [410, 451];

export interface Redirect {
  origin: string;
  target: string;
  type: number;
  format: RedirectFormat;
}

interface StoredRedirect {
  origin: string;
  url: string;
  type: number;
  format: RedirectFormat;
}

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

export function hasScheme(url: string): boolean {
  return SCHEME.test(url);
}

/**
 * The host (and port) of an absolute URL, or null. Yoast compares host names
 * only; the sandbox compares host and port, because several sandboxes share
 * 127.0.0.1 and the port is part of what makes a URL "this site".
 */
function authorityOf(url: string): string | null {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url);
  return m ? m[1]!.toLowerCase() : null;
}

function siteAuthority(site: Origin): string {
  return authorityOf(site.origin) ?? '';
}

/** sanitize_slash: trims `/` at both ends of a relative URL other than `/` itself. */
function sanitizeSlash(url: string, schemed: boolean): string {
  if (url !== '/' && !schemed) return url.replace(/^\/+|\/+$/g, '');
  return url;
}

/** sanitize_origin_url / sanitize_target_url: a same-site absolute URL becomes its path. */
export function normaliseUrl(site: Origin, url: string | null | undefined): string {
  const value = url ?? '';
  const authority = authorityOf(value);
  if (authority !== null && authority === siteAuthority(site)) {
    const rest = value.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
    return sanitizeSlash(rest, false);
  }
  return sanitizeSlash(value, hasScheme(value));
}

/** `new WPSEO_Redirect(origin, target, type, format)`. */
export function makeRedirect(
  site: Origin,
  origin: string | null | undefined,
  target: string | null | undefined,
  type: number,
  format: RedirectFormat,
): Redirect {
  return {
    origin: format === 'plain' ? normaliseUrl(site, origin) : (origin ?? ''),
    target: normaliseUrl(site, target),
    type: Math.trunc(Number(type)),
    format,
  };
}

/** WPSEO_Redirect::origin_is: a plain redirect compares the URL with its slashes trimmed. */
export function originIs(redirect: Redirect, url: string): boolean {
  const candidate = redirect.format === 'plain' ? sanitizeSlash(url, hasScheme(url)) : url;
  return redirect.origin === candidate;
}

export function loadRedirects(site: Storage): Redirect[] {
  const raw = site.store.option<unknown>(OPT.redirects, []);
  const list = Array.isArray(raw) ? raw : raw && typeof raw === 'object' ? Object.values(raw) : [];
  return (list as StoredRedirect[]).map((r) => ({
    origin: r.origin,
    target: r.url ?? '',
    type: Number(r.type),
    format: r.format === 'regex' ? 'regex' : 'plain',
  }));
}

export function saveRedirects(site: Storage, list: Redirect[]): void {
  // WPSEO_Redirect_Option::save drops rows carrying control characters (defence in depth).
  const clean = list.filter((r) => !hasControlChars(r.origin) && !hasControlChars(r.target));
  site.store.setOption(
    OPT.redirects,
    clean.map((r) => ({ origin: r.origin, url: r.target, type: r.type, format: r.format })),
  );
}

export function hasControlChars(s: string): boolean {
  return /[\x00-\x1f\x7f]/.test(s);
}

function search(list: Redirect[], origin: string): number {
  return list.findIndex((r) => originIs(r, origin));
}

/** WPSEO_Redirect_Manager::create_redirect: false when the origin is already taken (by either format). */
export function createRedirect(site: Storage, redirect: Redirect): boolean {
  const list = loadRedirects(site);
  if (search(list, redirect.origin) !== -1) return false;
  list.push(redirect);
  saveRedirects(site, list);
  return true;
}

/** update_redirect: replaces the redirect found by the old origin, in place. */
export function updateRedirect(site: Storage, current: Redirect, next: Redirect): boolean {
  const list = loadRedirects(site);
  const i = search(list, current.origin);
  if (i === -1) return false;
  list[i] = next;
  saveRedirects(site, list);
  return true;
}

/** delete_redirects: matching is by origin only, over both formats. */
export function deleteRedirects(site: Storage, redirects: Redirect[]): boolean {
  const list = loadRedirects(site);
  let deleted = false;
  for (const r of redirects) {
    const i = search(list, r.origin);
    if (i !== -1) {
      list.splice(i, 1);
      deleted = true;
    }
  }
  if (deleted) saveRedirects(site, list);
  return deleted;
}

/** A regex origin as a JavaScript RegExp (Yoast wraps it in `@...@`), or null when it does not compile. */
export function regexOf(origin: string): RegExp | null {
  try {
    return new RegExp(origin);
  } catch {
    return null;
  }
}
