/**
 * `cache-control` on GraphQL responses, for browsers, proxies and CDNs.
 *
 * Derived from the operation's session (upstream/session.ts `cacheHint`), not
 * from per-field hints: Apollo's cache-control plugin stays disabled because
 * its per-field hook costs on every list item. What the session saw is what
 * the answer was built from:
 *
 * - a mutation, or any error: `no-store`;
 * - a caller with a credential (Authorization, the service credential, a token
 *   or API key header or argument): `private, max-age=N`;
 * - anyone else: `public, max-age=N`;
 *
 * where N is the shortest freshness of the upstream answers used (a site
 * answer that may not be reused makes it 0, then `no-store`). Gateway-only
 * fields (`__typename`, introspection) use no upstream answer and do not lower
 * it: they get the configured TTL.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { CacheHint } from '../upstream/session.ts';

/** What the plugin reads of the operation's context (src/context.ts): its upstream session, when it was made. */
interface SessionContext {
  readonly upstream?: { readonly authenticated: boolean; readonly cacheHint: CacheHint };
}

/** Request headers that carry a credential (docs/graph.md "Auth"): their answers are the caller's alone. */
export const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'x-automation-token', 'x-governance-api-key'];

export interface ResponseFacts {
  mutation: boolean;
  errors: boolean;
  /** The caller or the gateway sent a credential upstream. */
  credential: boolean;
  hint: CacheHint | undefined;
  /** The configured TTL, for answers that used nothing upstream. */
  ttlMs: number;
}

export function cacheControlFor(f: ResponseFacts): string {
  if (f.mutation || f.errors || !f.hint) return 'no-store';
  const seconds = Math.floor((f.hint.maxAgeMs ?? f.ttlMs) / 1000);
  if (seconds <= 0) return 'no-store';
  return `${f.credential || f.hint.private ? 'private' : 'public'}, max-age=${seconds}`;
}

export function cacheControlPlugin(ttlMs: number): ApolloServerPlugin<SessionContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, operation, contextValue, request }) {
          const body = response.body;
          const errors = body.kind !== 'single' || (body.singleResult.errors?.length ?? 0) > 0;
          // The context may be incomplete when the request failed before execution.
          const session = (contextValue as SessionContext | undefined)?.upstream;
          const credential =
            Boolean(session?.authenticated) || CREDENTIAL_HEADERS.some((h) => request.http?.headers.get(h));
          response.http.headers.set(
            'cache-control',
            cacheControlFor({
              mutation: operation?.operation !== 'query',
              errors,
              credential,
              hint: session?.cacheHint,
              ttlMs,
            }),
          );
        },
      };
    },
  };
}
