/**
 * The root index and the namespace indexes: the only place their paths are
 * built. Which namespaces the spec indexes is each namespace's descriptor's
 * to say (src/namespaces/catalog.ts); the session names a namespace the site
 * lacks from that list.
 */
import type { UpstreamSession } from './client.ts';

export { INDEXED_NAMESPACES } from '../namespaces/catalog.ts';

/** `GET /<namespace>`: `{namespace, routes, _links}`. */
export async function namespaceIndex(session: UpstreamSession, namespace: string): Promise<unknown> {
  const res = await session.request({ method: 'GET', path: `/${namespace}`, route: `GET /${namespace}` });
  return res.body;
}
