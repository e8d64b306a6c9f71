/**
 * `calendar/events/v1` (legacy) JSON -> graph models (docs/real-sites.md,
 * "Fields by interface"; test/mapping/legacy.test.ts): each field as the
 * calendar's field table (mapping/calendar-models.ts) reads it. Legacy venue and organizer
 * objects drop empty values, so an absent key there means "empty" (null), not
 * "not served".
 */
import { idOf, obj, str, int, type Json } from '../../mapping/json.ts';
import type { EventModel, OrganizerModel, TermModel, VenueModel } from '../../mapping/models.ts';
import { legacyImage, readPart, readsOf, type FieldKind } from '../../mapping/calendar-models.ts';

export { legacyImage };

/**
 * Lazy models: a field is read from the site's JSON when a resolver asks for
 * it, not when the object arrives. A list of 20 events embeds as many venues
 * and organizers, each with four dates and an image; an operation asking for
 * titles must not pay for mapping all of it. The fields' getters live on the
 * prototype, one per field the table (mapping/calendar-models.ts) has the legacy interface
 * read, so a field the source does not serve (no getter) still reads
 * `undefined`. Values are memoized (the same object must come back: loaders
 * are primed with the embedded venues, organizers and terms).
 */
abstract class LegacyPost {
  readonly source = 'legacy' as const;
  readonly databaseId: number;
  protected readonly o: Json;
  private readonly memo = new Map<string, unknown>();

  constructor(
    readonly raw: unknown,
    what: 'event' | 'venue' | 'organizer',
  ) {
    this.o = obj(raw, `legacy ${what}`);
    this.databaseId = idOf(this.o, what);
  }

  /** Getters on the class's prototype for the fields of `kind` the legacy interface reads (the field table). */
  static readFields(kind: FieldKind): void {
    for (const [name, part] of readsOf(kind, 'legacy')) {
      Object.defineProperty(this.prototype, name, {
        configurable: true,
        get(this: LegacyPost) {
          if (!this.memo.has(name)) this.memo.set(name, readPart(part, this.o));
          return this.memo.get(name);
        },
      });
    }
  }
}

class LegacyEvent extends LegacyPost implements EventModel {
  readonly kind = 'Event' as const;
  private venueList: VenueModel[] | undefined;
  private organizerList: OrganizerModel[] | undefined;
  private categoryList: TermModel[] | undefined;
  private tagList: TermModel[] | undefined;

  constructor(raw: unknown) {
    super(raw, 'event');
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
LegacyEvent.readFields('Event');

/** Legacy venue and organizer objects drop empty values: an absent key is "empty" (null). */
class LegacyVenue extends LegacyPost implements VenueModel {
  readonly kind = 'Venue' as const;

  constructor(raw: unknown) {
    super(raw, 'venue');
  }
}
LegacyVenue.readFields('Venue');

class LegacyOrganizer extends LegacyPost implements OrganizerModel {
  readonly kind = 'Organizer' as const;

  constructor(raw: unknown) {
    super(raw, 'organizer');
  }
}
LegacyOrganizer.readFields('Organizer');

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
