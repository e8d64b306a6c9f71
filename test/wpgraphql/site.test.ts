/**
 * The compatible graph's site-wide fields and date queries on the sandbox: what the contract's routes give (the
 * index's title and address, the posts' `dateQuery` as the list's `after`/`before`), and what they do not (pages,
 * media, users, settings, types: WordPress's own core/v2 routes, which the sandbox does not serve) refused by the
 * route gate, naming the route, before anything is sent. On real WordPress they are compared with WPGraphQL itself
 * (test/real/wpgraphql.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphQLEnumType } from 'graphql';
import { createWpGraphqlSchema } from '../../src/wpgraphql/schema.ts';
import { startWpHarness, type WpHarness } from './harness.ts';

let h: WpHarness;
beforeAll(async () => {
  h = await startWpHarness();
});
afterAll(() => h.close());

interface Dated {
  databaseId: number;
  date: string;
}

/** Every published post with its date (an editor sees a password-protected post's date too). */
async function allPosts(): Promise<Dated[]> {
  const r = await h.gql('{ posts(first: 100) { nodes { databaseId date } } }', undefined, undefined, 'admin');
  expect(r.errors).toBeUndefined();
  return r.data.posts.nodes;
}

async function ids(dateQuery: string): Promise<number[]> {
  const r = await h.gql(
    `{ posts(first: 100, where: { dateQuery: ${dateQuery} }) { nodes { databaseId } } }`,
    undefined,
    undefined,
    'admin',
  );
  expect(r.errors).toBeUndefined();
  return r.data.posts.nodes.map((n: { databaseId: number }) => n.databaseId).sort((a: number, b: number) => a - b);
}

const sorted = (xs: Dated[]) => xs.map((p) => p.databaseId).sort((a, b) => a - b);

describe('posts by dateQuery', () => {
  it('a day, after it, before it and inclusive: the posts whose local date matches, as WordPress compares post_date', async () => {
    const posts = await allPosts();
    // A day some post was published on, with posts before and after it.
    const days = [...new Set(posts.map((p) => p.date.slice(0, 10)))].sort();
    expect(days.length).toBeGreaterThan(2);
    const day = days[Math.floor(days.length / 2)]!;
    const [y, m, d] = day.split('-').map(Number);
    const on = { year: y, month: m, day: d };
    const input = `{ year: ${on.year}, month: ${on.month}, day: ${on.day} }`;
    const onDay = posts.filter((p) => p.date.startsWith(day));
    expect(onDay.length).toBeGreaterThan(0);
    expect(await ids(input)).toEqual(sorted(onDay));
    expect(await ids(`{ after: ${input} }`)).toEqual(sorted(posts.filter((p) => p.date.slice(0, 10) > day)));
    expect(await ids(`{ after: ${input}, inclusive: true }`)).toEqual(
      sorted(posts.filter((p) => p.date.slice(0, 10) >= day)),
    );
    expect(await ids(`{ before: ${input} }`)).toEqual(sorted(posts.filter((p) => p.date.slice(0, 10) < day)));
    const month = day.slice(0, 7);
    expect(await ids(`{ year: ${on.year}, month: ${on.month} }`)).toEqual(
      sorted(posts.filter((p) => p.date.startsWith(month))),
    );
  });

  it('a part of a date query the list cannot apply is refused, naming it', async () => {
    const r = await h.gql('{ posts(where: { dateQuery: { year: 2025, hour: 10 } }) { nodes { databaseId } } }');
    expect(r.data.posts).toBeNull();
    expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['where.hour'] });
    const bad = await h.gql('{ posts(where: { dateQuery: { month: 3 } }) { nodes { databaseId } } }');
    expect(bad.errors?.[0]?.message).toMatch(/month and day need a year/);
  });

  it('posts have no parent: parent 0 is every post, another parent none, and nothing is sent for it', async () => {
    const every = await h.gql('{ posts(first: 3, where: { parent: 0 }) { nodes { databaseId } } }');
    const plain = await h.gql('{ posts(first: 3) { nodes { databaseId } } }');
    expect(every.data.posts.nodes).toEqual(plain.data.posts.nodes);
    h.mark();
    const none = await h.gql('{ posts(first: 3, where: { parent: 7 }) { nodes { databaseId } } }');
    expect(none.data.posts.nodes).toEqual([]);
    expect(h.calls()).toEqual([]);
  });
});

describe('media items by MIME type', () => {
  it('mimeType arrives as the MIME type WordPress filters by, as WPGraphQL gives its enum values', () => {
    const e = createWpGraphqlSchema().getType('MimeTypeEnum');
    expect(e).toBeInstanceOf(GraphQLEnumType);
    const value = (name: string) => (e as GraphQLEnumType).getValue(name)?.value;
    expect(value('IMAGE_PNG')).toBe('image/png');
    // Not to be had from the name: `+`, `.` and `-` all became `_`.
    expect(value('APPLICATION_TTAF_XML')).toBe('application/ttaf+xml');
    expect(value('APPLICATION_VND_MS_EXCEL')).toBe('application/vnd.ms-excel');
  });
});

describe('site-wide fields', () => {
  it("generalSettings' title, tagline and address are the site's index's", async () => {
    const r = await h.gql('{ generalSettings { title description url } }');
    expect(r.errors).toBeUndefined();
    const index = (await (await fetch(new URL('/wp-json/', h.sandbox.url))).json()) as Record<string, unknown>;
    expect(r.data.generalSettings).toEqual({ title: index.name, description: index.description, url: index.url });
  });

  it("what needs WordPress's own routes the sandbox does not serve is refused by name, before anything is sent", async () => {
    h.mark();
    for (const [query, route] of [
      ['{ pages { nodes { databaseId } } }', 'GET /core/v2/pages'],
      ['{ mediaItems { nodes { databaseId } } }', 'GET /core/v2/media'],
      ['{ users { nodes { databaseId } } }', 'GET /core/v2/users'],
      ['{ contentTypes { nodes { name } } }', 'GET /core/v2/types'],
      ['{ generalSettings { dateFormat } }', 'GET /core/v2/settings'],
      ['{ nodeByUri(uri: "/") { __typename } }', 'GET /core/v2/settings'],
    ] as const) {
      const r = await h.gql(query);
      expect(r.errors?.[0]?.message, query).toContain(route.slice('GET '.length));
    }
    expect(h.calls()).toEqual([]);
  });

  it("contentNodes of one type is that type's list; of several, refused naming the argument", async () => {
    const one = await h.gql(`{
      a: contentNodes(first: 5, where: { contentTypes: [POST], search: "a" }) { nodes { __typename databaseId } pageInfo { hasNextPage } }
      b: posts(first: 5, where: { search: "a" }) { nodes { __typename databaseId } pageInfo { hasNextPage } }
      c: contentNodes(first: 3, where: { contentTypes: [TRIBE_EVENTS] }) { nodes { __typename databaseId } }
      d: events(first: 3) { nodes { __typename databaseId } }
    }`);
    expect(one.errors).toBeUndefined();
    expect(one.data.a.nodes.length).toBeGreaterThan(0);
    expect(one.data.a).toEqual(one.data.b);
    expect(one.data.c).toEqual(one.data.d);
    for (const where of ['', '(where: { contentTypes: [POST, PAGE] })']) {
      const r = await h.gql(`{ contentNodes${where} { nodes { databaseId } } }`);
      expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['where.contentTypes'] });
    }
  });

  it('terms names the taxonomies it serves when asked for another', async () => {
    const r = await h.gql('{ terms(where: { taxonomies: [POSTFORMAT] }) { nodes { name } } }');
    expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['where.taxonomies'] });
    expect(r.errors?.[0]?.message).toMatch(/CATEGORY, TAG and EVENTSCATEGORY are/);
  });
});
