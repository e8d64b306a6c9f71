/**
 * WPGraphQL's and ql-events' mutations on the compatible graph, through the real gateway in front of the sandbox:
 * each writes through the write engine (verified against the site's answer), reads back the same through /wpgraphql
 * and the site's REST, and refuses an anonymous caller and what it cannot write, by name.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { restClient, type RestClient } from '../helpers/sandbox.ts';
import { startWpHarness, type WpHarness } from './harness.ts';

let h: WpHarness;
let rest: RestClient;
beforeAll(async () => {
  h = await startWpHarness();
  rest = restClient(h.sandbox);
});
afterAll(() => h.close());
beforeEach(() => h.mark());

const CREATE_POST = `mutation($input: CreatePostInput!) {
  createPost(input: $input) { clientMutationId post { id databaseId title status date content } }
}`;
const UPDATE_POST = `mutation($input: UpdatePostInput!) {
  updatePost(input: $input) { clientMutationId post { databaseId title excerpt } }
}`;
const DELETE_POST = `mutation($input: DeletePostInput!) {
  deletePost(input: $input) { deletedId post { databaseId status } }
}`;

const newPost = async (title: string) => {
  const r = await h.gql(CREATE_POST, { input: { title, status: 'DRAFT' } }, undefined, 'admin');
  expect(r.errors).toBeUndefined();
  return r.data.createPost.post as { id: string; databaseId: number };
};

describe('posts', () => {
  it('createPost, updatePost and deletePost: written, and read back through /wpgraphql and REST', async () => {
    const c = await h.gql(
      CREATE_POST,
      {
        input: {
          clientMutationId: 'c1',
          title: 'Compatible write',
          content: '<p>Body</p>',
          status: 'PUBLISH',
          date: '2024-03-05 09:30:00',
        },
      },
      undefined,
      'admin',
    );
    expect(c.errors).toBeUndefined();
    expect(c.data.createPost).toMatchObject({
      clientMutationId: 'c1',
      post: { title: 'Compatible write', status: 'publish', date: '2024-03-05T09:30:00' },
    });
    const { id, databaseId } = c.data.createPost.post;
    const stored = await rest.get(`/core/v2/posts/${databaseId}?context=edit`, 'admin');
    expect(stored.body).toMatchObject({ status: 'publish', date: '2024-03-05T09:30:00' });
    expect(stored.body.title.raw).toBe('Compatible write');

    // By global ID, as WPGraphQL's clients send it.
    const u = await h.gql(UPDATE_POST, { input: { id, title: 'Renamed', excerpt: 'Short' } }, undefined, 'admin');
    expect(u.errors).toBeUndefined();
    expect(u.data.updatePost.post).toMatchObject({ databaseId, title: 'Renamed' });
    const read = await h.gql(`query($id: ID!) { post(id: $id) { title excerpt } }`, { id });
    expect(read.data.post.title).toBe('Renamed');
    expect(read.data.post.excerpt).toContain('Short');
    expect((await rest.get(`/core/v2/posts/${databaseId}?context=edit`, 'admin')).body.title.raw).toBe('Renamed');

    const d = await h.gql(DELETE_POST, { input: { id: String(databaseId) } }, undefined, 'admin');
    expect(d.errors).toBeUndefined();
    expect(d.data.deletePost).toMatchObject({ deletedId: id, post: { databaseId, status: 'trash' } });
    expect((await rest.get(`/core/v2/posts/${databaseId}?context=edit`, 'admin')).body.status).toBe('trash');
  });

  it('an update the site answers without keeping it is WRITE_NOT_APPLIED, named in WPGraphQL terms', async () => {
    const { databaseId } = await newPost('Kept');
    const now = await rest.get(`/core/v2/posts/${databaseId}?context=edit`, 'admin');
    h.sandbox.faults.add({
      path: `^/core/v2/posts/${databaseId}$`,
      method: 'PATCH',
      status: 200,
      body: now.body,
      times: 1,
    });
    const r = await h.gql(UPDATE_POST, { input: { id: String(databaseId), title: 'Asked' } }, undefined, 'admin');
    expect(r.data.updatePost).toBeNull();
    expect(r.errors![0]!.extensions).toMatchObject({ code: 'WRITE_NOT_APPLIED', arguments: ['input.title'] });
  });

  it('a lost answer is OUTCOME_UNKNOWN, never a success', async () => {
    const { databaseId } = await newPost('Lost');
    h.sandbox.faults.add({ path: `^/core/v2/posts/${databaseId}$`, reset: true, times: 1 });
    const r = await h.gql(UPDATE_POST, { input: { id: String(databaseId), title: 'Found' } }, undefined, 'admin');
    expect(r.errors![0]!.extensions!.code).toBe('OUTCOME_UNKNOWN');
  });

  it('an anonymous caller is refused before anything is sent', async () => {
    const r = await h.gql(CREATE_POST, { input: { title: 'Anonymous' } });
    expect(r.data.createPost).toBeNull();
    expect(r.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    expect(h.calls().filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('what the engine cannot write is refused by name, and nothing is sent', async () => {
    for (const [input, arg] of [
      [{ title: 'x', menuOrder: 3 }, 'input.menuOrder'],
      [{ title: 'x', toPing: ['http://a.example'] }, 'input.toPing'],
      [{ title: 'x', status: 'REQUEST_PENDING' }, 'input.status'],
      [{ title: 'x', date: 'next tuesday' }, 'input.date'],
      [{ title: 'x', categories: { nodes: [{ id: '1' }] } }, 'input.categories'],
      [{ title: 'x', categories: { append: false, nodes: [{ name: 'New' }] } }, 'input.categories.nodes.0'],
    ] as const) {
      const r = await h.gql(CREATE_POST, { input }, undefined, 'admin');
      expect(r.errors![0]!.extensions, JSON.stringify(input)).toMatchObject({
        code: 'BAD_USER_INPUT',
        arguments: [arg],
      });
      expect(r.errors![0]!.message.startsWith(`${arg}:`)).toBe(true);
    }
    const u = await h.gql(UPDATE_POST, { input: { id: 'not an id', title: 'x' } }, undefined, 'admin');
    expect(u.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['input.id'] });
    expect(h.calls().filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('subscriptions stay refused; a mutation over GET is refused', async () => {
    const s = await h.gql(`subscription { x }`);
    expect(s.status).toBe(400);
    const res = await fetch(
      `${h.url}?query=${encodeURIComponent('mutation { deletePost(input: { id: "1" }) { deletedId } }')}`,
    );
    expect(res.status).toBe(405);
  });
});

describe('events, venues and organizers', () => {
  const EVENT = `databaseId title status content venue { databaseId title } organizers { nodes { databaseId title } }`;

  it('venue and organizer: created, updated, read back, deleted', async () => {
    const v = await h.gql(
      `mutation { createVenue(input: { title: "Compat Hall", content: "Big room", status: PUBLISH }) { venue { databaseId title } } }`,
      undefined,
      undefined,
      'admin',
    );
    expect(v.errors).toBeUndefined();
    const venueId = v.data.createVenue.venue.databaseId as number;
    const o = await h.gql(
      `mutation { createOrganizer(input: { title: "Compat Org", status: PUBLISH }) { organizer { databaseId title } } }`,
      undefined,
      undefined,
      'admin',
    );
    expect(o.errors).toBeUndefined();
    const orgId = o.data.createOrganizer.organizer.databaseId as number;

    const uv = await h.gql(
      `mutation($id: ID!) { updateVenue(input: { id: $id, title: "Compat Hall 2" }) { venue { title } } }`,
      { id: String(venueId) },
      undefined,
      'admin',
    );
    expect(uv.errors).toBeUndefined();
    expect(uv.data.updateVenue.venue.title).toBe('Compat Hall 2');
    const read = await h.gql(
      `query($v: ID!, $o: ID!) { venue(id: $v, idType: DATABASE_ID) { title } organizer(id: $o, idType: DATABASE_ID) { title } }`,
      {
        v: String(venueId),
        o: String(orgId),
      },
    );
    expect(read.data).toMatchObject({ venue: { title: 'Compat Hall 2' }, organizer: { title: 'Compat Org' } });
    const stored = await rest.get(`/calendar/events/v1/venues/${venueId}`, 'admin');
    expect(stored.body.venue ?? stored.body.title?.rendered ?? stored.body.title).toContain('Compat Hall 2');

    const d = await h.gql(
      `mutation($id: ID!) { deleteOrganizer(input: { id: $id, forceDelete: true }) { deletedId } }`,
      { id: String(orgId) },
      undefined,
      'admin',
    );
    expect(d.errors).toBeUndefined();
    expect(d.data.deleteOrganizer.deletedId).toBe(Buffer.from(`post:${orgId}`).toString('base64'));
  });

  it('an event with a venue and organizers: updated, read back through /wpgraphql and REST, deleted', async () => {
    const list = await h.gql(`{ events(first: 20) { nodes { ${EVENT} } } }`, undefined, undefined, 'admin');
    expect(list.errors).toBeUndefined();
    const ev = (list.data.events.nodes as any[]).find((e) => e.venue && e.organizers.nodes.length > 0);
    expect(ev, 'a seeded event with a venue and organizers').toBeDefined();
    const u = await h.gql(
      `mutation($id: ID!) { updateEvent(input: { id: $id, title: "Compat event", content: "<p>New</p>", clientMutationId: "e1" }) { clientMutationId event { ${EVENT} } } }`,
      { id: String(ev.databaseId) },
      undefined,
      'admin',
    );
    expect(u.errors).toBeUndefined();
    expect(u.data.updateEvent.clientMutationId).toBe('e1');
    expect(u.data.updateEvent.event).toMatchObject({
      databaseId: ev.databaseId,
      title: 'Compat event',
      venue: { databaseId: ev.venue.databaseId },
      organizers: { nodes: ev.organizers.nodes },
    });
    const read = await h.gql(`query($id: ID!) { event(id: $id, idType: DATABASE_ID) { ${EVENT} } }`, {
      id: String(ev.databaseId),
    });
    expect(read.data.event).toMatchObject({ title: 'Compat event', venue: { databaseId: ev.venue.databaseId } });
    expect(read.data.event.content).toContain('New');
    const stored = await rest.get(`/calendar/events/v1/events/${ev.databaseId}`, 'admin');
    expect(JSON.stringify(stored.body.title)).toContain('Compat event');

    const d = await h.gql(
      `mutation($id: ID!) { deleteEvent(input: { id: $id }) { deletedId event { databaseId status } } }`,
      { id: String(ev.databaseId) },
      undefined,
      'admin',
    );
    expect(d.errors).toBeUndefined();
    expect(d.data.deleteEvent.event).toMatchObject({ databaseId: ev.databaseId, status: 'trash' });
  });

  it('createEvent without dates (which ql-events cannot send) is refused, saying where to create it', async () => {
    const r = await h.gql(
      `mutation { createEvent(input: { title: "No dates" }) { event { databaseId } } }`,
      undefined,
      undefined,
      'admin',
    );
    expect(r.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(r.errors![0]!.message).toMatch(/main graph's createEvent/);
  });

  it('event fields the calendar does not write are refused by name', async () => {
    const r = await h.gql(
      `mutation { updateEvent(input: { id: "1", password: "x" }) { event { databaseId } } }`,
      undefined,
      undefined,
      'admin',
    );
    expect(r.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['input.password'] });
    const anon = await h.gql(`mutation { deleteVenue(input: { id: "1" }) { deletedId } }`);
    expect(anon.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
  });
});
