/**
 * Shared pieces of `seo/v1` (Yoast SEO's `yoast/v1`): the namespace, route
 * declaration helpers, capability checks, and the store options that hold the
 * plugin's state. Every piece of state lives in an option of the store, so it
 * survives across requests and is shared by all callers (as wp_options is).
 */
import { can } from '../../auth.ts';
import type { ArgSchema, Endpoint, Handler, Method, RestRequest, RouteDecl } from '../../rest/types.ts';
import type { Origin, Storage } from '../../capabilities.ts';
import { SEO_NAMESPACE } from '../../yoast-head.ts';

export const NS = SEO_NAMESPACE;

/** A route of this namespace; `path` is relative to `/seo/v1`. */
export function route(path: string, ...endpoints: Endpoint[]): RouteDecl {
  return { namespace: NS, path: `/${NS}/${path}`, endpoints };
}

/**
 * One endpoint; none of Yoast's routes sets `allow_batch`. `reads` names the
 * parameters its callback reads without declaring them (Endpoint.reads).
 */
export function endpoint(
  methods: Method | Method[],
  permission: Endpoint['permission'],
  handler: Handler,
  args: Record<string, ArgSchema> = {},
  summary?: string,
  reads?: readonly string[],
): Endpoint {
  return {
    methods: Array.isArray(methods) ? methods : [methods],
    args,
    permission,
    handler,
    ...(summary ? { summary } : {}),
    ...(reads ? { reads } : {}),
  };
}

/** `current_user_can(cap)` as a permission callback. */
export function needs(cap: string): Endpoint['permission'] {
  return (req) => can(req.user, cap);
}

/** The full REST URL of a route of this namespace, as `rest_url()` builds it. */
export function restUrl(site: Origin, path: string): string {
  return `${site.restRoot}/${NS}/${path}`;
}

/** `admin_url()` */
export function adminUrl(site: Origin, path: string): string {
  return `${site.origin}/wp-admin/${path}`;
}

/**
 * A raw parameter as sent (query or body), for the routes that read undeclared
 * names: the endpoint lists them in `reads`, or the site drops them before the callback.
 */
export function rawParam(req: RestRequest, name: string): unknown {
  return req.params[name];
}

/** Names of the store options that hold this namespace's state. */
export const OPT = {
  /** Yoast Premium's redirects: `[{origin, url, type, format}]` (WPSEO_Redirect_Option::OPTION). */
  redirects: 'wpseo-premium-redirects-base',
  /** `{disable_php_redirect, separate_file}` ('on'/'off'). */
  redirectSettings: 'wpseo_redirect',
  /** Per-post SEO meta (`_yoast_wpseo_*`): `{[postId]: PostSeoMeta}`. */
  postMeta: 'wpseo_sandbox_post_meta',
  /** Per-term meta (cornerstone flag): `{[termId]: {cornerstone}}`. */
  termMeta: 'wpseo_sandbox_term_meta',
  /** Per-user meta (introductions, dismissed alerts, video embed permission). */
  userMeta: 'wpseo_sandbox_user_meta',
  /** The `wpseo` option group: configuration, tracking, integrations, workouts, tasks, ... */
  wpseo: 'wpseo',
  /** Indexing progress: which objects have been indexed by which action. */
  indexing: 'wpseo_sandbox_indexing',
  /** Score transients: `{[key]: {expires, scores}}` (wpseo_seo_scores_<type>[_<term>]). */
  scoreCache: 'wpseo_sandbox_score_cache',
} as const;

/** Reads one key of the `wpseo` option group, with its default. */
export function wpseoGet<T>(site: Storage, key: string, fallback: T): T {
  const all = site.store.option<Record<string, unknown>>(OPT.wpseo, {});
  return key in all ? (all[key] as T) : fallback;
}

/** Writes keys of the `wpseo` option group. */
export function wpseoSet(site: Storage, values: Record<string, unknown>): void {
  const all = site.store.option<Record<string, unknown>>(OPT.wpseo, {});
  site.store.setOption(OPT.wpseo, { ...all, ...values });
}

export interface UserSeoMeta {
  introductions?: Record<string, boolean>;
  dismissedAlerts?: Record<string, boolean>;
  videoEmbedPermission?: boolean;
}

export function userMeta(site: Storage, userId: number): UserSeoMeta {
  return site.store.option<Record<string, UserSeoMeta>>(OPT.userMeta, {})[userId] ?? {};
}

export function setUserMeta(site: Storage, userId: number, patch: Partial<UserSeoMeta>): void {
  const all = site.store.option<Record<string, UserSeoMeta>>(OPT.userMeta, {});
  all[userId] = { ...(all[userId] ?? {}), ...patch };
  site.store.setOption(OPT.userMeta, all);
}

/** PHP's `(object)[]` / `[]` distinction does not matter here; a plain JSON object. */
export type Json = Record<string, unknown>;
