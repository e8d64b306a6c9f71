/**
 * core/v2 posts through the graph: a Relay connection with totals, every
 * filter of GET /core/v2/posts, Post as a Node, createPost and its permission
 * errors, updatePost/deletePost (the single post route real WordPress serves
 * beyond the spec's rows) and createPosts through /batch/v1.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toGlobalId } from '../../src/mapping/ids.ts';
import { startHarness, type Harness } from '../helpers/gateway.ts';

const LIST = `query($first: Int, $after: String, $where: PostsWhere, $orderBy: PostsOrderBy, $context: RestContext) {
  posts(first: $first, after: $after, where: $where, orderBy: $orderBy, context: $context) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage endCursor }
    edges { cursor }
    nodes { id databaseId title slug status authorId sticky format categoryIds tagIds publishedAt publishedAtUtc modifiedAt passwordProtected content excerpt raw }
  }
}`;

describe('Query.posts', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  const list = async (vars: Record<string, unknown>, who: Parameters<Harness['gql']>[2] = null) => {
    const r = await h.gql(LIST, { first: 100, ...vars }, who);
    expect(r.errors).toBeUndefined();
    return r.data.posts as { totalCount: number; nodes: any[]; pageInfo: any; edges: any[] };
  };

  it('pages published posts with totals from X-WP-Total and one upstream request per window', async () => {
    const first = await list({ first: 10 });
    expect(first.totalCount).toBe(25);
    expect(first.nodes).toHaveLength(10);
    expect(first.nodes.every((n) => n.status === 'publish')).toBe(true);
    expect(first.pageInfo.hasNextPage).toBe(true);
    expect(h.calls().map((c) => [c.method, c.path, c.query.per_page, c.query.page])).toEqual([
      ['GET', '/core/v2/posts', '10', '1'],
    ]);
    const next = await list({ first: 10, after: first.pageInfo.endCursor });
    expect(next.pageInfo.hasPreviousPage).toBe(true);
    expect(new Set([...first.nodes, ...next.nodes].map((n) => n.databaseId)).size).toBe(20);
  });

  it('maps dates with the site offset and keeps the body as raw', async () => {
    const [n] = (await list({ first: 1 })).nodes;
    expect(n.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/);
    expect(n.publishedAtUtc).toMatch(/Z$/);
    expect(n.raw.id).toBe(n.databaseId);
    expect(n.title).toBe(n.raw.title.rendered);
  });

  it('resolves a Post global ID through node(id:)', async () => {
    const [n] = (await list({ first: 1 })).nodes;
    const r = await h.gql(`query($id: ID!) { node(id: $id) { id ... on Post { databaseId title } } }`, { id: n.id });
    expect(r.errors).toBeUndefined();
    expect(r.data.node).toEqual({ id: n.id, databaseId: n.databaseId, title: n.title });
  });

  describe('filters', () => {
    it('search, searchSemantics and searchColumns', async () => {
      const all = await list({});
      const word = all.nodes[0].title.split(' ')[0];
      const s = await list({ where: { search: word } });
      expect(s.totalCount).toBeGreaterThan(0);
      expect(h.calls().at(-1)!.query.search).toBe(word);
      const exact = await list({
        where: { search: all.nodes[0].title, searchSemantics: 'EXACT', searchColumns: ['POST_TITLE'] },
      });
      expect(exact.nodes.map((n) => n.databaseId)).toContain(all.nodes[0].databaseId);
      expect(exact.nodes.every((n) => n.title.toLowerCase() === all.nodes[0].title.toLowerCase())).toBe(true);
      const q = h.calls().at(-1)!.query;
      expect(q.search_semantics).toBe('exact');
      expect(q.search_columns).toEqual(['post_title']);
    });

    it('after, before, modifiedAfter and modifiedBefore (exclusive)', async () => {
      const all = (await list({ orderBy: { field: 'DATE', direction: 'ASC' } })).nodes;
      const mid = all[10];
      const after = await list({ where: { after: mid.publishedAt } });
      expect(after.nodes.every((n) => Date.parse(n.publishedAt) > Date.parse(mid.publishedAt))).toBe(true);
      const before = await list({ where: { before: mid.publishedAt } });
      expect(before.nodes.every((n) => Date.parse(n.publishedAt) < Date.parse(mid.publishedAt))).toBe(true);
      expect(after.totalCount + before.totalCount).toBeLessThan(all.length);
      const modAfter = await list({ where: { modifiedAfter: '2000-01-01T00:00:00Z' } });
      expect(modAfter.totalCount).toBe(all.length);
      const modBefore = await list({ where: { modifiedBefore: '2000-01-01T00:00:00Z' } });
      expect(modBefore.totalCount).toBe(0);
      expect(h.calls().at(-1)!.query.modified_before).toBe('2000-01-01T00:00:00Z');
    });

    it('author and authorExclude', async () => {
      const all = (await list({})).nodes;
      const a = all[0].authorId;
      const only = await list({ where: { author: [a] } });
      expect(only.totalCount).toBeGreaterThan(0);
      expect(only.nodes.every((n) => n.authorId === a)).toBe(true);
      const not = await list({ where: { authorExclude: [a] } });
      expect(not.nodes.every((n) => n.authorId !== a)).toBe(true);
      expect(only.totalCount + not.totalCount).toBe(all.length);
      expect(h.calls().at(-1)!.query.author_exclude).toEqual([String(a)]);
    });

    it('include (with orderBy INCLUDE keeping the given order), exclude and slug', async () => {
      const all = (await list({})).nodes;
      const ids = [all[3].databaseId, all[0].databaseId, all[7].databaseId];
      const inc = await list({ where: { include: ids }, orderBy: { field: 'INCLUDE' } });
      expect(inc.nodes.map((n) => n.databaseId)).toEqual(ids);
      const exc = await list({ where: { exclude: ids } });
      expect(exc.totalCount).toBe(all.length - 3);
      const slugs = [all[5].slug, all[2].slug];
      const bySlug = await list({ where: { slug: slugs }, orderBy: { field: 'INCLUDE_SLUGS' } });
      expect(bySlug.nodes.map((n) => n.slug)).toEqual(slugs);
    });

    it('status: drafts need edit_posts; ANY for an administrator', async () => {
      const anon = await h.gql(LIST, { first: 5, where: { status: ['DRAFT'] } });
      expect(anon.data).toEqual({ posts: null });
      expect(anon.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
      expect(anon.errors![0]!.extensions!.upstream.code).toBe('rest_invalid_param');
      const sub = await h.gql(LIST, { first: 5, where: { status: ['DRAFT'] } }, 'subscriber');
      expect(sub.errors![0]!.extensions!.details.status.data.status).toBe(403);
      const drafts = await list({ where: { status: ['DRAFT'] } }, 'admin');
      expect(drafts.totalCount).toBe(4);
      expect(drafts.nodes.every((n) => n.status === 'draft')).toBe(true);
      const any = await list({ where: { status: ['ANY'] } }, 'admin');
      expect(any.nodes.map((n) => n.status)).toEqual(
        expect.arrayContaining(['publish', 'future', 'draft', 'pending', 'private']),
      );
      const priv = await list({ where: { status: ['PRIVATE', 'FUTURE'] } }, 'admin');
      expect(priv.totalCount).toBe(7);
      expect(h.calls().at(-1)!.query.status).toEqual(['private', 'future']);
      const rr = await list({ where: { status: ['DP_REWRITE_REPUBLISH'] } }, 'admin');
      expect(h.calls().at(-1)!.query.status).toEqual(['dp-rewrite-republish']);
      expect(rr.nodes.every((n) => n.status === 'dp-rewrite-republish')).toBe(true);
    });

    it('offset skips posts and cursors count from there', async () => {
      const all = (await list({})).nodes;
      const off = await list({ first: 5, where: { offset: 3 } });
      expect(off.nodes.map((n) => n.databaseId)).toEqual(all.slice(3, 8).map((n) => n.databaseId));
      expect(off.totalCount).toBe(all.length - 3);
      const next = await list({ first: 5, after: off.pageInfo.endCursor, where: { offset: 3 } });
      expect(next.nodes.map((n) => n.databaseId)).toEqual(all.slice(8, 13).map((n) => n.databaseId));
      // The caller's offset stays under the site's (a keyset cursor also reads a margin before its post).
      expect(Number(h.calls().at(-1)!.query.offset)).toBeGreaterThanOrEqual(3);
      const bad = await h.gql(LIST, { where: { offset: -1 } });
      expect(bad.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    });

    it('categories as a list and as an object (includeChildren, operator), categoriesExclude', async () => {
      const all = (await list({})).nodes;
      const cat = all.flatMap((n) => n.categoryIds).find((c: number) => c !== 1)!;
      const inCat = await list({ where: { categories: { terms: [cat] } } });
      expect(inCat.totalCount).toBeGreaterThan(0);
      expect(inCat.nodes.every((n) => n.categoryIds.includes(cat))).toBe(true);
      expect(h.calls().at(-1)!.query.categories).toEqual([String(cat)]);
      const withChildren = await list({
        where: { categories: { terms: [cat], includeChildren: true, operator: 'OR' } },
      });
      expect(withChildren.totalCount).toBeGreaterThanOrEqual(inCat.totalCount);
      expect(h.calls().at(-1)!.query.categories).toEqual({
        terms: [String(cat)],
        include_children: 'true',
        operator: 'OR',
      });
      const two = [...new Set(all.flatMap((n) => n.categoryIds))].slice(0, 2) as number[];
      const and = await list({ where: { categories: { terms: two, operator: 'AND' } } });
      expect(and.nodes.every((n) => two.every((t) => n.categoryIds.includes(t)))).toBe(true);
      const notCat = await list({ where: { categoriesExclude: { terms: [cat] } } });
      expect(notCat.nodes.every((n) => !n.categoryIds.includes(cat))).toBe(true);
      const notCatChildren = await list({ where: { categoriesExclude: { terms: [cat], includeChildren: true } } });
      expect(notCatChildren.totalCount).toBeLessThanOrEqual(notCat.totalCount);
    });

    it('tags, tagsExclude and taxRelation', async () => {
      const all = (await list({})).nodes;
      const tag = all.flatMap((n) => n.tagIds)[0] as number;
      const cat = all.flatMap((n) => n.categoryIds).find((c: number) => c !== 1)!;
      const tagged = await list({ where: { tags: { terms: [tag] } } });
      expect(tagged.nodes.every((n) => n.tagIds.includes(tag))).toBe(true);
      const taggedOp = await list({ where: { tags: { terms: [tag], operator: 'AND' } } });
      expect(taggedOp.totalCount).toBe(tagged.totalCount);
      const untagged = await list({ where: { tagsExclude: [tag] } });
      expect(tagged.totalCount + untagged.totalCount).toBe(all.length);
      const and = await list({ where: { tags: { terms: [tag] }, categories: { terms: [cat] } } });
      const or = await list({ where: { tags: { terms: [tag] }, categories: { terms: [cat] }, taxRelation: 'OR' } });
      expect(and.nodes.every((n) => n.tagIds.includes(tag) && n.categoryIds.includes(cat))).toBe(true);
      expect(or.nodes.every((n) => n.tagIds.includes(tag) || n.categoryIds.includes(cat))).toBe(true);
      expect(or.totalCount).toBeGreaterThanOrEqual(and.totalCount);
      expect(h.calls().at(-1)!.query.tax_relation).toBe('OR');
    });

    it('sticky and format', async () => {
      const sticky = await list({ where: { sticky: true } });
      expect(sticky.totalCount).toBe(2);
      expect(sticky.nodes.every((n) => n.sticky)).toBe(true);
      const notSticky = await list({ where: { sticky: false } });
      expect(notSticky.nodes.every((n) => !n.sticky)).toBe(true);
      const asides = await list({ where: { format: ['ASIDE', 'GALLERY'] } });
      expect(asides.totalCount).toBeGreaterThan(0);
      expect(asides.nodes.every((n) => n.format === 'aside' || n.format === 'gallery')).toBe(true);
      expect(h.calls().at(-1)!.query.format).toEqual(['aside', 'gallery']);
    });

    it('orderBy title, id, slug, author, modified, parent and rand; relevance needs a search', async () => {
      const titles = (await list({ orderBy: { field: 'TITLE', direction: 'ASC' } })).nodes.map((n) =>
        n.title.toLowerCase(),
      );
      expect(titles).toEqual([...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      const ids = (await list({ orderBy: { field: 'ID', direction: 'DESC' } })).nodes.map((n) => n.databaseId);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect(h.calls().at(-1)!.query).toMatchObject({ orderby: 'id', order: 'desc' });
      for (const field of ['SLUG', 'AUTHOR', 'MODIFIED', 'PARENT', 'RAND']) {
        expect((await list({ orderBy: { field } })).totalCount).toBe(25);
      }
      const noSearch = await h.gql(LIST, { orderBy: { field: 'RELEVANCE' } });
      expect(noSearch.errors![0]!.extensions!.upstream.code).toBe('rest_no_search_term_defined');
      const rel = await list({ where: { search: titles[0]!.split(' ')[0] }, orderBy: { field: 'RELEVANCE' } });
      expect(rel.totalCount).toBeGreaterThan(0);
    });

    it('context: EDIT needs edit_posts and adds raw fields; EMBED trims them', async () => {
      const edit = await list({ first: 1, context: 'EDIT' }, 'admin');
      expect(edit.nodes[0].raw.title.raw).toBeTypeOf('string');
      expect(h.calls().at(-1)!.query.context).toBe('edit');
      const anon = await h.gql(LIST, { first: 1, context: 'EDIT' });
      expect(anon.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
      const embed = await list({ first: 1, context: 'EMBED' });
      expect(embed.nodes[0].raw.status).toBeUndefined();
    });

    it('refuses a bad date before it reaches the site', async () => {
      const r = await h.gql(LIST, { where: { after: 'yesterday' } });
      expect(r.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
      expect(h.calls()).toHaveLength(0);
    });
  });
});

describe('Mutation.createPost', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const CREATE = `mutation($input: CreatePostInput!) { createPost(input: $input) { id databaseId title content status slug format sticky categoryIds tagIds commentStatus publishedAt publishedAtUtc raw } }`;

  it('creates a draft by default and returns it in context edit', async () => {
    const r = await h.gql(
      CREATE,
      { input: { title: 'Gateway post', content: '<p>Hello</p>', excerpt: 'Hi' } },
      'author',
    );
    expect(r.errors).toBeUndefined();
    const p = r.data.createPost;
    expect(p).toMatchObject({ title: 'Gateway post', status: 'draft', slug: '', format: 'standard' });
    expect(p.categoryIds).toHaveLength(1);
    expect(p.raw.content.raw).toBe('<p>Hello</p>');
  });

  it('publishes with every input field mapped', async () => {
    const tags = h.sandbox.site.store
      .terms('post_tag')
      .slice(0, 2)
      .map((t) => t.id);
    const input = {
      title: 'Full post',
      content: 'Body',
      excerpt: 'Short',
      slug: 'full-post',
      status: 'PUBLISH',
      date: '2026-01-02T03:04:05Z',
      commentStatus: 'CLOSED',
      pingStatus: 'CLOSED',
      format: 'ASIDE',
      sticky: true,
      template: '',
      tagIds: tags,
      meta: {},
    };
    const r = await h.gql(CREATE, { input }, 'admin');
    expect(r.errors).toBeUndefined();
    expect(r.data.createPost).toMatchObject({
      status: 'publish',
      slug: 'full-post',
      format: 'aside',
      sticky: true,
      commentStatus: 'closed',
      publishedAtUtc: '2026-01-02T03:04:05Z',
    });
    expect(r.data.createPost.tagIds).toEqual(tags);
    const posts = await h.gql(`{ posts(first: 1, where: { slug: ["full-post"] }) { nodes { databaseId } } }`);
    expect(posts.data.posts.nodes[0].databaseId).toBe(r.data.createPost.databaseId);
  });

  it('refuses anonymous callers, subscribers and contributors publishing', async () => {
    const anon = await h.gql(CREATE, { input: { title: 'x' } });
    expect(anon.errors![0]!.extensions).toMatchObject({
      code: 'UNAUTHENTICATED',
      upstream: { code: 'rest_cannot_create', status: 401 },
    });
    const sub = await h.gql(CREATE, { input: { title: 'x' } }, 'subscriber');
    expect(sub.errors![0]!.extensions).toMatchObject({ code: 'FORBIDDEN', upstream: { code: 'rest_cannot_create' } });
    const contrib = await h.gql(CREATE, { input: { title: 'x', status: 'PUBLISH' } }, 'contributor');
    expect(contrib.errors![0]!.extensions).toMatchObject({
      code: 'FORBIDDEN',
      upstream: { code: 'rest_cannot_publish' },
    });
  });

  it("passes the site's validation errors on with their parameters", async () => {
    const r = await h.gql(CREATE, { input: { title: 'x', template: 'nope.php' } }, 'admin');
    expect(r.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      upstream: { code: 'rest_invalid_param' },
    });
    expect(r.errors![0]!.extensions!.params).toHaveProperty('template');
  });
});

const POST = `id databaseId title content excerpt slug status format sticky categoryIds tagIds commentStatus publishedAt publishedAtUtc raw`;

describe("Mutation.updatePost and deletePost (core/v2/posts/<id>, beyond the spec's rows)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  const UPDATE = `mutation($id: ID!, $input: UpdatePostInput!) { updatePost(id: $id, input: $input) { ${POST} } }`;
  const DELETE = `mutation($id: ID!, $force: Boolean) { deletePost(id: $id, force: $force) { databaseId permanently post { ${POST} } } }`;
  const create = async (input: Record<string, unknown> = {}) => {
    const r = await h.gql(
      `mutation($input: CreatePostInput!) { createPost(input: $input) { id databaseId } }`,
      { input: { title: 'To change', content: 'Body', excerpt: 'Short', ...input } },
      'admin',
    );
    expect(r.errors).toBeUndefined();
    return r.data.createPost as { id: string; databaseId: number };
  };

  it('changes only the fields given, in one PATCH, and returns the post in context edit', async () => {
    const p = await create({ commentStatus: 'CLOSED', format: 'ASIDE' });
    h.mark();
    const r = await h.gql(UPDATE, { id: p.id, input: { title: 'Changed', tagIds: [] } }, 'admin');
    expect(r.errors).toBeUndefined();
    expect(r.data.updatePost).toMatchObject({
      databaseId: p.databaseId,
      title: 'Changed',
      excerpt: expect.stringContaining('Short'),
      commentStatus: 'closed',
      format: 'aside',
      status: 'draft',
    });
    expect(r.data.updatePost.raw.content.raw).toBe('Body');
    expect(h.calls().map((c) => [c.method, c.path])).toEqual([['PATCH', `/core/v2/posts/${p.databaseId}`]]);
    // A database ID works as well as the global ID.
    const pub = await h.gql(
      UPDATE,
      { id: String(p.databaseId), input: { status: 'PUBLISH', date: '2026-01-02T03:04:05Z' } },
      'admin',
    );
    expect(pub.data.updatePost).toMatchObject({
      status: 'publish',
      slug: 'changed',
      publishedAtUtc: '2026-01-02T03:04:05Z',
    });
  });

  it('errors: NOT_FOUND for a missing post, UNAUTHENTICATED / FORBIDDEN by caller, BAD_USER_INPUT for a bad value or ID', async () => {
    const missing = await h.gql(UPDATE, { id: toGlobalId('Post', 999999), input: { title: 'x' } }, 'admin');
    expect(missing.data.updatePost).toBeNull();
    expect(missing.errors![0]!.extensions).toMatchObject({
      code: 'NOT_FOUND',
      upstream: { code: 'rest_post_invalid_id', status: 404 },
    });
    const p = await create();
    const anon = await h.gql(UPDATE, { id: p.id, input: { title: 'x' } });
    expect(anon.errors![0]!.extensions).toMatchObject({
      code: 'UNAUTHENTICATED',
      upstream: { code: 'rest_cannot_edit', status: 401 },
    });
    const sub = await h.gql(UPDATE, { id: p.id, input: { title: 'x' } }, 'subscriber');
    expect(sub.errors![0]!.extensions).toMatchObject({
      code: 'FORBIDDEN',
      upstream: { code: 'rest_cannot_edit', status: 403 },
    });
    const bad = await h.gql(UPDATE, { id: p.id, input: { template: 'nope.php' } }, 'admin');
    expect(bad.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      upstream: { code: 'rest_invalid_param' },
    });
    h.mark();
    const badId = await h.gql(UPDATE, { id: 'not-an-id', input: { title: 'x' } }, 'admin');
    expect(badId.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['id'] });
    expect(h.calls()).toHaveLength(0);
  });

  it('trashes (the post, status trash), then GONE; force deletes for good and returns the post as it was', async () => {
    const p = await create({ status: 'PUBLISH' });
    const trash = await h.gql(DELETE, { id: p.id }, 'admin');
    expect(trash.errors).toBeUndefined();
    expect(trash.data.deletePost).toMatchObject({
      databaseId: p.databaseId,
      permanently: false,
      post: { status: 'trash', title: 'To change' },
    });
    const again = await h.gql(DELETE, { id: p.id }, 'admin');
    expect(again.errors![0]!.extensions).toMatchObject({
      code: 'GONE',
      upstream: { code: 'rest_already_trashed', status: 410 },
    });
    const q = await create({ status: 'PUBLISH' });
    h.mark();
    const gone = await h.gql(DELETE, { id: q.id, force: true }, 'admin');
    expect(gone.data.deletePost).toMatchObject({
      databaseId: q.databaseId,
      permanently: true,
      post: { status: 'publish' },
    });
    expect(h.calls().map((c) => [c.method, c.path, c.query.force])).toEqual([
      ['DELETE', `/core/v2/posts/${q.databaseId}`, 'true'],
    ]);
    const node = await h.gql(`query($id: ID!) { node(id: $id) { id } }`, { id: q.id }, 'admin');
    expect(node.errors).toBeUndefined();
    expect(node.data.node).toBeNull();
  });

  it('a missing post: NOT_FOUND for deletePost, null through node(id:)', async () => {
    const r = await h.gql(DELETE, { id: toGlobalId('Post', 999999), force: true }, 'admin');
    expect(r.data.deletePost).toBeNull();
    expect(r.errors![0]!.extensions).toMatchObject({
      code: 'NOT_FOUND',
      upstream: { code: 'rest_post_invalid_id', status: 404 },
    });
    const anon = await h.gql(DELETE, { id: toGlobalId('Post', 999999) });
    expect(anon.errors![0]!.extensions!.code).toBe('NOT_FOUND');
    const node = await h.gql(`query($id: ID!) { node(id: $id) { id } }`, { id: toGlobalId('Post', 999999) });
    expect(node.data.node).toBeNull();
  });
});

describe('Mutation.createPosts through /batch/v1', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.mark());

  const BULK = `mutation($inputs: [CreatePostInput!]!, $atomic: Boolean) {
    createPosts(inputs: $inputs, atomic: $atomic) { written failed results { index databaseId post { databaseId title status } error { code message path upstream } } }
  }`;

  it('60 posts: 3 /batch/v1 requests (25 + 25 + 10), results in input order', async () => {
    const inputs = Array.from({ length: 60 }, (_, i) => ({ title: `Bulk ${i}`, status: 'PUBLISH' }));
    const r = await h.gql(BULK, { inputs }, 'admin');
    expect(r.errors).toBeUndefined();
    const p = r.data.createPosts;
    expect([p.written, p.failed]).toEqual([60, 0]);
    expect(p.results.map((x: any) => x.index)).toEqual(inputs.map((_, i) => i));
    expect(p.results.map((x: any) => x.post.title)).toEqual(inputs.map((x) => x.title));
    expect(p.results.every((x: any) => x.databaseId === x.post.databaseId && x.post.status === 'publish')).toBe(true);
    const calls = h.calls();
    expect(calls.map((c) => [c.method, c.path])).toEqual([
      ['POST', '/batch/v1'],
      ['POST', '/batch/v1'],
      ['POST', '/batch/v1'],
    ]);
    const posts = await h.gql(`{ posts(first: 100, where: { search: "Bulk" }) { totalCount } }`);
    expect(posts.data.posts.totalCount).toBe(60);
  });

  it('normal mode: a bad item fails alone, with its error and path; the others are written', async () => {
    const inputs = [{ title: 'Good 1' }, { title: 'Bad', template: 'nope.php' }, { title: 'Good 2' }];
    const r = await h.gql(BULK, { inputs }, 'admin');
    expect(r.errors).toBeUndefined();
    const p = r.data.createPosts;
    expect([p.written, p.failed]).toEqual([2, 1]);
    expect(p.results[1]).toMatchObject({
      index: 1,
      databaseId: null,
      post: null,
      error: {
        code: 'BAD_USER_INPUT',
        path: ['inputs', '1', 'template'],
        upstream: { code: 'rest_invalid_param', status: 400 },
      },
    });
    expect(p.results[2].post.title).toBe('Good 2');
    expect(h.calls().map((c) => c.path)).toEqual(['/batch/v1']);
  });

  it('atomic: nothing is written unless every item validates; valid items are NOT_EXECUTED', async () => {
    const r = await h.gql(
      BULK,
      { inputs: [{ title: 'Never 1' }, { title: 'Never 2', template: 'nope.php' }], atomic: true },
      'admin',
    );
    const p = r.data.createPosts;
    expect([p.written, p.failed]).toEqual([0, 2]);
    expect(p.results[0].error).toMatchObject({ code: 'NOT_EXECUTED', path: ['inputs', '0'] });
    expect(p.results[1].error).toMatchObject({ code: 'BAD_USER_INPUT', path: ['inputs', '1', 'template'] });
    const none = await h.gql(
      `{ posts(first: 1, where: { search: "Never", status: [ANY] }) { totalCount } }`,
      {},
      'admin',
    );
    expect(none.data.posts.totalCount).toBe(0);
    const ok = await h.gql(BULK, { inputs: [{ title: 'Atomic 1' }, { title: 'Atomic 2' }], atomic: true }, 'admin');
    expect(ok.data.createPosts.written).toBe(2);
  });

  it('atomic with more than one batch is refused before anything is sent', async () => {
    const r = await h.gql(
      BULK,
      { inputs: Array.from({ length: 26 }, (_, i) => ({ title: `Too many ${i}` })), atomic: true },
      'admin',
    );
    expect(r.data.createPosts).toBeNull();
    expect(r.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['atomic'] });
    expect(h.calls()).toHaveLength(0);
  });

  it('per-item permission errors (a contributor publishing); anonymous callers are refused before any request', async () => {
    const r = await h.gql(
      BULK,
      { inputs: [{ title: 'Contrib draft' }, { title: 'Contrib publish', status: 'PUBLISH' }] },
      'contributor',
    );
    const p = r.data.createPosts;
    expect(p.results[0].error).toBeNull();
    expect(p.results[1].error).toMatchObject({ code: 'FORBIDDEN', upstream: { code: 'rest_cannot_publish' } });
    h.mark();
    const anon = await h.gql(BULK, { inputs: [{ title: 'x' }] });
    expect(anon.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    expect(h.calls()).toHaveLength(0);
  });

  it('a site that does not mark the route batchable: direct requests, and atomic is refused', async () => {
    const plain = await startHarness({ sandbox: { batchable: false } });
    try {
      const r = await plain.gql(BULK, { inputs: [{ title: 'Direct 1' }, { title: 'Direct 2' }] }, 'admin');
      expect(r.data.createPosts.written).toBe(2);
      expect(
        plain
          .calls()
          .filter((c) => c.method === 'POST')
          .map((c) => c.path),
      ).toEqual(['/core/v2/posts', '/core/v2/posts']);
      const atomic = await plain.gql(BULK, { inputs: [{ title: 'x' }], atomic: true }, 'admin');
      expect(atomic.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['atomic'] });
    } finally {
      await plain.close();
    }
  });
});
