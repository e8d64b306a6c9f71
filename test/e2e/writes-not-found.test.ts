/**
 * One not-found rule for writes (issue 18, failure 9; docs/writes.md "Not
 * found"): an update or delete of an event, venue or organizer that does not
 * exist is NOT_FOUND on every release and interface, however the site says it
 * (the legacy 400 `rest_invalid_param` naming `id`, calendar-core's 401/403
 * `rest_forbidden`, a 404), as `deletePost` already answers. An object that
 * exists but the caller may not change stays FORBIDDEN. Every other write that
 * names an object by ID answers the same: categories, tags, posts, a
 * duplicate's link, the automation connector's update, an occurrences notice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxOptionsInput } from '../../packages/sandbox/src/options.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { restClient } from '../helpers/sandbox.ts';
import { extrasCredentials } from '../../packages/sandbox/src/namespaces/extras/index.ts';

const MISSING = '987654';

const SHAPES: { shape: string; sandbox: SandboxOptionsInput; core: boolean }[] = [
  { shape: 'TEC 5.7 (legacy only)', sandbox: { tec: '5.7' }, core: false },
  { shape: 'TEC 6.15', sandbox: { tec: '6.15' }, core: true },
  { shape: "TEC 6.15 under the plugins' names", sandbox: { tec: '6.15', names: 'plugin' }, core: true },
];

const TYPES = ['Event', 'Venue', 'Organizer'] as const;

describe.each(SHAPES)('a missing ID is NOT_FOUND on every write, $shape', ({ sandbox, core }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox });
  });
  afterAll(() => h.close());

  const vias: (string | null)[] = core ? [null, 'LEGACY', 'CORE'] : [null];
  for (const Type of TYPES) {
    for (const via of vias) {
      const how = via ? ` (via: ${via})` : '';
      it(`update${Type}${how}`, async () => {
        const r = await h.gql(
          `mutation($id: ID!, $via: WriteInterface) { update${Type}(id: $id, via: $via, input: { title: "Nobody" }) { __typename } }`,
          { id: MISSING, via },
          'admin',
        );
        expect(r.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND', arguments: ['id'] });
        expect(r.errors![0]!.message).toMatch(
          new RegExp(`No ${Type.toLowerCase()} with ID ${MISSING} exists on the site`),
        );
      });
      it(`delete${Type}${how}`, async () => {
        const r = await h.gql(
          `mutation($id: ID!, $via: WriteInterface) { delete${Type}(id: $id, via: $via) { databaseId } }`,
          { id: MISSING, via },
          'admin',
        );
        expect(r.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND', arguments: ['id'] });
      });
    }
    if (core) {
      it(`delete${Type}(force: true): calendar-core's 403 for a missing ID, told apart by a read`, async () => {
        h.mark();
        const r = await h.gql(
          `mutation($id: ID!) { delete${Type}(id: $id, force: true) { databaseId } }`,
          { id: MISSING },
          'admin',
        );
        expect(r.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND', arguments: ['id'] });
      });
    }
  }

  it('bulk: each missing item NOT_FOUND, the others written', async () => {
    const made = await h.gql(
      `mutation { createEvent(input: { title: "Exists", startDate: "2031-07-01T10:00:00Z", endDate: "2031-07-01T11:00:00Z" }) { event { databaseId } } }`,
      undefined,
      'admin',
    );
    const id = String(made.data.createEvent.event.databaseId);
    const up = await h.gql(
      `mutation($inputs: [EventUpdateInput!]!) { updateEvents(inputs: $inputs) { failed results { error { code path } } } }`,
      {
        inputs: [
          { id: MISSING, input: { cost: '1' } },
          { id, input: { cost: '2' } },
        ],
      },
      'admin',
    );
    expect(up.data.updateEvents.results).toEqual([
      { error: { code: 'NOT_FOUND', path: ['inputs', '0', 'id'] } },
      { error: null },
    ]);
    const del = await h.gql(
      `mutation($ids: [ID!]!) { deleteEvents(ids: $ids) { results { error { code path } } } }`,
      { ids: [MISSING, id] },
      'admin',
    );
    expect(del.data.deleteEvents.results).toEqual([
      { error: { code: 'NOT_FOUND', path: ['ids', '0'] } },
      { error: null },
    ]);
  });

  it('an object that exists but the caller may not change stays FORBIDDEN', async () => {
    const made = await h.gql(
      `mutation { createEvent(input: { title: "Not yours", startDate: "2031-07-02T10:00:00Z", endDate: "2031-07-02T11:00:00Z" }) { event { databaseId } } }`,
      undefined,
      'admin',
    );
    const id = String(made.data.createEvent.event.databaseId);
    for (const via of vias) {
      const up = await h.gql(
        `mutation($id: ID!, $via: WriteInterface) { updateEvent(id: $id, via: $via, input: { title: "Mine" }) { __typename } }`,
        { id, via },
        'contributor',
      );
      expect(up.errors![0]!.extensions!.code, `update via ${via}`).toBe('FORBIDDEN');
      const del = await h.gql(
        `mutation($id: ID!, $via: WriteInterface) { deleteEvent(id: $id, via: $via) { databaseId } }`,
        { id, via },
        'contributor',
      );
      expect(del.errors![0]!.extensions!.code, `delete via ${via}`).toBe('FORBIDDEN');
    }
    if (core) {
      const forced = await h.gql(
        `mutation($id: ID!) { deleteEvent(id: $id, force: true) { databaseId } }`,
        { id },
        'contributor',
      );
      expect(forced.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    }
    expect(restClient(h.sandbox)).toBeTruthy();
    expect(h.sandbox.site.store.post(Number(id))!.title).toBe('Not yours');
  });
});

/** Every other write that takes an object's ID, with the argument that names it. */
const OTHER_WRITES: { name: string; argument: string; label?: string; query: string }[] = [
  {
    name: 'updateCategory',
    argument: 'id',
    query: `mutation($id: ID!) { updateCategory(id: $id, input: { name: "Nobody" }) { __typename } }`,
  },
  {
    name: 'updateCategory (PUT)',
    argument: 'id',
    query: `mutation($id: ID!) { updateCategory(id: $id, method: PUT, input: { name: "Nobody" }) { __typename } }`,
  },
  { name: 'deleteCategory', argument: 'id', query: `mutation($id: ID!) { deleteCategory(id: $id) { __typename } }` },
  {
    name: 'updateTag',
    argument: 'id',
    query: `mutation($id: ID!) { updateTag(id: $id, input: { name: "Nobody" }) { __typename } }`,
  },
  { name: 'deleteTag', argument: 'id', query: `mutation($id: ID!) { deleteTag(id: $id) { __typename } }` },
  {
    name: 'updatePost',
    argument: 'id',
    label: 'post',
    query: `mutation($id: ID!) { updatePost(id: $id, input: { title: "Nobody" }) { __typename } }`,
  },
  {
    name: 'deletePost',
    argument: 'id',
    label: 'post',
    query: `mutation($id: ID!) { deletePost(id: $id) { __typename } }`,
  },
  {
    name: 'deletePost (force: true)',
    argument: 'id',
    label: 'post',
    query: `mutation($id: ID!) { deletePost(id: $id, force: true) { __typename } }`,
  },
  {
    name: 'removeDuplicatePostOriginal',
    argument: 'postId',
    label: 'post',
    query: `mutation($id: ID!) { removeDuplicatePostOriginal(postId: $id) { success } }`,
  },
];

describe.each(SHAPES)('a missing ID is NOT_FOUND on every other write that takes one, $shape', ({ sandbox, core }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox });
  });
  afterAll(() => h.close());

  for (const w of OTHER_WRITES) {
    it(w.name, async () => {
      const r = await h.gql(w.query, { id: MISSING }, 'admin');
      expect(r.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND', arguments: [w.argument] });
      if (w.label) expect(r.errors![0]!.message).toBe(`No ${w.label} with ID ${MISSING} exists on the site.`);
    });
  }

  it("automationAUpdateEvent: the route's 400 for an ID that is no event", async () => {
    const c = extrasCredentials(h.sandbox.site).zapier.find((z) => z.user === 'editor')!;
    const auth = await h.gql(
      `query($id: String!, $s: String!) { automationA { authorize(consumerId: $id, consumerSecret: $s, appName: "e2e") { accessToken } } }`,
      { id: c.consumerId, s: c.consumerSecret },
    );
    const t = auth.data.automationA.authorize.accessToken as string;
    h.mark();
    const r = await h.gql(
      `mutation($id: Int!, $t: String) { automationAUpdateEvent(id: $id, accessToken: $t, input: { title: "Nobody" }) { databaseId } }`,
      { id: Number(MISSING), t },
    );
    expect(r.errors![0]!.extensions).toMatchObject({
      code: 'NOT_FOUND',
      arguments: ['id'],
      upstream: { code: 'rest_invalid_param', status: 400 },
    });
    expect(r.errors![0]!.message).toBe(`No event with ID ${MISSING} exists on the site.`);
  });

  it(`clearOccurrencesNotice: ${core ? "calendar-core's 400 for an ID that is no event" : 'no calendar-core on this release, so no such write'}`, async () => {
    const r = await h.gql(
      `mutation($id: Int!) { clearOccurrencesNotice(eventId: $id) }`,
      { id: Number(MISSING) },
      'editor',
    );
    if (core) {
      expect(r.errors![0]!.extensions).toMatchObject({
        code: 'NOT_FOUND',
        arguments: ['eventId'],
        upstream: { code: 'rest_invalid_param', status: 400 },
      });
      expect(r.errors![0]!.message).toBe(`No event with ID ${MISSING} exists on the site.`);
    } else {
      expect(r.errors![0]!.extensions!.code).toBe('NAMESPACE_UNAVAILABLE');
    }
  });

  it('a post that exists but the caller may not change stays FORBIDDEN', async () => {
    const made = await h.gql(
      `mutation { createPost(input: { title: "Not yours", status: PUBLISH }) { databaseId } }`,
      undefined,
      'admin',
    );
    const id = String(made.data.createPost.databaseId);
    const up = await h.gql(
      `mutation($id: ID!) { updatePost(id: $id, input: { title: "Mine" }) { __typename } }`,
      { id },
      'contributor',
    );
    expect(up.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    const del = await h.gql(`mutation($id: ID!) { deletePost(id: $id) { __typename } }`, { id }, 'contributor');
    expect(del.errors![0]!.extensions!.code).toBe('FORBIDDEN');
  });
});
