/**
 * The connectors' actions (calendar-upstream.md §4 "Actions"; TC
 * `{Zapier,Power_Automate}/REST/V1/Endpoints/Actions` and ECP's `pre_dispatch_verification_for_*`):
 * create-events and update-events run the legacy create and update as the
 * connection's user, find-events runs the legacy archive and maps what it
 * finds. The legacy handlers, arguments and representations are reused as
 * they are (namespaces/legacy), so the three answer exactly as
 * `calendar/events/v1` does.
 */
import { can, type User } from '../../auth.ts';
import { legacyEvent } from '../../calendar/legacy-repr.ts';
import { EVENT, canEdit, saveEvent, type EventMeta } from '../../calendar/model.ts';
import { RawError, RestError, forbidden } from '../../errors.ts';
import {
  EDITABLE,
  RestResult,
  type ArgSchema,
  type Endpoint,
  type RestRequest,
  type RouteDecl,
} from '../../rest/types.ts';
import { unrequired } from '../legacy/args.ts';
import { eventArchiveArgs, eventWriteArgs, passwordArg } from '../legacy/event-args.ts';
import { planEventWrite } from '../legacy/event-input.ts';
import { eventArchive } from '../legacy/events-archive.ts';
import { isPostOfType } from '../legacy/validators.ts';
import type { Clock } from '../../capabilities.ts';
import { isWpErr, loadKey, verifyAndLoad, verifyToken, wpErrorBody, type Connector } from './credentials.ts';
import { mappedEvent } from './mapped-event.ts';

/** `nocache_headers()`, which every connector callback sends first. */
export const NO_CACHE: Record<string, string> = {
  'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
  Expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
};

/**
 * What a route carrying `access_token` also reads undeclared: `verify_token`
 * falls back to `tec_access_token` (credentials.ts verifyToken), so it reaches
 * the callback whatever the declarations say (Endpoint.reads).
 */
export const TOKEN_READS = ['tec_access_token'] as const;

/** `access_token`: optional on actions, required on Zapier's feeds. Any string passes its validate callback. */
export function accessTokenArg(c: Connector, required = false): ArgSchema {
  return { type: 'string', required, description: `The access token to authorize ${c.name} connection.` };
}

/**
 * Who the request runs as. ECP's `rest_pre_dispatch` hook loads the
 * connection named by a valid token and, if its user may edit events, makes
 * that user the current one; otherwise the caller stays who they were.
 */
function actingUser(req: RestRequest, c: Connector): { tokenOk: boolean; keyUser: User | null; user: User | null } {
  const token = verifyToken(req.site, c, req.params);
  if (isWpErr(token)) return { tokenOk: false, keyUser: null, user: req.user };
  const loaded = loadKey(req.site, c, token.consumer_id, token.consumer_secret, token.app_name);
  if (isWpErr(loaded)) return { tokenOk: true, keyUser: null, user: req.user };
  return { tokenOk: true, keyUser: loaded.user, user: can(loaded.user, 'edit_posts') ? loaded.user : req.user };
}

/**
 * `can_create` / `can_edit`: a valid token, a loaded connection, and its user
 * being the current user (true only when the pre-dispatch hook switched to it).
 * Otherwise `rest_forbidden`, 401 or 403 after whoever is current.
 */
function canAct(c: Connector) {
  return (req: RestRequest): true | RestError => {
    const { tokenOk, keyUser, user } = actingUser(req, c);
    return tokenOk && keyUser && user && user.id === keyUser.id ? true : forbidden(user !== null);
  };
}

const asActingUser = (req: RestRequest, c: Connector): RestRequest => ({ ...req, user: actingUser(req, c).user });

/** POST create-events: the legacy create (201 with the legacy event, or its errors). */
export function createEventsRoutes(c: Connector, incorrectGetCode: string): RouteDecl[] {
  const path = `/${c.namespace}/create-events`;
  return [
    {
      namespace: c.namespace,
      path,
      endpoints: [
        {
          methods: ['POST'],
          args: { access_token: accessTokenArg(c), ...eventWriteArgs() },
          reads: TOKEN_READS,
          permission: canAct(c),
          handler: (req) =>
            new RestResult(legacyEvent(req.site, planEventWrite(asActingUser(req, c), null)()), 201, NO_CACHE),
          summary: `Creates an event for ${c.name}`,
        },
      ],
    },
    // The endpoint's `get()` answer (calendar-upstream.md §4): kept out of the
    // index and the OpenAPI document, which list create-events as POST only (spec F/G).
    {
      namespace: c.namespace,
      path,
      hidden: true,
      endpoints: [
        {
          methods: ['GET'],
          args: { access_token: accessTokenArg(c) },
          reads: TOKEN_READS,
          permission: () => true,
          handler: () => {
            throw new RawError(
              400,
              wpErrorBody({
                code: incorrectGetCode,
                message: 'GET responses not accepted on the create events endpoint, please us a POST request.',
                status: 400,
              }),
            );
          },
        },
      ],
    },
  ];
}

/** The sandbox's way to set `_tribe_events_status`, which neither calendar interface can write. */
const eventStatusArg: ArgSchema = {
  type: 'string',
  enum: ['scheduled', 'canceled', 'postponed'],
  description:
    'Sandbox extension: the event status (_tribe_events_status). Canceling a published event queues it on the canceled feeds.',
};

/** POST/PUT/PATCH update-events (Zapier): the legacy update of event `id`, 200 with the legacy event. */
export function updateEventsRoute(c: Connector): RouteDecl {
  const endpoint: Endpoint = {
    methods: EDITABLE,
    args: {
      access_token: accessTokenArg(c),
      // The legacy EDIT_args' `id` (is_event_id, unrequired) wins over the connector's own required one.
      id: { type: 'integer', description: 'the event post ID', validate: (v, req) => isPostOfType(req.site, v, EVENT) },
      ...unrequired(eventWriteArgs()),
      password: passwordArg,
      event_status: eventStatusArg,
    },
    reads: TOKEN_READS,
    permission: canAct(c),
    handler: (req) => {
      const { site } = req;
      // Without an ID, Tribe__Events__API::updateEvent has nothing to update.
      if (req.params.id === undefined)
        throw new RestError('could-not-update-event', 'The event could not be updated', 403);
      const event = site.store.post<EventMeta>(Number(req.params.id))!;
      const acting = asActingUser(req, c);
      if (!canEdit(event, acting.user, (cap) => can(acting.user, cap))) throw forbidden(true);
      const status = req.sent.has('event_status') ? (req.params.event_status as EventMeta['eventStatus']) : undefined;
      const saved = site.store.transaction(() => {
        const updated = planEventWrite(acting, event)();
        return status && status !== updated.meta.eventStatus
          ? saveEvent(site, updated.id, { eventStatus: status })
          : updated;
      });
      const body = legacyEvent(site, saved);
      // "Cast as string to prevent validation error in Zapier."
      if (!body.image) body.image = '';
      return new RestResult(body, 200, NO_CACHE);
    },
    summary: `Updates an event for ${c.name}`,
  };
  return { namespace: c.namespace, path: `/${c.namespace}/update-events`, endpoints: [endpoint] };
}

/** GET find-events (Zapier): the legacy archive as the caller, mapped: `[{"events":[…]}]`, or `[]`. */
export function findEventsRoute(site: Clock, c: Connector): RouteDecl {
  return {
    namespace: c.namespace,
    path: `/${c.namespace}/find-events`,
    endpoints: [
      {
        methods: ['GET'],
        args: { access_token: accessTokenArg(c), ...eventArchiveArgs(site) },
        reads: TOKEN_READS,
        permission: () => true,
        handler: (req) => {
          const loaded = verifyAndLoad(req.site, c, req.params);
          if (isWpErr(loaded)) throw new RawError(400, wpErrorBody(loaded), NO_CACHE);
          let found: { id: unknown }[];
          try {
            found = (eventArchive(req).body as { events: { id: unknown }[] }).events;
          } catch (err) {
            // The archive's own errors (a page past the last) leave PHP with no `events`: nothing found.
            if (err instanceof RestError) return new RestResult([], 200, NO_CACHE);
            throw err;
          }
          const events = found.map((e) => mappedEvent(req.site, Number(e.id))).filter((e) => e !== false);
          return new RestResult(events.length ? [{ events }] : [], 200, NO_CACHE);
        },
        summary: `Finds events for ${c.name}`,
      },
    ],
  };
}
