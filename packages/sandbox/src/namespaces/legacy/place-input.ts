/**
 * Legacy venue and organizer input (`Single_Venue::prepare_postarr`,
 * `Single_Organizer::prepare_postarr`) mapped onto the shared model, and their
 * creation, used by the venue/organizer routes and by events that bring new
 * venues or organizers inline.
 */
import { parseLooseDate } from '../../dates.ts';
import {
  VENUE,
  saveOrganizer,
  saveVenue,
  type OrganizerFields,
  type OrganizerPost,
  type PostFields,
  type VenueFields,
  type VenueMeta,
  type VenuePost,
} from '../../calendar/model.ts';
import type { RestRequest } from '../../rest/types.ts';
import { toBoolean } from '../../rest/validate.ts';
import { imageIdFor } from './image-input.ts';
import { scaleBackStatus } from './post-status.ts';

export type PlaceKind = 'venue' | 'organizer';

type Params = Record<string, unknown>;

const given = (p: Params, k: string) => p[k] !== undefined && p[k] !== null;

/** A write that still has to happen: the image may need an attachment first. */
export interface PlaceInput {
  fields: VenueFields & OrganizerFields;
  image?: unknown;
}

/** The post fields every legacy writer maps the same way. */
export function legacyPostFields(req: RestRequest, p: Params, create: boolean): PostFields {
  const { site } = req;
  const now = site.now();
  // TEC scales the status back on every write, update included.
  const f: PostFields = { status: scaleBackStatus(p.status, req.user) };
  if (given(p, 'author')) f.author = Number(p.author);
  else if (create) f.author = req.user?.id ?? 0;
  if (given(p, 'date')) f.date = parseLooseDate(p.date, site.timezone, now)!;
  if (given(p, 'date_utc')) f.dateGmt = parseLooseDate(p.date_utc, 'UTC', now)!;
  if (given(p, 'description')) f.content = String(p.description);
  return f;
}

/** Validated venue or organizer parameters -> model fields. */
export function placeInput(kind: PlaceKind, req: RestRequest, p: Params, create: boolean): PlaceInput {
  const f: VenueFields & OrganizerFields = legacyPostFields(req, p, create);
  if (given(p, kind)) f.title = String(p[kind]);
  const strings =
    kind === 'venue'
      ? (['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince', 'website'] as const)
      : (['phone', 'website', 'email'] as const);
  for (const k of strings) if (given(p, k)) f[k] = String(p[k]);
  if (kind === 'venue') {
    // Typed string on venues; `tribe_is_truthy` decides.
    if (given(p, 'show_map')) f.showMap = isTruthy(p.show_map);
    if (given(p, 'show_map_link')) f.showMapLink = isTruthy(p.show_map_link);
  }
  return given(p, 'image') ? { fields: f, image: p.image } : { fields: f };
}

/** `tribe_is_truthy`: "1", "true", "yes", "on" (any case) and true. */
export function isTruthy(v: unknown): boolean {
  if (typeof v === 'string') return ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase());
  return toBoolean(v);
}

const DUPLICATE_KEYS = ['address', 'city', 'country', 'province', 'state', 'stateprovince', 'zip'] as const;

/**
 * A venue that a new one would duplicate (`tribe_events_rest_venue_insert_avoid_duplicates`,
 * on by default): same name and same address fields, not trashed.
 */
function duplicateVenue(req: RestRequest, f: VenueFields): VenuePost | undefined {
  const norm = (s: string | undefined) => (s ?? '').trim().toLowerCase();
  return req.site.store
    .posts<VenueMeta>(VENUE)
    .find(
      (v) =>
        v.status !== 'trash' &&
        norm(v.title) === norm(f.title) &&
        DUPLICATE_KEYS.every((k) => norm(v.meta[k]) === norm(f[k])),
    );
}

/** Writes a venue or organizer (new when `id` is null); the caller holds the transaction. */
export function writePlace(
  kind: PlaceKind,
  req: RestRequest,
  id: number | null,
  input: PlaceInput,
): VenuePost | OrganizerPost {
  const { site } = req;
  const fields = { ...input.fields };
  if (input.image !== undefined) fields.featuredMedia = imageIdFor(site, input.image, req.user?.id ?? 0);
  if (kind === 'venue') {
    if (id === null) {
      const dup = duplicateVenue(req, fields);
      if (dup) return dup;
    }
    return saveVenue(site, id, fields);
  }
  return saveOrganizer(site, id, fields);
}
