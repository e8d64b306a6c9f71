/**
 * The root index and the namespace indexes: the only place their paths are
 * built. Which namespaces the spec indexes is each namespace's descriptor's
 * to say (catalog.ts INDEXED_NAMESPACES); the context hands that list to the
 * operation's session (SessionPolicy.namespaces), which names a namespace the
 * site lacks from it.
 */
import { handRoute } from '../routes/hand.ts';
import type { UpstreamSession } from '../upstream/client.ts';

/** The index route of a namespace: the request below and the route table's row. */
export const namespaceIndexRoute = (namespace: string) => handRoute('GET', `/${namespace}`);

/** `GET /<namespace>`: `{namespace, routes, _links}`. */
export async function namespaceIndex(session: UpstreamSession, namespace: string): Promise<unknown> {
  const r = namespaceIndexRoute(namespace);
  const res = await session.request({ method: r.method, path: r.path, route: r.label });
  return res.body;
}
