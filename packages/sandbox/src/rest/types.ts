import type { RestError } from '../errors.ts';
import type { Site } from '../capabilities.ts';
import type { User } from '../auth.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export const EDITABLE: Method[] = ['POST', 'PUT', 'PATCH'];
export const WRITE_METHODS: Method[] = ['PUT', 'PATCH'];

type JsonType = 'integer' | 'number' | 'boolean' | 'string' | 'array' | 'object' | 'null';

/**
 * One argument of an endpoint, in the JSON-schema subset WordPress uses for
 * `args` (rest_validate_value_from_schema). These declarations drive routing,
 * validation, the root index and the OpenAPI documents: one source of truth.
 */
export interface ArgSchema {
  type?: JsonType | JsonType[];
  required?: boolean;
  default?: unknown;
  description?: string;
  enum?: readonly (string | number)[];
  minimum?: number;
  maximum?: number;
  format?: 'date-time' | 'uri' | 'email' | 'tel' | 'hex-color' | 'uuid';
  pattern?: string;
  items?: ArgSchema;
  uniqueItems?: boolean;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, ArgSchema>;
  additionalProperties?: boolean | ArgSchema;
  /**
   * A plugin's own validate_callback. `false` gives "Invalid parameter." with no
   * details (as legacy TEC dates do); a RestError lands under `details.<name>`.
   */
  validate?: (value: unknown, req: RestRequest) => boolean | RestError;
  /** A sanitize_callback; runs after validation, may throw a RestError. */
  sanitize?: (value: unknown, req: RestRequest) => unknown;
  /**
   * WordPress runs no schema check for this argument before its sanitize
   * callback: the argument declares a `sanitize_callback` and no
   * `validate_callback`, so `rest_validate_request_arg` only runs if the
   * callback calls it (the posts list's `status` does, after its permission
   * check). The schema still shows in the index.
   */
  sanitizeOnly?: boolean;
}

export interface RestRequest {
  method: Method;
  /** Route path, without the REST prefix and query, e.g. `/calendar/events/v1/events/12`. */
  path: string;
  /** Matched route pattern as declared, e.g. `/calendar/events/v1/events/(?P<id>\d+)`. */
  route: string;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  urlParams: Record<string, string>;
  /** Merged, validated and sanitised parameters (JSON body > query > URL > defaults). */
  params: Record<string, unknown>;
  /** Names the caller really sent (defaults excluded). */
  sent: Set<string>;
  headers: Record<string, string>;
  user: User | null;
  /** The site's capabilities (store, clock, origin, options, secret, events); not routing. */
  site: Site;
  /** True when the request is an item of a /batch/v1 call. */
  inBatch: boolean;
}

/** One item of a /batch/v1 call as the request log keeps it. */
export interface BatchLogItem {
  method: string;
  path: string;
  route?: string;
  status: number;
  /** Arguments the item's route does not declare, dropped (sorted). */
  undeclared?: string[];
}

/** A handler's answer when it is more than a 200 with a JSON body. */
export class RestResult {
  constructor(
    readonly body: unknown,
    readonly status = 200,
    readonly headers: Record<string, string> = {},
    /** Send `body` (a string) as-is with this content type (HTML, CSV, ...), not as JSON. */
    readonly contentType?: string,
    /** Items of a /batch/v1 call, for the request log. */
    readonly batch?: BatchLogItem[],
  ) {}
}

/** Returns a RestResult, or any JSON value for a plain 200. */
export type Handler = (req: RestRequest) => unknown;

export interface Endpoint {
  methods: Method[];
  args: Record<string, ArgSchema>;
  /** `permission_callback`: true to go on, false for rest_forbidden, or an error of its own. */
  permission: (req: RestRequest) => boolean | RestError;
  handler: Handler;
  /** `allow_batch: {v1: true}` in the index, and admission into /batch/v1. */
  allowBatch?: boolean;
  /**
   * Replaces WordPress's argument checks when it returns the parameters: a
   * plugin that declares `args` (so the index and OpenAPI show them) without
   * validate or sanitize callbacks, as TEC 6.15's calendar-core lists do
   * (real-site-behaviour.md). `args` are the endpoint's as the release declares
   * them. Null keeps the checks.
   */
  parseArgs?: (req: RestRequest, args: Record<string, ArgSchema>) => Record<string, unknown> | null;
  /**
   * Parameters the callback reads without declaring them, or `all` when it
   * takes the request's every parameter (`$request->get_params()`). WordPress
   * hands a callback the whole request, so a plugin that reads an undeclared
   * name gets it: these reach the handler and are not logged as dropped
   * (site.ts dropUndeclared). Anything else undeclared is dropped.
   */
  reads?: readonly string[] | 'all';
  /** Route-level check run after per-argument validation (`rest_invalid_params` style). */
  validateRequest?: (req: RestRequest) => RestError | null;
  /** OpenAPI summary. */
  summary?: string;
}

export interface RouteDecl {
  namespace: string;
  /** WordPress route regex, e.g. `/calendar/events/v1/events/(?P<id>\d+)`. */
  path: string;
  endpoints: Endpoint[];
  /** Hidden from the index (show_in_index false). */
  hidden?: boolean;
  /** On a copy served under the plugin's namespace name (names.ts): the spec-named declaration it copies. */
  spec?: RouteDecl;
}

/**
 * The routes the site serves, once composed: for the indexes and the OpenAPI
 * documents, which describe every route including their own.
 */
export interface RouteTable {
  readonly routes: readonly RouteDecl[];
}
