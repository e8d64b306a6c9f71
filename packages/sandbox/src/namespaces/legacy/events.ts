/**
 * Legacy event routes: the archive, create, and GET/EDIT/DELETE by ID and by
 * slug (calendar-upstream.md §1.6, TEC `Single_Event` and `Single_Event_Slug`).
 * Permission callbacks test the post type's capability (401 anonymous, 403
 * signed in); the callback then finds the event and checks the caller against
 * that very post. By ID, the `id` argument is checked first (`is_event_id`):
 * a missing event is 400 `rest_invalid_param`. TEC 5.7.1 declares no
 * `password` on these routes (release.ts).
 */
import { can } from '../../auth.ts';
import { LEGACY_NAMESPACE, legacyEvent } from '../../calendar/legacy-repr.ts';
import { EVENT, canDelete, canEdit, canRead, trashPost, type EventMeta, type EventPost } from '../../calendar/model.ts';
import { RestError, forbidden } from '../../errors.ts';
import { EDITABLE, RestResult, type ArgSchema, type RestRequest, type RouteDecl } from '../../rest/types.ts';
import type { Clock } from '../../capabilities.ts';
import { idArg, unrequired } from './args.ts';
import { eventArchiveArgs, eventWriteArgs, passwordArg } from './event-args.ts';
import { planEventWrite } from './event-input.ts';
import { isPostOfType, routeSlug } from './validators.ts';
import { eventArchive } from './events-archive.ts';

const NS = LEGACY_NAMESPACE;

/**
 * The event a by-ID or by-slug route addresses (by-slug resolves to an ID first; unknown is ID 0).
 * By ID, the `id` argument's check has already refused anything but an event.
 */
function addressedId(req: RestRequest): number {
  if (req.urlParams.id !== undefined) return Number(req.urlParams.id);
  return req.site.store.postBySlug(EVENT, routeSlug(req))?.id ?? 0;
}

function findEvent(req: RestRequest): EventPost {
  const id = addressedId(req);
  const post = id ? req.site.store.post<EventMeta>(id) : undefined;
  if (!post) throw new RestError('rest-event-not-found', `Event with ID ${id} does not exist.`, 404);
  if (post.type !== EVENT) throw new RestError('rest-invalid-event-id', `Post with ID ${id} is not an event.`, 400);
  return post;
}

const capOf = (req: RestRequest) => (cap: string) => can(req.user, cap);

function getEvent(req: RestRequest): unknown {
  const e = findEvent(req);
  if (e.status === 'trash')
    throw new RestError('event-no-longer-available', `The event with ID ${e.id} is no longer available.`, 403);
  if (!canRead(e, req.user, capOf(req)))
    throw new RestError('event-not-accessible', 'The requested event is not accessible', 403);
  if (e.password && !canEdit(e, req.user, capOf(req)) && req.params.password !== e.password) {
    throw new RestError('event-password-protected', `The event with ID ${e.id} is password protected.`, 403);
  }
  return legacyEvent(req.site, e, { single: true });
}

function updateEvent(req: RestRequest): unknown {
  const e = findEvent(req);
  if (!canEdit(e, req.user, capOf(req))) throw forbidden(true);
  return legacyEvent(req.site, planEventWrite(req, e)());
}

function deleteEvent(req: RestRequest): unknown {
  const e = findEvent(req);
  if (e.status === 'trash') throw new RestError('event-is-in-trash', 'The event is already trashed', 410);
  if (!canDelete(e, req.user, capOf(req))) throw forbidden(true);
  // No `force`: the legacy DELETE always trashes and answers with the trashed event.
  trashPost(req.site, e.id);
  return legacyEvent(req.site, req.site.store.post<EventMeta>(e.id)!);
}

const canEditEvents = (req: RestRequest) => can(req.user, 'edit_posts');
const canDeleteEvents = (req: RestRequest) => can(req.user, 'delete_posts');

/** GET/EDIT/DELETE on one event, addressed by `key` (`id` or `slug`). */
function singleEndpoints(
  key: Record<string, ArgSchema>,
  extra: Record<string, ArgSchema>,
  editKey: Record<string, ArgSchema>,
) {
  return [
    {
      methods: ['GET' as const],
      args: { ...key, ...extra },
      permission: () => true,
      handler: getEvent,
      summary: 'Returns one event',
    },
    {
      methods: EDITABLE,
      args: { ...editKey, ...unrequired(eventWriteArgs()), ...extra },
      permission: canEditEvents,
      handler: updateEvent,
      summary: 'Updates an event',
    },
    {
      methods: ['DELETE' as const],
      args: { ...key, ...extra },
      permission: canDeleteEvents,
      handler: deleteEvent,
      summary: 'Trashes an event',
    },
  ];
}

export function eventRoutes(site: Clock): RouteDecl[] {
  // `is_event_id`: a missing ID, or another type's, is 400 rest_invalid_param naming `id` on GET, EDIT and
  // DELETE alike (real-site-behaviour.md, "Added 2026-11-25"); the callback's 404 is never reached.
  const id: Record<string, ArgSchema> = {
    id: idArg('event', (_v, req) => isPostOfType(req.site, req.urlParams.id, EVENT)),
  };
  const slug: Record<string, ArgSchema> = {
    slug: {
      type: 'string',
      required: true,
      description: 'the event post name',
      // `is_event_slug`
      validate: (_v, req) => req.site.store.postBySlug(EVENT, routeSlug(req)) !== undefined,
    },
  };
  return [
    {
      namespace: NS,
      path: `/${NS}/events`,
      endpoints: [
        {
          methods: ['GET'],
          args: eventArchiveArgs(site),
          permission: () => true,
          handler: eventArchive,
          summary: 'Returns the events matching the query',
        },
        {
          methods: ['POST'],
          args: eventWriteArgs(),
          permission: canEditEvents,
          handler: (req) => new RestResult(legacyEvent(req.site, planEventWrite(req, null)()), 201),
          summary: 'Creates an event',
        },
      ],
    },
    {
      namespace: NS,
      path: `/${NS}/events/(?P<id>\\d+)`,
      endpoints: singleEndpoints(id, { password: passwordArg }, id),
    },
    // EDIT by slug takes the create arguments over the path's: `slug` is optional there (spec A).
    { namespace: NS, path: `/${NS}/events/by-slug/(?P<slug>[^/]+)`, endpoints: singleEndpoints(slug, {}, {}) },
  ];
}
