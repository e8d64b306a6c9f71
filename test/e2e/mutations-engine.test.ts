/**
 * One write engine for every kind (src/writes/engine.ts): every mutation field of the executable schema either writes
 * through the engine or is on the list below, with why; and the kinds that used to skip its guarantees (categories,
 * tags, posts) are serialized per object and verified against the site's answer.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isObjectType } from 'graphql';
import { resolvers } from '../../src/resolvers/index.ts';
import { buildSchema } from '../../src/schema.ts';
import { ENGINE_RUNS, isEngineMutation } from '../../src/writes/engine.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';
import { restClient, type RestClient } from '../helpers/sandbox.ts';
import { createWpGraphqlSchema, wpGraphqlResolvers } from '../../src/wpgraphql/schema.ts';
import { startWpHarness, type WpHarness } from '../wpgraphql/harness.ts';

/**
 * Mutation fields that do not write an object of a kind the engine declares (src/writes/kinds.ts), and why. A new
 * mutation is either made with `engineMutation` or added here with its reason; anything else fails below.
 */
const NOT_ENGINE: Record<string, string> = {
  refreshSite: "reads the site's REST index again; writes nothing to the site",
  verifyChallenge: 'checks a solved challenge (POST /site/v1/challenge); stores nothing',
  seo: "a namespace object (SeoMutation): its fields are the SEO plugin's own actions (redirects, settings), written through its routes (docs/graph-seo.md), not objects of a kind",
  automationACreateEvent:
    "an automation plugin's action route (create-events as the connection's user): the plugin writes the event, the gateway cannot lock or verify what it does",
  automationAUpdateEvent: "an automation plugin's action route (update-events): the plugin writes, not the gateway",
  automationBCreateEvent: "an automation plugin's action route (create-events): the plugin writes, not the gateway",
  removeDuplicatePostOriginal: "a plugin's action (duplicate-post) on a post's meta, not a write of the post's fields",
  reportImportBatch: "reports a batch to the import plugin's own state machine; the plugin writes",
  reportImportState: "reports an import's state to the import plugin; the plugin writes",
  clearOccurrencesNotice: "dismisses an admin notice (the calendar extras' option), not an object",
  saveOnboardingWizard: "saves the calendar's onboarding wizard settings, not an object",
};

const missing = 999_999;
const title = (n: string) => `Engine sample ${n}`;
const when = '{ startDate: "2031-05-01T10:00:00Z", endDate: "2031-05-01T11:00:00Z" }';

/** One call of each engine mutation (its outcome does not matter: that the engine ran it does). */
const SAMPLES: Record<string, string> = {
  createEvent: `createEvent(input: { title: "${title('e')}", startDate: "2031-05-01T10:00:00Z", endDate: "2031-05-01T11:00:00Z" }) { event { databaseId } }`,
  updateEvent: `updateEvent(id: "${missing}", input: { title: "x" }) { event { databaseId } }`,
  deleteEvent: `deleteEvent(id: "${missing}") { databaseId }`,
  createEvents: `createEvents(inputs: [{ title: "${title('es')}", startDate: "2031-05-01T10:00:00Z", endDate: "2031-05-01T11:00:00Z" }]) { written }`,
  updateEvents: `updateEvents(inputs: [{ id: "${missing}", input: ${when} }]) { failed }`,
  deleteEvents: `deleteEvents(ids: ["${missing}"]) { failed }`,
  createVenue: `createVenue(input: { title: "${title('v')}" }) { venue { databaseId } }`,
  updateVenue: `updateVenue(id: "${missing}", input: { city: "x" }) { venue { databaseId } }`,
  deleteVenue: `deleteVenue(id: "${missing}") { databaseId }`,
  createVenues: `createVenues(inputs: [{ title: "${title('vs')}" }]) { written }`,
  updateVenues: `updateVenues(inputs: [{ id: "${missing}", input: { city: "x" } }]) { failed }`,
  deleteVenues: `deleteVenues(ids: ["${missing}"]) { failed }`,
  createOrganizer: `createOrganizer(input: { title: "${title('o')}" }) { organizer { databaseId } }`,
  updateOrganizer: `updateOrganizer(id: "${missing}", input: { phone: "1" }) { organizer { databaseId } }`,
  deleteOrganizer: `deleteOrganizer(id: "${missing}") { databaseId }`,
  createOrganizers: `createOrganizers(inputs: [{ title: "${title('os')}" }]) { written }`,
  updateOrganizers: `updateOrganizers(inputs: [{ id: "${missing}", input: { phone: "1" } }]) { failed }`,
  deleteOrganizers: `deleteOrganizers(ids: ["${missing}"]) { failed }`,
  createCategory: `createCategory(input: { name: "${title('c')}" }) { category { databaseId } }`,
  updateCategory: `updateCategory(id: "${missing}", input: { name: "x" }) { category { databaseId } }`,
  deleteCategory: `deleteCategory(id: "${missing}") { databaseId }`,
  createTag: `createTag(input: { name: "${title('t')}" }) { tag { databaseId } }`,
  updateTag: `updateTag(id: "${missing}", input: { name: "x" }) { tag { databaseId } }`,
  deleteTag: `deleteTag(id: "${missing}") { databaseId }`,
  createPost: `createPost(input: { title: "${title('p')}" }) { databaseId }`,
  updatePost: `updatePost(id: "${missing}", input: { title: "x" }) { databaseId }`,
  deletePost: `deletePost(id: "${missing}") { databaseId }`,
  createPosts: `createPosts(inputs: [{ title: "${title('ps')}" }]) { written }`,
};

describe('every mutation goes through the write engine', () => {
  const mutation = buildSchema().getMutationType()!;
  const fields = Object.values(mutation.getFields());

  // The executable schema binds each resolver anew: the map it was made from holds the functions themselves.
  const made = (name: string): unknown => (resolvers.Mutation as Record<string, unknown>)[name];

  it('each Mutation field is an engine mutation, or listed with why it is not', () => {
    const bypass = fields.filter((f) => !(f.name in NOT_ENGINE) && !isEngineMutation(made(f.name))).map((f) => f.name);
    expect(bypass, 'mutations that write without the engine').toEqual([]);
    // The list holds only fields that exist and do not run the engine.
    for (const name of Object.keys(NOT_ENGINE)) {
      const f = mutation.getFields()[name];
      expect(f, `${name} is listed but not in the schema`).toBeDefined();
      expect(isEngineMutation(made(name)), `${name} is listed but runs the engine`).toBe(false);
    }
    // SeoMutation's fields are reached through `seo`, a namespace object.
    expect(isObjectType(mutation.getFields().seo!.type)).toBe(true);
  });

  describe('and each one runs it', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness();
    });
    afterAll(() => h.close());

    for (const f of fields.filter((x) => !(x.name in NOT_ENGINE))) {
      it(f.name, async () => {
        const sample = SAMPLES[f.name];
        expect(sample, `a sample call of ${f.name} (add one to SAMPLES)`).toBeDefined();
        ENGINE_RUNS.delete(f.name);
        const r = await h.gql(`mutation { ${sample} }`, undefined, 'admin');
        // Refusals are fine (missing IDs): an answer that skipped the engine is not.
        for (const e of r.errors ?? []) expect(e.message).not.toMatch(/without running the write engine/);
        expect(ENGINE_RUNS.has(f.name)).toBe(true);
      });
    }
  });
});

describe('categories, tags and posts: serialized per object and verified against the answer', () => {
  let h: Harness;
  let rest: RestClient;
  beforeAll(async () => {
    h = await startHarness();
    rest = restClient(h.sandbox);
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  const UPDATE = `mutation($id: ID!, $input: UpdatePostInput!) { updatePost(id: $id, input: $input) { databaseId title excerpt } }`;
  const newPost = async () => {
    const r = await h.gql(
      `mutation { createPost(input: { title: "Two writers", excerpt: "Before", status: PUBLISH }) { databaseId } }`,
      undefined,
      'admin',
    );
    expect(r.errors).toBeUndefined();
    return r.data.createPost.databaseId as number;
  };

  it('two concurrent updates of different fields of one post: both held by the site, one after the other', async () => {
    const id = await newPost();
    // The first PATCH answers late: without the lock the second would be sent meanwhile.
    h.sandbox.faults.add({ path: `^/core/v2/posts/${id}$`, method: 'PATCH', delayMs: 400, times: 1 });
    h.mark();
    const [a, b] = await Promise.all([
      h.gql(UPDATE, { id: String(id), input: { title: 'Title from A' } }, 'admin'),
      h.gql(UPDATE, { id: String(id), input: { excerpt: 'Excerpt from B' } }, 'admin'),
    ]);
    expect(a.errors).toBeUndefined();
    expect(b.errors).toBeUndefined();
    const stored = await rest.get(`/core/v2/posts/${id}?context=edit`, 'admin');
    expect(stored.body.title.raw).toBe('Title from A');
    expect(stored.body.excerpt.raw).toBe('Excerpt from B');
    const patches = h.calls().filter((c) => c.method === 'PATCH');
    expect(patches).toHaveLength(2);
    const [first, second] = [...patches].sort((x, y) => x.at - y.at);
    expect(second!.at).toBeGreaterThanOrEqual(first!.at + 350);
  });

  it('a post update the site answers without keeping it is WRITE_NOT_APPLIED, not a success', async () => {
    const id = await newPost();
    const now = await rest.get(`/core/v2/posts/${id}?context=edit`, 'admin');
    const kept = { ...now.body, title: { raw: 'Two writers', rendered: 'Two writers' } };
    h.sandbox.faults.add({ path: `^/core/v2/posts/${id}$`, method: 'PATCH', status: 200, body: kept, times: 1 });
    const r = await h.gql(UPDATE, { id: String(id), input: { title: 'Asked' } }, 'admin');
    expect(r.data.updatePost).toBeNull();
    expect(r.errors![0]!.extensions).toMatchObject({
      code: 'WRITE_NOT_APPLIED',
      arguments: ['input.title'],
      databaseId: id,
      notApplied: [{ field: 'title', reason: 'IGNORED', asked: 'Asked', kept: 'Two writers' }],
    });
  });

  it('a category update the site answers without keeping it is WRITE_NOT_APPLIED; a kept one succeeds', async () => {
    const c = await h.gql(
      `mutation { createCategory(input: { name: "Verified" }) { category { databaseId } } }`,
      undefined,
      'admin',
    );
    const id = c.data.createCategory.category.databaseId as number;
    const now = await rest.get(`/calendar/events/v1/categories/${id}`, 'admin');
    h.sandbox.faults.add({
      path: `^/calendar/events/v1/categories/${id}$`,
      method: 'PATCH',
      status: 200,
      body: { ...now.body, name: 'Verified' },
      times: 1,
    });
    const U = `mutation($id: ID!) { updateCategory(id: $id, method: PATCH, input: { name: "Renamed" }) { category { name } } }`;
    const r = await h.gql(U, { id: String(id) }, 'admin');
    expect(r.errors![0]!.extensions).toMatchObject({
      code: 'WRITE_NOT_APPLIED',
      notApplied: [{ field: 'name', asked: 'Renamed', kept: 'Verified' }],
    });
    const ok = await h.gql(U, { id: String(id) }, 'admin');
    expect(ok.errors).toBeUndefined();
    expect(ok.data.updateCategory.category.name).toBe('Renamed');
  });

  it("a tag update's lost answer is OUTCOME_UNKNOWN, never a success or a failure", async () => {
    const t = await h.gql(`mutation { createTag(input: { name: "Lost" }) { tag { databaseId } } }`, undefined, 'admin');
    const id = t.data.createTag.tag.databaseId as number;
    h.sandbox.faults.add({ path: `^/calendar/events/v1/tags/${id}$`, reset: true, times: 1 });
    const r = await h.gql(
      `mutation($id: ID!) { updateTag(id: $id, input: { name: "Found" }) { tag { name } } }`,
      { id: String(id) },
      'admin',
    );
    expect(r.errors![0]!.extensions!.code).toBe('OUTCOME_UNKNOWN');
    expect(r.errors![0]!.message).toMatch(/read the tags before sending it again\.$/);
  });
});

describe("the compatible graph's mutations go through the write engine too", () => {
  const schema = createWpGraphqlSchema();
  const fields = Object.values(schema.getMutationType()!.getFields());
  const made = (name: string): unknown => (wpGraphqlResolvers.RootMutation as Record<string, unknown>)[name];

  it('each RootMutation field is an engine mutation', () => {
    expect(fields.length).toBeGreaterThan(0);
    expect(fields.filter((f) => !isEngineMutation(made(f.name))).map((f) => f.name)).toEqual([]);
  });

  describe('and each one runs it', () => {
    let h: WpHarness;
    beforeAll(async () => {
      h = await startWpHarness();
    });
    afterAll(() => h.close());

    // One call of each (missing IDs, an event without dates: refused by the engine, which is what is checked).
    const sample = (name: string) => {
      const verb = /^(create|update|delete)/.exec(name)![1];
      const id = verb === 'create' ? '' : `id: "${missing}", `;
      const more = verb === 'delete' ? '' : `title: "${title(`wp ${name}`)}"`;
      return `${name}(input: { ${id}${more} }) { clientMutationId }`;
    };
    for (const f of fields) {
      it(f.name, async () => {
        ENGINE_RUNS.delete(f.name);
        const r = await h.gql(`mutation { ${sample(f.name)} }`, undefined, undefined, 'admin');
        for (const e of r.errors ?? []) expect(e.message).not.toMatch(/without running the write engine/);
        expect(ENGINE_RUNS.has(f.name)).toBe(true);
      });
    }
  });
});
