/**
 * Every namespace the gateway reaches, by its descriptor, and the tables the
 * policies read, derived from them: the spec's namespace indexes
 * (`INDEXED_NAMESPACES`), the upstream cache's families and reading POSTs
 * (cache/policy.ts), the secrets (plugins/redaction.ts, cache/policy.ts). A
 * new namespace adds its descriptor here, and nowhere else.
 *
 * Only descriptors are imported (plain data): see descriptor.ts.
 */
import { AGGREGATOR } from './aggregator/namespace.ts';
import { AUDIT } from './audit/namespace.ts';
import { AUTOMATION_A, AUTOMATION_B } from './automation/namespace.ts';
import { BLOCKS } from './blocks/namespace.ts';
import { CALENDAR_CORE, CALENDAR_LEGACY } from './calendar-extras/namespace.ts';
import { CHALLENGE } from './challenge/namespace.ts';
import type { NamespaceDescriptor } from './descriptor.ts';
import { DUPLICATE_POST } from './duplicate-post/namespace.ts';
import { FACET } from './facet/namespace.ts';
import { GOVERNANCE } from './governance/namespace.ts';
import { OEMBED } from './oembed/namespace.ts';
import { ONBOARDING } from './onboarding/namespace.ts';
import { POSTS } from './posts/namespace.ts';
import { SEO } from './seo/namespace.ts';
import { VIEWS } from './views/namespace.ts';

export type { NamespaceDescriptor } from './descriptor.ts';

/** In the order `Query.namespaces` lists them. */
export const NAMESPACES: readonly NamespaceDescriptor[] = [
  OEMBED,
  AUDIT,
  GOVERNANCE,
  SEO,
  BLOCKS,
  AGGREGATOR,
  CALENDAR_LEGACY,
  VIEWS,
  ONBOARDING,
  CALENDAR_CORE,
  AUTOMATION_A,
  AUTOMATION_B,
  DUPLICATE_POST,
  CHALLENGE,
  FACET,
  POSTS,
];

/** Every namespace index of both spec documents (spec: "Index routes exist for: ..."). */
export const INDEXED_NAMESPACES: readonly string[] = NAMESPACES.filter((d) => d.indexed).map((d) => d.name);

/**
 * The descriptor a spec path falls under (the longest name wins: `calendar-core/v2/onboarding` over
 * `calendar-core/v1`'s neighbours).
 */
export function namespaceOfPath(path: string): NamespaceDescriptor | undefined {
  let best: NamespaceDescriptor | undefined;
  for (const d of NAMESPACES) {
    if (
      (path === `/${d.name}` || path.startsWith(`/${d.name}/`) || path.startsWith(`/${d.name}?`)) &&
      d.name.length > (best?.name.length ?? -1)
    )
      best = d;
  }
  return best;
}

const union = (pick: (d: NamespaceDescriptor) => readonly string[] | undefined): readonly string[] => [
  ...new Set(NAMESPACES.flatMap((d) => pick(d) ?? [])),
];

/** Query parameters that carry a credential, by the namespaces that take them. */
export const SECRET_PARAMS: readonly string[] = union((d) => d.secretParams);
/** GraphQL argument and input-field names whose values are secrets, by the namespaces that take them. */
export const SECRET_ARGUMENTS: readonly string[] = union((d) => d.secretArguments);
/** Request headers whose values are secrets, by the namespaces that read them. */
export const SECRET_HEADERS: readonly string[] = union((d) => d.secretHeaders);
/** POST routes that only read. */
export const READING_POSTS: readonly string[] = union((d) => d.readingPosts);
/** The families of the namespaces, in catalog order. */
export const FAMILIES: readonly string[] = union((d) => [d.family]);
/** The families whose answers derive from content of every kind. */
export const DERIVED_FAMILIES: readonly string[] = union((d) => (d.derivedFamily ? [d.family] : []));
