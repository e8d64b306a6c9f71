/**
 * What a query on the compatible graph costs the site, against the main graph's equivalent: for each workload, the
 * compatible graph's query and the main graph's query for the same items in the same order, each run on its own
 * gateway in front of one sandbox (so neither benefits from list totals the other learnt), twice (the first run of a
 * list, then a repeat, which knows the list's total). Both answers must be whole (no errors) and hold the same IDs in
 * the same order, and the compatible graph's site requests must be no more than the main graph's, on a site with
 * calendar-core (TEC 6.15) and one without (TEC 5.7). `SITEGRAPH_COST_TABLE=1` prints the counts and the requests.
 *
 * Where the main graph cannot order a list as WPGraphQL does (no `orderBy` without calendar-core; venues and
 * organizers take none at all), the refusal is asserted, and the equivalent is what a main-graph client does for the
 * same answer: read the filtered list whole (every page, `first: 500` or `first: 100`, whichever costs less) and
 * order it itself.
 *
 * One answer is wider on the compatible graph: a password-protected event's terms, which calendar-core masks and the
 * main graph leaves masked, come from the event's legacy copy. That read (one `include=` batch of exactly those
 * events, when no other field reads their legacy copies) is named and set apart; every other request is counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import { startGateway, type Gateway } from '../../src/server.ts';
import { RELEASE_SHAPES, startHarness, type Harness } from '../helpers/gateway.ts';

type Data = any;
type Vars = Record<string, unknown>;
/** A site request, as the sandbox logged it. */
type Logged = { path: string; query: Record<string, unknown> };

/** The items of an answer, in order: IDs, or lists of IDs for nested lists (an event's venue and organizers). */
type Ids = unknown;

interface Seeds {
  postSlug: string;
  postUri: string;
  eventSlug: string;
  eventUri: string;
  /** A day (`{year, month, day}`) inside the seeded events' span. */
  day: { year: number; month: number; day: number };
  /** An event category with events, and with a child category if the site has one. */
  category: number;
}

/**
 * A main-graph side: one query whose answer `ids` reads, or (`whole`) a list read page by page (`$first`, `$after`),
 * whose nodes `ids` then orders and cuts as WPGraphQL would.
 */
interface MainSide {
  query: string;
  whole?: (d: Data) => { nodes: Data[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
  ids: (d: Data) => Ids;
}

interface Pair {
  name: string;
  vars?: (s: Seeds) => Vars;
  wp: string;
  wpIds: (d: Data) => Ids;
  /** The main graph's equivalent; `whole` where it cannot order the list on this shape. */
  main: (hasCore: boolean, seeds: Seeds) => MainSide;
  /** The main graph's ordered query, refused (BAD_USER_INPUT) on a site without calendar-core. */
  refusedWithoutCore?: string;
  /** A query run first on both graphs, uncounted (the first page, whose end cursor the counted query pages after). */
  before?: { wp: string; main: string; wpCursor: (d: Data) => string; mainCursor: (d: Data) => string };
}

const ids = (nodes: { databaseId: number }[]) => nodes.map((n) => n.databaseId);

/** WPGraphQL's default order: publication date, newest first, ties by ID in the same direction. */
const newestFirst = (key: string) => (a: any, b: any) =>
  String(b[key]).localeCompare(String(a[key])) || b.databaseId - a.databaseId;
/** WordPress's title order (case-insensitive collation), ties by ID. */
const byTitle = (a: any, b: any) =>
  String(a.title).localeCompare(String(b.title), 'en', { sensitivity: 'base' }) || a.databaseId - b.databaseId;

/** What a front end's event list shows: the event, its venue, organizers and terms. */
const EVENT_WP = `databaseId title date uri startDate venue { databaseId title city } organizers { nodes { databaseId title } }
  eventsCategories { nodes { databaseId name } } tags { nodes { databaseId name } }`;
const EVENT_MAIN = `databaseId title publishedAtUtc url startDate passwordProtected venues { databaseId title city }
  organizers { databaseId title publishedAtUtc } categories { databaseId name } tags { databaseId name }`;
/** Fields only the legacy interface serves (a calendar-core list reads them from the events' legacy copies). */
const LEGACY_WP = 'cost url featuredImage { node { sourceUrl } }';
const LEGACY_MAIN = 'cost website featuredImage { url }';

/** A password-protected event's terms: masked on the main graph, read from the legacy copy here; not compared. */
const MASKED = 'masked';
/** An event's own ID, its venue's, its organizers' (in WPGraphQL's order) and its terms' from either graph. */
const eventWp = (e: Data) => [
  e.databaseId,
  e.venue?.databaseId ?? null,
  ids(e.organizers.nodes),
  ids(e.eventsCategories.nodes),
  ids(e.tags.nodes),
];
const eventMain = (e: Data) => [
  e.databaseId,
  e.venues[0]?.databaseId ?? null,
  ids([...e.organizers].sort(newestFirst('publishedAtUtc'))),
  e.passwordProtected ? MASKED : ids(e.categories),
  e.passwordProtected ? MASKED : ids(e.tags),
];

/** The IDs of the events whose terms `main` marks MASKED (event tuples, at any depth). */
function maskedEvents(ids: Ids): number[] {
  if (!Array.isArray(ids)) return [];
  if (ids[3] === MASKED) return [ids[0] as number];
  return ids.flatMap(maskedEvents);
}

/** `wp` with what `main` marks MASKED masked too. */
function masked(wp: Ids, main: Ids): Ids {
  if (main === MASKED) return MASKED;
  if (Array.isArray(wp) && Array.isArray(main)) return wp.map((x, i) => masked(x, main[i]));
  return wp;
}

/** The main graph's events in WPGraphQL's order: calendar-core's ordered list, or the whole list ordered here. */
function eventsMain(
  hasCore: boolean,
  where: string,
  order: { field: 'PUBLISHED_AT' | 'TITLE'; direction: 'ASC' | 'DESC' },
  sort: (a: any, b: any) => number,
  /** Variable definitions `where` uses, e.g. `$from: DateTime`. */
  defs = '',
  fields = EVENT_MAIN,
): MainSide {
  if (hasCore)
    return {
      query: `query${defs ? `(${defs})` : ''} { events(first: 10, ${where} orderBy: { field: ${order.field}, direction: ${order.direction} }) { nodes { ${fields} } } }`,
      ids: (d) => d.events.nodes.map(eventMain),
    };
  return {
    query: `query($first: Int, $after: String${defs ? `, ${defs}` : ''}) { events(first: $first, after: $after, ${where}) { nodes { ${fields} } pageInfo { hasNextPage endCursor } } }`,
    whole: (d) => d.events,
    ids: (nodes: Data[]) => [...nodes].sort(sort).slice(0, 10).map(eventMain),
  };
}

/** The main graph's venues or organizers in WPGraphQL's order (the main graph's lists take no order). */
function placesMain(kind: 'venues' | 'organizers', skip = 0): MainSide {
  return {
    query: `query($first: Int, $after: String) { ${kind}(first: $first, after: $after) { nodes { databaseId title publishedAtUtc } pageInfo { hasNextPage endCursor } } }`,
    whole: (d) => d[kind],
    ids: (nodes: Data[]) => ids([...nodes].sort(newestFirst('publishedAtUtc')).slice(skip, skip + 10)),
  };
}

/** The main graph has no post by slug or URI: its posts list filtered by the slug. */
const postBySlug = (fields: string): MainSide => ({
  query: `query($slug: String!) { posts(first: 1, where: { slug: [$slug] }) { nodes { ${fields} } } }`,
  ids: (d) => ids(d.posts.nodes),
});
/** The main graph has no node by URI: an event's URI is its slug. */
const eventBySlug = (fields: string): MainSide => ({
  query: `query($slug: ID!) { event(id: $slug, idType: SLUG) { ${fields} } }`,
  ids: (d) => eventMain(d.event),
});

const PAIRS: Pair[] = [
  {
    name: 'posts, first 10, with title and author',
    wp: '{ posts(first: 10) { nodes { databaseId title author { node { databaseId name } } } } }',
    wpIds: (d) => d.posts.nodes.map((p: Data) => [p.databaseId, p.author.node.databaseId]),
    main: () => ({
      query: '{ posts(first: 10) { nodes { databaseId title authorId categoryIds } } }',
      ids: (d) => d.posts.nodes.map((p: Data) => [p.databaseId, p.authorId]),
    }),
  },
  {
    name: 'post by slug',
    vars: (s) => ({ slug: s.postSlug }),
    wp: 'query($slug: ID!) { post(id: $slug, idType: SLUG) { databaseId title uri content } }',
    wpIds: (d) => [d.post.databaseId],
    main: () => postBySlug('databaseId title url content'),
  },
  {
    name: 'event by slug, with venue and organizers',
    vars: (s) => ({ slug: s.eventSlug }),
    wp: `query($slug: ID!) { event(id: $slug, idType: SLUG) { ${EVENT_WP} ${LEGACY_WP} endDate } }`,
    wpIds: (d) => eventWp(d.event),
    main: () => eventBySlug(`${EVENT_MAIN} ${LEGACY_MAIN} endDate`),
  },
  {
    name: 'events, first 10, default order (newest publication first)',
    wp: `{ events(first: 10) { nodes { ${EVENT_WP} } } }`,
    wpIds: (d) => d.events.nodes.map(eventWp),
    main: (core) => eventsMain(core, '', { field: 'PUBLISHED_AT', direction: 'DESC' }, newestFirst('publishedAtUtc')),
    refusedWithoutCore:
      '{ events(first: 10, orderBy: { field: PUBLISHED_AT, direction: DESC }) { nodes { databaseId } } }',
  },
  {
    name: 'events, first 10, default order, with fields only the legacy interface has',
    wp: `{ events(first: 10) { nodes { ${EVENT_WP} ${LEGACY_WP} } } }`,
    wpIds: (d) => d.events.nodes.map(eventWp),
    main: (core) =>
      eventsMain(
        core,
        '',
        { field: 'PUBLISHED_AT', direction: 'DESC' },
        newestFirst('publishedAtUtc'),
        '',
        `${EVENT_MAIN} ${LEGACY_MAIN}`,
      ),
  },
  {
    name: 'events starting on or after a day (startDateQuery), default order',
    vars: (s) => ({ day: s.day, from: isoDay(s.day) }),
    wp: `query($day: DateInput) { events(first: 10, where: { startDateQuery: { after: $day, inclusive: true } }) { nodes { ${EVENT_WP} } } }`,
    wpIds: (d) => d.events.nodes.map(eventWp),
    main: (core) =>
      eventsMain(
        core,
        'where: { startDate: $from },',
        { field: 'PUBLISHED_AT', direction: 'DESC' },
        newestFirst('publishedAtUtc'),
        '$from: DateTime',
      ),
    refusedWithoutCore:
      '{ events(first: 10, where: { startDate: "2026-01-01T00:00:00" }, orderBy: { field: PUBLISHED_AT, direction: DESC }) { nodes { databaseId } } }',
  },
  {
    name: 'events ordered by TITLE',
    wp: `{ events(first: 10, where: { orderby: [{ field: TITLE, order: ASC }] }) { nodes { ${EVENT_WP} } } }`,
    wpIds: (d) => d.events.nodes.map(eventWp),
    main: (core) => eventsMain(core, '', { field: 'TITLE', direction: 'ASC' }, byTitle),
    refusedWithoutCore: '{ events(first: 10, orderBy: { field: TITLE, direction: ASC }) { nodes { databaseId } } }',
  },
  {
    // WPGraphQL's tax_query leaves the category's children out; the main graph's `categoryIds` takes them in (the
    // calendar's filter does), so its client keeps the events filed under the category itself.
    name: "an events category's events, default order",
    vars: (s) => ({ cat: s.category, catId: String(s.category) }),
    wp: `query($cat: ID!) { eventsCategory(id: $cat, idType: DATABASE_ID) { events(first: 10) { nodes { ${EVENT_WP} } } } }`,
    wpIds: (d) => d.eventsCategory.events.nodes.map(eventWp),
    main: (_core, seeds) => ({
      // The category itself too, as the compatible query reads it, once (its first page).
      query: `query($first: Int, $after: String, $cat: Int!, $catId: ID!, $paged: Boolean = false) { category(id: $catId, idType: DATABASE_ID) @skip(if: $paged) { databaseId } events(first: $first, after: $after, where: { categoryIds: [$cat] }) { nodes { ${EVENT_MAIN.replace(' passwordProtected', '')} } pageInfo { hasNextPage endCursor } } }`,
      whole: (d) => d.events,
      ids: (nodes: Data[]) =>
        nodes
          .filter((n) => n.categories.some((c: Data) => c.databaseId === seeds.category))
          .sort(newestFirst('publishedAtUtc'))
          .slice(0, 10)
          .map(eventMain),
    }),
  },
  {
    name: 'venues, first 10',
    wp: '{ venues(first: 10) { nodes { databaseId title date city } } }',
    wpIds: (d) => ids(d.venues.nodes),
    main: () => placesMain('venues'),
  },
  {
    name: 'organizers, first 10',
    wp: '{ organizers(first: 10) { nodes { databaseId title date email } } }',
    wpIds: (d) => ids(d.organizers.nodes),
    main: () => placesMain('organizers'),
  },
  {
    name: 'eventsCategories',
    wp: '{ eventsCategories(first: 10) { nodes { databaseId name slug count } } }',
    wpIds: (d) => ids(d.eventsCategories.nodes),
    main: () => ({
      query: '{ categories(first: 10, where: { hideEmpty: false }) { nodes { databaseId name slug count } } }',
      ids: (d) => ids(d.categories.nodes),
    }),
  },
  {
    name: 'tags',
    wp: '{ tags(first: 10) { nodes { databaseId name slug count } } }',
    wpIds: (d) => ids(d.tags.nodes),
    main: () => ({
      query: '{ tags(first: 10, where: { hideEmpty: false }) { nodes { databaseId name slug count } } }',
      ids: (d) => ids(d.tags.nodes),
    }),
  },
  {
    name: 'nodeByUri of a post',
    vars: (s) => ({ uri: s.postUri, slug: s.postSlug }),
    wp: 'query($uri: String!) { nodeByUri(uri: $uri) { __typename ... on Post { databaseId title content } } }',
    wpIds: (d) => [d.nodeByUri.databaseId],
    main: () => postBySlug('databaseId title content'),
  },
  {
    name: 'nodeByUri of an event',
    vars: (s) => ({ uri: s.eventUri, slug: s.eventSlug }),
    wp: `query($uri: String!) { nodeByUri(uri: $uri) { __typename ... on Event { ${EVENT_WP} } } }`,
    wpIds: (d) => eventWp(d.nodeByUri),
    main: () => eventBySlug(EVENT_MAIN),
  },
  {
    name: 'posts, second page (after:)',
    before: {
      wp: '{ posts(first: 10) { pageInfo { endCursor } } }',
      main: '{ posts(first: 10) { pageInfo { endCursor } } }',
      wpCursor: (d) => d.posts.pageInfo.endCursor,
      mainCursor: (d) => d.posts.pageInfo.endCursor,
    },
    wp: 'query($after: String) { posts(first: 10, after: $after) { nodes { databaseId title } } }',
    wpIds: (d) => ids(d.posts.nodes),
    main: () => ({
      query: 'query($after: String) { posts(first: 10, after: $after) { nodes { databaseId title } } }',
      ids: (d) => ids(d.posts.nodes),
    }),
  },
  {
    name: 'events, default order, second page (after:)',
    before: {
      wp: '{ events(first: 10) { pageInfo { endCursor } } }',
      main: '{ events(first: 10, orderBy: { field: PUBLISHED_AT, direction: DESC }) { pageInfo { endCursor } } }',
      wpCursor: (d) => d.events.pageInfo.endCursor,
      mainCursor: (d) => d.events.pageInfo.endCursor,
    },
    wp: `query($after: String) { events(first: 10, after: $after) { nodes { ${EVENT_WP} } } }`,
    wpIds: (d) => d.events.nodes.map(eventWp),
    main: (core) =>
      core
        ? {
            query: `query($after: String) { events(first: 10, after: $after, orderBy: { field: PUBLISHED_AT, direction: DESC }) { nodes { ${EVENT_MAIN} } } }`,
            ids: (d) => d.events.nodes.map(eventMain),
          }
        : {
            query: `query($first: Int, $after: String) { events(first: $first, after: $after) { nodes { ${EVENT_MAIN} } pageInfo { hasNextPage endCursor } } }`,
            whole: (d) => d.events,
            ids: (nodes: Data[]) => [...nodes].sort(newestFirst('publishedAtUtc')).slice(10, 20).map(eventMain),
          },
  },
  {
    name: 'venues, second page (after:)',
    before: {
      wp: '{ venues(first: 10) { pageInfo { endCursor } } }',
      main: '',
      wpCursor: (d) => d.venues.pageInfo.endCursor,
      mainCursor: () => '',
    },
    wp: 'query($after: String) { venues(first: 10, after: $after) { nodes { databaseId title } } }',
    wpIds: (d) => ids(d.venues.nodes),
    main: () => placesMain('venues', 10),
  },
];

const isoDay = (d: Seeds['day']) =>
  `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}T00:00:00`;

const SHAPES = RELEASE_SHAPES.filter((s) => s.names === 'spec' && (s.release === '6.15' || s.release === '5.7'));

describe.each(SHAPES)('site requests: compatible graph against the main graph ($shape)', ({ sandbox, hasCore }) => {
  let h: Harness;
  /** A second gateway in front of the same sandbox, for the compatible graph: its own list totals. */
  let wpGateway: Gateway;
  let seeds: Seeds;
  const counts: string[] = [];

  beforeAll(async () => {
    // The site's index is read again in the background every 15 s by default: not within a counted operation here.
    const admin = { readinessRefreshSeconds: 3_600 };
    h = await startHarness({ sandbox, config: { admin } });
    wpGateway = await startGateway(parseConfig({ port: 0, cache: { ttlSeconds: 0 }, admin }), h.sandbox.url);
    // Seeds read through a third reader (the sandbox's own answers through the main graph's gateway), before counting.
    const e = await h.gql(
      '{ events(first: 100) { nodes { slug url startDate venues { databaseId } organizers { databaseId } } } posts(first: 1) { nodes { slug url } } categories(first: 100, where: { hideEmpty: true }) { nodes { databaseId parent { databaseId } count } } }',
    );
    expect(e.errors).toBeUndefined();
    const ev = e.data.events.nodes.find((n: Data) => n.venues.length && n.organizers.length > 1);
    const post = e.data.posts.nodes[0];
    const start = String(e.data.events.nodes[40].startDate);
    const cats: Data[] = e.data.categories.nodes;
    const parent = cats.find((c) => cats.some((k) => k.parent?.databaseId === c.databaseId)) ?? cats[0];
    seeds = {
      postSlug: post.slug,
      postUri: new URL(post.url).pathname,
      eventSlug: ev.slug,
      eventUri: new URL(ev.url).pathname,
      day: { year: Number(start.slice(0, 4)), month: Number(start.slice(5, 7)), day: Number(start.slice(8, 10)) },
      category: parent.databaseId,
    };
  });
  afterAll(async () => {
    if (process.env.SITEGRAPH_COST_TABLE) console.log(counts.join('\n'));
    await wpGateway?.close();
    await h?.close();
  });

  /** One operation on a graph, with the site requests it cost. */
  async function run(
    graph: 'wp' | 'main',
    query: string,
    variables: Vars = {},
  ): Promise<{ data: Data; calls: number; log: Logged[] }> {
    const url = graph === 'wp' ? new URL('/wpgraphql', wpGateway.url).href : h.gateway.url;
    h.mark();
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data: Data; errors?: unknown[] };
    expect(body.errors, `${graph}: ${query}`).toBeUndefined();
    const calls = h.calls();
    if (process.env.SITEGRAPH_COST_TABLE)
      counts.push(
        `  ${graph}: ${calls.map((c) => `${c.path}?${new URLSearchParams(c.query as Record<string, string>)}`).join(' ')}`,
      );
    return { data: body.data, calls: calls.length, log: calls };
  }

  /** The main graph's side: one query, or every page of a list, then ordered by the client. */
  async function runMain(side: MainSide, variables: Vars): Promise<{ ids: Ids; calls: number }> {
    if (!side.whole) {
      const r = await run('main', side.query, variables);
      return { ids: side.ids(r.data), calls: r.calls };
    }
    // The main graph's largest page first, then WPGraphQL's (which then knows the list's total): the cheaper counts.
    let best: { ids: Ids; calls: number } | null = null;
    for (const first of [500, 100]) {
      const nodes: Data[] = [];
      let calls = 0;
      let after: string | null = null;
      for (;;) {
        // `$paged`: true past the first page, for a side that reads something once beside its list.
        const r = await run('main', side.query, { ...variables, first, after, paged: after !== null });
        const page = side.whole(r.data);
        nodes.push(...page.nodes);
        calls += r.calls;
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      const found = side.ids(nodes);
      if (best) expect(found, 'the same items whatever the page size').toEqual(best.ids);
      if (!best || calls < best.calls) best = { ids: found, calls };
    }
    return best!;
  }

  it.each(PAIRS)('$name', async (pair) => {
    const vars = pair.vars?.(seeds) ?? {};
    const wpVars = { ...vars };
    const mainVars = { ...vars };
    if (pair.before) {
      wpVars.after = pair.before.wpCursor((await run('wp', pair.before.wp)).data);
      // A list the main graph reads whole on this shape needs no cursor of its own.
      if (!pair.main(hasCore, seeds).whole)
        mainVars.after = pair.before.mainCursor((await run('main', pair.before.main)).data);
    }
    if (pair.refusedWithoutCore && !hasCore) {
      const r = await h.gql(pair.refusedWithoutCore);
      expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['orderBy'] });
    }
    const side = pair.main(hasCore, seeds);
    // The first run of each list on each gateway, then a repeat (which knows the list's total).
    for (const round of ['first', 'repeat']) {
      const wp = await run('wp', pair.wp, wpVars);
      const main = await runMain(side, mainVars);
      const wpIds = pair.wpIds(wp.data);
      expect(masked(wpIds, main.ids), 'the same items').toEqual(main.ids);
      expect(Array.isArray(wpIds) && wpIds.length > 0, 'a non-empty answer').toBe(true);
      // The one request for data the main graph does not answer: the legacy copies of the page's password-protected
      // events (only their legacy copies list their terms), when nothing else reads those copies.
      const hidden = maskedEvents(main.ids);
      const unmasking = wp.log.filter(
        (c) =>
          hidden.length > 0 &&
          c.path === '/calendar/events/v1/events' &&
          String(c.query.include ?? '')
            .split(',')
            .map(Number)
            .sort((a, b) => a - b)
            .join() === [...hidden].sort((a, b) => a - b).join(),
      ).length;
      expect(unmasking, 'one batch at most').toBeLessThanOrEqual(1);
      counts.push(`${pair.name} | ${round} | wp ${wp.calls} (${unmasking} unmasking) | main ${main.calls}`);
      expect
        .soft(wp.calls - unmasking, `${round}: compatible graph's site requests against the main graph's`)
        .toBeLessThanOrEqual(main.calls);
    }
  });

  it("a post's categories on a site without core/v2 categories are refused before anything is sent", async () => {
    const r = await h.gql('{ __typename }');
    expect(r.errors).toBeUndefined();
    h.mark();
    const res = await fetch(new URL('/wpgraphql', wpGateway.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: '{ posts(first: 10) { nodes { databaseId categories { nodes { databaseId } } } } }',
      }),
    });
    const body = (await res.json()) as { errors?: { extensions?: Record<string, unknown> }[] };
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'NAMESPACE_UNAVAILABLE' });
    // The posts' page only: the categories' route is refused by the session's gate, not asked.
    expect(h.calls().map((c) => c.path)).toEqual(['/core/v2/posts']);
  });
});
