/**
 * WPGraphQL's identifiers: global IDs are base64 of `post:30`, `term:5`, `user:1` (the loader's name and the database
 * ID; every post type shares `post`, every taxonomy `term`), and a node's `uri` is its permalink without the site's
 * home URL. Arguments that take an ID read it by `idType` as WPGraphQL does.
 */
import { GatewayError } from '../errors.ts';

export type WpLoader = 'post' | 'term' | 'user';

export function wpGlobalId(loader: WpLoader, id: number): string {
  return Buffer.from(`${loader}:${id}`, 'utf8').toString('base64');
}

/** A WPGraphQL global ID, or null when the text is not one. */
export function fromWpGlobalId(gid: string): { loader: WpLoader; id: number } | null {
  if (!/^[A-Za-z0-9+/]+=*$/.test(gid)) return null;
  const m = /^(post|term|user):(\d+)$/.exec(Buffer.from(gid, 'base64').toString('utf8'));
  if (!m) return null;
  const id = Number(m[2]);
  return id > 0 && Number.isSafeInteger(id) ? { loader: m[1] as WpLoader, id } : null;
}

/**
 * The database ID an `id` argument names for `ID` (a global ID of `loader`) and `DATABASE_ID` (a positive integer);
 * BAD_USER_INPUT when it names none.
 */
export function databaseIdArg(id: string, idType: string, loader: WpLoader, field: string): number {
  if (idType === 'DATABASE_ID') {
    const n = /^\d+$/.test(id) ? Number(id) : 0;
    if (n > 0 && Number.isSafeInteger(n)) return n;
  } else {
    const g = fromWpGlobalId(id);
    if (g && g.loader === loader) return g.id;
  }
  throw GatewayError.badInput(
    `${field}: ${JSON.stringify(id)} is not ${idType === 'DATABASE_ID' ? 'a database ID' : `a global ID of a ${loader}`} (idType ${idType})`,
    { arguments: ['id'] },
  );
}

/**
 * A permalink as WPGraphQL's `uri`: the home URL taken off (`http://site/event/x/` -> `/event/x/`); a link elsewhere
 * stays whole, as WordPress's str_ireplace leaves it.
 */
export function uriOf(link: string | null | undefined, home: string | null): string | null {
  if (!link) return null;
  const base = (home ?? '').replace(/\/+$/, '');
  if (base && link.toLowerCase().startsWith(base.toLowerCase())) {
    const rest = link.slice(base.length);
    return rest.startsWith('/') ? rest : `/${rest}`;
  }
  return link;
}

/** A `uri` argument as a path: a full URL on the site loses its origin; leading slash, no query or fragment. */
export function pathOf(uri: string, home: string | null): string {
  let p = uri.trim();
  const base = (home ?? '').replace(/\/+$/, '');
  if (base && p.toLowerCase().startsWith(base.toLowerCase())) p = p.slice(base.length);
  else if (/^https?:\/\//i.test(p)) p = new URL(p).pathname;
  p = p.replace(/[?#].*$/, '');
  return p.startsWith('/') ? p : `/${p}`;
}
