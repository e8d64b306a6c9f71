/**
 * The pipeline's last stage, respond: how an error leaves the gateway, whichever
 * transport sends it. Known errors keep their code; anything else is masked
 * (internal details never leak) and logged, with the request's id, by the
 * observer (plugins/observability.ts, `isInternal`). Apollo applies
 * `formatError` to /graphql's answers; the subscription transports and the
 * pipeline's own refusals go through `formatErrors`, which does what Apollo
 * does around it (a default code, the `http` extension taken out), so an error
 * reads the same on every transport.
 */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { isGatewayError } from '../errors.ts';
import { UpstreamShapeError } from '../mapping/json.ts';
import { scrubValue } from '../plugins/redaction.ts';
import { secretForms } from '../redact.ts';

export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  return (
    formatKnown(formatted, error) ?? {
      message: 'Internal server error',
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    }
  );
}

/** The error as the caller sees it, or null when it is internal (to be masked). */
function formatKnown(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError | null {
  const original = (error as { originalError?: unknown })?.originalError ?? error;
  if (isGatewayError(original)) return { ...formatted, extensions: { ...original.extensions } };
  if (original instanceof UpstreamShapeError) {
    return {
      ...formatted,
      message: `The site sent an unexpected body: ${original.message}`,
      extensions: { code: 'UPSTREAM_BAD_RESPONSE' },
    };
  }
  // Bad literal values (a scalar's own check) and the abuse limits are the caller's to fix.
  const cause = (original as { originalError?: unknown })?.originalError ?? original;
  const causeCode = (cause as { extensions?: { code?: unknown } })?.extensions?.code;
  // (A request refused whole for its shape, as too deeply nested, stays BAD_REQUEST, as it is on /graphql; the rate
  // limit's `limit` is a count, not the name of an abuse limit, and its refusal stays RATE_LIMITED.)
  const own = (original as { extensions?: { limit?: unknown; code?: unknown } })?.extensions;
  if (causeCode === 'BAD_USER_INPUT' || (typeof own?.limit === 'string' && own.code !== 'BAD_REQUEST')) {
    return {
      ...formatted,
      extensions: {
        ...formatted.extensions,
        ...(original as { extensions?: object }).extensions,
        code: 'BAD_USER_INPUT',
      },
    };
  }
  const code = formatted.extensions?.code;
  return typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR' ? formatted : null;
}

/** What formatError will mask, as the observer sees the error (before Apollo formats it). */
export function isInternal(error: GraphQLError): boolean {
  return formatKnown({ message: error.message, extensions: error.extensions }, error) === null;
}

/**
 * Errors as the caller receives them: as Apollo formats /graphql's (a code when there is none, the `http`
 * extension, which only sets the answer's status, taken out), then `formatError`, then every form of `secrets`
 * scrubbed out.
 */
export function formatErrors(
  errors: readonly (GraphQLError | GraphQLFormattedError)[],
  secrets: Iterable<string> = [],
): GraphQLFormattedError[] {
  const formatted = errors.map((e) => {
    if (!(e instanceof GraphQLError)) return e;
    const { http: _, ...extensions } = e.extensions;
    const json = e.toJSON();
    return formatError({ ...json, extensions: { ...extensions, code: extensions.code ?? 'INTERNAL_SERVER_ERROR' } }, e);
  });
  const forms = secretForms(new Set(secrets));
  return forms.length ? (scrubValue(formatted, forms) as GraphQLFormattedError[]) : formatted;
}
