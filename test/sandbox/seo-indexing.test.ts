/**
 * seo/v1 indexing and link indexing (Yoast src/routes/indexing-route.php;
 * samples seo-indexing-posts.json, seo-indexing-prepare.json): batches that
 * progress through the store and finish with `next_url: false`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

/** The columns of an indexable in the recorded sample. */
const INDEXABLE_KEYS = [
  'object_type',
  'object_id',
  'object_sub_type',
  'permalink',
  'primary_focus_keyword_score',
  'readability_score',
  'is_cornerstone',
  'is_robots_noindex',
  'is_robots_nofollow',
  'is_robots_noimageindex',
  'is_robots_noarchive',
  'is_robots_nosnippet',
  'open_graph_image',
  'open_graph_image_id',
  'open_graph_image_source',
  'open_graph_image_meta',
  'twitter_image',
  'twitter_image_id',
  'twitter_image_source',
  'primary_focus_keyword',
  'canonical',
  'title',
  'description',
  'breadcrumb_title',
  'open_graph_title',
  'open_graph_description',
  'twitter_title',
  'twitter_description',
  'estimated_reading_time_minutes',
  'author_id',
  'post_parent',
  'number_of_pages',
  'post_status',
  'is_protected',
  'is_public',
  'has_public_posts',
  'blog_id',
  'schema_page_type',
  'schema_article_type',
  'object_last_modified',
  'object_published_at',
  'version',
];
const CONTENT_TYPES = [
  'post',
  'page',
  'calendar_events',
  'calendar_venue',
  'calendar_organizer',
  'calendar_event_series',
] as const;

describe('seo/v1 indexing', () => {
  let sb: RunningSandbox;
  let api: RestClient;

  /** Calls a route until next_url is false; returns every batch. */
  const drain = async (path: string, max = 400) => {
    const batches: any[][] = [];
    for (let i = 0; i < max; i++) {
      const r = await api.send('POST', `/seo/v1/${path}`, {}, 'admin');
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['objects', 'next_url']);
      batches.push(r.body.objects);
      if (r.body.next_url === false) return batches;
      expect(r.body.next_url).toBe(`${sb.url}seo/v1/${path}`);
    }
    throw new Error(`${path} never finished`);
  };
  const indexablePostIds = () =>
    CONTENT_TYPES.flatMap((t) => sb.site.store.posts(t))
      .filter((p) => p.status !== 'trash' && p.status !== 'auto-draft')
      .map((p) => p.id)
      .sort((a, b) => a - b);

  beforeAll(async () => {
    sb = await testSandbox();
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  it('prepares with an empty batch and next_url false, as the sample', async () => {
    const r = await api.send('POST', '/seo/v1/indexing/prepare', {}, 'admin');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ objects: [], next_url: false });
  });

  it('indexes every post in batches of 25, in ID order, until a short batch', async () => {
    const batches = await drain('indexing/posts');
    expect(batches.slice(0, -1).every((b) => b.length === 25)).toBe(true);
    expect(batches.at(-1)!.length).toBeLessThan(25);
    const ids = batches.flat().map((o) => Number(o.object_id));
    expect(ids).toEqual(indexablePostIds());
    const first = batches[0]![0];
    expect(Object.keys(first)).toEqual(INDEXABLE_KEYS);
    expect(first).toMatchObject({ object_type: 'post', blog_id: '1', version: '2', is_protected: '0' });
  });

  it('describes posts as the sample does: strings for numbers, pretty permalinks once published, query permalinks before', async () => {
    const event = sb.site.store.posts('calendar_events', ['publish'])[0]!;
    const draft = sb.site.store.posts('calendar_events', ['draft'])[0]!;
    sb.site.store.setOption('wpseo_sandbox_indexing', {});
    const all = (await drain('indexing/posts')).flat();
    const pub = all.find((o) => Number(o.object_id) === event.id);
    expect(pub).toMatchObject({
      object_sub_type: 'calendar_events',
      permalink: `${sb.origin}/event/${event.slug}/`,
      post_status: 'publish',
      is_public: null,
      breadcrumb_title: event.title,
      author_id: String(event.author),
      post_parent: '0',
    });
    const unpublished = all.find((o) => Number(o.object_id) === draft.id);
    expect(unpublished).toMatchObject({
      permalink: `${sb.origin}/?post_type=calendar_events&p=${draft.id}`,
      post_status: 'draft',
      is_public: '0',
    });
  });

  it('answers an empty batch once done, and picks up posts created later', async () => {
    let r = await api.send('POST', '/seo/v1/indexing/posts', {}, 'admin');
    expect(r.body).toEqual({ objects: [], next_url: false });
    const post = sb.site.store.insertPost({
      type: 'post',
      status: 'publish',
      title: 'Late arrival',
      slug: 'late-arrival',
      author: 1,
      date: '2026-02-01 09:00:00',
      dateGmt: '2026-02-01 14:00:00',
    });
    r = await api.send('POST', '/seo/v1/indexing/posts', {}, 'admin');
    expect(r.body.objects.map((o: any) => o.object_id)).toEqual([String(post.id)]);
    expect(r.body.objects[0].permalink).toBe(`${sb.origin}/late-arrival/`);
    expect(r.body.next_url).toBe(false);
  });

  it('indexes terms, post type archives and the general pages', async () => {
    const terms = (await drain('indexing/terms')).flat();
    const expected = ['category', 'post_tag', 'calendar_events_cat']
      .flatMap((t) => sb.site.store.terms(t))
      .map((t) => t.id)
      .sort((a, b) => a - b);
    expect(terms.map((t) => Number(t.object_id))).toEqual(expected);
    const cat = sb.site.store.terms('calendar_events_cat').find((t) => t.parent === 0)!;
    expect(terms.find((t) => Number(t.object_id) === cat.id)).toMatchObject({
      object_type: 'term',
      object_sub_type: 'calendar_events_cat',
      breadcrumb_title: cat.name,
      permalink: `${sb.origin}/events/category/${cat.slug}/`,
    });

    const archives = (await drain('indexing/post-type-archives')).flat();
    expect(archives).toHaveLength(1);
    expect(archives[0]).toMatchObject({
      object_type: 'post-type-archive',
      object_sub_type: 'calendar_events',
      permalink: `${sb.origin}/events/`,
    });

    let r = await api.send('POST', '/seo/v1/indexing/general', {}, 'admin');
    expect(r.body.objects.map((o: any) => [o.object_type, o.object_sub_type])).toEqual([
      ['home-page', null],
      ['system-page', 'search-result'],
      ['system-page', '404'],
      ['date-archive', null],
    ]);
    expect(r.body.next_url).toBe(false);
    r = await api.send('POST', '/seo/v1/indexing/general', {}, 'admin');
    expect(r.body).toEqual({ objects: [], next_url: false });
  });

  it('indexes links of published posts and of terms in batches of 5', async () => {
    const batches = await drain('link-indexing/posts');
    expect(batches[0]).toHaveLength(5);
    const published = CONTENT_TYPES.flatMap((t) => sb.site.store.posts(t, ['publish'])).length;
    expect(batches.flat()).toHaveLength(published);
    const termBatches = await drain('link-indexing/terms');
    expect(termBatches[0]).toHaveLength(5);
    expect(new Set(termBatches.flat().map((t) => t.object_id)).size).toBe(termBatches.flat().length);
  });

  it('completes with empty batches, recording the steps', async () => {
    for (const step of ['indexing/indexables-complete', 'indexing/complete']) {
      const r = await api.send('POST', `/seo/v1/${step}`, {}, 'admin');
      expect(r.body).toEqual({ objects: [], next_url: false });
    }
    expect(sb.site.store.option<any>('wpseo', {})).toMatchObject({
      indexables_indexing_completed: true,
      indexation_completed: true,
      indexing_started: null,
    });
  });

  it('needs edit_posts: 401 anonymous, 403 subscriber, contributors may index', async () => {
    expect((await api.send('POST', '/seo/v1/indexing/terms', {})).status).toBe(401);
    expect((await api.send('POST', '/seo/v1/indexing/terms', {}, 'subscriber')).status).toBe(403);
    expect((await api.send('POST', '/seo/v1/indexing/terms', {}, 'contributor')).status).toBe(200);
  });
});
