/**
 * oembed/1.0, site-blocks/v1, duplicate-post/v1, site/v1/challenge and
 * facet/v1 through the graph: success shapes, permissions and bad input.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/gateway.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.mark());

const firstPost = async () =>
  (await h.gql(`{ posts(first: 1) { nodes { id databaseId url title } } }`)).data.posts.nodes[0];

describe('oEmbed', () => {
  const EMBED = `query($url: String!, $w: Int, $f: OEmbedFormat) { oembed(url: $url, maxWidth: $w, format: $f) { format version type providerName providerUrl authorName authorUrl title width height html thumbnailUrl thumbnailWidth thumbnailHeight xml raw } }`;

  it("embeds one of the site's posts, clamping the width", async () => {
    const post = await firstPost();
    const r = await h.gql(EMBED, { url: post.url, w: 1000 });
    expect(r.errors).toBeUndefined();
    expect(r.data.oembed).toMatchObject({
      format: 'JSON',
      version: '1.0',
      type: 'rich',
      width: 600,
      height: 338,
      title: post.title,
      xml: null,
    });
    expect(r.data.oembed.html).toContain('<blockquote');
    expect(h.calls().at(-1)!.query).toMatchObject({ maxwidth: '1000' });
  });

  it('reads the XML format into the same fields', async () => {
    const post = await firstPost();
    const json = (await h.gql(EMBED, { url: post.url, w: 300 })).data.oembed;
    const xml = (await h.gql(EMBED, { url: post.url, w: 300, f: 'XML' })).data.oembed;
    expect(xml.format).toBe('XML');
    expect(xml.xml).toMatch(/^<\?xml version="1.0"\?>/);
    for (const k of ['version', 'type', 'title', 'width', 'height', 'html', 'providerName', 'authorName'])
      expect(xml[k]).toEqual(json[k]);
  });

  it("reports a URL that is not the site's as NOT_FOUND", async () => {
    const r = await h.gql(EMBED, { url: 'https://elsewhere.example/nothing/' });
    expect(r.errors![0]!.extensions).toMatchObject({
      code: 'NOT_FOUND',
      upstream: { code: 'oembed_invalid_url', status: 404 },
    });
  });

  it('proxies for edit_posts only', async () => {
    const post = await firstPost();
    const q = `query($url: String!) { oembedProxy(url: $url, maxWidth: 400, maxHeight: 300, format: JSON, discover: false) { format title width } }`;
    const ok = await h.gql(q, { url: post.url }, 'contributor');
    expect(ok.errors).toBeUndefined();
    expect(ok.data.oembedProxy).toMatchObject({ format: 'JSON', title: post.title, width: 400 });
    expect(h.calls().at(-1)!.query).toMatchObject({ maxwidth: '400', maxheight: '300', discover: 'false' });
    const anon = await h.gql(q, { url: post.url });
    expect(anon.errors![0]!.extensions).toMatchObject({
      code: 'UNAUTHENTICATED',
      upstream: { code: 'rest_forbidden' },
    });
    const sub = await h.gql(q, { url: post.url }, 'subscriber');
    expect(sub.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    const remote = await h.gql(q, { url: 'https://video.example/watch?v=1' }, 'admin');
    expect(remote.errors![0]!.extensions!.code).toBe('NOT_FOUND');
  });
});

describe('Query.attachmentByUrl', () => {
  const Q = `query($url: String!) { attachmentByUrl(url: $url) { databaseId url width height sizes { name url width height } } }`;

  it('finds an attachment from any of its sizes', async () => {
    const att = h.sandbox.site.store.posts('attachment')[0]! as any;
    const r = await h.gql(Q, { url: att.meta.url }, 'contributor');
    expect(r.errors).toBeUndefined();
    const a = r.data.attachmentByUrl;
    expect(a.databaseId).toBe(att.id);
    expect(a.sizes.map((s: any) => s.name)).toContain('full');
    const thumb = a.sizes.find((s: any) => s.name !== 'full');
    const again = await h.gql(Q, { url: `${thumb.url}?ver=2` }, 'contributor');
    expect(again.data.attachmentByUrl.databaseId).toBe(att.id);
  });

  it('maps misses, empty URLs and missing permission', async () => {
    const miss = await h.gql(Q, { url: '/wp-content/uploads/none.jpg' }, 'admin');
    expect(miss.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND', upstream: { code: 'no_attachment' } });
    const empty = await h.gql(Q, { url: '' }, 'admin');
    expect(empty.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', upstream: { code: 'no_url' } });
    const anon = await h.gql(Q, { url: '/x.jpg' });
    expect(anon.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    const sub = await h.gql(Q, { url: '/x.jpg' }, 'subscriber');
    expect(sub.errors![0]!.extensions!.code).toBe('FORBIDDEN');
  });
});

describe('Mutation.removeDuplicatePostOriginal', () => {
  const M = `mutation($id: ID!) { removeDuplicatePostOriginal(postId: $id) { success message } }`;
  const copies = () => h.sandbox.site.store.posts('post').filter((p: any) => p.meta?._dp_original);

  it('unlinks a plain copy once, then reports nothing to remove', async () => {
    const copy = copies().find((p: any) => !p.meta._dp_is_rewrite_republish_copy)!;
    const anon = await h.gql(M, { id: String(copy.id) });
    expect(anon.errors![0]!.extensions).toMatchObject({
      code: 'FORBIDDEN',
      upstream: { code: 'rest_forbidden', status: 403 },
    });
    const sub = await h.gql(M, { id: String(copy.id) }, 'subscriber');
    expect(sub.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    const r = await h.gql(M, { id: String(copy.id) }, 'admin');
    expect(r.errors).toBeUndefined();
    expect(r.data.removeDuplicatePostOriginal).toEqual({
      success: true,
      message: 'Original reference removed successfully.',
    });
    const again = await h.gql(M, { id: String(copy.id) }, 'admin');
    expect(again.errors![0]!.extensions).toMatchObject({
      code: 'UPSTREAM_ERROR',
      upstream: { code: 'rest_cannot_delete', status: 500 },
    });
  });

  it('refuses a Rewrite & Republish copy, unknown posts and bad IDs', async () => {
    const rr = copies().find((p: any) => p.meta._dp_is_rewrite_republish_copy)!;
    const r = await h.gql(M, { id: String(rr.id) }, 'admin');
    expect(r.errors![0]!.message).toContain('Rewrite & Republish');
    const missing = await h.gql(M, { id: '999999' }, 'admin');
    expect(missing.errors![0]!.extensions).toMatchObject({
      code: 'NOT_FOUND',
      upstream: { code: 'rest_post_not_found' },
    });
    const bad = await h.gql(M, { id: '0' }, 'admin');
    expect(bad.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(h.calls().filter((c) => c.path.endsWith('/0'))).toHaveLength(0);
  });
});

describe('the challenge round trip', () => {
  const GET = `{ challenge { algorithm challenge maxNumber salt signature expiresAt } }`;
  const VERIFY = `mutation($s: ChallengeSolutionInput, $p: String) { verifyChallenge(solution: $s, payload: $p) { verified } }`;
  const solve = (c: any) => {
    for (let n = 0; n <= c.maxNumber; n++)
      if (
        createHash('sha256')
          .update(c.salt + n)
          .digest('hex') === c.challenge
      )
        return n;
    throw new Error('unsolvable');
  };

  it('solves a challenge from the graph and verifies it once', async () => {
    const c = (await h.gql(GET)).data.challenge;
    expect(c.algorithm).toBe('SHA-256');
    expect(Date.parse(c.expiresAt)).toBeGreaterThan(Date.now());
    const solution = { challenge: c.challenge, salt: c.salt, signature: c.signature, number: solve(c) };
    const ok = await h.gql(VERIFY, { s: solution });
    expect(ok.errors).toBeUndefined();
    expect(ok.data.verifyChallenge.verified).toBe(true);
    const replay = await h.gql(VERIFY, { s: solution });
    expect(replay.data.verifyChallenge.verified).toBe(false);
  });

  it('says false for a wrong number and accepts a raw payload', async () => {
    const c = (await h.gql(GET)).data.challenge;
    const wrong = await h.gql(VERIFY, {
      s: { challenge: c.challenge, salt: c.salt, signature: c.signature, number: (solve(c) + 1) % (c.maxNumber + 1) },
    });
    expect(wrong.data.verifyChallenge.verified).toBe(false);
    const payload = Buffer.from(
      JSON.stringify({
        algorithm: 'SHA-256',
        challenge: c.challenge,
        number: solve(c),
        salt: c.salt,
        signature: c.signature,
      }),
    ).toString('base64');
    const raw = await h.gql(VERIFY, { p: payload });
    expect(raw.data.verifyChallenge.verified).toBe(true);
  });

  it('refuses a payload that is not a solution, and both or neither inputs', async () => {
    const bad = await h.gql(VERIFY, { p: 'not base64 json' });
    expect(bad.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      upstream: { code: 'rest_invalid_param' },
    });
    const neither = await h.gql(VERIFY, {});
    expect(neither.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
  });
});

describe('Query.facets', () => {
  it('refreshes facets and results, with the extras asked for', async () => {
    const q = `query($i: FacetRefreshInput) { facets { refresh(input: $i) { facets { name html } template pager { page perPage totalRows totalPages } settings pagerHtml counts perPageHtml sortHtml } } }`;
    const r = await h.gql(q, {
      i: { page: 2, perPage: 5, sort: 'TITLE_ASC', pagerHtml: true, countsHtml: true, sortHtml: true },
    });
    expect(r.errors).toBeUndefined();
    const f = r.data.facets.refresh;
    expect(f.facets.map((x: any) => x.name).sort()).toEqual(['author', 'categories', 'keywords', 'tags']);
    expect(f.pager).toEqual({ page: 2, perPage: 5, totalRows: 25, totalPages: 5 });
    expect(f.counts).toBe('6-10 of 25');
    expect(f.pagerHtml).toContain('facetwp-pager');
    expect(f.perPageHtml).toContain('select');
    expect(f.sortHtml).toContain('title_asc');
    const cats = f.settings.num_choices.categories;
    expect(cats).toBeGreaterThan(0);
    const first = await h.gql(q, { i: { firstLoad: true } });
    expect(first.data.facets.refresh.template).toBe('');
  });

  it('narrows by a selection and suggests choices', async () => {
    const sug = await h.gql(`{ facets { autocomplete(facetName: "categories", query: "e") { value label } } }`);
    expect(sug.errors).toBeUndefined();
    const choice = sug.data.facets.autocomplete[0];
    expect(choice.label.toLowerCase()).toContain('e');
    const r = await h.gql(`query($i: FacetRefreshInput) { facets { refresh(input: $i) { pager { totalRows } } } }`, {
      i: { facets: [{ name: 'categories', values: [choice.value] }] },
    });
    expect(r.data.facets.refresh.pager.totalRows).toBeLessThan(25);
    expect(h.calls().at(-1)!.method).toBe('POST');
  });

  it('fetches results only for administrators once the site opens the API', async () => {
    const q = `query($i: FacetFetchInput) { facets { fetch(input: $i) { results facets { name label type selected choices { value label depth count termId parentId } } pager { page perPage totalRows totalPages } } } }`;
    const input = {
      query: { postType: 'post', postStatus: ['publish'], postsPerPage: 3, paged: 1, orderby: 'ID', order: 'ASC' },
    };
    const closed = await h.gql(q, { i: input }, 'admin');
    expect(closed.errors![0]!.extensions).toMatchObject({ code: 'FORBIDDEN', upstream: { code: 'rest_forbidden' } });
    h.sandbox.site.store.setOption('facetwp_api_can_access', true);
    try {
      const ok = await h.gql(q, { i: input }, 'admin');
      expect(ok.errors).toBeUndefined();
      const f = ok.data.facets.fetch;
      expect(f.results).toHaveLength(3);
      expect(f.results).toEqual([...f.results].sort((a: number, b: number) => a - b));
      expect(f.pager).toMatchObject({ page: 1, perPage: 3, totalRows: 25 });
      expect(f.facets.find((x: any) => x.name === 'categories').choices.length).toBeGreaterThan(0);
      const anon = await h.gql(q, { i: input });
      expect(anon.errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
      const editor = await h.gql(q, { i: input }, 'editor');
      expect(editor.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    } finally {
      h.sandbox.site.store.setOption('facetwp_api_can_access', false);
    }
  });
});
