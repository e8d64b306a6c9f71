/**
 * Subscriptions in front of real WordPress (docs/subscriptions.md): a post
 * created directly in WordPress (its own REST API, not the gateway) reaches a
 * `postChanged` subscriber within one poll interval, then its update and its
 * move to the trash (the polls read as the administrator, so trashed posts are
 * seen). WordPress serves `wp/v2`: the gateway polls it as core/v2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL_SECONDS, sse, subscribed, ws, type Feed } from '../subscriptions/helpers.ts';
import { basic, rest, startWpGateway, wpSite, type WpGateway, type WpSite } from './site.ts';

const QUERY = `subscription { postChanged { kind databaseId source post { title status } } }`;
/** One poll interval, and what a poll, the re-read and the delivery take on a busy machine. */
const WITHIN_ONE_POLL = POLL_SECONDS * 1000 + 2_000;

type Got = { kind: string; databaseId: number; source: string; post: { title: string; status: string } | null };
const of = (id: number, kind: string) => (r: { data?: any }) =>
  r.data?.postChanged?.databaseId === id && r.data.postChanged.kind === kind;

describe('postChanged in front of real WordPress', () => {
  let site: WpSite;
  let g: WpGateway;
  let admin: string;
  const feeds: Feed[] = [];
  const created: number[] = [];

  beforeAll(async () => {
    site = wpSite();
    admin = basic(site.admin.login, site.admin.appPassword);
    g = await startWpGateway(site, {
      subscriptions: { pollSeconds: POLL_SECONDS, pollAuth: `${site.admin.login}:${site.admin.appPassword}` },
    });
  });
  afterAll(async () => {
    await Promise.all(feeds.map((f) => f.stop()));
    for (const id of created) await rest(site.restUrl, 'DELETE', `/wp/v2/posts/${id}?force=true`, { auth: admin });
    await g?.close();
  });

  it('delivers a post created, updated and trashed directly in WordPress', async () => {
    const anonymous = sse<{ postChanged: Got }>(g.gateway.url, QUERY);
    const editor = ws<{ postChanged: Got }>(g.gateway.url, QUERY, { connectionParams: { Authorization: admin } });
    feeds.push(anonymous, editor);
    await subscribed(g.gateway, 2);

    let t = Date.now();
    const made = await rest(site.restUrl, 'POST', '/wp/v2/posts', {
      auth: admin,
      body: { title: 'Live from WordPress', content: 'Hello', status: 'publish' },
    });
    expect(made.status).toBe(201);
    const id = made.body.id as number;
    created.push(id);
    for (const f of [anonymous, editor]) {
      const got = (await f.next(of(id, 'CREATED'), WITHIN_ONE_POLL + 5_000)).data!.postChanged;
      expect(got).toMatchObject({ source: 'MODIFIED_LIST', post: { title: 'Live from WordPress', status: 'publish' } });
    }
    expect(Date.now() - t).toBeLessThanOrEqual(WITHIN_ONE_POLL);

    // WordPress dates its modifications to the second: a second apart, so each is a save of its own.
    await new Promise((r) => setTimeout(r, 1_100));
    t = Date.now();
    expect(
      (
        await rest(site.restUrl, 'POST', `/wp/v2/posts/${id}`, {
          auth: admin,
          body: { title: 'Live from WordPress, edited' },
        })
      ).status,
    ).toBe(200);
    for (const f of [anonymous, editor])
      await f.next(
        (r) => of(id, 'UPDATED')(r) && r.data?.postChanged.post?.title === 'Live from WordPress, edited',
        WITHIN_ONE_POLL + 5_000,
      );
    expect(Date.now() - t).toBeLessThanOrEqual(WITHIN_ONE_POLL);

    await new Promise((r) => setTimeout(r, 1_100));
    expect((await rest(site.restUrl, 'DELETE', `/wp/v2/posts/${id}`, { auth: admin })).status).toBe(200);
    const gone = (await anonymous.next(of(id, 'DELETED'), WITHIN_ONE_POLL + 5_000)).data!.postChanged;
    // The anonymous subscriber cannot read a trashed post; the administrator can.
    expect(gone.post).toBeNull();
    const trashed = (await editor.next(of(id, 'DELETED'), WITHIN_ONE_POLL + 5_000)).data!.postChanged;
    expect(trashed.post).toMatchObject({ status: 'trash' });
  });
});
