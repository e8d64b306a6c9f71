/**
 * WPSEO_Redirect_Validator and its rules (reference/site-upstream.md §8; YP
 * classes/redirect/redirect-validator.php, validation/*). The rules run in
 * this order and the first failure wins; a warning may be bypassed with
 * `ignore_warning`, an error may not. Rules marked "plain" are skipped for
 * regex redirects, and the last three are skipped for 410/451.
 *
 * Two rules cannot behave as on a real site:
 * - subdirectory (6) never fires: the sandbox is installed at the root, so
 *   home and site URLs are equal and there is no subdirectory to require.
 * - accessible (8) makes no live request: a target is taken as reachable
 *   unless it is a path of this site that matches no published post, term,
 *   archive, attachment or redirect origin; such a target gets the warning a
 *   real HEAD answering 404 would give.
 */
import type { Site } from '../../capabilities.ts';
import { knownPaths } from './indexables.ts';
import { GONE_TYPES, hasControlChars, hasScheme, loadRedirects, regexOf, type Redirect } from './redirect-model.ts';

export interface ValidationResult {
  type: 'error' | 'warning';
  message: string;
  fields: string[];
}

interface Context {
  site: Site;
  redirect: Redirect;
  /** The redirect being updated, if any. */
  current: Redirect | null;
  /** origin => target of every stored redirect, both formats. */
  existing: Map<string, string>;
}

interface Rule {
  name: string;
  plainOnly: boolean;
  skipGone: boolean;
  run(ctx: Context): ValidationResult | null;
}

const error = (message: string, fields: string[] = []): ValidationResult => ({ type: 'error', message, fields });
const warning = (message: string, fields: string[] = []): ValidationResult => ({ type: 'warning', message, fields });

function isWpJson(url: string): boolean {
  const u = url.trim();
  return u.includes('wp-json/') || /wp-json\/?$/.test(u);
}

/** Redirect_Endpoint_Validation::search_end_point: follows the target through existing redirects. */
function searchEndPoint(redirects: Map<string, string>, next: string, origin: string): string | false {
  const found = redirects.get(next);
  if (!found) return false; // empty() in PHP: an empty target counts as not found
  redirects.delete(next);
  if (next !== origin) {
    const traced = searchEndPoint(redirects, found, origin);
    if (traced !== false) return traced;
  }
  return found;
}

/** Whether the sandbox treats a (normalised) target as reachable; see the file comment. */
function reachable(ctx: Context): boolean {
  const target = ctx.redirect.target;
  if (hasScheme(target)) return true;
  // `?p=12` is a page of its own; elsewhere the query and fragment do not change the page.
  const bare = target.startsWith('?') ? target : target.replace(/[?#].*$/, '');
  const path = bare === '/' ? '/' : bare.replace(/^\/+|\/+$/g, '');
  const known = knownPaths(ctx.site);
  if (known.has(path)) return true;
  for (const r of loadRedirects(ctx.site)) {
    if (r.format === 'plain' && r.origin === path) return true;
    if (r.format === 'regex') {
      const re = regexOf(r.origin);
      if (re && (re.test(target) || re.test(`/${path}`))) return true;
    }
  }
  return false;
}

const RULES: Rule[] = [
  {
    name: 'control-chars',
    plainOnly: false,
    skipGone: false,
    run: ({ redirect }) =>
      hasControlChars(redirect.origin) || hasControlChars(redirect.target)
        ? error('The redirect URLs may not contain line breaks or control characters.', ['origin', 'target'])
        : null,
  },
  {
    name: 'relative-origin',
    plainOnly: true,
    skipGone: false,
    run: ({ redirect }) =>
      hasScheme(redirect.origin)
        ? warning(
            'The old URL for your redirect is not relative. Only the new URL is allowed to be absolute. Make sure to provide a relative old URL.',
            ['origin'],
          )
        : null,
  },
  {
    name: 'self-redirect',
    plainOnly: true,
    skipGone: false,
    run: ({ redirect }) =>
      redirect.origin === redirect.target
        ? error(
            'You are attempting to redirect to the same URL as the origin. Please choose a different URL to redirect to.',
            ['origin'],
          )
        : null,
  },
  {
    name: 'uniqueness',
    plainOnly: false,
    skipGone: false,
    run: ({ redirect, current, existing }) => {
      // Skipped on update when the origin does not change.
      if (current && current.origin === redirect.origin) return null;
      return existing.has(redirect.origin) ? error('The old URL already exists as a redirect.', ['origin']) : null;
    },
  },
  {
    name: 'presence',
    plainOnly: false,
    skipGone: false,
    run: ({ redirect }) => {
      if (GONE_TYPES.includes(redirect.type) && redirect.origin !== '') return null;
      if (redirect.origin !== '' && redirect.target !== '') return null;
      return error('Not all the required fields are filled.');
    },
  },
  {
    // The sandbox is installed at the root: there is never a subdirectory to require.
    name: 'subdirectory',
    plainOnly: false,
    skipGone: false,
    run: () => null,
  },
  {
    name: 'wp-json',
    plainOnly: true,
    skipGone: true,
    run: ({ redirect }) => {
      if (isWpJson(redirect.origin)) {
        return warning(
          'You cannot create a redirect from the WordPress REST API endpoint (/wp-json). Please choose a different origin URL.',
          ['origin'],
        );
      }
      if (isWpJson(redirect.target)) {
        return warning(
          'You cannot create a redirect to the WordPress REST API endpoint (/wp-json). Please choose a different URL to redirect to.',
          ['target'],
        );
      }
      return null;
    },
  },
  {
    name: 'accessible',
    plainOnly: true,
    skipGone: true,
    run: (ctx) =>
      reachable(ctx)
        ? null
        : warning(
            'The URL you are redirecting to seems to return a 404 status. You might want to check if the target can be reached manually before saving.',
            ['target'],
          ),
  },
  {
    name: 'endpoint',
    plainOnly: true,
    skipGone: true,
    run: ({ redirect, existing }) => {
      const { origin, target } = redirect;
      const endpoint = searchEndPoint(new Map(existing), target, origin);
      if (endpoint !== false && (endpoint === origin || endpoint === target)) {
        return error(
          'The redirect you are trying to save will create a redirect loop. This means there probably already exists a redirect that points to the origin of the redirect you are trying to save',
          ['origin', 'target'],
        );
      }
      if (endpoint !== false && endpoint !== target) {
        return warning(
          `${target} will be redirected to ${endpoint}. Maybe it's worth considering to create a direct redirect to ${endpoint}.`,
          ['target'],
        );
      }
      return null;
    },
  },
];

/** WPSEO_Redirect_Validator::validate: null when valid, else the first failure. */
export function validateRedirect(
  site: Site,
  redirect: Redirect,
  current: Redirect | null = null,
): ValidationResult | null {
  const existing = new Map<string, string>();
  for (const r of loadRedirects(site)) existing.set(r.origin, r.target);
  const ctx: Context = { site, redirect, current, existing };
  for (const rule of RULES) {
    if (rule.plainOnly && redirect.format !== 'plain') continue;
    if (rule.skipGone && GONE_TYPES.includes(redirect.type)) continue;
    const failure = rule.run(ctx);
    if (failure) return failure;
  }
  return null;
}
