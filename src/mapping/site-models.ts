/**
 * The site's own objects as resolvers see them: what its root index says
 * (`Site`, parsed by upstream/discovery.ts) and its namespaces. Codegen maps
 * `Site` and `Namespace` onto these, so this module imports nothing from the
 * generated types: the generated file imports only model modules, never a
 * module that imports it back.
 */

export interface RouteInfo {
  pattern: string;
  re: RegExp | null;
  namespace: string;
  methods: string[];
  /** Methods whose endpoint has `allow_batch: {v1: true}`. */
  batchMethods: string[];
  /**
   * Argument names each method's endpoint declares (WordPress lists `args` per
   * endpoint; the create endpoint of /core/v2/posts declares `format` where the
   * list does not, on WordPress 6.1). A method missing here is not described.
   */
  args: Record<string, string[]>;
}

export interface SiteInfo {
  name: string | null;
  description: string | null;
  url: string | null;
  home: string | null;
  timezone: string;
  gmtOffset: number | null;
  namespaces: string[];
  hasLegacy: boolean;
  hasCore: boolean;
  /** Which interface event lists use when no filter pins one (the legacy list: faster, and it filters by term). */
  calendarInterface: 'CORE' | 'LEGACY' | null;
  maxBatchSize: number;
  routes: RouteInfo[];
  hasBatch: boolean;
  /**
   * The names the site serves the spec's namespaces and routes under, where
   * they differ (`tribe/events/v1` for calendar/events/v1): what the operation's
   * session translates spec paths with (upstream/names.ts). Everything else
   * here is in the spec's names.
   */
  names: SiteNames;
  /** The index as the site sent it, in the site's own names. */
  raw: unknown;
}

/** How a site names what the spec names (built by upstream/names.ts `siteNames`). */
export interface SiteNames {
  /** Spec namespace -> the name the site serves it under, for those it serves under another name. */
  readonly namespaces: Readonly<Record<string, string>>;
  /** Spec route prefix (`seo/v1/keyword_research`) -> the site's (`seo/v1/semrush`), for the renames in force. */
  readonly routes: Readonly<Record<string, string>>;
  /** `[spec prefix, site prefix]` pairs with leading slashes, longest spec prefix first: what `toSitePath` applies. */
  readonly rewrites: readonly (readonly [string, string])[];
}

export interface NamespaceModel {
  name: string;
  available: boolean;
  routes: { pattern: string; methods: string[]; batchMethods: string[] }[];
  raw: unknown;
}
