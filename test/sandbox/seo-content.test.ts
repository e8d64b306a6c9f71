/**
 * seo/v1 content routes: SEO and readability scores computed from posts in
 * the store, the statistics widget, workouts, prominent words and link
 * suggestions, and the SEO head of a page (reference site-upstream.md §8,
 * other-upstream.md §7; samples seo-statistics*.json, seo-workouts.json).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../packages/sandbox/src/auth.ts';
import { setPostSeoMeta } from '../../packages/sandbox/src/namespaces/seo/analysis.ts';
import type { RunningSandbox } from '../../packages/sandbox/src/server.ts';
import type { PostRow } from '../../packages/sandbox/src/store/db.ts';
import { restClient, testSandbox, type RestClient } from '../helpers/sandbox.ts';

/** `count` words in sentences of `perSentence` words, with `word` first. */
function text(word: string, count: number, perSentence: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(i === 0 ? word : `w${i % 7}x`);
  const sentences: string[] = [];
  for (let i = 0; i < out.length; i += perSentence) sentences.push(`${out.slice(i, i + perSentence).join(' ')}.`);
  return `<p>${sentences.join(' ')}</p>`;
}

describe('seo/v1 content', () => {
  let sb: RunningSandbox;
  let api: RestClient;
  let seq = 0;
  const add = (f: Partial<PostRow> & { title: string }): PostRow =>
    sb.site.store.insertPost({
      type: 'post',
      status: 'publish',
      author: 1,
      content: '',
      slug: `${f.title.toLowerCase().replace(/\W+/g, '-')}-${++seq}`,
      date: '2026-03-01 10:00:00',
      dateGmt: '2026-03-01 15:00:00',
      ...f,
    });
  const scores = async (query: string) => {
    const r = await api.get(`/seo/v1/${query}`, 'admin');
    expect(r.status, query).toBe(200);
    return r.body as {
      scores: { name: string; amount: number; links: { view?: string }; ids?: string }[];
      queryTime: number;
      cacheUsed: boolean;
    };
  };
  const group = (body: Awaited<ReturnType<typeof scores>>, name: string) => body.scores.find((s) => s.name === name)!;
  const idsOf = (body: Awaited<ReturnType<typeof scores>>, name: string) =>
    (group(body, name).ids ?? '').split(',').filter(Boolean).map(Number);

  beforeAll(async () => {
    sb = await testSandbox();
    api = restClient(sb);
  });
  afterAll(() => sb.close());

  describe('seo_scores and readability_scores', () => {
    let good: PostRow, ok: PostRow, bad: PostRow, none: PostRow, draft: PostRow, hidden: PostRow;
    let before: Awaited<ReturnType<typeof scores>>;

    beforeAll(async () => {
      before = await scores('seo_scores?contentType=post&troubleshooting=true');
      good = add({ title: 'Harbor guide', content: text('harbor', 320, 10) });
      ok = add({ title: 'Harbor notes', content: text('notes', 36, 18) });
      bad = add({ title: 'Quiet evening', content: text('quiet', 30, 30) });
      none = add({ title: 'Untagged', content: '' });
      draft = add({ title: 'Harbor draft', status: 'draft', content: text('harbor', 320, 10) });
      hidden = add({ title: 'Harbor hidden', content: text('harbor', 320, 10) });
      for (const p of [good, ok, draft, hidden]) setPostSeoMeta(sb.site, p.id, { focuskw: 'harbor' });
      setPostSeoMeta(sb.site, bad.id, { focuskw: 'zebra' });
      setPostSeoMeta(sb.site, hidden.id, { noindex: true });
    });

    it('groups published posts of the content type into good, ok, bad and notAnalyzed, in that order', async () => {
      const after = await scores('seo_scores?contentType=post&troubleshooting=true');
      expect(after.scores.map((s) => s.name)).toEqual(['good', 'ok', 'bad', 'notAnalyzed']);
      expect(idsOf(after, 'good')).toContain(good.id);
      expect(idsOf(after, 'ok')).toContain(ok.id);
      expect(idsOf(after, 'bad')).toContain(bad.id);
      expect(idsOf(after, 'notAnalyzed')).toContain(none.id);
      for (const name of ['good', 'ok', 'bad', 'notAnalyzed']) {
        expect(group(after, name).amount - group(before, name).amount, name).toBe(1);
      }
      // Drafts and noindex posts are not counted.
      const all = after.scores.flatMap((s) => (s.ids ?? '').split(','));
      expect(all).not.toContain(String(draft.id));
      expect(all).not.toContain(String(hidden.id));
    });

    it('links every group to the filtered posts list', async () => {
      const body = await scores('seo_scores?contentType=post&troubleshooting=true');
      expect(group(body, 'good').links.view).toBe(
        `${sb.origin}/wp-admin/edit.php?post_status=publish&post_type=post&seo_filter=good`,
      );
      expect(group(body, 'notAnalyzed').links.view).toBe(
        `${sb.origin}/wp-admin/edit.php?post_status=publish&post_type=post&seo_filter=na`,
      );
      const read = await scores('readability_scores?contentType=post&troubleshooting=true');
      expect(group(read, 'ok').links.view).toBe(
        `${sb.origin}/wp-admin/edit.php?post_status=publish&post_type=post&readability_filter=ok`,
      );
    });

    it('scores readability by sentence length, whatever the keyphrase', async () => {
      const read = await scores('readability_scores?contentType=post&troubleshooting=true');
      expect(idsOf(read, 'good')).toContain(good.id);
      expect(idsOf(read, 'ok')).toContain(ok.id);
      expect(idsOf(read, 'bad')).toContain(bad.id);
      expect(idsOf(read, 'notAnalyzed')).toContain(none.id);
    });

    it("caches a result for a minute, like Yoast's transient; troubleshooting bypasses the cache and adds ids", async () => {
      const first = await scores('seo_scores?contentType=post');
      expect(first.cacheUsed).toBe(false);
      expect(typeof first.queryTime).toBe('number');
      expect(first.scores.every((s) => s.ids === undefined)).toBe(true);
      const late = add({ title: 'Late harbor', content: text('harbor', 320, 10) });
      setPostSeoMeta(sb.site, late.id, { focuskw: 'harbor' });
      const second = await scores('seo_scores?contentType=post');
      expect(second).toEqual({ scores: first.scores, queryTime: 0, cacheUsed: true });
      const fresh = await scores('seo_scores?contentType=post&troubleshooting=true');
      expect(fresh.cacheUsed).toBe(false);
      expect(group(fresh, 'good').amount).toBe(group(first, 'good').amount + 1);
    });

    it("narrows to one term of the content type's taxonomy", async () => {
      const news = sb.site.store.insertTerm({
        taxonomy: 'category',
        name: 'Harbor news',
        slug: 'harbor-news',
        description: '',
        parent: 0,
      });
      sb.site.store.setTerms(good.id, 'category', [news.id]);
      sb.site.store.setTerms(bad.id, 'category', [news.id]);
      const body = await scores(`seo_scores?contentType=post&taxonomy=category&term=${news.id}&troubleshooting=true`);
      expect(body.scores.map((s) => [s.name, s.amount])).toEqual([
        ['good', 1],
        ['ok', 0],
        ['bad', 1],
        ['notAnalyzed', 0],
      ]);
      expect(group(body, 'bad').ids).toBe(String(bad.id));
      expect(group(body, 'ok').ids).toBeUndefined();
      expect(group(body, 'good').links.view).toBe(
        `${sb.origin}/wp-admin/edit.php?post_status=publish&post_type=post&seo_filter=good&category_name=harbor-news`,
      );

      const cat = sb.site.store.terms('calendar_events_cat')[0]!;
      const inTerm = new Set(
        [...sb.site.store.termMap('calendar_events_cat')].filter(([, t]) => t.includes(cat.id)).map(([p]) => p),
      );
      const noindex = sb.site.store.option<Record<string, any>>('wpseo_sandbox_post_meta', {});
      const expected = sb.site.store
        .posts('calendar_events', ['publish'])
        .filter((e) => inTerm.has(e.id) && !noindex[e.id]?.noindex).length;
      const events = await scores(
        `readability_scores?contentType=calendar_events&taxonomy=calendar_events_cat&term=${cat.id}`,
      );
      expect(events.scores.reduce((n, s) => n + s.amount, 0)).toBe(expected);
    });

    it('counts the seeded events into several SEO groups', async () => {
      const body = await scores('seo_scores?contentType=calendar_events');
      expect(group(body, 'ok').amount).toBeGreaterThan(0);
      expect(group(body, 'bad').amount).toBeGreaterThan(0);
      expect(group(body, 'notAnalyzed').amount).toBeGreaterThan(0);
    });

    it('answers bad content types, taxonomies and terms with 400 {error}', async () => {
      const tag = sb.site.store.terms('post_tag')[0]!;
      const cases: [string, string][] = [
        ['contentType=attachment', 'Invalid content type.'],
        ['contentType=nope', 'Invalid content type.'],
        ['contentType=page&taxonomy=category&term=1', 'Invalid taxonomy.'],
        ['contentType=post&taxonomy=post_tag&term=1', 'Invalid taxonomy.'],
        ['contentType=post&term=5', 'Term needs a provided taxonomy.'],
        ['contentType=post&taxonomy=category', 'Taxonomy needs a provided term.'],
        ['contentType=post&taxonomy=category&term=999999', 'Invalid term.'],
        [`contentType=post&taxonomy=category&term=${tag.id}`, 'Invalid term.'],
      ];
      for (const [q, error] of cases) {
        for (const route of ['seo_scores', 'readability_scores']) {
          const r = await api.get(`/seo/v1/${route}?${q}`, 'admin');
          expect(r.status, q).toBe(400);
          expect(r.body, q).toEqual({ error });
        }
      }
    });

    it('validates its arguments and needs wpseo_manage_options', async () => {
      let r = await api.get('/seo/v1/seo_scores', 'admin');
      expect(r.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): contentType',
        data: { status: 400, params: ['contentType'] },
      });
      r = await api.get('/seo/v1/seo_scores?contentType=post&term=abc&troubleshooting=maybe', 'admin');
      expect(r.body.data.params).toEqual({
        term: 'term is not of type integer.',
        troubleshooting: 'troubleshooting is not of type boolean.',
      });
      expect((await api.get('/seo/v1/seo_scores?contentType=post')).status).toBe(401);
      expect((await api.get('/seo/v1/seo_scores?contentType=post', 'editor')).status).toBe(403);
    });
  });

  describe('statistics', () => {
    const WRITER = 77;
    const writerAuth = `Basic ${Buffer.from('seo-writer:abcd1234efgh5678ijkl9012').toString('base64')}`;

    beforeAll(() => {
      sb.site.store.insertUser({
        id: WRITER,
        login: 'seo-writer',
        email: 'seo-writer@sandbox.example',
        displayName: 'Seo Writer',
        role: 'author',
        passwordHash: hashPassword('abcd1234efgh5678ijkl9012'),
      });
    });

    it('refuses anonymous callers with 401 rest_forbidden, as the sample', async () => {
      const r = await api.get('/seo/v1/statistics');
      expect(r.status).toBe(401);
      expect(r.body).toEqual({
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: 401 },
      });
    });

    it('shows a user without posts the empty header', async () => {
      const r = await api.send('GET', '/seo/v1/statistics', undefined, null, { authorization: writerAuth });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        header: "You don't have any published posts, your SEO scores will appear here once you make your first post!",
        seo_scores: [],
      });
    });

    it("counts only their own posts for users who may not edit others', with links to their own list", async () => {
      for (let i = 0; i < 3; i++) {
        const p = add({ title: `Harbor by writer ${i}`, author: WRITER, content: text('harbor', 320, 10) });
        setPostSeoMeta(sb.site, p.id, { focuskw: 'harbor' });
      }
      add({ title: 'Writer without keyphrase', author: WRITER });
      const r = await api.send('GET', '/seo/v1/statistics', undefined, null, { authorization: writerAuth });
      expect(r.body).toEqual({
        header: 'Hey, your SEO is doing pretty well! Check out the stats:',
        seo_scores: [
          {
            seo_rank: 'na',
            label: 'Posts <strong>without</strong> a focus keyphrase',
            count: 1,
            link: `${sb.origin}/wp-admin/edit.php?post_status=publish&#038;post_type=post&#038;seo_filter=na&#038;author=${WRITER}`,
          },
          {
            seo_rank: 'good',
            label: 'Posts with the SEO score: <strong>Good</strong>',
            count: 3,
            link: `${sb.origin}/wp-admin/edit.php?post_status=publish&#038;post_type=post&#038;seo_filter=good&#038;author=${WRITER}`,
          },
        ],
      });
    });

    it('counts every published post for editors, noindex ones under noindex too', async () => {
      const r = await api.get('/seo/v1/statistics', 'admin');
      expect(r.body.header).toBe(
        "Below are your published posts' SEO scores. Now is as good a time as any to start improving some of your posts!",
      );
      const ranks = Object.fromEntries(r.body.seo_scores.map((s: any) => [s.seo_rank, s]));
      expect(Object.keys(ranks)).toEqual(['na', 'bad', 'ok', 'good', 'noindex'].filter((k) => k in ranks));
      expect(ranks.noindex).toEqual({
        seo_rank: 'noindex',
        label: 'Posts that should not show up in search results',
        count: 1,
        link: `${sb.origin}/wp-admin/edit.php?post_status=publish&#038;post_type=post&#038;seo_filter=noindex`,
      });
      expect(ranks.bad.label).toBe('Posts with the SEO score: <strong>Needs improvement</strong>');
      expect(ranks.ok.label).toBe('Posts with the SEO score: <strong>OK</strong>');
      expect(ranks.good.count).toBeGreaterThanOrEqual(6);
      expect(r.body.seo_scores.every((s: any) => s.count > 0)).toBe(true);
    });
  });

  describe('workouts', () => {
    it('reads the default workouts data, as the sample', async () => {
      const r = await api.get('/seo/v1/workouts', 'editor');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ json: { configuration: { finishedSteps: [] } } });
    });

    it('saves the cornerstone and orphaned workouts, reducing indexables to IDs', async () => {
      const cornerstone = {
        finishedSteps: ['chooseCornerstones', 'checkLinks'],
        indexablesByStep: { chooseCornerstones: [{ id: 11, title: 'A' }, { id: 12 }] },
      };
      const orphaned = {
        finishedSteps: [],
        indexablesByStep: { removed: [{ id: 5, title: 'kept whole' }], improved: [{ id: 7 }] },
      };
      let r = await api.send('POST', '/seo/v1/workouts', { cornerstone, orphaned }, 'editor');
      expect(r.body).toEqual({ json: true });
      r = await api.get('/seo/v1/workouts', 'admin');
      expect(r.body.json).toEqual({
        configuration: { finishedSteps: [] },
        cornerstone: {
          finishedSteps: ['chooseCornerstones', 'checkLinks'],
          indexablesByStep: { chooseCornerstones: [11, 12] },
        },
        orphaned: { finishedSteps: [], indexablesByStep: { removed: [{ id: 5, title: 'kept whole' }], improved: [7] } },
      });
    });

    it('refuses unknown steps and extra keys, and needs edit_others_posts', async () => {
      let r = await api.send(
        'POST',
        '/seo/v1/workouts',
        {
          cornerstone: { finishedSteps: ['flying'], indexablesByStep: {} },
          orphaned: { finishedSteps: [], indexablesByStep: {} },
        },
        'admin',
      );
      expect(r.status).toBe(400);
      expect(r.body.data.params).toEqual({ cornerstone: 'Invalid parameter.' });
      r = await api.send('POST', '/seo/v1/workouts', { cornerstone: { finishedSteps: [] } }, 'admin');
      expect(r.body.code).toBe('rest_missing_callback_param');
      expect((await api.get('/seo/v1/workouts', 'author')).status).toBe(403);
      expect((await api.get('/seo/v1/workouts')).status).toBe(401);
    });

    it('sets noindex on a post, which leaves the scores', async () => {
      const p = add({ title: 'Soon hidden', content: text('hidden', 20, 5) });
      let r = await api.send(
        'POST',
        '/seo/v1/workouts/noindex',
        { object_id: p.id, object_type: 'post', object_sub_type: 'post' },
        'admin',
      );
      expect(r.body).toEqual({ json: true });
      r = await api.get('/seo/v1/readability_scores?contentType=post&troubleshooting=true', 'admin');
      expect(r.body.scores.flatMap((s: any) => (s.ids ?? '').split(','))).not.toContain(String(p.id));
    });

    it('marks posts and terms as cornerstone, listed by title in the cornerstone data', async () => {
      const p = add({ title: 'AAA cornerstone post', content: text('anchor', 20, 5) });
      let r = await api.send(
        'POST',
        '/seo/v1/workouts/enable_cornerstone',
        { object_id: p.id, object_type: 'post' },
        'admin',
      );
      expect(r.body).toEqual({ json: true });
      const tag = sb.site.store.terms('post_tag')[0]!;
      r = await api.send(
        'POST',
        '/seo/v1/workouts/enable_cornerstone',
        { object_id: tag.id, object_type: 'term' },
        'admin',
      );
      expect(r.body).toEqual({ json: true });
      r = await api.send(
        'POST',
        '/seo/v1/workouts/enable_cornerstone',
        { object_id: 999999, object_type: 'term' },
        'admin',
      );
      expect(r.body).toEqual({ json: false });
      r = await api.get('/seo/v1/workouts/cornerstone_data', 'admin');
      const titles = r.body.json.cornerstones.map((c: any) => c.breadcrumb_title);
      expect(titles).toEqual([...titles].sort((a: string, b: string) => a.localeCompare(b)));
      expect(r.body.json.cornerstones.find((c: any) => c.object_id === String(p.id))).toMatchObject({
        object_sub_type: 'Post',
        is_cornerstone: '1',
      });
      expect(r.body.json.cornerstones.find((c: any) => c.object_type === 'term')).toMatchObject({
        object_id: String(tag.id),
        object_sub_type: 'Tag',
      });
      // Seeded events marked cornerstone are there too.
      expect(r.body.json.cornerstones.some((c: any) => c.object_sub_type === 'Event')).toBe(true);
    });

    it('lists the most linked posts by incoming links', async () => {
      const target = add({ title: 'Linked target', content: '<p>Target.</p>' });
      add({ title: 'Linker one', content: `<p><a href="${sb.origin}/${target.slug}/">see</a></p>` });
      add({ title: 'Linker two', content: `<p><a href="/${target.slug}/">again</a></p>` });
      const r = await api.get('/seo/v1/workouts/cornerstone_data', 'admin');
      expect(r.body.json.mostLinked[0]).toMatchObject({
        object_id: String(target.id),
        incoming_link_count: '2',
        object_sub_type: 'Post',
      });
    });

    it('trashes a post and redirects its URL', async () => {
      const p = add({ title: 'To be removed', content: '<p>Bye.</p>' });
      const r = await api.send(
        'POST',
        '/seo/v1/workouts/remove_redirect',
        {
          object_id: p.id,
          object_type: 'post',
          object_sub_type: 'post',
          permalink: `${sb.origin}/${p.slug}/`,
          redirect_url: `${sb.origin}/events/`,
        },
        'admin',
      );
      expect(r.body).toEqual({ json: true });
      expect(sb.site.store.post(p.id)!.status).toBe('trash');
      const list = await api.get('/seo/v1/redirects/list', 'admin');
      // A plain redirect added after the regex ones: the filtered list keeps its positions (an object).
      expect(Object.values(list.body.redirects)).toContainEqual({
        origin: p.slug,
        target: 'events',
        type: 301,
        format: 'plain',
      });
      const other = await api.send(
        'POST',
        '/seo/v1/workouts/remove_redirect',
        { object_id: 1, object_type: 'user', object_sub_type: 'x', permalink: 'a', redirect_url: 'b' },
        'admin',
      );
      expect(other.body).toEqual({ json: false });
    });

    it('answers link suggestions and the last update of a post', async () => {
      const a = add({ title: 'Lighthouse tours', content: '<p>Lighthouse lighthouse keepers.</p>' });
      const b = add({ title: 'Lighthouse history', content: '<p>The lighthouse was built long ago.</p>' });
      let r = await api.get(`/seo/v1/workouts/link_suggestions?indexableId=${a.id}`, 'admin');
      expect(r.status).toBe(200);
      expect(r.body.json.length).toBeLessThanOrEqual(5);
      expect(r.body.json.find((s: any) => s.object_id === b.id)).toMatchObject({
        object_type: 'post',
        title: 'Lighthouse history',
        permalink: `${sb.origin}/${b.slug}/`,
        edit_link: `${sb.origin}/wp-admin/post.php?post=${b.id}&action=edit`,
      });
      expect(r.body.json.some((s: any) => s.object_id === a.id)).toBe(false);
      r = await api.get(`/seo/v1/workouts/last_updated?postId=${a.id}`, 'admin');
      expect(r.body).toEqual({ json: a.modified });
      r = await api.get('/seo/v1/workouts/last_updated?postId=999999', 'admin');
      expect(r.body).toEqual({ json: null });
    });
  });

  describe('prominent words and link suggestions', () => {
    it('hands out posts without prominent words, 10 at a time, until they are saved', async () => {
      let r = await api.send('POST', '/seo/v1/prominent_words/get_content', {}, 'contributor');
      expect(r.status).toBe(200);
      expect(r.body.objects).toHaveLength(10);
      expect(r.body.next_url).toBe(`${sb.url}seo/v1/prominent_words/get_content`);
      const first = r.body.objects[0];
      expect(Object.keys(first)).toEqual(['object_id', 'content', 'meta']);
      expect(Object.keys(first.meta)).toEqual(['primary_focus_keyword', 'title', 'description', 'keyphrase_synonyms']);
      const again = await api.send('POST', '/seo/v1/prominent_words/get_content', {}, 'contributor');
      expect(again.body.objects.map((o: any) => o.object_id)).toEqual(r.body.objects.map((o: any) => o.object_id));
      const data = r.body.objects.map((o: any) => ({ object_id: o.object_id, prominent_words: { filler: 1 } }));
      const saved = await api.send('POST', '/seo/v1/prominent_words/save', { data }, 'contributor');
      expect(saved.body).toEqual({ message: 'The words have been successfully saved for the given indexables.' });
      const next = await api.send('POST', '/seo/v1/prominent_words/get_content', {}, 'contributor');
      expect(next.body.objects[0].object_id).toBeGreaterThan(r.body.objects[9].object_id);
      expect((await api.send('POST', '/seo/v1/prominent_words/complete', {}, 'contributor')).body).toEqual({
        objects: [],
        next_url: false,
      });
    });

    it('suggests related posts, cornerstone content first, at most `limit` (default 5)', async () => {
      const strong = add({ title: 'Strong match', content: '<p>x</p>' });
      const weak = add({ title: 'Weak match', content: '<p>x</p>' });
      const self = add({ title: 'The text itself', content: '<p>x</p>' });
      await api.send(
        'POST',
        '/seo/v1/prominent_words/save',
        {
          data: [
            { object_id: strong.id, prominent_words: { zeppelin: 5, airship: 4 } },
            { object_id: weak.id, prominent_words: { zeppelin: 1 } },
            { object_id: self.id, prominent_words: { zeppelin: 9 } },
          ],
        },
        'admin',
      );
      setPostSeoMeta(sb.site, weak.id, { cornerstone: true });
      let r = await api.get(
        `/seo/v1/link_suggestions?prominent_words[zeppelin]=3&prominent_words[airship]=1&object_id=${self.id}&object_type=post`,
        'author',
      );
      expect(r.status).toBe(200);
      expect(r.body).toEqual([
        {
          object_type: 'post',
          id: weak.id,
          title: 'Weak match',
          link: `${sb.origin}/${weak.slug}/`,
          isCornerstone: true,
          labels: ['cornerstone'],
          score: 1,
        },
        {
          object_type: 'post',
          id: strong.id,
          title: 'Strong match',
          link: `${sb.origin}/${strong.slug}/`,
          isCornerstone: false,
          labels: [],
          score: 4,
        },
      ]);
      r = await api.get(
        `/seo/v1/link_suggestions?prominent_words[zeppelin]=3&object_id=${self.id}&object_type=post&limit=1`,
        'author',
      );
      expect(r.body.map((s: any) => s.id)).toEqual([weak.id]);
      r = await api.get('/seo/v1/link_suggestions?prominent_words[harbor]=1&object_id=1&object_type=post', 'author');
      expect(r.body).toHaveLength(5);
    });

    it('requires prominent_words, object_id and object_type, and edit_posts', async () => {
      let r = await api.get('/seo/v1/link_suggestions', 'admin');
      expect(r.body).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): prominent_words, object_id, object_type',
        data: { status: 400, params: ['prominent_words', 'object_id', 'object_type'] },
      });
      r = await api.get('/seo/v1/link_suggestions?prominent_words[a]=1&object_id=x&object_type=post', 'admin');
      expect(r.body.data.params).toEqual({ object_id: 'object_id is not of type integer.' });
      expect(
        (await api.get('/seo/v1/link_suggestions?prominent_words[a]=1&object_id=1&object_type=post', 'subscriber'))
          .status,
      ).toBe(403);
      r = await api.send('POST', '/seo/v1/prominent_words/save', { data: [{ prominent_words: {} }] }, 'admin');
      expect(r.body.data.params.data).toBe('object_id is a required property of data[0].');
    });
  });

  describe('get_head', () => {
    it('renders the head of the home page and of a published event, for anyone', async () => {
      let r = await api.get(`/seo/v1/get_head?url=${encodeURIComponent(`${sb.origin}/`)}`);
      expect(r.status).toBe(200);
      expect(r.body.status).toBe(200);
      expect(r.body.html).toContain('<title>Sitegraph Sandbox');
      expect(r.body.json.og_site_name).toBe('Sitegraph Sandbox');
      const event = sb.site.store.posts('calendar_events', ['publish']).find((e) => !e.password)!;
      const url = `${sb.origin}/event/${event.slug}/`;
      r = await api.get(`/seo/v1/get_head?url=${encodeURIComponent(url)}`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['html', 'json', 'status']);
      expect(r.body.html).toContain(`<title>${event.title} - Sitegraph Sandbox</title>`);
      expect(r.body.html).toContain(`<link rel="canonical" href="${url}" />`);
      expect(r.body.json).toMatchObject({
        title: `${event.title} - Sitegraph Sandbox`,
        canonical: url,
        og_type: 'article',
        og_url: url,
        robots: { index: 'index', follow: 'follow' },
      });
      expect(r.body.json.schema['@graph'][0]['@id']).toBe(url);
    });

    it('answers unknown pages and other hosts with the 404 head and HTTP 404', async () => {
      for (const url of [`${sb.origin}/no/such/page/`, 'https://elsewhere.example/']) {
        const r = await api.get(`/seo/v1/get_head?url=${encodeURIComponent(url)}`);
        expect(r.status, url).toBe(404);
        expect(r.body.status).toBe(404);
        expect(r.body.json).toMatchObject({
          title: 'Page not found - Sitegraph Sandbox',
          robots: { index: 'noindex', follow: 'follow' },
        });
        expect(r.body.html).toContain('<meta name="robots" content="noindex, follow" />');
      }
    });

    it('refuses a missing or malformed url with 400', async () => {
      let r = await api.get('/seo/v1/get_head');
      expect(r.body.code).toBe('rest_missing_callback_param');
      r = await api.get('/seo/v1/get_head?url=not-a-url');
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): url',
        data: { status: 400, params: { url: 'Invalid parameter.' }, details: [] },
      });
    });
  });
});
