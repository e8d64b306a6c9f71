/**
 * `calendar/events/v1` (legacy) JSON -> graph models (docs/real-sites.md,
 * "Fields by interface"; test/mapping/legacy.test.ts). Legacy venue and organizer objects drop
 * empty values, so an absent key there means "empty" (null), not "not served".
 */
import { secondsBetween, toUtc, withOffset } from '../../mapping/dates.ts';
import { bool, int, idOf, num, obj, str, type Json } from '../../mapping/json.ts';
import type {
  CostDetailsModel,
  EventModel,
  ImageModel,
  OrganizerModel,
  TermModel,
  VenueModel,
} from '../../mapping/models.ts';

export function legacyImage(v: unknown): ImageModel | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Json;
  const sizes = typeof o.sizes === 'object' && o.sizes !== null ? Object.entries(o.sizes as Json) : [];
  return {
    databaseId: int(o.id),
    url: str(o.url),
    width: int(o.width),
    height: int(o.height),
    extension: str(o.extension),
    filesize: int(o.filesize),
    sizes: sizes.map(([name, s]) => {
      const x = (typeof s === 'object' && s !== null ? s : {}) as Json;
      return { name, url: str(x.url), width: int(x.width), height: int(x.height), mimeType: str(x['mime-type']) };
    }),
  };
}

function costDetails(v: unknown): CostDetailsModel | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Json;
  return {
    currencySymbol: str(o.currency_symbol),
    currencyCode: str(o.currency_code),
    currencyPosition: str(o.currency_position),
    values: Array.isArray(o.values) ? o.values.map((x) => str(x)).filter((x): x is string => x !== null) : [],
  };
}

/** Local date parts differ: the event spans more than one day. */
function isMultiday(start: string | null, end: string | null): boolean | null {
  if (!start || !end) return null;
  return start.slice(0, 10) !== end.slice(0, 10);
}

/**
 * Lazy models: a field is read from the site's JSON when a resolver asks for
 * it, not when the object arrives. A list of 20 events embeds as many venues
 * and organizers, each with four dates and an image; an operation asking for
 * titles must not pay for mapping all of it. Getters live on the prototype,
 * so a field the source does not serve (no getter) still reads `undefined`.
 * Objects are memoized (the same model must come back: loaders are primed
 * with the embedded venues, organizers and terms); strings are cheap to redo.
 */
abstract class LegacyPost {
  readonly source = 'legacy' as const;
  readonly databaseId: number;
  protected readonly o: Json;
  private image: ImageModel | null | undefined;

  constructor(
    readonly raw: unknown,
    what: 'event' | 'venue' | 'organizer',
  ) {
    this.o = obj(raw, `legacy ${what}`);
    this.databaseId = idOf(this.o, what);
  }

  get description(): string | null {
    return str(this.o.description);
  }
  get excerpt(): string | null {
    return str(this.o.excerpt);
  }
  get slug(): string | null {
    return str(this.o.slug);
  }
  get status(): string | null {
    return str(this.o.status);
  }
  get url(): string | null {
    return str(this.o.url);
  }
  get authorId(): number | null {
    return int(this.o.author);
  }
  get publishedAt(): string | null {
    return withOffset(str(this.o.date), str(this.o.date_utc));
  }
  get publishedAtUtc(): string | null {
    return toUtc(str(this.o.date_utc));
  }
  get modifiedAt(): string | null {
    return withOffset(str(this.o.modified), str(this.o.modified_utc));
  }
  get modifiedAtUtc(): string | null {
    return toUtc(str(this.o.modified_utc));
  }
  get featuredImage(): ImageModel | null {
    return this.image === undefined ? (this.image = legacyImage(this.o.image)) : this.image;
  }
}

class LegacyEvent extends LegacyPost implements EventModel {
  readonly kind = 'Event' as const;
  private venueList: VenueModel[] | undefined;
  private organizerList: OrganizerModel[] | undefined;
  private categoryList: TermModel[] | undefined;
  private tagList: TermModel[] | undefined;
  private cost_: CostDetailsModel | null | undefined;

  constructor(raw: unknown) {
    super(raw, 'event');
  }

  get title(): string | null {
    return str(this.o.title);
  }
  get startDate(): string | null {
    return withOffset(str(this.o.start_date), str(this.o.utc_start_date), str(this.o.timezone));
  }
  get endDate(): string | null {
    return withOffset(str(this.o.end_date), str(this.o.utc_end_date), str(this.o.timezone));
  }
  get startDateUtc(): string | null {
    return toUtc(str(this.o.utc_start_date));
  }
  get endDateUtc(): string | null {
    return toUtc(str(this.o.utc_end_date));
  }
  get timezone(): string | null {
    return str(this.o.timezone) || null;
  }
  get timezoneAbbr(): string | null {
    return str(this.o.timezone_abbr) || null;
  }
  get allDay(): boolean | null {
    return bool(this.o.all_day);
  }
  get duration(): number | null {
    return secondsBetween(str(this.o.utc_start_date), str(this.o.utc_end_date));
  }
  get multiday(): boolean | null {
    return isMultiday(str(this.o.start_date), str(this.o.end_date));
  }
  get cost(): string | null {
    return str(this.o.cost);
  }
  get costDetails(): CostDetailsModel | null {
    return this.cost_ === undefined ? (this.cost_ = costDetails(this.o.cost_details)) : this.cost_;
  }
  /**
   * The legacy read shows the event's permalink as `website` when it has none (5.7.1 and 6.15.14): that is no website.
   */
  get website(): string | null {
    const website = str(this.o.website);
    return website && website !== str(this.o.url) ? website : null;
  }
  get showMap(): boolean | null {
    return bool(this.o.show_map);
  }
  get showMapLink(): boolean | null {
    return bool(this.o.show_map_link);
  }
  get hideFromListings(): boolean | null {
    return bool(this.o.hide_from_listings);
  }
  get sticky(): boolean | null {
    return bool(this.o.sticky);
  }
  get featured(): boolean | null {
    return bool(this.o.featured);
  }
  get jsonLd(): unknown {
    return 'json_ld' in this.o ? this.o.json_ld : undefined;
  }
  get venues(): VenueModel[] {
    if (this.venueList === undefined) {
      const v = this.o.venue;
      // `venue` is [] for none, an object for one, an array for several (docs/sandbox.md, "What the sandbox serves,
      // namespace by namespace").
      const raws = Array.isArray(v) ? v : v && typeof v === 'object' ? [v] : [];
      this.venueList = raws.map((x) => legacyVenue(x));
    }
    return this.venueList;
  }
  get organizers(): OrganizerModel[] {
    return (this.organizerList ??= (Array.isArray(this.o.organizer) ? this.o.organizer : []).map((x) =>
      legacyOrganizer(x),
    ));
  }
  get categories(): TermModel[] {
    return (this.categoryList ??= (Array.isArray(this.o.categories) ? this.o.categories : []).map((t) =>
      legacyTerm(t, 'Category'),
    ));
  }
  get tags(): TermModel[] {
    return (this.tagList ??= (Array.isArray(this.o.tags) ? this.o.tags : []).map((t) => legacyTerm(t, 'Tag')));
  }
}

/** Legacy venue and organizer objects drop empty values: an absent key is "empty" (null). */
class LegacyVenue extends LegacyPost implements VenueModel {
  readonly kind = 'Venue' as const;

  constructor(raw: unknown) {
    super(raw, 'venue');
  }

  get title(): string | null {
    return str(this.o.venue);
  }
  get address(): string | null {
    return str(this.o.address);
  }
  get city(): string | null {
    return str(this.o.city);
  }
  get country(): string | null {
    return str(this.o.country);
  }
  get province(): string | null {
    return str(this.o.province);
  }
  get state(): string | null {
    return str(this.o.state);
  }
  get stateProvince(): string | null {
    return str(this.o.stateprovince);
  }
  get zip(): string | null {
    return str(this.o.zip);
  }
  get phone(): string | null {
    return str(this.o.phone);
  }
  get website(): string | null {
    return str(this.o.website);
  }
  get showMap(): boolean {
    return bool(this.o.show_map) ?? false;
  }
  get showMapLink(): boolean {
    return bool(this.o.show_map_link) ?? false;
  }
  get latitude(): number | null {
    return num(this.o.geo_lat);
  }
  get longitude(): number | null {
    return num(this.o.geo_lng);
  }
}

class LegacyOrganizer extends LegacyPost implements OrganizerModel {
  readonly kind = 'Organizer' as const;

  constructor(raw: unknown) {
    super(raw, 'organizer');
  }

  get title(): string | null {
    return str(this.o.organizer);
  }
  get phone(): string | null {
    return str(this.o.phone);
  }
  get website(): string | null {
    return str(this.o.website);
  }
  get email(): string | null {
    return str(this.o.email);
  }
}

export function legacyEvent(body: unknown): EventModel {
  return new LegacyEvent(body);
}

export function legacyVenue(body: unknown): VenueModel {
  return new LegacyVenue(body);
}

export function legacyOrganizer(body: unknown): OrganizerModel {
  return new LegacyOrganizer(body);
}

/** Embedded (event) and archive term forms alike (§1.5). */
export function legacyTerm(body: unknown, kind: 'Category' | 'Tag'): TermModel {
  const o = obj(body, `legacy ${kind.toLowerCase()}`);
  return {
    kind,
    databaseId: idOf(o, kind.toLowerCase()),
    name: str(o.name),
    slug: str(o.slug),
    description: str(o.description),
    count: int(o.count),
    // Embedded terms carry only REST `urls`; the permalink comes from the archive form.
    url: 'url' in o ? str(o.url) : undefined,
    parentId: int(o.parent) || null,
    raw: body,
  };
}
