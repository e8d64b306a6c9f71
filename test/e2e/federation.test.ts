/**
 * Federation subgraph mode (issue 11): sitegraph with `federation: true` over
 * the sandbox, composed by a real engine, @apollo/gateway with
 * IntrospectAndCompose, with a small second subgraph (ticket inventory) that
 * extends `Event` by its `@key` and adds a field to every `Node` through
 * `@interfaceObject`. Everything speaks HTTP on loopback; upstream requests are
 * counted in the sandbox's request log.
 */
import { ApolloGateway, IntrospectAndCompose, LocalCompose, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { Agent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { buildFederatedSchema, federatedTypeDefs } from '../../src/federation.ts';
import { buildSchema } from '../../src/schema.ts';
import { startHarness, type GqlResult, type Harness } from '../helpers/gateway.ts';

const dbId = (gid: string): number => Number(Buffer.from(gid, 'base64').toString('utf8').split(':')[1]);
/** The tickets subgraph's inventory: a fixed function of the event's database ID, so the test can predict it. */
const available = (gid: string): number => (dbId(gid) * 37) % 100;

/** The second subgraph: ticket inventory for events, keyed by sitegraph's `Event` key. */
function ticketsSubgraph(onSaleIds: string[]) {
  const typeDefs = parse(`
    extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])

    type Tickets { available: Int! soldOut: Boolean! }

    type Event @key(fields: "id") {
      id: ID!
      tickets: Tickets!
    }

    type Query {
      "Events with tickets on sale, as references: sitegraph resolves the rest."
      onSale: [Event!]!
    }
  `);
  const resolvers = {
    Query: { onSale: () => onSaleIds.map((id) => ({ __typename: 'Event', id })) },
    Event: { tickets: (e: { id: string }) => ({ available: available(e.id), soldOut: available(e.id) === 0 }) },
  };
  return new ApolloServer({ schema: buildSubgraphSchema({ typeDefs, resolvers: resolvers as never }) });
}

/**
 * A third subgraph that adds a field to every `Node` (sitegraph's entity
 * interface) without knowing the node types: `@interfaceObject`. Federation
 * does not allow it in the tickets subgraph, which defines `Event`.
 */
function bookmarksSubgraph() {
  const typeDefs = parse(`
    extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@interfaceObject"])

    type Node @key(fields: "id") @interfaceObject {
      id: ID!
      bookmarks: Int!
    }
  `);
  const resolvers = {
    Node: { __resolveReference: (ref: { id: string }) => ref, bookmarks: (n: { id: string }) => dbId(n.id) % 7 },
  };
  return new ApolloServer({ schema: buildSubgraphSchema({ typeDefs, resolvers: resolvers as never }) });
}

/** Events from tomorrow on: inside the window the site's `include=` serves, so reads by ID batch (loaders/index.ts). */
const UPCOMING = `where: { startDate: "${new Date(Date.now() + 86_400_000).toISOString()}" }`;

async function post(url: string, query: string, variables?: Record<string, unknown>): Promise<GqlResult> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data: any; errors?: GqlResult['errors'] };
  return { status: res.status, data: body.data, errors: body.errors };
}

describe('federation subgraph mode, composed by @apollo/gateway', () => {
  let h: Harness;
  let subgraphs: ApolloServer[] = [];
  let supergraph: ApolloServer;
  let supergraphUrl: string;
  let eventIds: string[];

  const fresh = new Agent({ pipelining: 0 });

  beforeAll(async () => {
    // Introspection off: a composer still reads the SDL through `_service`.
    h = await startHarness({ config: { federation: true, introspection: false } });
    const first = await h.gql(`{ events(first: 10, ${UPCOMING}) { nodes { id } } }`);
    eventIds = first.data.events.nodes.map((n: { id: string }) => n.id);
    subgraphs = [ticketsSubgraph(eventIds.slice(5, 10)), bookmarksSubgraph()];
    const [tickets, bookmarks] = await Promise.all(
      subgraphs.map((s) => startStandaloneServer(s, { listen: { host: '127.0.0.1', port: 0 } })),
    );
    const gateway = new ApolloGateway({
      // A new connection per subgraph request: on this shared, loaded machine a pooled socket
      // can outlive the subgraph server's 5 s keep-alive and be reset (ECONNRESET), which is
      // the test machine's timing, not what is tested here.
      buildService: ({ url }) =>
        new RemoteGraphQLDataSource({
          url,
          fetcher: ((u: string, init: object) =>
            fetch(u, { ...init, dispatcher: fresh } as unknown as RequestInit)) as never,
        }),
      supergraphSdl: new IntrospectAndCompose({
        subgraphs: [
          { name: 'sitegraph', url: h.gateway.url },
          { name: 'tickets', url: tickets!.url },
          { name: 'bookmarks', url: bookmarks!.url },
        ],
      }),
    });
    supergraph = new ApolloServer({ gateway });
    ({ url: supergraphUrl } = await startStandaloneServer(supergraph, { listen: { host: '127.0.0.1', port: 0 } }));
  }, 60_000);
  afterAll(async () => {
    // A supergraph that failed to start cannot be stopped (Apollo throws).
    await supergraph?.stop().catch(() => undefined);
    await Promise.all(subgraphs.map((s) => s.stop()));
    await h?.close();
    await fresh.close();
  });
  beforeEach(() => h.mark());

  it('sitegraph → tickets: 5 events with their inventory, 1 upstream request', async () => {
    const r = await post(
      supergraphUrl,
      `{ events(first: 5, ${UPCOMING}) { nodes { id title startDate tickets { available soldOut } } } }`,
    );
    expect(r.errors).toBeUndefined();
    const nodes = r.data.events.nodes;
    expect(nodes.map((n: any) => n.id)).toEqual(eventIds.slice(0, 5));
    for (const n of nodes) {
      expect(typeof n.title).toBe('string');
      // The custom scalar went through the gateway unchanged.
      expect(n.startDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
      expect(n.tickets).toEqual({ available: available(n.id), soldOut: available(n.id) === 0 });
    }
    expect(h.calls()).toHaveLength(1);
    expect(h.calls()[0]).toMatchObject({ method: 'GET', path: '/calendar/events/v1/events' });
  });

  it('tickets → sitegraph: 5 event references resolved by `_entities` in 1 upstream request', async () => {
    const r = await post(supergraphUrl, `{ onSale { id title databaseId venues { title } tickets { available } } }`);
    expect(r.errors).toBeUndefined();
    expect(r.data.onSale.map((e: any) => e.id)).toEqual(eventIds.slice(5, 10));
    for (const e of r.data.onSale) {
      expect(e.databaseId).toBe(dbId(e.id));
      expect(typeof e.title).toBe('string');
      expect(Array.isArray(e.venues)).toBe(true);
      expect(e.tickets.available).toBe(available(e.id));
    }
    expect(r.data.onSale.some((e: any) => e.venues.length > 0)).toBe(true);
    // One `include=` list request for the 5 IDs (venues come embedded), as nodes(ids:) does.
    expect(h.calls()).toHaveLength(1);
    expect(h.calls()[0]!.path).toBe('/calendar/events/v1/events');
    expect(String(h.calls()[0]!.query.include).split(',').map(Number).sort()).toEqual(
      eventIds.slice(5, 10).map(dbId).sort(),
    );
  });

  it('keeps the Node interface: node(id:) crosses into tickets, and @interfaceObject adds a field to every node type', async () => {
    const venues = await post(supergraphUrl, `{ venues(first: 3) { nodes { id title bookmarks } } }`);
    expect(venues.errors).toBeUndefined();
    expect(venues.data.venues.nodes).toHaveLength(3);
    for (const v of venues.data.venues.nodes) expect(v.bookmarks).toBe(dbId(v.id) % 7);

    const id = eventIds[3]!;
    const r = await post(
      supergraphUrl,
      `query($id: ID!) { node(id: $id) { __typename id bookmarks ... on Event { title tickets { available } } } }`,
      { id },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.node).toMatchObject({
      __typename: 'Event',
      id,
      bookmarks: dbId(id) % 7,
      tickets: { available: available(id) },
    });
    expect(typeof r.data.node.title).toBe('string');
  });
});

describe('federation subgraph mode, the subgraph itself', () => {
  let h: Harness;
  let eventIds: string[];
  let venueId: string;

  beforeAll(async () => {
    h = await startHarness({ config: { federation: true, introspection: false } });
    const r = await h.gql(`{ events(first: 20, ${UPCOMING}) { nodes { id } } venues(first: 1) { nodes { id } } }`);
    eventIds = r.data.events.nodes.map((n: { id: string }) => n.id);
    venueId = r.data.venues.nodes[0].id;
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  const entities = `query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Event { id title } ... on Venue { id title } } }`;

  it('serves _service { sdl } with @link and @key on Node and every node type, while introspection is off', async () => {
    const r = await h.gql(`{ _service { sdl } }`);
    expect(r.errors).toBeUndefined();
    const sdl: string = r.data._service.sdl;
    expect(sdl).toContain('@link(url: "https://specs.apollo.dev/federation/v2.4", import: ["@key"])');
    for (const t of ['Event', 'Venue', 'Organizer', 'Post', 'Category', 'Tag', 'Series']) {
      expect(sdl).toMatch(new RegExp(`type ${t} implements Node\\s+@key\\(fields: "id"\\)`));
    }
    expect(sdl).toMatch(/interface Node\s+@key\(fields: "id"\)/);
    expect(sdl).toContain('scalar DateTime');
    const intro = await h.gql(`{ __schema { queryType { name } } }`);
    expect(intro.errors?.[0]?.message).toMatch(/introspection/i);
    expect(h.calls()).toHaveLength(0);
  });

  it('resolves 20 Event representations in order with 1 upstream request', async () => {
    const r = await h.gql(entities, { r: eventIds.map((id) => ({ __typename: 'Event', id })) });
    expect(r.errors).toBeUndefined();
    expect(r.data._entities.map((e: any) => e.id)).toEqual(eventIds);
    expect(r.data._entities.every((e: any) => e.__typename === 'Event' && typeof e.title === 'string')).toBe(true);
    expect(h.calls()).toHaveLength(1);
    expect(String(h.calls()[0]!.query.include).split(',')).toHaveLength(20);
  });

  it('resolves a Node (entity interface) representation to its concrete type', async () => {
    const r = await h.gql(entities, {
      r: [
        { __typename: 'Node', id: venueId },
        { __typename: 'Node', id: eventIds[0] },
      ],
    });
    expect(r.errors).toBeUndefined();
    expect(r.data._entities.map((e: any) => [e.__typename, e.id])).toEqual([
      ['Venue', venueId],
      ['Event', eventIds[0]],
    ]);
  });

  it('refuses a representation whose id is not a global ID of its type, and still answers the others', async () => {
    const r = await h.gql(entities, {
      r: [
        { __typename: 'Event', id: venueId },
        { __typename: 'Event', id: eventIds[0] },
        { __typename: 'Venue', id: 'nope' },
      ],
    });
    expect(r.data._entities[0]).toBeNull();
    expect(r.data._entities[1]).toMatchObject({ __typename: 'Event', id: eventIds[0] });
    expect(r.data._entities[2]).toBeNull();
    expect(r.errors?.map((e) => [e.path, e.extensions?.code])).toEqual([
      [['_entities', 0], 'BAD_USER_INPUT'],
      [['_entities', 2], 'BAD_USER_INPUT'],
    ]);
    expect(r.errors?.[0]?.message).toContain('is not a global ID of type Event');
    // Only the valid Event was read.
    expect(h.calls()).toHaveLength(1);
  });

  it('resolves an unknown ID to null, without an error, as node(id:) does', async () => {
    const unknown = Buffer.from('Event:99999999', 'utf8').toString('base64');
    const r = await h.gql(entities, {
      r: [
        { __typename: 'Event', id: unknown },
        { __typename: 'Event', id: eventIds[1] },
      ],
    });
    expect(r.errors).toBeUndefined();
    expect(r.data._entities[0]).toBeNull();
    expect(r.data._entities[1]).toMatchObject({ __typename: 'Event', id: eventIds[1] });
  });

  it('bounds representations by MAX_LIST_ITEMS (100) before anything is sent upstream', async () => {
    const reps = Array.from({ length: 101 }, (_, i) => ({ __typename: 'Event', id: eventIds[i % eventIds.length] }));
    const r = await h.gql(entities, { r: reps });
    expect(r.status).toBe(400);
    expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'maxListItems', max: 100 });
    expect(h.calls()).toHaveLength(0);
  });

  it('estimates the cost per representation, as nodes(ids:) per ID', async () => {
    // Per representation: 1 (the entity) + 1 (its events page) + 20 × 5 (venues of each event, each an events page) = 102.
    const q = `query($r: [_Any!]!) { _entities(representations: $r) { ... on Venue { events(first: 20) { nodes { venues { events(first: 5) { nodes { title } } } } } } } }`;
    const r = await h.gql(q, { r: Array.from({ length: 10 }, () => ({ __typename: 'Venue', id: venueId })) });
    expect(r.status).toBe(400);
    expect(r.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      limit: 'maxCost',
      cost: 1020,
      max: 1000,
    });
    expect(h.calls()).toHaveLength(0);
  });
});

describe('federation setting', () => {
  it('is off by default, and FEDERATION is read as a boolean', () => {
    expect(loadConfig({}).federation).toBe(false);
    expect(loadConfig({ FEDERATION: '1' }).federation).toBe(true);
    expect(() => loadConfig({ FEDERATION: 'maybe' })).toThrow(ConfigError);
  });

  it('keeps its subscriptions in the composed supergraph (the 2.4 link itself is asserted on _service above)', async () => {
    const gateway = new ApolloGateway({
      supergraphSdl: new LocalCompose({
        localServiceList: [{ name: 'sitegraph', url: 'http://127.0.0.1:1/graphql', typeDefs: federatedTypeDefs() }],
      }),
    });
    const { schema } = await gateway.load();
    try {
      expect(Object.keys(schema.getSubscriptionType()?.getFields() ?? {})).toEqual(
        expect.arrayContaining(['eventChanged', 'eventChangedById']),
      );
    } finally {
      await gateway.stop();
    }
  });

  it('adds _service and _entities only in subgraph mode', () => {
    expect(buildSchema().getQueryType()!.getFields()._service).toBeUndefined();
    const fed = buildFederatedSchema().getQueryType()!.getFields();
    expect(fed._service).toBeDefined();
    expect(fed._entities).toBeDefined();
  });
});
