/**
 * `POST seo/v1/indexing/*` and `link-indexing/*` (Yoast
 * src/routes/indexing-route.php; sample seo-indexing-posts.json and
 * seo-indexing-prepare.json). Each action indexes the next batch of objects
 * that have no indexable yet and answers `{objects, next_url}`: `next_url`
 * is the route's own URL while a batch came back full, `false` once a batch
 * is short (so the last call may return `[]`). Progress is kept in a store
 * option, so repeated calls move on and finish; objects created later are
 * picked up by the next call. Batches go in ID order.
 *
 * Batch sizes follow Yoast's defaults: 25 for posts, terms and archives,
 * 5 for link indexing; `general` indexes its four objects at once.
 * `prepare`, `indexables-complete` and `complete` record their step and
 * answer `{objects: [], next_url: false}`.
 */
import type { RouteDecl } from '../../rest/types.ts';
import type { Site, Storage } from '../../capabilities.ts';
import type { PostType } from '../../store/db.ts';
import { OPT, endpoint, needs, restUrl, route, wpseoSet, type Json } from './common.ts';
import {
  ARCHIVES,
  archiveIndexable,
  generalIndexables,
  indexablePosts,
  indexableTerms,
  postIndexable,
  termIndexable,
} from './indexables.ts';

interface IndexingState {
  posts: number[];
  terms: number[];
  archives: string[];
  general: boolean;
  postLinks: number[];
  termLinks: number[];
}

const EMPTY: IndexingState = { posts: [], terms: [], archives: [], general: false, postLinks: [], termLinks: [] };

function state(site: Storage): IndexingState {
  return { ...EMPTY, ...site.store.option<Partial<IndexingState>>(OPT.indexing, {}) };
}

function save(site: Storage, s: IndexingState): void {
  site.store.setOption(OPT.indexing, s);
}

interface Action {
  path: string;
  limit: number;
  /** Indexes up to `limit` objects and returns them. */
  run(site: Site, s: IndexingState, limit: number): Json[];
}

function takeIds<T extends { id: number }>(all: T[], done: number[], limit: number): T[] {
  const seen = new Set(done);
  return all.filter((x) => !seen.has(x.id)).slice(0, limit);
}

const ACTIONS: Action[] = [
  {
    path: 'indexing/posts',
    limit: 25,
    run(site, s, limit) {
      const batch = takeIds(indexablePosts(site), s.posts, limit);
      s.posts.push(...batch.map((p) => p.id));
      return batch.map((p) => postIndexable(site, p));
    },
  },
  {
    path: 'indexing/terms',
    limit: 25,
    run(site, s, limit) {
      const batch = takeIds(indexableTerms(site), s.terms, limit);
      s.terms.push(...batch.map((t) => t.id));
      return batch.map((t) => termIndexable(site, t));
    },
  },
  {
    path: 'indexing/post-type-archives',
    limit: 25,
    run(site, s, limit) {
      const batch = (Object.keys(ARCHIVES) as PostType[]).filter((t) => !s.archives.includes(t)).slice(0, limit);
      s.archives.push(...batch);
      return batch.map((t) => archiveIndexable(site, t));
    },
  },
  {
    path: 'indexing/general',
    limit: Infinity,
    run(site, s) {
      if (s.general) return [];
      s.general = true;
      return generalIndexables(site);
    },
  },
  {
    path: 'link-indexing/posts',
    limit: 5,
    run(site, s, limit) {
      const batch = takeIds(
        indexablePosts(site).filter((p) => p.status === 'publish'),
        s.postLinks,
        limit,
      );
      s.postLinks.push(...batch.map((p) => p.id));
      return batch.map((p) => postIndexable(site, p));
    },
  },
  {
    path: 'link-indexing/terms',
    limit: 5,
    run(site, s, limit) {
      const batch = takeIds(indexableTerms(site), s.termLinks, limit);
      s.termLinks.push(...batch.map((t) => t.id));
      return batch.map((t) => termIndexable(site, t));
    },
  },
];

/** Steps that only record that they ran. */
const STEPS: { path: string; record: (site: Site) => void }[] = [
  {
    path: 'indexing/prepare',
    record: (site) =>
      wpseoSet(site, { indexing_started: Math.floor(site.now().getTime() / 1000), indexing_reason: '' }),
  },
  { path: 'indexing/indexables-complete', record: (site) => wpseoSet(site, { indexables_indexing_completed: true }) },
  {
    path: 'indexing/complete',
    record: (site) => wpseoSet(site, { indexing_started: null, indexing_reason: '', indexation_completed: true }),
  },
];

/** The routes in the order Yoast registers them. */
const ORDER = [
  'indexing/posts',
  'indexing/terms',
  'indexing/post-type-archives',
  'indexing/general',
  'indexing/prepare',
  'indexing/indexables-complete',
  'indexing/complete',
  'link-indexing/posts',
  'link-indexing/terms',
];

export function indexingRoutes(): RouteDecl[] {
  const canIndex = needs('edit_posts');
  const routes = [
    ...ACTIONS.map((a) =>
      route(
        a.path,
        endpoint(
          'POST',
          canIndex,
          (req) => {
            const s = state(req.site);
            const objects = a.run(req.site, s, a.limit);
            save(req.site, s);
            return { objects, next_url: objects.length >= a.limit ? restUrl(req.site, a.path) : false };
          },
          {},
          `Index the next batch (${a.path})`,
        ),
      ),
    ),
    ...STEPS.map((step) =>
      route(
        step.path,
        endpoint(
          'POST',
          canIndex,
          (req) => {
            step.record(req.site);
            return { objects: [], next_url: false };
          },
          {},
          `Indexing step (${step.path})`,
        ),
      ),
    ),
  ];
  const rank = (r: RouteDecl) => ORDER.findIndex((p) => r.path.endsWith(`/${p}`));
  return routes.sort((a, b) => rank(a) - rank(b));
}
