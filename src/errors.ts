/**
 * The graph-wide error type: a `GraphQLError` with a stable `extensions.code`.
 *
 * Every layer raises it (argument checks in resolvers and mapping, limits,
 * writes, upstream failures), so it lives at the top of src/ rather than in
 * upstream/; upstream/errors.ts maps upstream answers and transport failures
 * to it. Anything that is not one is masked as an internal error by the server.
 */
import { GraphQLError } from 'graphql';

/** The stable codes a caller can branch on (`extensions.code`). */
export type GatewayCode =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'GONE'
  | 'CONFLICT'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_UNAVAILABLE'
  | 'UPSTREAM_ERROR'
  | 'UPSTREAM_BAD_RESPONSE'
  | 'NAMESPACE_UNAVAILABLE'
  /** The operation sent its budget of upstream requests (UPSTREAM_BUDGET; upstream/session.ts). */
  | 'REQUEST_BUDGET_EXCEEDED'
  | 'NOT_IMPLEMENTED'
  /** An operation type the gateway does not serve (subscriptions); HTTP 400. */
  | 'OPERATION_NOT_SUPPORTED'
  /** A write was sent but its answer never arrived (or could not be read): it may or may not have happened. */
  | 'OUTCOME_UNKNOWN'
  /**
   * The site did not store what a write asked (a field ignored or reset, even after one repair
   * through the route that honours it), or no route of the site declares a field asked:
   * `extensions.notApplied` names each field, the value asked and the value the site kept (docs/writes.md).
   */
  | 'WRITE_NOT_APPLIED'
  /**
   * Another write of the same object held its lock for longer than WRITE_LOCK_WAIT_MS: nothing was sent
   * (docs/writes.md).
   */
  | 'WRITE_LOCK_TIMEOUT'
  /** A subscription over SUBSCRIPTION_MAX_PER_CONNECTION or SUBSCRIPTION_MAX_PER_CALLER (docs/subscriptions.md). */
  | 'SUBSCRIPTION_LIMIT'
  /** A subscriber that did not read its changes fast enough was dropped (docs/subscriptions.md). */
  | 'SLOW_CONSUMER';

/** Where an error came from upstream: the site's own code (if it sent one), the HTTP status, our route label. */
export interface UpstreamErrorSource {
  /**
   * The site's error code (`rest_invalid_param`, ...), a transport code (`ECONNRESET`, `UND_ERR_HEADERS_TIMEOUT`), or
   * null when none was sent.
   */
  code: string | null;
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  /** The route label of the request, e.g. `GET /calendar-core/v1/events/<id>`. */
  route: string;
}

export interface GatewayErrorExtensions {
  [key: string]: unknown;
  code: GatewayCode;
  upstream?: UpstreamErrorSource;
  /** The offending parameters: `data.params` of a WP_Error (`{name: reason}` or a list of missing names). */
  params?: Record<string, string> | string[];
  /** Extra machine-readable detail (`data.details` of a WP_Error, Yoast `fields`, ...). */
  details?: unknown;
  /** Seconds the site asked us to wait (`Retry-After`). */
  retryAfter?: number;
  /** The offending GraphQL arguments, for errors the gateway raises itself (`['where.startDate']`). */
  arguments?: string[];
}

/** Known extension fields, plus any extra ones (e.g. `max` for a too-large `first`), copied into `extensions`. */
export interface GatewayErrorInit {
  [extension: string]: unknown;
  upstream?: UpstreamErrorSource;
  params?: Record<string, string> | string[];
  details?: unknown;
  retryAfter?: number;
  arguments?: string[];
  originalError?: unknown;
}

/**
 * A GraphQL error with a stable code. The only error class resolvers need to
 * know; anything that is not one is masked as an internal error by the server.
 */
export class GatewayError extends GraphQLError {
  readonly code: GatewayCode;
  declare readonly extensions: GatewayErrorExtensions;

  constructor(code: GatewayCode, message: string, init: GatewayErrorInit = {}) {
    const { originalError: cause, ...fields } = init;
    const extensions: GatewayErrorExtensions = { code };
    // Undefined fields are left out, so `extensions` serialises to exactly what is known.
    for (const [k, v] of Object.entries(fields)) if (v !== undefined && k !== 'code') extensions[k] = v;
    const originalError = cause instanceof Error ? cause : undefined;
    super(message, { extensions, ...(originalError ? { originalError } : {}) });
    this.name = 'GatewayError';
    this.code = code;
  }

  static badInput(message: string, init?: GatewayErrorInit): GatewayError {
    return new GatewayError('BAD_USER_INPUT', message, init);
  }
  static unauthenticated(message = 'Authentication is required.', init?: GatewayErrorInit): GatewayError {
    return new GatewayError('UNAUTHENTICATED', message, init);
  }
  static forbidden(message = 'Not allowed.', init?: GatewayErrorInit): GatewayError {
    return new GatewayError('FORBIDDEN', message, init);
  }
  static notFound(message: string, init?: GatewayErrorInit): GatewayError {
    return new GatewayError('NOT_FOUND', message, init);
  }
  static notImplemented(message: string, init?: GatewayErrorInit): GatewayError {
    return new GatewayError('NOT_IMPLEMENTED', message, init);
  }
  /** A REST namespace absent from the site's root index (docs/graph.md). */
  static namespaceUnavailable(namespace: string, init?: GatewayErrorInit): GatewayError {
    return new GatewayError(
      'NAMESPACE_UNAVAILABLE',
      `The site does not provide the REST namespace "${namespace}".`,
      init,
    );
  }
}

export function isGatewayError(e: unknown): e is GatewayError {
  return e instanceof GatewayError;
}
