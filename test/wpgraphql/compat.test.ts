/**
 * The compatible graph beyond the recorded queries: fields WPGraphQL has but the subset leaves out are refused naming
 * the coverage, global IDs and URIs per kind, paging both ways, variables, fragments and aliases, refused `where`
 * arguments, and connections that batch their reads (no request per node).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWpHarness, type WpHarness } from './harness.ts';

let h: WpHarness;
beforeAll(async () => {
  h = await startWpHarness();
});
afterAll(() => h.close());

describe('what the subset leaves out', () => {
  it('a WPGraphQL field or type outside the subset is a validation error naming the coverage', async () => {
    const r = await h.gql('{ posts { nodes { title comments { nodes { id } } } } menus { nodes { id } } }');
    expect(r.status).toBe(400);
    expect(r.errors?.map((e) => [e.extensions?.code, e.extensions?.coordinate])).toEqual([
      ['WPGRAPHQL_NOT_SERVED', 'Post.comments'],
      ['WPGRAPHQL_NOT_SERVED', 'RootQuery.menus'],
    ]);
    expect(r.errors?.[0]?.message).toMatch(/not served by this WPGraphQL-compatible graph; docs\/wpgraphql\.md/);
    const t = await h.gql('{ nodeByUri(uri: "/") { ... on MenuItem { id } } }');
    expect(t.errors?.[0]?.extensions).toMatchObject({ code: 'WPGRAPHQL_NOT_SERVED', coordinate: 'MenuItem' });
  });

  it("a name WPGraphQL never had keeps graphql-js's message", async () => {
    const r = await h.gql('{ posts { nodes { notAField } } }');
    expect(r.errors?.[0]?.message).toBe('Cannot query field "notAField" on type "Post".');
  });

  it('a where argument the graph does not apply is refused, naming it', async () => {
    const r = await h.gql('{ posts(where: { hasPassword: true }) { nodes { id } } }');
    expect(r.data.posts).toBeNull();
    expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['where.hasPassword'] });
  });
});

describe('IDs and URIs', () => {
  it('node(id:) and nodeByUri answer each kind, by its WPGraphQL global ID and its uri', async () => {
    const lists = await h.gql(`{
      posts(first: 1) { nodes { id uri databaseId } }
      events(first: 1) { nodes { id uri databaseId venue { id uri } organizers { nodes { id uri } } } }
      eventsCategories(first: 1, where: { hideEmpty: true }) { nodes { id uri } }
    }`);
    expect(lists.errors).toBeUndefined();
    const post = lists.data.posts.nodes[0];
    const event = lists.data.events.nodes[0];
    expect(Buffer.from(post.id, 'base64').toString()).toBe(`post:${post.databaseId}`);
    const items: [string, { id: string; uri: string }][] = [
      ['Post', post],
      ['Event', event],
      ['Venue', event.venue],
      ['Organizer', event.organizers.nodes[0]],
      ['EventsCategory', lists.data.eventsCategories.nodes[0]],
    ];
    for (const [type, item] of items) {
      const r = await h.gql(
        'query($id: ID, $uri: String!) { node(id: $id) { __typename id } nodeByUri(uri: $uri) { __typename id uri } }',
        { id: item.id, uri: item.uri },
      );
      expect(r.errors, type).toBeUndefined();
      expect(r.data.node, type).toEqual({ __typename: type, id: item.id });
      expect(r.data.nodeByUri, type).toEqual({ __typename: type, id: item.id, uri: item.uri });
    }
    const none = await h.gql('{ nodeByUri(uri: "/event/no-such-event/") { id } }');
    expect(none).toMatchObject({ status: 200, data: { nodeByUri: null } });
  });

  it('post and event by each idType agree', async () => {
    const first = await h.gql('{ posts(first: 1) { nodes { id databaseId slug uri } } }');
    const p = first.data.posts.nodes[0];
    const r = await h.gql(
      `query($id: ID!, $db: ID!, $slug: ID!, $uri: ID!) {
        a: post(id: $id) { id } b: post(id: $db, idType: DATABASE_ID) { id }
        c: post(id: $slug, idType: SLUG) { id } d: post(id: $uri, idType: URI) { id }
      }`,
      { id: p.id, db: String(p.databaseId), slug: p.slug, uri: p.uri },
    );
    expect(r.errors).toBeUndefined();
    expect(new Set(Object.values(r.data).map((x: any) => x.id))).toEqual(new Set([p.id]));
  });
});

describe('connections', () => {
  it('pages forward and back with first/after and last/before', async () => {
    const all = await h.gql('{ events(first: 6) { nodes { databaseId } } }');
    const ids = all.data.events.nodes.map((n: { databaseId: number }) => n.databaseId);
    expect(ids.length).toBe(6);
    const q = `query($first: Int, $after: String, $last: Int, $before: String) {
      events(first: $first, after: $after, last: $last, before: $before) {
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        edges { cursor node { databaseId } }
      }
    }`;
    const p1 = await h.gql(q, { first: 3 });
    const p2 = await h.gql(q, { first: 3, after: p1.data.events.pageInfo.endCursor });
    const seen = [...p1.data.events.edges, ...p2.data.events.edges].map((e: any) => e.node.databaseId);
    expect(seen).toEqual(ids);
    expect(p2.data.events.pageInfo.hasPreviousPage).toBe(true);
    const back = await h.gql(q, { last: 3, before: p2.data.events.pageInfo.startCursor });
    expect(back.data.events.edges.map((e: any) => e.node.databaseId)).toEqual(ids.slice(0, 3));
  });

  it('fragments, aliases and variables', async () => {
    const r = await h.gql(
      `query($n: Int!) {
        upcoming: events(first: $n) { nodes { ...E } }
        again: events(first: $n) { nodes { ...on Event { databaseId } } }
      }
      fragment E on ContentNode { databaseId uri ... on NodeWithTitle { title } }`,
      { n: 2 },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.upcoming.nodes.map((n: any) => n.databaseId)).toEqual(
      r.data.again.nodes.map((n: any) => n.databaseId),
    );
    expect(r.data.upcoming.nodes[0].title).toEqual(expect.any(String));
  });

  it('a page of events with their venues, organizers and categories: no read per venue, organizer or term', async () => {
    h.mark();
    const r = await h.gql(`{ events(first: 20) { nodes {
      title venue { title city } organizers { nodes { title email } } eventsCategories { nodes { name slug } }
    } } }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.events.nodes.length).toBe(20);
    // WPGraphQL's default order (newest published first) is calendar-core's ordered list, with the venues and
    // organizers embedded; the categories are read by ID in one batch, as the main graph reads them (not through every
    // event's legacy copy, which costs single reads for events outside the legacy list's window), and the legacy
    // copies only of the password-protected events, whose terms calendar-core masks, in one `include=` batch.
    const paths = h.calls().map((c) => c.path);
    expect([...paths].sort()).toEqual([
      '/calendar-core/v1/events',
      '/calendar/events/v1/categories',
      '/calendar/events/v1/events',
    ]);
    expect(h.calls().find((c) => c.path === '/calendar/events/v1/events')?.query.include).toBeDefined();
  });

  it('a page of posts with their tags: one posts request and one batched tags request', async () => {
    h.mark();
    const r = await h.gql('{ posts(first: 20) { nodes { title tags { nodes { name } } } } }');
    expect(r.errors).toBeUndefined();
    expect(
      h
        .calls()
        .map((c) => c.path)
        .sort(),
    ).toEqual(['/calendar/events/v1/tags', '/core/v2/posts']);
  });
});
