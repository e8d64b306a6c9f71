/**
 * The root index and the namespace indexes: the only place their paths are
 * built. Which namespaces the spec indexes is each namespace's descriptor's
 * to say (catalog.ts INDEXED_NAMESPACES); the context hands that list to the
 * operation's session (SessionPolicy.namespaces), which names a namespace the
 * site lacks from it.
 */
import type { UpstreamSession } from '../upstream/client.ts';

/** `GET /<namespace>`: `{namespace, routes, _links}`. */
export async function namespaceIndex(session: UpstreamSession, namespace: string): Promise<unknown> {
  const res = await session.request({ method: 'GET', path: `/${namespace}`, route: `GET /${namespace}` });
  return res.body;
}
