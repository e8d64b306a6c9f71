/**
 * Legacy venue and organizer routes (spec A, A2; calendar-upstream.md §1.4,
 * §1.6; TEC `Archive_Venue`, `Archive_Organizer`, `Single_Venue`,
 * `Single_Organizer` and their `_Slug` twins). Both kinds behave alike; only
 * the names, the fields and the representation differ.
 */
import { can } from '../../auth.ts';
import { LEGACY_NAMESPACE, legacyOrganizer, legacyRestUrl, legacyVenue } from '../../calendar/legacy-repr.ts';
import {
  EVENT,
  ORGANIZER,
  VENUE,
  canDelete,
  canEdit,
  canRead,
  trashPost,
  type OrganizerMeta,
  type OrganizerPost,
  type VenueMeta,
  type VenuePost,
} from '../../calendar/model.ts';
import { findPlaces, paginate } from '../../calendar/query.ts';
import { nowUtc } from '../../dates.ts';
import { RestError, forbidden } from '../../errors.ts';
import { EDITABLE, RestResult, type ArgSchema, type RestRequest, type RouteDecl } from '../../rest/types.ts';
import type { PostRow, PostType } from '../../store/db.ts';
import {
  idArg,
  organizerWriteArgs,
  pageArgs,
  slugArg,
  statusArg,
  unrequired,
  venueWriteArgs,
  type Args,
} from './args.ts';
import { currentRestUrl, postArchive } from './archive.ts';
import { isTruthy, placeInput, writePlace, type PlaceKind } from './place-input.ts';
import { ANY_STATUSES, isEditor } from './post-status.ts';
import { isPostOfType, isString, routeSlug } from './validators.ts';

const NS = LEGACY_NAMESPACE;

interface Kind {
  kind: PlaceKind;
  type: PostType;
  plural: 'venues' | 'organizers';
  writeArgs: () => Args;
  repr: (req: RestRequest, post: PostRow<VenueMeta | OrganizerMeta>, single: boolean) => Record<string, unknown>;
}

const KINDS: Record<PlaceKind, Kind> = {
  venue: {
    kind: 'venue',
    type: VENUE,
    plural: 'venues',
    writeArgs: venueWriteArgs,
    repr: (req, post, single) => legacyVenue(req.site, post as VenuePost, { single }),
  },
  organizer: {
    kind: 'organizer',
    type: ORGANIZER,
    plural: 'organizers',
    writeArgs: organizerWriteArgs,
    repr: (req, post, single) => legacyOrganizer(req.site, post as OrganizerPost, { single }),
  },
};

function archive(k: Kind) {
  return (req: RestRequest) => {
    const { site } = req;
    const p = req.params;
    const sent = (name: string) => req.sent.has(name) && p[name] !== undefined && p[name] !== null;
    // Omitted, editors see every status (`any`) and everyone else `publish` (Archive_Venue::get).
    const editor = isEditor(req.user);
    const statuses = sent('status') ? (p.status as string[]) : editor ? ANY_STATUSES : ['publish'];
    const statusArg = sent('status') ? statuses : editor ? 'any' : 'publish';
    const list = findPlaces<VenueMeta | OrganizerMeta>(
      site,
      k.kind,
      {
        statuses,
        search: sent('search') && p.search !== '' ? String(p.search) : undefined,
        event: sent('event') ? Number(p.event) : undefined,
        hasEvents: sent('has_events') ? isTruthy(p.has_events) : undefined,
        onlyWithUpcoming: sent('only_with_upcoming') ? isTruthy(p.only_with_upcoming) : false,
      },
      nowUtc(site.now()),
    );
    const page = Number(p.page);
    const perPage = Number(p.per_page);
    const { items, total, totalPages } = paginate(list, page, perPage);
    // TEC swaps `search` for a list of matching IDs before building the URL, so it never shows there.
    const restUrl = currentRestUrl(legacyRestUrl(site, `${k.plural}/`), [
      ['page', page],
      ['per_page', perPage],
      ['event', sent('event') ? Number(p.event) : undefined],
      ['has_events', sent('has_events') ? String(p.has_events) : undefined],
      ['status', statusArg],
    ]);
    return postArchive(
      { key: k.plural, items: items.map((x) => k.repr(req, x, false)), restUrl, page, total, totalPages },
      k.kind,
    );
  };
}

/** Spec A2 (`Archive_Venue::READ_args`); `has_events` and `only_with_upcoming` are untyped there. */
function archiveArgs(k: Kind): Args {
  const Plural = `${k.plural[0]!.toUpperCase()}${k.plural.slice(1)}`;
  return {
    ...pageArgs(k.plural),
    search: {
      type: 'string',
      description: `${Plural} should contain the specified string in the title, description or custom fields`,
      validate: isString,
    },
    event: {
      type: 'integer',
      description: `${Plural} should be related to this event`,
      validate: (v, req) => isPostOfType(req.site, v, EVENT),
    },
    has_events: { description: `${Plural} should have events associated to them` },
    only_with_upcoming: { default: false, description: `${Plural} should have upcoming events associated to them` },
    status: statusArg(k.kind),
  };
}

/** The post a by-ID or by-slug route addresses; the `id`/`slug` validators made sure it exists. */
function addressed(k: Kind, req: RestRequest): PostRow<VenueMeta | OrganizerMeta> {
  const { store } = req.site;
  const post =
    req.urlParams.id !== undefined
      ? store.post<VenueMeta | OrganizerMeta>(Number(req.urlParams.id))
      : store.postBySlug<VenueMeta | OrganizerMeta>(k.type, routeSlug(req));
  return post!;
}

function singleHandlers(k: Kind) {
  const caps = (req: RestRequest) => (cap: string) => can(req.user, cap);
  return {
    get: (req: RestRequest) => {
      const post = addressed(k, req);
      if (!canRead(post, req.user, caps(req)))
        throw new RestError(`${k.kind}-not-accessible`, `The requested ${k.kind} is not accessible`, 403);
      return k.repr(req, post, true);
    },
    update: (req: RestRequest) => {
      const post = addressed(k, req);
      if (!canEdit(post, req.user, caps(req))) throw forbidden(true);
      const input = placeInput(k.kind, req, req.params, false);
      const saved = req.site.store.transaction(() => writePlace(k.kind, req, post.id, input));
      return k.repr(req, saved, false);
    },
    delete: (req: RestRequest) => {
      const post = addressed(k, req);
      if (post.status === 'trash')
        throw new RestError(`${k.kind}-is-in-trash`, `The ${k.kind} is already trashed`, 410);
      if (!canDelete(post, req.user, caps(req))) throw forbidden(true);
      trashPost(req.site, post.id);
      return k.repr(req, req.site.store.post<VenueMeta | OrganizerMeta>(post.id)!, false);
    },
  };
}

function placeRoutes(k: Kind): RouteDecl[] {
  const h = singleHandlers(k);
  const canWrite = (req: RestRequest) => can(req.user, 'edit_posts');
  const canTrash = (req: RestRequest) => can(req.user, 'delete_posts');
  // `is_venue_id` / `is_organizer_id`: a bad or missing ID is a 400, not a 404 (calendar-upstream.md §1.6).
  const id = { id: idArg(k.kind, (_v, req) => isPostOfType(req.site, req.urlParams.id, k.type)) };
  const slug = {
    slug: slugArg(k.kind, (_v, req) => req.site.store.postBySlug(k.type, routeSlug(req)) !== undefined),
  };
  const single = (key: Record<string, ArgSchema>) => [
    { methods: ['GET' as const], args: key, permission: () => true, handler: h.get, summary: `Returns one ${k.kind}` },
    {
      methods: EDITABLE,
      args: { ...key, ...unrequired(k.writeArgs()) },
      permission: canWrite,
      handler: h.update,
      summary: `Updates a ${k.kind}`,
    },
    {
      methods: ['DELETE' as const],
      args: key,
      permission: canTrash,
      handler: h.delete,
      summary: `Trashes a ${k.kind}`,
    },
  ];
  return [
    {
      namespace: NS,
      path: `/${NS}/${k.plural}`,
      endpoints: [
        {
          methods: ['GET'],
          args: archiveArgs(k),
          permission: () => true,
          handler: archive(k),
          summary: `Returns the ${k.plural} matching the query`,
        },
        {
          methods: ['POST'],
          args: k.writeArgs(),
          permission: canWrite,
          handler: (req) => {
            const input = placeInput(k.kind, req, req.params, true);
            const saved = req.site.store.transaction(() => writePlace(k.kind, req, null, input));
            return new RestResult(k.repr(req, saved, false), 201);
          },
          summary: `Creates a ${k.kind}`,
        },
      ],
    },
    { namespace: NS, path: `/${NS}/${k.plural}/(?P<id>\\d+)`, endpoints: single(id) },
    { namespace: NS, path: `/${NS}/${k.plural}/by-slug/(?P<slug>[^/]+)`, endpoints: single(slug) },
  ];
}

export function venueRoutes(): RouteDecl[] {
  return placeRoutes(KINDS.venue);
}

export function organizerRoutes(): RouteDecl[] {
  return placeRoutes(KINDS.organizer);
}
