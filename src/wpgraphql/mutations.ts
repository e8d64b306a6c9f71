/**
 * WPGraphQL's post mutations and ql-events' event, venue and organizer mutations on the compatible graph, with
 * WPGraphQL's inputs and payloads, written through the main graph's write engine (src/writes/): each write is locked
 * per object, verified against the site's answer (WRITE_NOT_APPLIED where the site kept something else,
 * OUTCOME_UNKNOWN where its answer was lost), and refused to an anonymous caller (UNAUTHENTICATED) before anything is
 * read or sent. Each resolver is an `engineMutation`, as the main graph's are.
 *
 * WPGraphQL's input is mapped field by field to the main graph's (CreatePostInput, EventInput, VenueInput,
 * OrganizerInput); a field the engine cannot write is refused by name (BAD_USER_INPUT naming `input.<field>`), never
 * dropped. Errors the engine reports name the compatible input's fields (`input.content`, not `input.description`).
 */
import { GraphQLError } from 'graphql';
import type { Context } from '../context.ts';
import { GatewayError } from '../errors.ts';
import type {
  CreatePostInput as CorePostInput,
  EventInput,
  OpenStatus,
  OrganizerInput,
  PostStatus,
  PostWriteStatus,
  VenueInput,
} from '../generated/graphql.ts';
import { createOne, deleteOne, updateOne } from '../writes/calendar.ts';
import { engineMutation as E } from '../writes/engine.ts';
import { EVENTS, ORGANIZERS, POSTS, VENUES, type AnyInput, type AnyModel, type KindSpec } from '../writes/kinds.ts';
import { needAuth } from '../writes/plan.ts';
import { fromWpGlobalId, wpGlobalId, type WpLoader } from './ids.ts';

type WpInput = Record<string, unknown> & { clientMutationId?: string | null; id?: string };
type Args = { input: WpInput };

/** What a WPGraphQL input field becomes: the main input's field with its value, or a refusal (a string: why). */
type Rule<I> = ((v: unknown, arg: string) => Partial<I>) | string;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const bad = (arg: string, message: string) => GatewayError.badInput(`${arg}: ${message}`, { arguments: [arg] });

/** A String argument's value (GraphQL has checked its type; a list or object here is a bug, refused). */
function str(v: unknown, arg: string): string {
  if (typeof v !== 'string') throw bad(arg, `a String, not ${typeof v}`);
  return v;
}

/** A database ID from a WPGraphQL global ID of `loader` (`post:12` in base64) or a database ID itself. */
function databaseIdOf(v: unknown, loader: WpLoader, arg: string): number {
  const s = String(v);
  if (/^\d+$/.test(s) && Number(s) > 0 && Number.isSafeInteger(Number(s))) return Number(s);
  const g = fromWpGlobalId(s);
  if (g && g.loader === loader) return g.id;
  throw bad(arg, `${JSON.stringify(s)} is not a ${loader} ID (a global ID or a database ID)`);
}

/**
 * WordPress's post date, in the site's time zone: "YYYY-MM-DD HH:mm:ss" (or with a `T`, or a day alone). WPGraphQL
 * hands any text to strtotime(); the forms the engine can verify are these.
 */
function localDate(v: unknown, arg: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2})(:\d{2})?)?$/.exec(String(v).trim());
  if (!m) throw bad(arg, `${JSON.stringify(v)} is not a date in the site's time zone ("YYYY-MM-DD HH:mm:ss")`);
  return `${m[1]}T${m[2] ?? '00:00'}${m[3] ?? ':00'}`;
}

const POST_STATUSES: readonly PostWriteStatus[] = ['PUBLISH', 'FUTURE', 'DRAFT', 'PENDING', 'PRIVATE'];
const CALENDAR_STATUSES: readonly PostStatus[] = ['PUBLISH', 'FUTURE', 'DRAFT', 'PENDING', 'PRIVATE'];

function status<S extends string>(allowed: readonly S[], v: unknown, arg: string): S {
  const s = allowed.find((x) => x === v);
  if (!s) throw bad(arg, `${String(v)} cannot be written here (one of ${allowed.join(', ')}; delete to trash)`);
  return s;
}

/** WordPress's `open` / `closed`. */
function openStatus(v: unknown, arg: string): OpenStatus {
  if (v === 'open') return 'OPEN';
  if (v === 'closed') return 'CLOSED';
  throw bad(arg, `${JSON.stringify(v)} is neither "open" nor "closed"`);
}

/**
 * A connection input (`{ append, nodes: [{ id }] }`) as the full list of term IDs. WPGraphQL appends by default,
 * which would need the stored list read first and is not a write the engine verifies: only `append: false` with
 * existing terms by ID is written.
 */
function termIds(v: unknown, arg: string): number[] {
  {
    const c = isRecord(v) ? v : {};
    if (c.append !== false)
      throw bad(arg, 'only `append: false` (the full list of terms) can be written; WPGraphQL appends by default');
    const nodes = Array.isArray(c.nodes) ? c.nodes : [];
    const ids = nodes.map((n: unknown, i) => {
      const node = isRecord(n) ? n : {};
      const other = Object.keys(node).filter((k) => k !== 'id' && node[k] != null);
      if (other.length || node.id == null)
        throw bad(
          `${arg}.nodes.${i}`,
          'terms are connected by `id` only; creating or finding terms by name or slug is not written',
        );
      return databaseIdOf(node.id, 'term', `${arg}.nodes.${i}.id`);
    });
    return ids;
  }
}

const NOT_WRITTEN = 'the write engine does not write it';
const authorId = (v: unknown, arg: string) => ({ authorId: databaseIdOf(v, 'user', arg) });

/** The fields the calendar's three inputs share, with the same types. */
type CalendarCommon = Pick<
  EventInput,
  'title' | 'description' | 'excerpt' | 'slug' | 'status' | 'publishedAt' | 'authorId'
>;

/** ql-events' fields of events, venues and organizers alike (its content is the calendar's description). */
const CALENDAR: Record<string, Rule<CalendarCommon>> = {
  title: (v, arg) => ({ title: str(v, arg) }),
  content: (v, arg) => ({ description: str(v, arg) }),
  excerpt: (v, arg) => ({ excerpt: str(v, arg) }),
  slug: (v, arg) => ({ slug: str(v, arg) }),
  status: (v, arg) => ({ status: status(CALENDAR_STATUSES, v, arg) }),
  date: (v, arg) => ({ publishedAt: localDate(v, arg) }),
  authorId,
  menuOrder: NOT_WRITTEN,
  password: 'the calendar does not write post passwords',
};

const POST: Record<string, Rule<CorePostInput>> = {
  title: (v, arg) => ({ title: str(v, arg) }),
  content: (v, arg) => ({ content: str(v, arg) }),
  excerpt: (v, arg) => ({ excerpt: str(v, arg) }),
  slug: (v, arg) => ({ slug: str(v, arg) }),
  password: (v, arg) => ({ password: str(v, arg) }),
  status: (v, arg) => ({ status: status(POST_STATUSES, v, arg) }),
  date: (v, arg) => ({ date: localDate(v, arg) }),
  authorId,
  commentStatus: (v, arg) => ({ commentStatus: openStatus(v, arg) }),
  pingStatus: (v, arg) => ({ pingStatus: openStatus(v, arg) }),
  categories: (v, arg) => ({ categoryIds: termIds(v, arg) }),
  tags: (v, arg) => ({ tagIds: termIds(v, arg) }),
  menuOrder: NOT_WRITTEN,
  pinged: NOT_WRITTEN,
  toPing: NOT_WRITTEN,
  postFormats: 'a post format is written as `format` through the main graph',
};

const EVENT: Record<string, Rule<EventInput>> = {
  ...CALENDAR,
  commentStatus: (v, arg) => ({ commentStatus: openStatus(v, arg) }),
  eventsCategories: (v, arg) => ({ categoryIds: termIds(v, arg) }),
  tags: (v, arg) => ({ tagIds: termIds(v, arg) }),
};

/** The main input a WPGraphQL input maps to, and the main field each of its fields came from (for errors). */
function mapInput<I>(input: WpInput, rules: Record<string, Rule<I>>): { out: Partial<I>; from: Map<string, string> } {
  let out: Partial<I> = {};
  const from = new Map<string, string>();
  for (const [k, v] of Object.entries(input)) {
    if (k === 'clientMutationId' || k === 'id' || v === null || v === undefined) continue;
    const arg = `input.${k}`;
    const rule = rules[k];
    if (rule === undefined) throw bad(arg, NOT_WRITTEN);
    if (typeof rule === 'string') throw bad(arg, `not written: ${rule}`);
    const field = rule(v, arg);
    out = { ...out, ...field };
    for (const to of Object.keys(field)) from.set(`input.${to}`, arg);
  }
  return { out, from };
}

/** The engine's error with the argument paths in the compatible input's names. */
function renamed(e: unknown, from: Map<string, string>, hint: Record<string, string>): unknown {
  if (!(e instanceof GraphQLError) || !Array.isArray(e.extensions.arguments)) return e;
  const args = e.extensions.arguments.map((a) => (typeof a === 'string' ? (from.get(a) ?? a) : a));
  const code = e.extensions.code;
  const more = args.map((a) => (typeof a === 'string' ? hint[a] : undefined)).find((h) => h);
  return new GraphQLError(more ? `${e.message} ${more}` : e.message, {
    ...(e.originalError ? { originalError: e.originalError } : {}),
    extensions: { ...e.extensions, code, arguments: args },
  });
}

async function mapped<R>(
  from: Map<string, string>,
  write: () => Promise<R>,
  hint: Record<string, string> = {},
): Promise<R> {
  try {
    return await write();
  } catch (e) {
    throw renamed(e, from, hint);
  }
}

interface Kind<I extends AnyInput, M extends AnyModel> {
  spec: KindSpec<I, M>;
  field: string;
  rules: Record<string, Rule<I>>;
  /** Said after the engine's refusal of a main-graph field the compatible input has no field for. */
  createHint?: Record<string, string>;
}

function writes<I extends AnyInput, M extends AnyModel>(k: Kind<I, M>) {
  const id = (input: WpInput) => String(databaseIdOf(input.id, 'post', 'input.id'));
  const cmid = (input: WpInput) => input.clientMutationId ?? null;
  return {
    create: E(async (_p: unknown, { input }: Args, ctx: Context) => {
      needAuth(ctx.upstream);
      const { out, from } = mapInput(input, k.rules);
      const model = await mapped(from, () => createOne(ctx, k.spec, out, null), k.createHint);
      return { [k.field]: model, clientMutationId: cmid(input) };
    }),
    update: E(async (_p: unknown, { input }: Args, ctx: Context) => {
      needAuth(ctx.upstream);
      const { out, from } = mapInput(input, k.rules);
      const model = await mapped(from, () => updateOne(ctx, k.spec, id(input), 'DATABASE_ID', out, 'PATCH', null));
      return { [k.field]: model, clientMutationId: cmid(input) };
    }),
    delete: E(async (_p: unknown, { input }: Args & { input: { forceDelete?: boolean | null } }, ctx: Context) => {
      needAuth(ctx.upstream);
      const r = await deleteOne(ctx, k.spec, id(input), 'DATABASE_ID', Boolean(input.forceDelete), null);
      return { [k.field]: r.model, deletedId: wpGlobalId('post', r.databaseId), clientMutationId: cmid(input) };
    }),
  };
}

const post = writes({ spec: POSTS, field: 'post', rules: POST });
// ql-events 0.1.0's CreateEventInput has no dates, which the calendar needs to create an event.
const NO_DATES =
  "(ql-events' CreateEventInput has no startDate or endDate: create the event through the main graph's createEvent, then edit it here.)";
const event = writes({
  spec: EVENTS,
  field: 'event',
  rules: EVENT,
  createHint: { 'input.startDate': NO_DATES, 'input.endDate': NO_DATES },
});
const venue = writes({ spec: VENUES, field: 'venue', rules: CALENDAR });
const organizer = writes({ spec: ORGANIZERS, field: 'organizer', rules: CALENDAR });

/** The compatible graph's RootMutation. */
export const wpMutations = {
  createPost: post.create,
  updatePost: post.update,
  deletePost: post.delete,
  createEvent: event.create,
  updateEvent: event.update,
  deleteEvent: event.delete,
  createVenue: venue.create,
  updateVenue: venue.update,
  deleteVenue: venue.delete,
  createOrganizer: organizer.create,
  updateOrganizer: organizer.update,
  deleteOrganizer: organizer.delete,
};
