/**
 * The calendar's other namespaces: calendar/views/v2, calendar-core/v2/onboarding,
 * calendar/aggregator/v1, calendar/automation-a/v1, calendar/automation-b/v1
 * (spec C–G; calendar-upstream.md §3–§6). Their namespace indexes come from root.ts.
 */
import type { RouteDecl, RouteTable } from '../../rest/types.ts';
import type { Clock, Origin, Settings, Site, Storage } from '../../capabilities.ts';
import { aggregatorImports, aggregatorRoutes, seedAggregator, type ImportCredentials } from './aggregator.ts';
import { automationARoutes } from './automation-a.ts';
import { automationBRoutes } from './automation-b.ts';
import { connectorCredentials, seedConnectors, type ConnectionCredentials } from './credentials.ts';
import { onboardingRoutes } from './onboarding.ts';
import { registerQueueListeners } from './queues.ts';
import { viewsRoutes } from './views.ts';

export function extrasRoutes(site: Site & RouteTable): RouteDecl[] {
  // Built once per site, before seeding: the queues listen from the start but
  // only fill once a connector has a connection (seeded last, so the demo
  // events are not queued).
  registerQueueListeners(site);
  return [
    ...viewsRoutes(),
    ...onboardingRoutes(),
    ...aggregatorRoutes(),
    ...automationARoutes(site),
    ...automationBRoutes(site),
  ];
}

/** Demo data of these namespaces; runs once, after the calendar's, on an empty database. */
export function seedExtras(site: Clock & Storage & Settings): void {
  seedConnectors(site);
  seedAggregator(site);
}

export interface ExtrasCredentials {
  /** automation-a: exchange at `GET /calendar/automation-a/v1/authorize?consumer_id=…&consumer_secret=…`. */
  zapier: ConnectionCredentials[];
  /** automation-b: send `accessToken` as `access_token`. */
  powerAutomate: ConnectionCredentials[];
  /** aggregator: the records the import service calls back about. */
  aggregatorImports: ImportCredentials[];
  /** Where the nonces the views and the wizard need come from. */
  nonces: { views: string; wizard: string };
}

/**
 * The plain credentials of this site's extras, for `npm run sandbox` to print
 * and for tests: derived from the seed (only hashes are stored) and read live
 * from the store, so they are empty on a site seeded without demo data.
 */
export function extrasCredentials(site: Clock & Origin & Storage & Settings): ExtrasCredentials {
  return {
    ...connectorCredentials(site),
    aggregatorImports: aggregatorImports(site),
    nonces: {
      views: `${site.origin}/__sandbox/nonce?action=_view_rest`,
      wizard: `${site.origin}/__sandbox/nonce?action=_tec_wizard`,
    },
  };
}
