/**
 * Every kind the write engine (engine.ts) writes, as data: events, venues and
 * organizers (the calendar's two interfaces), categories and tags (the legacy
 * calendar's terms) and posts (core/v2). A declaration says how an input is
 * checked and turned into payloads (inputs.ts), which request a write is, how
 * the site's answer becomes the graph's model, which loaders hold the kind's
 * objects, what identifies a create that must be looked for (reconcile.ts),
 * and which stages apply (`verify`):
 *
 * - `views` (the calendar's posts): reads before sending (the stored state,
 *   the references), follow-ups through the other interface, verification of
 *   every field against what each interface shows, with one repair
 *   (check.ts), reconciliation of lost answers by reading back, and the
 *   not-found rule's second read;
 * - `answer` (terms, posts): one interface, one request per item, the write's
 *   answer compared with the input (`mismatches`); a lost answer stays
 *   OUTCOME_UNKNOWN with what to look for (`unknownHint`).
 *
 * Locks, sending, publishing to subscribers and the per-item results are the
 * same for every kind. Nothing else in writes/ asks which kind it writes:
 * what differs is a field here (the field tables of inputs.ts and verify.ts
 * aside, which are keyed by kind).
 */
import type { Context } from '../context.ts';
import type {
  CategoryInput,
  CreatePostInput,
  EventInput,
  OrganizerInput,
  TagInput,
  UpdatePostInput,
  VenueInput,
} from '../generated/graphql.ts';
import { coreEvent, coreOrganizer, coreVenue } from '../namespaces/calendar/core-mapping.ts';
import { coreResets } from '../mapping/calendar-models.ts';
import type { NodeType } from '../mapping/ids.ts';
import { obj, type Json } from '../mapping/json.ts';
import { cleanText } from '../mapping/text.ts';
import {
  eventPayloads,
  graphField,
  organizerPayloads,
  termPayload,
  validateEvent,
  validateOrganizer,
  validateTerm,
  validateVenue,
  venuePayloads,
  type ConvertOptions,
  type FieldIssue,
  type SplitPayloads,
  type ValidateOptions,
} from './inputs.ts';
import { legacyEvent, legacyOrganizer, legacyTerm, legacyVenue } from '../namespaces/calendar/legacy-mapping.ts';
import type { EventModel, OrganizerModel, TermModel, VenueModel } from '../mapping/models.ts';
import type { Iface, PostKind, TermKind } from '../namespaces/calendar/vocabulary.ts';
import { writeRequest, type Target, type WriteMethod } from '../namespaces/calendar/write-requests.ts';
import { corePost, deletedPost, postBody, postInputField, type PostModel } from '../namespaces/posts/mapping.ts';
import { postWrite } from '../namespaces/posts/requests.ts';
import type { WriteRequest } from '../upstream/batch.ts';

export type { PostKind } from '../namespaces/calendar/vocabulary.ts';
export type CalendarInput = EventInput | VenueInput | OrganizerInput;
export type CalendarModel = EventModel | VenueModel | OrganizerModel;
export type TermInput = CategoryInput | TagInput;
export type PostInput = CreatePostInput | UpdatePostInput;
export type AnyInput = CalendarInput | TermInput | PostInput;
/** What the engine needs of every model: its ID, and what subscribers are told (context.ts `WrittenObject`). */
export interface AnyModel {
  databaseId: number;
  status?: string | null;
  modifiedAtUtc?: string | null;
}

/** A field whose stored value is not the one asked: `asked`, what the input set; `kept`, what the site answered. */
export interface AnswerMismatch {
  field: string;
  asked: unknown;
  kept: unknown;
}

/** What a delete's answer says: the object (as trashed, or as it was), and its ID; null when it says neither. */
export interface DeleteAnswer<M> {
  model: M | null;
  id: number | null;
}

interface KindBase<I extends AnyInput, M extends AnyModel> {
  kind: PostKind | TermKind | 'posts';
  type: NodeType;
  /** The kind in messages: `event`; `anEvent`: with its article. */
  label: string;
  aLabel: string;
  validate(input: I, o: ValidateOptions): FieldIssue[];
  payloads(input: I, api: Iface, o: ConvertOptions): SplitPayloads;
  /** The request of one write (`target` null: a create). */
  request(
    api: Iface,
    method: WriteMethod,
    target: Target | null,
    body?: Json,
    query?: Record<string, string | number | boolean>,
  ): WriteRequest;
  /** A create's or update's answer as the model. Throws UpstreamShapeError when the body is not one. */
  model(api: Iface, body: unknown, siteZone: string): M;
  /**
   * A delete's answer (`stored`: the object as read before, when it was): null when the body is not what the delete
   * answers.
   */
  deleted(api: Iface, body: unknown, force: boolean, stored: unknown, siteZone: string): DeleteAnswer<M> | null;
  /** Whether a deleted object's model stays in the request's loaders (a trashed event is still one; a term is not). */
  keepDeleted(force: boolean): boolean;
  /** The input field a REST parameter came from (for the paths of the site's validation errors). */
  fieldOf(api: Iface, param: string, input: I | null): string;
  /** Forgets what the request's loaders hold of the object; `prime` gives them what the site answered. */
  clear(ctx: Context, id: number): void;
  prime(ctx: Context, model: M): void;
  /** Whether a slug can name the object (calendar-core/v1 has no by-slug routes; terms and posts none here). */
  slugs: boolean;
}

/** Which fields of an event-like input a reconciliation compares, and how it looks for a create. */
export interface ReconcileSpec {
  /** The fields a candidate for a lost create must match (and the read show). */
  identity: readonly string[];
  /** Extra query of the search for a lost create, per interface (events: by dates, newest first). */
  search(api: Iface, input: AnyInput | undefined): Record<string, string | number>;
  /** A trash through calendar-core is read back through the legacy interface (core answers a trashed event 404). */
  trashReadsLegacy: boolean;
}

/** The calendar's posts: two interfaces, reads before sending, views-based verification, reconciliation. */
export interface CalendarKind<I extends AnyInput, M extends AnyModel> extends KindBase<I, M> {
  verify: 'views';
  kind: PostKind;
  /** The input as an event input, for what only events have (dates, zone, references); null otherwise. */
  asEvent(input: I): EventInput | null;
  /**
   * Through which interface an update's stored state is read: `legacy-first` where the site has it (it shows the
   * fields only it serves, which a calendar-core PATCH may reset), `written` through the interface written.
   */
  readThrough: 'legacy-first' | 'written';
  /** Fields a calendar-core update resets when omitted, sent as stored (docs/writes.md "Resets"). */
  coreResets: readonly string[];
  /** The legacy update resets what it omits: a repair through it sends the complete state, read back or not. */
  wholeLegacyState: boolean;
  reconcile: ReconcileSpec;
  fromCore(body: unknown): M;
  fromLegacy(body: unknown): M;
}

/** A kind written through one interface, verified by comparing its answer with the input. */
export interface AnswerKind<I extends AnyInput, M extends AnyModel> extends KindBase<I, M> {
  verify: 'answer';
  kind: TermKind | 'posts';
  /** The interface every write goes through. */
  api: Iface;
  /** The calendar interface the site must offer for it (null: WordPress's own routes). */
  needs: Iface | null;
  /** The fields the answer holds with another value than the input asked. */
  mismatches(input: I, answer: unknown, model: M): AnswerMismatch[];
  /** What to do when a write's answer was lost (appended to OUTCOME_UNKNOWN's message). */
  unknownHint(create: boolean): string;
}

/** A kind of the engine: which stages apply is `verify`. */
export type KindSpec<I extends AnyInput, M extends AnyModel> = CalendarKind<I, M> | AnswerKind<I, M>;

// ---------------------------------------------------------------------------
// The calendar's posts

/** A delete's answer: legacy answers the trashed object; calendar-core `[]`, so the object read before is returned. */
function calendarDeleted<M extends CalendarModel>(
  fromCore: (b: unknown) => M,
  fromLegacy: (b: unknown) => M,
): KindBase<AnyInput, M>['deleted'] {
  return (api, body, force, stored) => {
    if (api === 'legacy') {
      if (idOfBody(body) === null) return null;
      const model = fromLegacy(body);
      return { model, id: model.databaseId };
    }
    if (!Array.isArray(body)) return idOfBody(body) === null ? null : { model: null, id: idOfBody(body) };
    if (stored === undefined) return { model: null, id: null };
    const model = fromCore(stored);
    if (!force) model.status = 'trash';
    return { model, id: model.databaseId };
  };
}

export function idOfBody(body: unknown): number | null {
  const id = body && typeof body === 'object' && 'id' in body ? body.id : undefined;
  return typeof id === 'number' && Number.isInteger(id) ? id : null;
}

function calendarKind<I extends CalendarInput, M extends CalendarModel>(
  d: Pick<
    CalendarKind<I, M>,
    | 'kind'
    | 'type'
    | 'label'
    | 'aLabel'
    | 'validate'
    | 'payloads'
    | 'fromCore'
    | 'fromLegacy'
    | 'asEvent'
    | 'readThrough'
    | 'coreResets'
    | 'wholeLegacyState'
    | 'reconcile'
  > & { loaders: (ctx: Context) => { clear(id: number): unknown }[] },
): CalendarKind<I, M> {
  const { loaders, ...rest } = d;
  return {
    ...rest,
    verify: 'views',
    slugs: true,
    request: (api, method, target, body, query) => writeRequest(api, d.kind, method, target, body, query),
    model: (api, body) => (api === 'core' ? d.fromCore(body) : d.fromLegacy(body)),
    deleted: calendarDeleted(d.fromCore, d.fromLegacy),
    keepDeleted: (force) => !force,
    fieldOf: (api, param, input) => graphField(d.kind, api, param, input ?? undefined),
    clear: (ctx, id) => {
      for (const l of loaders(ctx)) l.clear(id);
    },
    prime: (ctx, m) => ctx.loaders.prime(m),
  };
}

/** The days around an event's dates, for the legacy archive, which shows upcoming events unless given a window. */
function day(date: string, days: number): string {
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const TITLE_ONLY: ReconcileSpec = { identity: ['title'], search: () => ({}), trashReadsLegacy: false };

export const EVENTS: CalendarKind<EventInput, EventModel> = calendarKind({
  kind: 'events',
  type: 'Event',
  label: 'event',
  aLabel: 'an event',
  validate: validateEvent,
  payloads: eventPayloads,
  fromCore: coreEvent,
  fromLegacy: legacyEvent,
  asEvent: (input) => input,
  readThrough: 'legacy-first',
  coreResets: coreResets('Event'),
  wholeLegacyState: true,
  reconcile: {
    identity: ['title', 'startDate', 'endDate'],
    search: (api, input): Record<string, string | number> => {
      if (api === 'core') return { orderby: 'modified', order: 'DESC' };
      const e = (input ?? {}) as EventInput;
      return e.startDate && e.endDate ? { start_date: day(e.startDate, -2), end_date: day(e.endDate, 2) } : {};
    },
    trashReadsLegacy: true,
  },
  loaders: (ctx) => [ctx.loaders.eventLegacy, ctx.loaders.eventCore, ctx.loaders.eventLegacySingle],
});
export const VENUES: CalendarKind<VenueInput, VenueModel> = calendarKind({
  kind: 'venues',
  type: 'Venue',
  label: 'venue',
  aLabel: 'a venue',
  validate: validateVenue,
  payloads: venuePayloads,
  fromCore: coreVenue,
  fromLegacy: legacyVenue,
  asEvent: () => null,
  readThrough: 'legacy-first',
  coreResets: coreResets('Venue'),
  wholeLegacyState: false,
  reconcile: TITLE_ONLY,
  loaders: (ctx) => [ctx.loaders.venueLegacy, ctx.loaders.venueCore],
});
export const ORGANIZERS: CalendarKind<OrganizerInput, OrganizerModel> = calendarKind({
  kind: 'organizers',
  type: 'Organizer',
  label: 'organizer',
  aLabel: 'an organizer',
  validate: validateOrganizer,
  payloads: organizerPayloads,
  fromCore: coreOrganizer,
  fromLegacy: legacyOrganizer,
  asEvent: () => null,
  // Organizers show the same fields through both interfaces.
  readThrough: 'written',
  coreResets: coreResets('Organizer'),
  wholeLegacyState: false,
  reconcile: TITLE_ONLY,
  loaders: (ctx) => [ctx.loaders.organizerLegacy, ctx.loaders.organizerCore],
});

// ---------------------------------------------------------------------------
// Answers compared with inputs

const given = (v: unknown) => v !== undefined && v !== null;
/** Text as WordPress keeps it: tags and entities aside, whitespace collapsed, trimmed. */
const sameText = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' ? cleanText(a) === cleanText(b) : a === b;
const sameSet = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b) && [...new Set(a)].sort().join(',') === [...new Set(b)].sort().join(',');

/** `{raw, rendered}` fields: the raw text when the answer has it (context edit), else the rendered one. */
function rawOf(v: unknown): unknown {
  if (v && typeof v === 'object') {
    const o = v as Json;
    return typeof o.raw === 'string' ? o.raw : o.rendered;
  }
  return v;
}

function compareFields(
  checks: readonly { field: string; asked: unknown; kept: unknown; same: (a: unknown, b: unknown) => boolean }[],
): AnswerMismatch[] {
  return checks
    .filter((c) => given(c.asked) && !c.same(c.asked, c.kept))
    .map(({ field, asked, kept }) => ({ field, asked, kept }));
}

// ---------------------------------------------------------------------------
// Terms (the legacy calendar's categories and tags)

function termKind(kind: TermKind, type: 'Category' | 'Tag'): AnswerKind<TermInput, TermModel> {
  const label = type.toLowerCase();
  return {
    verify: 'answer',
    kind,
    type,
    label,
    aLabel: `a ${label}`,
    api: 'legacy',
    needs: 'legacy',
    slugs: false,
    validate: (input, o) => validateTerm(input, o.create),
    payloads: (input) => ({ primary: termPayload(input, kind), secondary: null }),
    request: (api, method, target, body, query) => writeRequest(api, kind, method, target, body, query),
    model: (_api, body) => legacyTerm(body, type),
    // A deleted term answers as it was.
    deleted: (_api, body) => {
      if (idOfBody(body) === null) return null;
      const model = legacyTerm(body, type);
      return { model, id: model.databaseId };
    },
    keepDeleted: () => false,
    fieldOf: (api, param, input) => graphField(kind, api, param, input ?? undefined),
    clear: (ctx, id) => void (kind === 'categories' ? ctx.loaders.category : ctx.loaders.tag).clear(id),
    prime: (ctx, m) => ctx.loaders.prime(m),
    mismatches: (input, _answer, m) =>
      compareFields([
        { field: 'name', asked: input.name, kept: m.name, same: sameText },
        { field: 'description', asked: input.description, kept: m.description, same: sameText },
        {
          field: 'parentId',
          asked: 'parentId' in input ? input.parentId : undefined,
          kept: m.parentId ?? 0,
          same: (a, b) => a === b,
        },
      ]),
    unknownHint: () => `read the ${label === 'category' ? 'categories' : 'tags'} before sending it again`,
  };
}

export const CATEGORIES = termKind('categories', 'Category');
export const TAGS = termKind('tags', 'Tag');

// ---------------------------------------------------------------------------
// Posts (core/v2)

const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase().replace(/_/g, '-') : v);

export const POSTS: AnswerKind<PostInput, PostModel> = {
  verify: 'answer',
  kind: 'posts',
  type: 'Post',
  label: 'post',
  aLabel: 'a post',
  // core/v2 is WordPress's own REST interface, the posts' only one: `core` names it here.
  api: 'core',
  needs: null,
  slugs: false,
  validate: () => [],
  payloads: (input) => ({ primary: postBody(input), secondary: null }),
  request: (_api, method, target, body, query) =>
    postWrite(method, target && 'id' in target ? target.id : null, body, query),
  model: (_api, body, zone) => corePost(body, zone),
  deleted: (_api, body, force, _stored, zone) => {
    if (idOfBody(body) === null && !(body && typeof body === 'object' && 'previous' in body)) return null;
    const d = deletedPost(idOfBody(body) ?? 0, body, zone);
    return { model: d.post, id: d.post?.databaseId ?? null };
  },
  keepDeleted: () => false,
  fieldOf: (_api, param) => postInputField(param),
  // The request's loaders hold no posts (Query.posts reads lists through the upstream cache).
  clear: () => {},
  prime: () => {},
  mismatches: (input, answer, m) => {
    const o = obj(answer, 'post');
    return compareFields([
      { field: 'title', asked: input.title, kept: rawOf(o.title), same: sameText },
      { field: 'content', asked: input.content, kept: rawOf(o.content), same: sameText },
      { field: 'excerpt', asked: input.excerpt, kept: rawOf(o.excerpt), same: sameText },
      {
        field: 'status',
        asked: input.status ? lower(input.status) : undefined,
        kept: m.status,
        // A post published with a date to come is scheduled.
        same: (a, b) => a === b || (a === 'publish' && b === 'future'),
      },
      { field: 'commentStatus', asked: lower(input.commentStatus), kept: m.commentStatus, same: (a, b) => a === b },
      { field: 'pingStatus', asked: lower(input.pingStatus), kept: m.pingStatus, same: (a, b) => a === b },
      { field: 'format', asked: lower(input.format), kept: m.format, same: (a, b) => a === b },
      { field: 'sticky', asked: input.sticky, kept: m.sticky, same: (a, b) => a === b },
      { field: 'template', asked: input.template, kept: m.template ?? '', same: (a, b) => a === b },
      { field: 'authorId', asked: input.authorId, kept: m.authorId, same: (a, b) => a === b },
      { field: 'featuredMediaId', asked: input.featuredMediaId, kept: m.featuredMediaId ?? 0, same: (a, b) => a === b },
      { field: 'tagIds', asked: input.tagIds, kept: m.tagIds, same: sameSet },
      // WordPress files a post with no category under the default one.
      {
        field: 'categoryIds',
        asked: input.categoryIds?.length ? input.categoryIds : undefined,
        kept: m.categoryIds,
        same: sameSet,
      },
    ]);
  },
  unknownHint: (create) =>
    create
      ? 'look for the post (by title, status any) before creating it again'
      : 'read the post before sending it again',
};
