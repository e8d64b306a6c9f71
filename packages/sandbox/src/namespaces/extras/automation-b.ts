/**
 * `calendar/automation-b/v1`: the Power Automate connector (spec G;
 * calendar-upstream.md §4; TC `Power_Automate/REST/V1/Endpoints/*`). No
 * `/authorize`: the token is issued when the connection is saved (see
 * credentials.ts). The feeds' permission callback validates the token
 * (`rest_forbidden` 401/403 otherwise), and each call pops one event:
 * `{"events":[mapped]}`, then sentinel objects once the queue is empty.
 */
import { RestResult, type RouteDecl, type RouteTable } from '../../rest/types.ts';
import type { Site } from '../../capabilities.ts';
import { NO_CACHE, TOKEN_READS, accessTokenArg, createEventsRoutes } from './actions.ts';
import { POWER_AUTOMATE, isWpErr, verifyAndLoad } from './credentials.ts';
import { docRoute } from './doc.ts';
import { mappedEvent } from './mapped-event.ts';
import { getQueue, setQueue, type QueueName } from './queues.ts';

const NS = POWER_AUTOMATE.namespace;

function feedRoute(path: string, queue: QueueName, kind: string): RouteDecl {
  return {
    namespace: NS,
    path: `/${NS}/${path}`,
    endpoints: [
      {
        methods: ['GET'],
        args: { access_token: accessTokenArg(POWER_AUTOMATE) },
        reads: TOKEN_READS,
        // `can_access`: a valid token whose connection loads.
        permission: (req) => !isWpErr(verifyAndLoad(req.site, POWER_AUTOMATE, req.params)),
        handler: (req) => {
          const { site } = req;
          const ids = getQueue(site, POWER_AUTOMATE, queue);
          const answer = (events: unknown) => new RestResult({ events }, 200, NO_CACHE);
          if (!ids.length) return answer({ id: `no-${kind}-events` });
          // Pop the newest; the rest stays for the next call whatever happens to this one.
          const next = ids.shift()!;
          setQueue(site, POWER_AUTOMATE, queue, ids);
          if (!next) return answer({ id: 'no-valid-events' });
          const event = mappedEvent(site, next);
          return event ? answer([event]) : answer({ id: 'not-a-valid-post-type' });
        },
        summary: `Pops the next ${kind} event`,
      },
    ],
  };
}

export function automationBRoutes(site: Site & RouteTable): RouteDecl[] {
  return [
    docRoute(site, POWER_AUTOMATE),
    feedRoute('canceled-events', 'canceled_events', 'canceled'),
    feedRoute('new-events', 'new_events', 'new'),
    feedRoute('updated-events', 'updated_events', 'updated'),
    ...createEventsRoutes(POWER_AUTOMATE, 'Power Automate_incorrect_get_request'),
  ];
}
