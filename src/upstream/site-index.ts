/** The root index and the namespace indexes: the only place their paths are built. */
import type { UpstreamSession } from './client.ts';

/** Every namespace index of both spec documents (spec: "Index routes exist for: ..."). */
export const INDEXED_NAMESPACES = [
  'oembed/1.0', 'site-audit-log/v1', 'site-governance/v1', 'seo/v1', 'site-blocks/v1', 'calendar/aggregator/v1',
  'calendar/events/v1', 'calendar/views/v2', 'calendar-core/v2/onboarding', 'calendar-core/v1', 'calendar/automation-a/v1',
  'calendar/automation-b/v1', 'duplicate-post/v1', 'site/v1', 'facet/v1', 'core/v2',
] as const;

/** `GET /<namespace>`: `{namespace, routes, _links}`. */
export async function namespaceIndex(session: UpstreamSession, namespace: string): Promise<unknown> {
  const res = await session.request({ method: 'GET', path: `/${namespace}`, route: `GET /${namespace}` });
  return res.body;
}
