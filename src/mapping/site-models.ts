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
  raw: unknown;
}

export interface NamespaceModel {
  name: string;
  available: boolean;
  routes: { pattern: string; methods: string[]; batchMethods: string[] }[];
  raw: unknown;
}
