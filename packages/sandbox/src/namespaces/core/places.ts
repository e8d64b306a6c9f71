/**
 * `/calendar-core/v1/venues` and `/organizers` (TEC Endpoints/Venues.php,
 * Organizers.php; spec B3 and the venue/organizer field tables). Both lists
 * filter through the shared findPlaces (title order, as TEC lists them);
 * venues add the location filters.
 */
import { organizerJson, venueJson } from '../../calendar/core-repr.ts';
import {
  ORGANIZER,
  TAG_TAX,
  VENUE,
  saveOrganizer,
  saveVenue,
  type OrganizerFields,
  type OrganizerPost,
  type PostFields,
  type VenueFields,
  type VenuePost,
} from '../../calendar/model.ts';
import { findPlaces, type PlaceCriteria } from '../../calendar/query.ts';
import { nowUtc } from '../../dates.ts';
import type { ArgSchema, RestRequest } from '../../rest/types.ts';
import type { PostRow } from '../../store/db.ts';
import { geoArgs, statusListArg } from './args.ts';
import type { EntityKind } from './entity.ts';
import { geoFilter } from './listing.ts';

const placeListArgs: Record<string, ArgSchema> = {
  search: { type: 'string', description: 'Limit results to those matching a string.' },
  event: { type: 'integer', minimum: 1, description: 'Limit result set to those linked to this event.' },
  has_events: { type: 'boolean', description: 'Only those linked (true) or not linked (false) to published events.' },
  only_with_upcoming: { type: 'boolean', description: 'Only those linked to an event that has not ended.' },
  status: statusListArg,
};

function criteria(req: RestRequest, statuses: string[]): PlaceCriteria {
  const p = req.params;
  return {
    statuses,
    search: (p.search as string | undefined) || undefined,
    event: p.event as number | undefined,
    hasEvents: p.has_events as boolean | undefined,
    // 6.15.14 declares it and answers a place with no events alike with and without it; 6.17 applies it.
    onlyWithUpcoming: req.site.options.tec === '6.15' ? undefined : (p.only_with_upcoming as boolean | undefined),
  };
}

/** Saves the post, then its tags, in one transaction. */
function withTags<P extends PostRow<any>>(req: RestRequest, write: () => P): P {
  const { store } = req.site;
  return store.transaction(() => {
    const saved = write();
    if (req.params.tags !== undefined) store.setTerms(saved.id, TAG_TAX, req.params.tags as number[]);
    return saved;
  });
}

/** Copies the sent extra fields into the model's names. */
function pick<F extends PostFields>(req: RestRequest, common: PostFields, names: Record<string, keyof F>): F {
  const f = { ...common } as F;
  for (const [param, field] of Object.entries(names))
    if (req.params[param] !== undefined) (f as Record<keyof F, unknown>)[field] = req.params[param];
  return f;
}

export const organizersKind: EntityKind<OrganizerPost> = {
  segment: 'organizers',
  type: ORGANIZER,
  label: 'Organizer',
  stickyDefault: false,
  listArgs: placeListArgs,
  find: (req, statuses) =>
    findPlaces<OrganizerPost['meta']>(req.site, 'organizer', criteria(req, statuses), nowUtc(req.site.now())),
  toJson: organizerJson,
  bodyArgs: () => ({
    phone: { type: 'string', format: 'tel', description: "The organizer's phone number." },
    website: { type: 'string', format: 'uri', description: "The organizer's website." },
    email: { type: 'string', format: 'email', description: "The organizer's email address." },
  }),
  save: (req, current, common) =>
    withTags(req, () =>
      saveOrganizer(
        req.site,
        current?.id ?? null,
        pick<OrganizerFields>(req, common, { phone: 'phone', website: 'website', email: 'email' }),
      ),
    ),
};

export const venuesKind: EntityKind<VenuePost> = {
  segment: 'venues',
  type: VENUE,
  label: 'Venue',
  stickyDefault: false,
  listArgs: { ...placeListArgs, ...geoArgs },
  find: (req, statuses) => {
    const loc = geoFilter(req.params);
    if (loc.nowhere) return [];
    return findPlaces<VenuePost['meta']>(
      req.site,
      'venue',
      { ...criteria(req, statuses), hasGeoloc: req.params.has_geoloc as boolean | undefined, geo: loc.geo },
      nowUtc(req.site.now()),
    );
  },
  toJson: venueJson,
  bodyArgs: () => ({
    address: { type: 'string', description: "The venue's street address." },
    country: { type: 'string', description: "The venue's country." },
    city: { type: 'string', description: "The venue's city." },
    state_province: { type: 'string', description: "The venue's state or province." },
    state: { type: 'string', description: "The venue's state." },
    province: { type: 'string', description: "The venue's province." },
    zip: { type: 'string', description: "The venue's postal code." },
    phone: { type: 'string', description: "The venue's phone number." },
    website: { type: 'string', format: 'uri', description: "The venue's website." },
    lat: { type: 'number', minimum: -90, maximum: 90, description: "The venue's latitude." },
    lng: { type: 'number', minimum: -180, maximum: 180, description: "The venue's longitude." },
  }),
  save: (req, current, common) =>
    withTags(req, () =>
      saveVenue(
        req.site,
        current?.id ?? null,
        pick<VenueFields>(req, common, {
          address: 'address',
          country: 'country',
          city: 'city',
          state_province: 'stateprovince',
          state: 'state',
          province: 'province',
          zip: 'zip',
          phone: 'phone',
          website: 'website',
          lat: 'lat',
          lng: 'lng',
        }),
      ),
    ),
};
