/**
 * The experimental-endpoint gate of tec/v1 (calendar-upstream.md §2
 * "Experimental gate"; TC Abstracts/Endpoint.php and
 * Exceptions/ExperimentalEndpointException.php). The header is checked inside
 * the callback, so argument and permission checks come first: an anonymous
 * write is a 401, not this 400.
 */
import { RestError } from '../../errors.ts';
import type { Handler, RestRequest } from '../../rest/types.ts';

/** The sentence `X-TEC-EEA` must carry (compared trimmed and case-insensitively). */
export const TEC_EEA =
  'I understand that this endpoint is experimental and may change in a future release without maintaining backward compatibility. I also understand that I am using this endpoint at my own risk, while support is not provided for it.';

export function acknowledged(req: RestRequest): boolean {
  const sent = req.headers['x-tec-eea'];
  return typeof sent === 'string' && sent.trim().toLowerCase() === TEC_EEA.toLowerCase();
}

/** Wraps a callback so it first demands the acknowledgement header. */
export function experimental(handler: Handler): Handler {
  return (req) => {
    if (!acknowledged(req)) {
      throw new RestError(
        'missing_experimental_endpoint_acknowledgement',
        'Experimental endpoint requires acknowledgement header.',
        400,
      );
    }
    return handler(req);
  };
}
