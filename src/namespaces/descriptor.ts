/**
 * A namespace descriptor: what the gateway's policies need to know of one REST
 * namespace, declared once in the namespace's folder (`namespace.ts`) and
 * read from the catalog (catalog.ts), from which the tables of the policies
 * are derived: the spec's namespace indexes (`Query.namespace`, the session's
 * labels), the upstream cache's families and reading POSTs (cache/policy.ts),
 * and the secrets the redaction plugin and the cache look for.
 *
 * Descriptors are plain data importing nothing: the session and the cache,
 * which every operation's context holds, read them without reaching the
 * route declarations, the resolvers or the generated types above them.
 * What a single route needs (its headers, whether a retry is safe) is in its
 * declaration (src/routes/declare.ts).
 */
export interface NamespaceDescriptor {
  /** The spec's name, as spec/routes.tsv writes it: `site-governance/v1`. */
  readonly name: string;
  /** The spec has an index route for it (`GET /<name>`), which `Query.namespace` reads. */
  readonly indexed: boolean;
  /** The upstream cache files every answer of the namespace under this family, and a write bumps it. */
  readonly family: string;
  /**
   * The site computes this family's answers from content of every kind (SEO
   * indexables, facets, the audit log, governance reports): any write makes
   * them stale.
   */
  readonly derivedFamily?: boolean;
  /** A write here can land in any family (a duplicated post may be an event). */
  readonly writesAnyFamily?: boolean;
  /** POST routes (spec paths) that only read (a search body too large for a query string): they invalidate nothing. */
  readonly readingPosts?: readonly string[];
  /** Query parameters that carry a credential: a GET sending one is never cached. */
  readonly secretParams?: readonly string[];
  /** GraphQL argument and input-field names whose values are secrets (the redaction plugin scrubs them). */
  readonly secretArguments?: readonly string[];
  /** Request headers (lower-case) of the graph's callers whose values are secrets. */
  readonly secretHeaders?: readonly string[];
}
