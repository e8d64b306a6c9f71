/**
 * What one GraphQL request leaves behind for operators: one log line and its
 * metrics (docs/production.md "Logs", "Metrics"), plus a log line for every upstream
 * attempt that failed on the site's side.
 *
 * http-routes.ts wraps each `/graphql` request in `track`: a `RequestRecord` is
 * made and handed on explicitly: to the operation's context (`tag`), whose
 * upstream session tags every request with it, so the client's attempt events
 * say whose they are. Every line of a request is written in its log scope
 * (src/log.ts: it carries `reqId` and is redacted with the request's
 * secrets). The Apollo plugin fills the record in (operation, errors,
 * upstream session); when the response is closed it is counted and logged
 * once.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApolloServerPlugin } from '@apollo/server';
import { getOperationAST, type GraphQLError } from 'graphql';
import { withLogScope, type LogScope, type Logger } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import type { UpstreamAttemptEvent } from '../upstream/client.ts';
import { requestSecretForms } from './redaction.ts';

/** Who is calling, as the site will see it; never the credential itself. */
export type CallerKind = 'anonymous' | 'authenticated' | 'service';

/** `outcome` of a request whose client went away before the answer was sent. */
export const ABORTED = 'ABORTED';

/** A caller's `X-Request-Id` is reused only when it is a plain token (nothing to inject into logs). */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** One `/graphql` request as observed: filled in while it runs, reported once when its response closes. */
export class RequestRecord implements LogScope {
  readonly started = performance.now();
  operationName: string | null = null;
  operationType: string | null = null;
  readonly errorCodes: string[] = [];
  /** Upstream requests the operation sent so far (its session's count, retries included). */
  upstreamRequests: () => number = () => 0;
  secrets?: () => readonly string[];

  constructor(
    readonly reqId: string,
    readonly caller: CallerKind,
  ) {}
}

/** What the plugin reads of the operation's context (src/context.ts). */
export interface ObservedContext {
  /** The request's record, when it has one. */
  readonly tag: object | undefined;
  /** The operation's upstream session: how many requests it sent. */
  readonly upstream: { readonly sent: number };
}

function recordOf(tag: unknown): RequestRecord | undefined {
  return tag instanceof RequestRecord ? tag : undefined;
}

export interface ObserverOptions {
  log: Logger;
  metrics: Metrics;
  /** A service credential is configured (`SITEGRAPH_SERVICE_AUTH`): callers without one act as the service. */
  serviceAuth: boolean;
  /** Errors the answer masks as INTERNAL_SERVER_ERROR (pipeline/respond.ts): each gets an `internal error` line. */
  isInternal?: (error: GraphQLError) => boolean;
}

/**
 * Upstream outcomes worth a line: no answer (network error, timeout,
 * cancellation), a 5xx, or a body that could not be read (an HTML error page
 * where JSON was due). 4xx answers are the caller's (NOT_FOUND, FORBIDDEN)
 * and already reach the caller as error codes.
 */
function upstreamFailed(e: UpstreamAttemptEvent): boolean {
  return e.status === null || e.status >= 500 || e.error === 'UPSTREAM_BAD_RESPONSE';
}

export function createObserver(opts: ObserverOptions) {
  const { log, metrics } = opts;
  // The observer's own lines (the operation line, upstream failures) have fixed keys, none
  // that the key rules of src/log.ts censor, so they skip that walk (~10 µs a line);
  // redaction by value still applies to every line. Lines that carry an error object whole
  // (`internal error`) go through `log`, key rules included.
  const own = log.child({}, { redact: { paths: [] } });

  /** Apollo plugin: fills the current record in. */
  // Requests refused before an operation exists (CSRF prevention, a body without `query`)
  // have no context: `finish` counts them by their HTTP status.
  const plugin: ApolloServerPlugin<ObservedContext> = {
    async requestDidStart(start) {
      const rec = recordOf(start.contextValue.tag);
      if (!rec) return;
      // The record may outlive the request (a line of a late upstream attempt), so it must
      // not hold the request's context (its loaders and every model read). These closures
      // see the request and the session only until the response is sent, then the figures
      // they produced.
      let request: typeof start.request | null = start.request;
      let forms: readonly string[] | null = null;
      rec.secrets = () => forms ?? (request ? (forms = requestSecretForms(request)) : []);
      let session: typeof start.contextValue.upstream | null = start.contextValue.upstream;
      let sent = 0;
      rec.upstreamRequests = () => session?.sent ?? sent;
      const release = () => {
        rec.secrets?.();
        sent = session?.sent ?? sent;
        request = null;
        session = null;
      };
      return {
        async didEncounterErrors(rc) {
          const internal = opts.isInternal;
          if (!internal) return;
          for (const e of rc.errors) {
            if (internal(e))
              withLogScope(rec, () => log.error({ err: e.originalError ?? e, path: e.path ?? null }, 'internal error'));
          }
        },
        async didResolveOperation(rc) {
          rec.operationName = rc.operationName ?? null;
          rec.operationType = rc.operation?.operation ?? null;
        },
        async willSendResponse(rc) {
          // An invalid document has no resolved operation, but its text may name one.
          if (rec.operationType === null && rc.document) {
            const op = getOperationAST(rc.document, rc.request.operationName);
            rec.operationName = op?.name?.value ?? rc.request.operationName ?? null;
          }
          const body = rc.response.body;
          const result = body.kind === 'single' ? body.singleResult : body.initialResult;
          for (const e of result.errors ?? []) rec.errorCodes.push(codeOf(e) ?? 'INTERNAL_SERVER_ERROR');
          release();
        },
      };
    },
  };

  /** Runs one `/graphql` request with its record current, and reports it when the response closes. */
  function track(
    req: IncomingMessage,
    res: ServerResponse,
    handle: (record: RequestRecord) => Promise<void>,
  ): Promise<void> {
    const given = req.headers['x-request-id'];
    const reqId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    const caller: CallerKind = req.headers.authorization ? 'authenticated' : opts.serviceAuth ? 'service' : 'anonymous';
    const rec = new RequestRecord(reqId, caller);
    res.setHeader('x-request-id', reqId);
    // 'close' comes after the last byte is handed over, or when the client went away first.
    res.once('close', () => withLogScope(rec, () => finish(rec, res)));
    return handle(rec);
  }

  function finish(rec: RequestRecord, res: ServerResponse): void {
    const aborted = !res.writableFinished;
    const status = res.statusCode;
    const codes = [...rec.errorCodes];
    // HTTP-level refusals made before Apollo (rate limit, body too large, not JSON) carry no code we saw.
    if (!codes.length && status >= 400)
      codes.push(status === 429 ? 'RATE_LIMITED' : status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
    if (aborted) codes.unshift(ABORTED);
    const ms = performance.now() - rec.started;
    try {
      metrics.observeOperation({ operation: rec.operationName, errorCodes: codes, seconds: ms / 1000 });
      own.info(
        {
          operation: rec.operationName,
          operationType: rec.operationType,
          ms: Math.round(ms * 10) / 10,
          upstreamRequests: rec.upstreamRequests(),
          errors: codes,
          status: aborted ? null : status,
          caller: rec.caller,
        },
        'graphql operation',
      );
    } catch (err) {
      // Reporting must never take the server down; the answer is already sent.
      log.error({ err }, 'could not report a graphql operation');
    }
  }

  /** The upstream client's per-attempt hook: latency metrics by route template, and failures logged. */
  function upstream(e: UpstreamAttemptEvent): void {
    metrics.upstreamRequests.inc({ route: e.route, status: e.status === null ? 'error' : String(e.status) });
    metrics.upstreamDuration.observe({ route: e.route }, e.ms / 1000);
    if (!upstreamFailed(e)) return;
    withLogScope(recordOf(e.tag), () =>
      own.warn(
        {
          route: e.route,
          // As sent, in the site's names (`/tribe/events/v1/events/5` on an unmodified site); `route` keeps the spec's.
          path: e.path,
          status: e.status,
          code: e.error ?? null,
          cause: e.cause ?? null,
          contentType: e.contentType ?? null,
          // Redacted by value with the request's secrets on the way out (log.ts), as the site may echo them.
          message: e.message ?? null,
          attempt: e.attempt,
          ms: Math.round(e.ms * 10) / 10,
        },
        'upstream request failed',
      ),
    );
  }

  return { plugin, track, upstream };
}

export type Observer = ReturnType<typeof createObserver>;

function codeOf(e: unknown): string | undefined {
  const code = (e as { extensions?: { code?: unknown } } | null)?.extensions?.code;
  return typeof code === 'string' ? code : undefined;
}
