/**
 * `POST /purge` on the admin listener (src/admin/server.ts): drops what the
 * gateway's own stores hold, so the next reads go to the site. The body is
 *
 *   { "all": true }                 everything
 *   { "tags": ["event:42", ...] }   what those entity tags name
 *
 * The response cache knows entity tags (cache/tags.ts, `Surrogate-Key`): a tag
 * purge bumps those tags, and empties the upstream layer beneath, which files
 * entries by namespace family only (cache/policy.ts). Without the response
 * cache (`RESPONSE_CACHE=0` or no cache at all), a tag purge purges everything
 * and says so (`"scope": "all"`).
 *
 * Purging the upstream cache bumps every family's generation in the shared
 * store (with REDIS_URL, every instance in front of this site stops serving
 * what it had, at once) and empties this process's memory store.
 */

/** What a purge acts on: the gateway's caches (server.ts wires them). */
export interface PurgeTarget {
  /** Everything. Throws when a shared store cannot be reached. */
  purgeAll(): Promise<void>;
  /** What these tags name; absent: tags purge everything. Returns how many entries went, when known. */
  purgeTags?(tags: readonly string[]): Promise<number | null>;
}

export interface PurgeAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** At most this many tags in one request (a CDN's purge APIs take a few hundred to a few thousand). */
export const MAX_TAGS = 1_000;
const MAX_TAG_LENGTH = 256;

export async function purge(body: unknown, target: PurgeTarget): Promise<PurgeAnswer> {
  const request = parse(body);
  if ('error' in request) return { status: 400, body: { error: request.error } };
  try {
    if (request.all) {
      await target.purgeAll();
      return { status: 200, body: { purged: true, scope: 'all' } };
    }
    if (target.purgeTags) {
      const entries = await target.purgeTags(request.tags);
      return {
        status: 200,
        body: { purged: true, scope: 'tags', tags: request.tags.length, ...(entries !== null ? { entries } : {}) },
      };
    }
    await target.purgeAll();
    return {
      status: 200,
      body: {
        purged: true,
        scope: 'all',
        tags: request.tags.length,
        note: 'the stores do not track entity tags yet: everything was purged',
      },
    };
  } catch (err) {
    return {
      status: 503,
      body: { purged: false, error: `the purge could not reach the shared store: ${(err as Error).message}` },
    };
  }
}

function parse(body: unknown): { all: true } | { all: false; tags: string[] } | { error: string } {
  const usage = 'send {"all": true} or {"tags": ["<tag>", ...]}';
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { error: `the body must be a JSON object: ${usage}` };
  const { all, tags, ...rest } = body as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length)
    return {
      error: `unknown key${extra.length > 1 ? 's' : ''} ${extra.map((k) => JSON.stringify(k)).join(', ')}: ${usage}`,
    };
  if (all !== undefined && tags !== undefined) return { error: `"all" and "tags" together: ${usage}` };
  if (all === true) return { all: true };
  if (all !== undefined) return { error: `"all" must be true: ${usage}` };
  if (!Array.isArray(tags) || tags.length === 0) return { error: usage };
  if (tags.length > MAX_TAGS) return { error: `at most ${MAX_TAGS} tags per purge; got ${tags.length}` };
  if (!tags.every((t): t is string => typeof t === 'string' && t.length > 0 && t.length <= MAX_TAG_LENGTH)) {
    return { error: `every tag must be a non-empty string of at most ${MAX_TAG_LENGTH} characters` };
  }
  return { all: false, tags: [...new Set(tags)] };
}
