/**
 * The calendar's records, shared by both interfaces: whatever the legacy
 * `calendar/events/v1` routes write, `calendar-core/v1` reads, and back. Each
 * interface maps its own field names onto these (DESIGN.md's table) and calls
 * the operations below, which keep the derived fields (UTC dates, duration,
 * sticky, slugs, terms) consistent and announce changes for the automation
 * feeds.
 */
import type { User } from '../auth.ts';
import { diffSeconds, localToUtc, nowIn, nowUtc, utcToLocal } from '../dates.ts';
import type { Clock, Events, Origin, Storage } from '../capabilities.ts';
import type { PostRow, PostStatus, PostType } from '../store/db.ts';

export const EVENT: PostType = 'calendar_events';
export const VENUE: PostType = 'calendar_venue';
export const ORGANIZER: PostType = 'calendar_organizer';
export const SERIES: PostType = 'calendar_event_series';
export const CATEGORY_TAX = 'calendar_events_cat';
export const TAG_TAX = 'post_tag';

/** The five statuses a calendar post may be written with (spec: States and transitions). */
export const WRITE_STATUSES = ['publish', 'pending', 'draft', 'future', 'private'] as const;

export interface EventMeta {
  /** Event-local `Y-m-d H:i:s`. */
  startDate: string;
  endDate: string;
  startDateUtc: string;
  endDateUtc: string;
  timezone: string;
  allDay: boolean;
  /** Cost as entered ("10", "Free", "10-25"). */
  cost: string;
  currencySymbol: string;
  currencyCode: string;
  currencyPosition: 'prefix' | 'suffix' | '';
  /** `_EventURL`; empty means "use the permalink" on the legacy interface. */
  website: string;
  showMap: boolean;
  showMapLink: boolean;
  hideFromListings: boolean;
  featured: boolean;
  venueIds: number[];
  organizerIds: number[];
  /** Series post ID, 0 for none. */
  seriesId: number;
  virtual: boolean;
  ticketed: boolean;
  /** `_tribe_events_status`: scheduled, canceled, postponed. */
  eventStatus: 'scheduled' | 'canceled' | 'postponed';
  /** Event coordinates (calendar-core input `lat`/`lng`), when given. */
  lat: number | null;
  lng: number | null;
  /** Status the post had before it was trashed. */
  trashedFrom?: string;
}

export interface VenueMeta {
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  stateprovince: string;
  zip: string;
  phone: string;
  website: string;
  showMap: boolean;
  showMapLink: boolean;
  lat: number | null;
  lng: number | null;
  trashedFrom?: string;
}

export interface OrganizerMeta {
  phone: string;
  website: string;
  email: string;
  trashedFrom?: string;
}

export interface SeriesMeta {
  trashedFrom?: string;
}

/** Image data; `url` is site-relative (the origin is known only once the server listens). */
export interface AttachmentMeta {
  url: string;
  width: number;
  height: number;
  mime: string;
  filesize: number;
}

export type EventPost = PostRow<EventMeta>;
export type VenuePost = PostRow<VenueMeta>;
export type OrganizerPost = PostRow<OrganizerMeta>;

/** Post fields common to every calendar type, in graph-neutral names. */
export interface PostFields {
  title?: string;
  content?: string;
  excerpt?: string;
  slug?: string;
  status?: PostStatus;
  author?: number;
  /** Site-local publication date. */
  date?: string;
  dateGmt?: string;
  password?: string;
  featuredMedia?: number;
  commentStatus?: 'open' | 'closed';
  pingStatus?: 'open' | 'closed';
  format?: string;
  template?: string;
  sticky?: boolean;
}

export interface EventFields
  extends PostFields, Partial<Omit<EventMeta, 'startDateUtc' | 'endDateUtc' | 'trashedFrom'>> {
  /** UTC start/end: used when local dates are not given. */
  startDateUtc?: string;
  endDateUtc?: string;
  /** Seconds; sets the end from the start when no end is given. */
  duration?: number;
  categoryIds?: number[];
  tagIds?: number[];
}

export type VenueFields = PostFields & Partial<Omit<VenueMeta, 'trashedFrom'>>;
export type OrganizerFields = PostFields & Partial<Omit<OrganizerMeta, 'trashedFrom'>>;

export function slugify(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 190);
}

/** Only the origin is used, so callers without a site (pure builders) may pass `{ origin }`. */
export function permalink(site: Pick<Origin, 'origin'>, type: PostType, slug: string, id: number): string {
  const base = {
    calendar_events: 'event',
    calendar_venue: 'venue',
    calendar_organizer: 'organizer',
    calendar_event_series: 'series',
    post: '',
    page: '',
    attachment: 'attachment',
    calendar_ea_record: 'ea',
  }[type];
  if (!slug) return `${site.origin}/?p=${id}`;
  return base ? `${site.origin}/${base}/${slug}/` : `${site.origin}/${slug}/`;
}

/** publish/future/private need publish_posts; otherwise they become pending (TEC create). */
export function effectiveStatus(
  requested: PostStatus | undefined,
  canPublish: boolean,
  fallback: PostStatus,
): PostStatus {
  const status = requested || fallback;
  if (!canPublish && ['publish', 'future', 'private'].includes(status)) return 'pending';
  return status;
}

function postDates(site: Clock, f: PostFields, current?: PostRow<unknown>): { date: string; dateGmt: string } {
  if (f.date) return { date: f.date, dateGmt: f.dateGmt ?? localToUtc(f.date, site.timezone) };
  if (f.dateGmt) return { date: utcToLocal(f.dateGmt, site.timezone), dateGmt: f.dateGmt };
  if (current) return { date: current.date, dateGmt: current.dateGmt };
  const now = site.now();
  return { date: nowIn(now, site.timezone), dateGmt: nowUtc(now) };
}

function commonColumns(site: Clock & Storage, type: PostType, f: PostFields, current?: PostRow<unknown>) {
  const title = f.title ?? current?.title ?? '';
  const dates = postDates(site, f, current);
  const now = site.now();
  const slugBase = f.slug !== undefined && f.slug !== '' ? slugify(f.slug) : current?.slug || slugify(title);
  return {
    title,
    content: f.content ?? current?.content ?? '',
    excerpt: f.excerpt ?? current?.excerpt ?? '',
    slug: site.store.uniqueSlug(type, slugBase, current?.id ?? 0),
    status: f.status ?? current?.status ?? 'draft',
    author: f.author ?? current?.author ?? 0,
    password: f.password ?? current?.password ?? '',
    featuredMedia: f.featuredMedia ?? current?.featuredMedia ?? 0,
    commentStatus: f.commentStatus ?? current?.commentStatus ?? 'open',
    pingStatus: f.pingStatus ?? current?.pingStatus ?? 'open',
    format: f.format ?? current?.format ?? 'standard',
    template: f.template ?? current?.template ?? '',
    menuOrder: f.sticky === undefined ? (current?.menuOrder ?? 0) : f.sticky ? -1 : 0,
    ...dates,
    modified: nowIn(now, site.timezone),
    modifiedGmt: nowUtc(now),
  };
}

/** Resolves start/end in both local and UTC from whatever the caller gave. */
function eventTimes(
  f: EventFields,
  current?: EventMeta,
): Pick<EventMeta, 'startDate' | 'endDate' | 'startDateUtc' | 'endDateUtc' | 'timezone'> {
  const timezone = f.timezone || current?.timezone || 'UTC';
  let startDate =
    f.startDate ?? (f.startDateUtc ? utcToLocal(f.startDateUtc, timezone) : undefined) ?? current?.startDate;
  let endDate = f.endDate ?? (f.endDateUtc ? utcToLocal(f.endDateUtc, timezone) : undefined);
  if (!startDate) throw new Error('an event needs a start date');
  if (f.allDay ?? current?.allDay) {
    startDate = `${startDate.slice(0, 10)} 00:00:00`;
    if (endDate) endDate = `${endDate.slice(0, 10)} 23:59:59`;
  }
  if (!endDate && f.duration !== undefined) {
    endDate = utcToLocal(addUtcSeconds(localToUtc(startDate, timezone), f.duration), timezone);
  }
  endDate ??= current?.endDate ?? startDate;
  return {
    startDate,
    endDate,
    startDateUtc: localToUtc(startDate, timezone),
    endDateUtc: localToUtc(endDate, timezone),
    timezone,
  };
}

function addUtcSeconds(utc: string, seconds: number): string {
  const t = Date.parse(`${utc.replace(' ', 'T')}Z`) + seconds * 1000;
  return new Date(t).toISOString().slice(0, 19).replace('T', ' ');
}

export function eventDuration(m: EventMeta): number {
  return diffSeconds(m.startDateUtc, m.endDateUtc);
}

const EVENT_DEFAULTS: EventMeta = {
  startDate: '',
  endDate: '',
  startDateUtc: '',
  endDateUtc: '',
  timezone: 'UTC',
  allDay: false,
  cost: '',
  currencySymbol: '$',
  currencyCode: 'USD',
  currencyPosition: 'prefix',
  website: '',
  showMap: true,
  showMapLink: true,
  hideFromListings: false,
  featured: false,
  venueIds: [],
  organizerIds: [],
  seriesId: 0,
  virtual: false,
  ticketed: false,
  eventStatus: 'scheduled',
  lat: null,
  lng: null,
};

function pickMeta<M extends object>(defaults: M, f: Partial<M>, current?: M): M {
  const out = { ...defaults, ...(current ?? {}) } as M;
  for (const k of Object.keys(defaults) as (keyof M)[]) if (f[k] !== undefined) out[k] = f[k] as M[keyof M];
  return out;
}

export function saveEvent(site: Clock & Storage & Events, id: number | null, f: EventFields): EventPost {
  const { store } = site;
  return store.transaction(() => {
    const current = id ? store.post<EventMeta>(id) : undefined;
    const meta = pickMeta(EVENT_DEFAULTS, f, current?.meta);
    Object.assign(meta, eventTimes(f, current?.meta));
    meta.venueIds = [...new Set(meta.venueIds)];
    meta.organizerIds = [...new Set(meta.organizerIds)];
    const cols = commonColumns(site, EVENT, f, current);
    const saved = current
      ? store.updatePost<EventMeta>(current.id, { ...cols, meta })
      : store.insertPost<EventMeta>({ type: EVENT, ...cols, meta });
    if (f.categoryIds) store.setTerms(saved.id, CATEGORY_TAX, f.categoryIds);
    if (f.tagIds) store.setTerms(saved.id, TAG_TAX, f.tagIds);
    site.emitter.emit('event:saved', { id: saved.id, created: !current, previousStatus: current?.status });
    if (current && current.meta.eventStatus !== saved.meta.eventStatus) {
      site.emitter.emit('event:status', { id: saved.id, eventStatus: saved.meta.eventStatus });
    }
    return saved;
  });
}

const VENUE_DEFAULTS: VenueMeta = {
  address: '',
  city: '',
  country: '',
  province: '',
  state: '',
  stateprovince: '',
  zip: '',
  phone: '',
  website: '',
  showMap: true,
  showMapLink: true,
  lat: null,
  lng: null,
};
const ORGANIZER_DEFAULTS: OrganizerMeta = { phone: '', website: '', email: '' };

export function saveVenue(site: Clock & Storage, id: number | null, f: VenueFields): VenuePost {
  return savePlace(site, VENUE, VENUE_DEFAULTS, id, f);
}

export function saveOrganizer(site: Clock & Storage, id: number | null, f: OrganizerFields): OrganizerPost {
  return savePlace(site, ORGANIZER, ORGANIZER_DEFAULTS, id, f);
}

function savePlace<M extends object>(
  site: Clock & Storage,
  type: PostType,
  defaults: M,
  id: number | null,
  f: PostFields & Partial<M>,
): PostRow<M> {
  const { store } = site;
  return store.transaction(() => {
    const current = id ? store.post<M>(id) : undefined;
    const meta = pickMeta(defaults, f as Partial<M>, current?.meta);
    const cols = commonColumns(site, type, f, current);
    return current ? store.updatePost<M>(current.id, { ...cols, meta }) : store.insertPost<M>({ type, ...cols, meta });
  });
}

/** Moves a post to the trash, remembering its status (wp_trash_post). */
export function trashPost(site: Clock & Storage, id: number): PostRow {
  const post = site.store.post(id)!;
  const now = site.now();
  return site.store.updatePost(id, {
    status: 'trash',
    modified: nowIn(now, site.timezone),
    modifiedGmt: nowUtc(now),
    meta: { trashedFrom: post.status },
  });
}

/** Who may read a post: published ones are public; others need the right capability. */
export function canRead(post: PostRow<unknown>, user: User | null, can: (cap: string) => boolean): boolean {
  if (post.status === 'publish') return true;
  if (!user) return false;
  if (post.status === 'private') return can('read_private_posts') || post.author === user.id;
  if (post.status === 'trash') return can('edit_others_posts') || (post.author === user.id && can('edit_posts'));
  return can('edit_others_posts') || (post.author === user.id && can('edit_posts'));
}

export function canEdit(post: PostRow<unknown>, user: User | null, can: (cap: string) => boolean): boolean {
  if (!user) return false;
  if (post.author === user.id) return can('edit_posts') && (post.status !== 'publish' || can('edit_published_posts'));
  return can('edit_others_posts');
}

export function canDelete(post: PostRow<unknown>, user: User | null, can: (cap: string) => boolean): boolean {
  if (!user) return false;
  if (post.author === user.id)
    return can('delete_posts') && (post.status !== 'publish' || can('delete_published_posts'));
  return can('delete_others_posts');
}
