/**
 * `where:` of a subscription, applied to one object in memory
 * (docs/subscriptions.md "Filters"). `eventChanged` takes the `EventsWhere` of
 * `events`, `postChanged` the fields of `PostsWhere` that one post can answer;
 * a filter that cannot be evaluated on one object (a text search, a distance,
 * related events) is refused when subscribing, naming it, rather than ignored.
 *
 * Each filter is compiled once, when the subscription starts, and applied to
 * the object as the subscriber's credentials read it; fields the copy lacks
 * are read through the subscriber's loaders, as the `Event` resolvers do.
 */
import { DateTime } from 'luxon';
import type { Context } from '../context.ts';
import { GatewayError } from '../errors.ts';
import type { EventsWhere, PostChangesWhere } from '../generated/graphql.ts';
import { luxonZone, toSiteLocal } from '../mapping/dates.ts';
import type { EventModel, TermModel } from '../mapping/models.ts';
import type { PostModel } from '../mapping/platform-models.ts';
import { CORE_NS, type SiteInfo } from '../upstream/discovery.ts';
import { inertArg } from '../upstream/inert.ts';
import { otherCopy } from '../namespaces/calendar/choose.ts';
import { calendarRelease } from '../namespaces/calendar/where.ts';

export interface ObjectFilter<M> {
  /** Only these IDs, when the filter names them. */
  readonly ids: ReadonlySet<number> | null;
  /** Statuses let through (WordPress's, lower-case); null: any the subscriber can read but `excluded`. */
  readonly statuses: ReadonlySet<string> | null;
  /** With `statuses` null: statuses left out all the same (`ANY` leaves out trash and auto-draft). */
  readonly excluded: ReadonlySet<string> | null;
  /** True when the filter reads fields of the object beyond its ID and status. */
  readonly readsFields: boolean;
  /** Whether `m` passes every condition but the status (the caller checks that: a DELETED has none). */
  fields(ctx: Context, m: M): boolean | Promise<boolean>;
}

/** `PostStatus`/`PostListStatus` values as WordPress writes them: `AUTO_DRAFT` -> `auto-draft`. */
const wpStatus = (s: string) => s.toLowerCase().replace(/_/g, '-');

/** `where` fields an in-memory filter cannot answer, and why. */
const EVENT_REFUSED: Partial<Record<keyof EventsWhere, string>> = {
  search: "the site's text search cannot be applied to one event",
  near: 'an address is geocoded by the site',
  geolocation: 'the distance is computed by the site',
  relatedTo: 'the site decides which events are related',
  recurring: 'events do not say whether they recur',
  postParent: 'events do not carry their parent',
};

/**
 * Filters read from calendar-core/v1's copy of an event, with the parameter of
 * its events list each one is: where the site declares that parameter without
 * applying it (upstream/inert.ts), the copy's field says nothing either, and
 * the filter is refused as `events` refuses it.
 */
const CORE_ONLY: Readonly<Partial<Record<keyof EventsWhere, string>>> = {
  virtual: 'virtual',
  ticketed: 'ticketed',
  inSeries: 'in_series',
  seriesIds: 'series',
};

const given = (v: unknown) => v !== undefined && v !== null;

function refuse(field: string, why: string): never {
  throw GatewayError.badInput(
    `where.${field} cannot be used by a subscription: ${why}. Filter the events you receive instead.`,
    { arguments: [`where.${field}`] },
  );
}

/**
 * A DateTime argument as an instant (ms), widened to its site-local day unless `strict` (namespaces/calendar/where.ts
 * widen).
 */
function bound(site: SiteInfo, field: string, value: string, strict: boolean, startOfDay: boolean): number {
  const local = toSiteLocal(value, site.timezone);
  if (!local)
    throw GatewayError.badInput(`where.${field}: ${JSON.stringify(value)} is not a valid DateTime`, {
      arguments: [`where.${field}`],
    });
  const text = strict ? local : `${local.slice(0, 10)} ${startOfDay ? '00:00:00' : '23:59:59'}`;
  return DateTime.fromFormat(text, 'yyyy-MM-dd HH:mm:ss', { zone: luxonZone(site.timezone) ?? 'utc' }).toMillis();
}

const ms = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
};

/**
 * The other interface's copy of an event, for a field this one lacks: the calendar's one choice
 * (namespaces/calendar/choose.ts otherCopy).
 */
async function withField(ctx: Context, m: EventModel, key: keyof EventModel): Promise<EventModel> {
  if (m[key] !== undefined) return m;
  const iface = otherCopy(ctx.site, m, [key]);
  if (!iface) return m;
  return (await (iface === 'core' ? ctx.loaders.eventCore : ctx.loaders.eventLegacy).load(m.databaseId)) || m;
}

/** Category IDs given, with every descendant (a parent matches its children's events, as the lists do). */
async function withDescendants(ctx: Context, ids: readonly number[], slugs: readonly string[]): Promise<Set<number>> {
  const tree = await ctx.loaders.categoryTree();
  const out = new Set<number>(ids);
  for (const t of tree) if (t.slug && slugs.includes(t.slug)) out.add(t.databaseId);
  for (let grew = true; grew;) {
    grew = false;
    for (const t of tree) {
      if (!out.has(t.databaseId) && t.parentId && out.has(t.parentId)) {
        out.add(t.databaseId);
        grew = true;
      }
    }
  }
  return out;
}

function termIdsOf(m: EventModel, kind: 'categories' | 'tags'): { ids: number[]; slugs: string[] } {
  const terms: TermModel[] | undefined = m[kind];
  if (terms) return { ids: terms.map((t) => t.databaseId), slugs: terms.flatMap((t) => (t.slug ? [t.slug] : [])) };
  return { ids: (kind === 'categories' ? m.categoryIds : m.tagIds) ?? [], slugs: [] };
}

/**
 * `eventChanged(where:)`. Dates are whole days in the site's time zone unless `strictDates`, as in
 * `events`; categories match their descendants' events; the status defaults to published.
 */
export function eventFilter(site: SiteInfo, where: EventsWhere | null | undefined): ObjectFilter<EventModel> {
  const w = where ?? {};
  for (const [k, why] of Object.entries(EVENT_REFUSED)) if (given(w[k as keyof EventsWhere])) refuse(k, why);
  for (const [k, param] of Object.entries(CORE_ONLY)) {
    if (!given(w[k as keyof EventsWhere])) continue;
    if (!site.hasCore)
      throw GatewayError.badInput(`events: where.${k} needs calendar-core/v1, which this site does not offer`, {
        arguments: [`where.${k}`],
      });
    const inert = inertArg(site, 'GET', `/${CORE_NS}/events`, param);
    if (inert) {
      const release = calendarRelease(site);
      throw GatewayError.badInput(`events: where.${k} cannot be used on this site (${release}): ${inert.why}`, {
        arguments: [`where.${k}`],
        release,
      });
    }
  }
  const strict = w.strictDates === true;
  const checks: ((ctx: Context, m: EventModel) => boolean | Promise<boolean>)[] = [];
  const dates: [keyof EventsWhere, 'start' | 'end', (t: number, b: number) => boolean, boolean][] = [
    ['startDate', 'start', (t, b) => t >= b, true],
    ['endDate', 'end', (t, b) => t <= b, false],
    ['startsBefore', 'start', (t, b) => (strict ? t < b : t <= b), false],
    ['startsAfter', 'start', (t, b) => t > b, false],
    ['endsBefore', 'end', (t, b) => (strict ? t < b : t <= b), false],
    ['endsAfter', 'end', (t, b) => t > b, false],
  ];
  for (const [k, which, cmp, startOfDay] of dates) {
    const v = w[k];
    if (typeof v !== 'string') continue;
    const b = bound(site, k, v, strict, startOfDay);
    checks.push((_ctx, m) => {
      const t = ms(which === 'start' ? m.startDateUtc : m.endDateUtc);
      return t !== null && cmp(t, b);
    });
  }
  const cats = [...(w.categoryIds ?? [])];
  const catSlugs = [...(w.categorySlugs ?? [])];
  if (cats.length || catSlugs.length) {
    checks.push(async (ctx, m) => {
      const wanted = await withDescendants(ctx, cats, catSlugs);
      const own = termIdsOf(await withField(ctx, m, 'categories'), 'categories');
      return own.ids.some((id) => wanted.has(id));
    });
  }
  const tags = new Set(w.tagIds ?? []);
  const tagSlugs = new Set(w.tagSlugs ?? []);
  if (tags.size || tagSlugs.size) {
    checks.push(async (ctx, m) => {
      const own = termIdsOf(await withField(ctx, m, 'tags'), 'tags');
      return own.ids.some((id) => tags.has(id)) || own.slugs.some((s) => tagSlugs.has(s));
    });
  }
  const places = (key: 'venues' | 'organizers', ids: readonly number[] | null | undefined) => {
    if (!ids?.length) return;
    const set = new Set(ids);
    checks.push(async (ctx, m) => ((await withField(ctx, m, key))[key] ?? []).some((p) => set.has(p.databaseId)));
  };
  places('venues', w.venueIds);
  places('organizers', w.organizerIds);
  const flag = (k: 'featured' | 'ticketed' | 'virtual') => {
    const want = w[k];
    if (typeof want !== 'boolean') return;
    checks.push(async (ctx, m) => Boolean((await withField(ctx, m, k))[k]) === want);
  };
  flag('featured');
  flag('ticketed');
  flag('virtual');
  if (typeof w.hasGeolocation === 'boolean') {
    const want = w.hasGeolocation;
    checks.push(
      async (ctx, m) =>
        ((await withField(ctx, m, 'venues')).venues ?? []).some((v) => v.latitude != null && v.longitude != null) ===
        want,
    );
  }
  if (typeof w.inSeries === 'boolean') {
    const want = w.inSeries;
    checks.push(async (ctx, m) => Boolean((await withField(ctx, m, 'seriesId')).seriesId) === want);
  }
  if (w.seriesIds?.length) {
    const set = new Set(w.seriesIds);
    checks.push(async (ctx, m) => set.has((await withField(ctx, m, 'seriesId')).seriesId ?? 0));
  }
  return {
    ids: w.ids ? new Set(w.ids) : null,
    statuses: new Set((w.status ?? ['PUBLISH']).map(wpStatus)),
    excluded: null,
    readsFields: checks.length > 0,
    fields: (ctx, m) => all(checks, ctx, m),
  };
}

/** Every check, in order; synchronous while they are. */
function all<M>(
  checks: readonly ((ctx: Context, m: M) => boolean | Promise<boolean>)[],
  ctx: Context,
  m: M,
): boolean | Promise<boolean> {
  for (let i = 0; i < checks.length; i++) {
    const r = checks[i]!(ctx, m);
    if (r === false) return false;
    if (r !== true) {
      return r.then(async (ok) => {
        if (!ok) return false;
        for (const c of checks.slice(i + 1)) if (!(await c(ctx, m))) return false;
        return true;
      });
    }
  }
  return true;
}

/** Statuses `ANY` stands for: every status but trash and auto-draft (WordPress's `exclude_from_search`). */
const ANY_EXCLUDES = new Set(['trash', 'auto-draft']);

/** `postChanged(where:)`. */
export function postFilter(site: SiteInfo, where: PostChangesWhere | null | undefined): ObjectFilter<PostModel> {
  const w = where ?? {};
  if (w.categories?.includeChildren)
    refuse('categories.includeChildren', "the posts' category tree is not read by subscriptions");
  if (w.categoriesExclude?.includeChildren)
    refuse('categoriesExclude.includeChildren', "the posts' category tree is not read by subscriptions");
  const checks: ((ctx: Context, m: PostModel) => boolean)[] = [];
  const inList = <T>(values: readonly T[] | null | undefined, pick: (m: PostModel) => T | null, keep: boolean) => {
    if (!values?.length) return;
    const set = new Set(values);
    checks.push((_c, m) => {
      const v = pick(m);
      return (v !== null && set.has(v)) === keep;
    });
  };
  inList(w.exclude, (m) => m.databaseId, false);
  inList(w.author, (m) => m.authorId, true);
  inList(w.authorExclude, (m) => m.authorId, false);
  inList(w.slug, (m) => m.slug, true);
  inList(
    w.format?.map((f) => f.toLowerCase()),
    (m) => m.format || 'standard',
    true,
  );
  const terms = (
    f: { terms: readonly number[]; operator?: string | null } | null | undefined,
    own: (m: PostModel) => number[],
    keep: boolean,
  ) => {
    if (!f?.terms.length) return;
    const every = f.operator === 'AND';
    checks.push((_c, m) => {
      const mine = new Set(own(m));
      const hit = every ? f.terms.every((t) => mine.has(t)) : f.terms.some((t) => mine.has(t));
      return hit === keep;
    });
  };
  terms(w.categories, (m) => m.categoryIds, true);
  terms(w.categoriesExclude, (m) => m.categoryIds, false);
  terms(w.tags, (m) => m.tagIds, true);
  terms(w.tagsExclude?.length ? { terms: w.tagsExclude } : null, (m) => m.tagIds, false);
  if (typeof w.sticky === 'boolean') {
    const want = w.sticky;
    checks.push((_c, m) => Boolean(m.sticky) === want);
  }
  for (const [k, after] of [
    ['after', true],
    ['before', false],
  ] as const) {
    const v = w[k];
    if (typeof v !== 'string') continue;
    const local = toSiteLocal(v, site.timezone);
    if (!local)
      throw GatewayError.badInput(`where.${k}: ${JSON.stringify(v)} is not a valid DateTime`, {
        arguments: [`where.${k}`],
      });
    const b = DateTime.fromFormat(local, 'yyyy-MM-dd HH:mm:ss', { zone: luxonZone(site.timezone) ?? 'utc' }).toMillis();
    checks.push((_c, m) => {
      const t = ms(m.publishedAtUtc);
      return t !== null && (after ? t > b : t < b);
    });
  }
  const statuses = (w.status ?? ['PUBLISH']).map(wpStatus);
  return {
    ids: w.include?.length ? new Set(w.include) : null,
    // ANY: every status the subscriber can read but trash and auto-draft.
    statuses: statuses.includes('any') ? null : new Set(statuses),
    excluded: statuses.includes('any') ? ANY_EXCLUDES : null,
    readsFields: checks.length > 0,
    fields: (ctx, m) => checks.every((c) => c(ctx, m)),
  };
}

/** Whether a status passes a filter's statuses (`ANY` lets every status but trash and auto-draft through). */
export function statusPasses(filter: ObjectFilter<unknown>, status: string | null | undefined): boolean {
  const s = status ?? 'publish';
  return filter.statuses ? filter.statuses.has(s) : !filter.excluded?.has(s);
}

/** A filter for one object by ID, any status the subscriber can read. */
export function byId<M>(id: number): ObjectFilter<M> {
  return { ids: new Set([id]), statuses: null, excluded: null, readsFields: false, fields: () => true };
}
