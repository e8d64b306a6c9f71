/**
 * The admin listener as the gateway starts it: on ADMIN_HOST and ADMIN_PORT (else the public port + 1, a free one
 * when PORT is 0), with `POST /purge` wired to the gateway's caches. A port it cannot take is a PortError that says
 * which setting to change.
 */
import type { GatewayCache } from '../cache/index.ts';
import { ALL } from '../cache/tags.ts';
import { portError } from '../cli-kit.ts';
import { adminPortOf, type Config } from '../config.ts';
import type { PurgeTarget } from './purge.ts';
import { startAdmin, type AdminDeps, type AdminListener } from './server.ts';

/** By tag: the answers carrying one go (every instance), and the upstream layer beneath, which knows no tags, whole. */
export function purgeTarget(cache: GatewayCache): PurgeTarget {
  const operations = cache.operations;
  return {
    purgeAll: async () => {
      await cache.upstream.purge();
      await operations?.invalidate([ALL]);
      operations?.clear();
    },
    ...(operations
      ? {
          purgeTags: async (tags: readonly string[]) => {
            await operations.invalidate(tags);
            await cache.upstream.purge();
            return null;
          },
        }
      : {}),
  };
}

export async function startAdminListener(
  config: Config,
  deps: Omit<AdminDeps, 'purge'> & { cache: GatewayCache },
): Promise<AdminListener> {
  const { cache, ...rest } = deps;
  const port = adminPortOf(config);
  try {
    return await startAdmin(config.admin.host, port, { ...rest, purge: purgeTarget(cache) });
  } catch (err) {
    throw (
      portError(
        err,
        config.admin.host,
        port,
        'the admin listener is PORT + 1 by default: choose its port with ADMIN_PORT',
      ) ?? err
    );
  }
}
