/**
 * `calendar/automation-a/v1`: the Zapier connector (spec F; calendar-upstream.md
 * §4; TC `Zapier/REST/V1/Endpoints/*`). Consumer ID and secret buy a JWT at
 * `/authorize`; the three feeds answer a bare array of mapped events, newest
 * first, at most 15, without draining (Zapier de-duplicates by `id`). Token
 * and connection failures in callbacks are HTTP 400 with the serialised
 * WP_Error as the body, whatever the error's own status.
 */
import { RawError } from '../../errors.ts';
import { RestResult, type RouteDecl, type RouteTable } from '../../rest/types.ts';
import type { Site } from '../../capabilities.ts';
import {
  NO_CACHE,
  TOKEN_READS,
  accessTokenArg,
  createEventsRoutes,
  findEventsRoute,
  updateEventsRoute,
} from './actions.ts';
import { ZAPIER, isWpErr, loadKey, mintToken, verifyAndLoad, wpErrorBody } from './credentials.ts';
import { docRoute } from './doc.ts';
import { mappedEvent } from './mapped-event.ts';
import { getQueue, type QueueName } from './queues.ts';

const NS = ZAPIER.namespace;

/** A feed: `[mapped…]`, or `[{"id":"no-<kind>-events"}]` / `[{"id":"no-valid-<kind>-events"}]`. */
function feedRoute(path: string, queue: QueueName, kind: string, uniqueId: boolean): RouteDecl {
  return {
    namespace: NS,
    path: `/${NS}/${path}`,
    endpoints: [
      {
        methods: ['GET'],
        args: { access_token: accessTokenArg(ZAPIER, true) },
        reads: TOKEN_READS,
        // Open: the token is checked in the callback.
        permission: () => true,
        handler: (req) => {
          const loaded = verifyAndLoad(req.site, ZAPIER, req.params);
          if (isWpErr(loaded)) throw new RawError(400, wpErrorBody(loaded), NO_CACHE);
          const ids = getQueue(req.site, ZAPIER, queue);
          if (!ids.length) return new RestResult([{ id: `no-${kind}-events` }], 200, NO_CACHE);
          const events = ids.map((id) => mappedEvent(req.site, id, uniqueId)).filter((e) => e !== false);
          return new RestResult(events.length ? events : [{ id: `no-valid-${kind}-events` }], 200, NO_CACHE);
        },
        summary: `Returns the ${kind} events queue`,
      },
    ],
  };
}

export function automationARoutes(site: Site & RouteTable): RouteDecl[] {
  const authorize: RouteDecl = {
    namespace: NS,
    path: `/${NS}/authorize`,
    endpoints: [
      {
        methods: ['GET'],
        args: {
          consumer_id: {
            type: 'string',
            required: true,
            description: 'The consumer id to authorize Zapier connection.',
          },
          consumer_secret: {
            type: 'string',
            required: true,
            description: 'The consumer secret to authorize Zapier connection.',
          },
          app_name: { type: 'string', description: 'The app name of the Zapier connection.' },
        },
        permission: () => true,
        handler: (req) => {
          const p = req.params;
          const appName = typeof p.app_name === 'string' ? p.app_name : '';
          const loaded = loadKey(req.site, ZAPIER, p.consumer_id, p.consumer_secret, appName);
          if (isWpErr(loaded)) throw new RawError(400, wpErrorBody(loaded), NO_CACHE);
          // The token carries the pair as the caller sent it (esc_html on the app name).
          const token = mintToken(req.site, ZAPIER, {
            consumer_id: String(p.consumer_id),
            consumer_secret: String(p.consumer_secret),
            app_name: escHtml(appName),
          });
          return new RestResult({ access_token: token }, 200, NO_CACHE);
        },
        summary: 'Exchanges a consumer ID and secret for an access token',
      },
    ],
  };
  return [
    docRoute(site, ZAPIER),
    authorize,
    // Canceled and updated items carry `<ID>|<modified>` so every change is new to Zapier.
    feedRoute('canceled-events', 'canceled_events', 'canceled', true),
    feedRoute('new-events', 'new_events', 'new', false),
    feedRoute('updated-events', 'updated_events', 'updated', true),
    ...createEventsRoutes(ZAPIER, 'zapier_incorrect_get_request'),
    updateEventsRoute(ZAPIER),
    findEventsRoute(site, ZAPIER),
  ];
}

function escHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}
