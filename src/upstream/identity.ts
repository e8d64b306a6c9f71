/** Who the site sees, as part of an upstream cache key: never the credential itself. */
import { createHash } from 'node:crypto';

/** The identity of callers without a credential: all of them share entries. */
export const ANONYMOUS = 'anonymous';

/** `anonymous`, or a hash of the Authorization sent (the caller's, or the service credential: its own identity). */
export function identityOf(authorization: string | undefined): string {
  return authorization === undefined
    ? ANONYMOUS
    : `cred:${createHash('sha256').update(authorization).digest('base64url')}`;
}
