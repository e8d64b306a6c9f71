/**
 * Every `where:` field of the calendar lists (events, venues, organizers,
 * categories, tags, series) and of posts, on every release shape the sandbox
 * acts as: each is either applied (sent to a list route that declares the
 * parameter, with no argument the route does not declare: the sandbox, like
 * WordPress, drops those without a word and records them) or refused with
 * BAD_USER_INPUT naming the argument. Never dropped. The expected outcome per
 * release is the table in docs/real-sites.md, "Filters by release".
 *
 * A field added to one of these input types without a case here fails the
 * "covers every field" test, so the walk stays complete.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema, isInputObjectType, type GraphQLSchema } from 'graphql';
import { undeclaredUses } from '../../packages/sandbox/src/requestlog.ts';
import { RELEASE_SHAPES, startHarness, type Harness, type ReleaseShape } from '../helpers/gateway.ts';

const SCHEMA_DIR = new URL('../../schema/', import.meta.url);
const schema: GraphQLSchema = buildSchema(
  readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => readFileSync(new URL(f, SCHEMA_DIR), 'utf8'))
    .join('\n'),
  { assumeValidSDL: true },
);

type Outcome = 'applied' | 'refused';
/** What a release does with a filter: applied everywhere, or refused on the releases listed. */
const everywhere = (): Outcome => 'applied';
const refusedOn =
  (...releases: ReleaseShape['release'][]) =>
  (s: ReleaseShape): Outcome =>
    releases.includes(s.release) ? 'refused' : 'applied';
/** calendar-core/v1 only, and only on releases whose list declares it (not 6.15). */
const coreUndeclaredOn615 = refusedOn('5.7', '6.15');

interface Sample {
  ids: {
    event: number;
    venue: number;
    organizer: number;
    category: number;
    categorySlug: string;
    tag: number;
    tagSlug: string;
    series: number | null;
  };
}

interface Case {
  /** The list field and its input type. */
  list: 'events' | 'venues' | 'organizers' | 'categories' | 'tags' | 'series' | 'posts';
  field: string;
  /** The `where:` value, as GraphQL text. */
  value: (s: Sample) => string;
  outcome: (shape: ReleaseShape) => Outcome;
}

const date = '"2027-03-01T00:00:00Z"';
type Value = (s: Sample) => string;
const lit =
  (text: string): Value =>
  () =>
    text;
const on =
  (list: Case['list']) =>
  (field: string, value: Value, outcome: Case['outcome']): Case => ({ list, field, value, outcome });
const ev = on('events');
const geo = lit('{ latitude: 48.85, longitude: 2.35, distance: 25 }');
/** The geographic place filters: venues only, and calendar-core/v1's (undeclared on 6.15). */
const venuesOnly = (list: 'venues' | 'organizers'): Case['outcome'] =>
  list === 'venues' ? coreUndeclaredOn615 : () => 'refused';
const termOf = (list: 'categories' | 'tags', s: Sample) => (list === 'categories' ? s.ids.category : s.ids.tag);

const CASES: Case[] = [
  // EventsWhere
  ev('startDate', lit(date), everywhere),
  ev('endDate', lit(date), everywhere),
  ev('startsBefore', lit(date), refusedOn('5.7')),
  ev('startsAfter', lit(date), refusedOn('5.7')),
  ev('endsBefore', lit(date), refusedOn('5.7')),
  ev('endsAfter', lit(date), refusedOn('5.7')),
  ev('strictDates', lit('true'), refusedOn('5.7')),
  ev('search', lit('"Harbor"'), everywhere),
  ev('categoryIds', (s) => `[${s.ids.category}]`, everywhere),
  ev('categorySlugs', (s) => `["${s.ids.categorySlug}"]`, everywhere),
  ev('tagIds', (s) => `[${s.ids.tag}]`, everywhere),
  ev('tagSlugs', (s) => `["${s.ids.tagSlug}"]`, everywhere),
  ev('venueIds', (s) => `[${s.ids.venue}]`, everywhere),
  ev('organizerIds', (s) => `[${s.ids.organizer}]`, everywhere),
  ev('featured', lit('true'), everywhere),
  ev('status', lit('[DRAFT]'), everywhere),
  ev('postParent', lit('0'), refusedOn('5.7')),
  ev('ids', (s) => `[${s.ids.event}]`, everywhere),
  // Declared from 6.0 on, but applied only with Event Tickets, which none of these shapes has (tickets.test.ts).
  ev('ticketed', lit('true'), () => 'refused'),
  // The legacy list leaves geoloc to Events Calendar Pro, which the index cannot show: only a
  // calendar-core list that declares has_geoloc applies it.
  ev('hasGeolocation', lit('true'), coreUndeclaredOn615),
  ev('geolocation', geo, coreUndeclaredOn615),
  ev('near', lit('"Paris"'), coreUndeclaredOn615),
  ev('inSeries', lit('true'), coreUndeclaredOn615),
  ev('seriesIds', (s) => `[${s.ids.series ?? 1}]`, coreUndeclaredOn615),
  ev('relatedTo', (s) => String(s.ids.event), coreUndeclaredOn615),
  ev('recurring', lit('true'), coreUndeclaredOn615),
  ev('virtual', lit('true'), coreUndeclaredOn615),
  // PlacesWhere, on venues and on organizers
  ...(['venues', 'organizers'] as const).flatMap((list) => [
    on(list)('search', lit('"a"'), everywhere),
    on(list)('event', (s) => String(s.ids.event), everywhere),
    on(list)('hasEvents', lit('true'), everywhere),
    on(list)('onlyWithUpcoming', lit('true'), everywhere),
    on(list)('status', lit('[DRAFT]'), everywhere),
    on(list)('hasGeolocation', lit('true'), venuesOnly(list)),
    on(list)('geolocation', geo, venuesOnly(list)),
    on(list)('near', lit('"Paris"'), venuesOnly(list)),
  ]),
  // TermsWhere (the legacy term archives, on every release)
  ...(['categories', 'tags'] as const).flatMap((list) => [
    on(list)('search', lit('"a"'), everywhere),
    on(list)('ids', (s) => `[${termOf(list, s)}]`, everywhere),
    on(list)('excludeIds', (s) => `[${termOf(list, s)}]`, everywhere),
    on(list)('hideEmpty', lit('false'), everywhere),
    on(list)('parent', lit('0'), list === 'categories' ? everywhere : () => 'refused'),
    on(list)('event', (s) => String(s.ids.event), everywhere),
    on(list)('slug', (s) => `"${list === 'categories' ? s.ids.categorySlug : s.ids.tagSlug}"`, everywhere),
  ]),
  // SeriesWhere (calendar-core/v1 only)
  on('series')('eventIds', (s) => `[${s.ids.event}]`, refusedOn('5.7')),
  on('series')('search', lit('"a"'), refusedOn('5.7')),
  on('series')('status', lit('[DRAFT]'), refusedOn('5.7')),
  on('series')('ticketed', lit('false'), () => 'refused'),
];

/** PostsWhere: core/v2 is the same on every release; each field is applied or refused, never dropped. */
const POSTS: Record<string, string> = {
  search: '"hello"',
  searchSemantics: 'EXACT',
  searchColumns: '[POST_TITLE]',
  after: date,
  before: date,
  modifiedAfter: date,
  modifiedBefore: date,
  author: '[1]',
  authorExclude: '[1]',
  include: '[1]',
  exclude: '[1]',
  slug: '["hello"]',
  status: '[PUBLISH]',
  offset: '1',
  taxRelation: 'AND',
  categories: '{ terms: [1] }',
  categoriesExclude: '{ terms: [1] }',
  tags: '{ terms: [1] }',
  tagsExclude: '[1]',
  sticky: 'true',
  format: '[STANDARD]',
};

const INPUTS: Record<Case['list'], string> = {
  events: 'EventsWhere',
  venues: 'PlacesWhere',
  organizers: 'PlacesWhere',
  categories: 'TermsWhere',
  tags: 'TermsWhere',
  series: 'SeriesWhere',
  posts: 'PostsWhere',
};

/** The fields of an input type in the schema. */
function inputFields(name: string): string[] {
  const t = schema.getType(name);
  if (!isInputObjectType(t)) throw new Error(`${name} is not an input type`);
  return Object.keys(t.getFields());
}

describe('the walk covers every where: field', () => {
  it.each(Object.entries(INPUTS))('%s (%s)', (list, input) => {
    const covered = list === 'posts' ? Object.keys(POSTS) : CASES.filter((c) => c.list === list).map((c) => c.field);
    expect(covered.sort()).toEqual(inputFields(input).sort());
  });
});

/** The selection of a list: what the list's nodes are asked for. */
const NODES: Record<Case['list'], string> = {
  events: 'databaseId title',
  venues: 'databaseId title',
  organizers: 'databaseId title',
  categories: 'databaseId name',
  tags: 'databaseId name',
  series: 'databaseId title',
  posts: 'databaseId title',
};

describe.each(RELEASE_SHAPES)('where: fields on $shape: applied or refused, never dropped', (shape) => {
  let h: Harness;
  let sample: Sample;
  beforeAll(async () => {
    h = await startHarness({ sandbox: shape.sandbox });
    const r = await h.gql(
      `{ events(first: 100) { nodes { databaseId venues { databaseId } organizers { databaseId } categories { databaseId slug } tags { databaseId slug } } } }`,
      undefined,
      'admin',
    );
    expect(r.errors).toBeUndefined();
    const e = (r.data.events.nodes as any[]).find(
      (n) => n.venues.length && n.organizers.length && n.categories.length && n.tags.length,
    );
    const series = shape.hasCore
      ? await h.gql(`{ series(first: 1) { nodes { databaseId } } }`, undefined, 'admin')
      : null;
    sample = {
      ids: {
        event: e.databaseId,
        venue: e.venues[0].databaseId,
        organizer: e.organizers[0].databaseId,
        category: e.categories[0].databaseId,
        categorySlug: e.categories[0].slug,
        tag: e.tags[0].databaseId,
        tagSlug: e.tags[0].slug,
        series: series?.data?.series?.nodes?.[0]?.databaseId ?? null,
      },
    };
  });
  afterAll(() => h.close());

  async function run(list: Case['list'], field: string, value: string) {
    h.mark();
    const r = await h.gql(
      `{ ${list}(first: 5, where: { ${field}: ${value} }) { nodes { ${NODES[list]} } } }`,
      undefined,
      'admin',
    );
    return { r, calls: h.calls() };
  }

  it.each(CASES.map((c) => [`${c.list} ${c.field}`, c] as const))('%s', async (_name, c) => {
    const { r, calls } = await run(c.list, c.field, c.value(sample));
    const expected = c.outcome(shape);
    const sent = calls.filter((e) => e.agent?.startsWith('sitegraph'));
    // Never dropped: no request of this operation carried an argument its route does not declare.
    expect(sent.flatMap(undeclaredUses), `${c.list} ${c.field}`).toEqual([]);
    if (expected === 'refused') {
      expect(r.errors?.[0]?.extensions?.code, JSON.stringify(r.errors)).toMatch(
        /^(BAD_USER_INPUT|NAMESPACE_UNAVAILABLE)$/,
      );
      if (r.errors![0]!.extensions!.code === 'BAD_USER_INPUT')
        expect(JSON.stringify(r.errors![0]!.extensions!.arguments)).toContain(`where.${c.field}`);
      expect(sent, 'a refused filter sends nothing').toEqual([]);
    } else {
      expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
      expect(sent.length).toBeGreaterThan(0);
    }
  });

  it.each(Object.entries(POSTS))('posts %s', async (field, value) => {
    const { r, calls } = await run('posts', field, value);
    const sent = calls.filter((e) => e.agent?.startsWith('sitegraph'));
    expect(sent.flatMap(undeclaredUses)).toEqual([]);
    if (r.errors) expect(r.errors[0]!.extensions!.code).toBe('BAD_USER_INPUT');
    else expect(sent.length).toBeGreaterThan(0);
  });
});
