/**
 * `seo/v1/workouts*` (Yoast src/routes/workouts-route.php and Premium's
 * src/routes/workouts-route.php; sample seo-workouts.json). Every route needs
 * `edit_others_posts`, and answers `{json: ...}`.
 *
 * GET workouts returns the stored workouts data (default
 * `{configuration: {finishedSteps: []}}`, as the sample). POST stores the
 * `cornerstone` and `orphaned` workouts next to it; each must be an object of
 * exactly two keys, `finishedSteps` (known steps only) and `indexablesByStep`,
 * else 400 rest_invalid_param. Lists of indexables per step are reduced to IDs
 * (except `removed`), and the answer is `{json: true}`.
 *
 * In the sandbox an indexable's ID is its post ID (`indexableId`).
 */
import { can } from '../../auth.ts';
import { trashPost } from '../../calendar/model.ts';
import type { RestRequest, RouteDecl } from '../../rest/types.ts';
import type { Origin, Storage } from '../../capabilities.ts';
import { CONTENT_TYPES, postMetaAll, setPostSeoMeta } from './analysis.ts';
import { OPT, adminUrl, endpoint, route, wpseoGet, wpseoSet, type Json } from './common.ts';
import { indexablePosts, indexableTerms, postIndexable, postUrl, termIndexable } from './indexables.ts';
import { suggest, wordsOf } from './links.ts';
import { createRedirect, makeRedirect } from './redirect-model.ts';

const DEFAULT_WORKOUTS = { configuration: { finishedSteps: [] as string[] } };

const STEPS: Record<'cornerstone' | 'orphaned', string[]> = {
  cornerstone: ['chooseCornerstones', 'checkLinks', 'addLinks', 'improved', 'skipped'],
  orphaned: ['improveRemove', 'update', 'addLinks', 'removed', 'noindexed', 'improved', 'skipped'],
};

function workoutAllowed(kind: 'cornerstone' | 'orphaned') {
  return (value: unknown): boolean => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const w = value as Record<string, unknown>;
    if (Object.keys(w).length !== 2 || !Array.isArray(w.finishedSteps)) return false;
    return w.finishedSteps.every((s) => typeof s === 'string' && STEPS[kind].includes(s));
  };
}

function setWorkouts(req: RestRequest): unknown {
  const value: Record<string, Record<string, unknown>> = {};
  for (const kind of ['cornerstone', 'orphaned'] as const) {
    const w = { ...(req.params[kind] as Record<string, unknown>) };
    const byStep = w.indexablesByStep;
    if (byStep && typeof byStep === 'object' && !Array.isArray(byStep)) {
      const reduced: Record<string, unknown> = {};
      for (const [step, list] of Object.entries(byStep as Record<string, unknown>)) {
        reduced[step] =
          step === 'removed' || !Array.isArray(list)
            ? list
            : list.map((x) => (x && typeof x === 'object' ? (x as { id?: unknown }).id : x));
      }
      w.indexablesByStep = reduced;
    }
    value[kind] = w;
  }
  wpseoSet(req.site, { workouts_data: { ...wpseoGet(req.site, 'workouts_data', DEFAULT_WORKOUTS), ...value } });
  return { json: true };
}

/** Incoming internal links per post: links in published content to another post's permalink. */
function incomingLinks(site: Origin & Storage): Map<number, number> {
  const posts = indexablePosts(site).filter((p) => p.status === 'publish');
  const byUrl = new Map(posts.map((p) => [postUrl(site, p).replace(/\/$/, ''), p.id]));
  const counts = new Map<number, number>();
  for (const p of posts) {
    for (const m of p.content.matchAll(/href=["']([^"']+)["']/g)) {
      let href = m[1]!;
      if (href.startsWith('/')) href = `${site.origin}${href}`;
      const target = byUrl.get(href.replace(/\/$/, ''));
      if (target !== undefined && target !== p.id) counts.set(target, (counts.get(target) ?? 0) + 1);
    }
  }
  return counts;
}

function singular(obj: Json): Json {
  if (obj.object_type === 'post')
    return {
      ...obj,
      object_sub_type: CONTENT_TYPES[obj.object_sub_type as keyof typeof CONTENT_TYPES] ?? obj.object_sub_type,
    };
  const labels: Record<string, string> = {
    category: 'Category',
    post_tag: 'Tag',
    calendar_events_cat: 'Event Category',
  };
  return { ...obj, object_sub_type: labels[obj.object_sub_type as string] ?? obj.object_sub_type };
}

function cornerstoneData(req: RestRequest): unknown {
  const { site } = req;
  const meta = postMetaAll(site);
  const termMeta = site.store.option<Record<string, { cornerstone?: boolean }>>(OPT.termMeta, {});
  const cornerstones = [
    ...indexablePosts(site)
      .filter((p) => p.status === 'publish' && meta[p.id]?.cornerstone)
      .map((p) => postIndexable(site, p)),
    ...indexableTerms(site)
      .filter((t) => termMeta[t.id]?.cornerstone)
      .map((t) => termIndexable(site, t)),
  ]
    .sort((a, b) => String(a.breadcrumb_title).localeCompare(String(b.breadcrumb_title)))
    .map(singular);
  const counts = incomingLinks(site);
  const mostLinked = indexablePosts(site)
    .filter((p) => p.status === 'publish' && (counts.get(p.id) ?? 0) > 0 && !meta[p.id]?.noindex)
    .sort((a, b) => counts.get(b.id)! - counts.get(a.id)! || a.id - b.id)
    .slice(0, 20)
    .map((p) => singular({ ...postIndexable(site, p), incoming_link_count: String(counts.get(p.id)) }));
  return { json: { cornerstones, mostLinked } };
}

function workoutSuggestions(req: RestRequest): unknown {
  const { site } = req;
  const post = site.store.post(req.params.indexableId as number);
  if (!post) return { json: [] };
  const list = suggest(site, wordsOf(site, post), post.id, 5).map((s) => ({
    object_id: s.post.id,
    object_type: 'post',
    object_sub_type: s.post.type,
    title: s.post.title,
    permalink: postUrl(site, s.post),
    isCornerstone: s.isCornerstone,
    score: s.score,
    edit_link: adminUrl(site, `post.php?post=${s.post.id}&action=edit`),
  }));
  return { json: list };
}

function removeRedirect(req: RestRequest): unknown {
  const { site } = req;
  const p = req.params as {
    object_id: number;
    object_type: string;
    object_sub_type: string;
    permalink: string;
    redirect_url: string;
  };
  if (p.object_type === 'post') {
    if (site.store.post(p.object_id)) trashPost(site, p.object_id);
  } else if (p.object_type === 'term') {
    const term = site.store.term(p.object_id);
    if (term && term.taxonomy === p.object_sub_type) site.store.deleteTerm(p.object_id);
  } else {
    return { json: false };
  }
  // A plain 301 from the old permalink, without validation (an existing origin is left alone).
  createRedirect(site, makeRedirect(site, p.permalink, p.redirect_url, 301, 'plain'));
  return { json: true };
}

function enableCornerstone(req: RestRequest): unknown {
  const { site } = req;
  const { object_id: id, object_type: type } = req.params as { object_id: number; object_type: string };
  if (type === 'post') setPostSeoMeta(site, id, { cornerstone: true });
  else if (type === 'term') {
    if (!site.store.term(id)) return { json: false };
    const all = site.store.option<Record<string, { cornerstone?: boolean }>>(OPT.termMeta, {});
    site.store.setOption(OPT.termMeta, { ...all, [id]: { ...(all[id] ?? {}), cornerstone: true } });
  }
  return { json: true };
}

export function workoutRoutes(): RouteDecl[] {
  const editOthers = (req: RestRequest) => can(req.user, 'edit_others_posts');
  const int = { type: 'integer', required: true } as const;
  const str = { type: 'string', required: true } as const;
  return [
    route(
      'workouts',
      endpoint(
        'GET',
        editOthers,
        (req) => ({ json: wpseoGet(req.site, 'workouts_data', DEFAULT_WORKOUTS) }),
        {},
        'The workouts data',
      ),
      endpoint(
        'POST',
        editOthers,
        setWorkouts,
        {
          cornerstone: { required: true, validate: workoutAllowed('cornerstone') },
          orphaned: { required: true, validate: workoutAllowed('orphaned') },
        },
        'Save the cornerstone and orphaned workouts',
      ),
    ),
    route(
      'workouts/noindex',
      endpoint(
        'POST',
        editOthers,
        (req) => {
          if (req.params.object_type === 'post')
            setPostSeoMeta(req.site, req.params.object_id as number, { noindex: true });
          return { json: true };
        },
        { object_id: { ...int }, object_type: { ...str }, object_sub_type: { ...str } },
        'Set noindex on a post',
      ),
    ),
    route(
      'workouts/remove_redirect',
      endpoint(
        'POST',
        editOthers,
        removeRedirect,
        {
          object_id: { ...int },
          object_type: { ...str },
          object_sub_type: { ...str },
          permalink: { ...str },
          redirect_url: { ...str },
        },
        'Trash a post (or delete a term) and redirect its URL',
      ),
    ),
    route(
      'workouts/link_suggestions',
      endpoint('GET', editOthers, workoutSuggestions, { indexableId: { ...int } }, 'Link suggestions for an indexable'),
    ),
    route(
      'workouts/last_updated',
      endpoint(
        'GET',
        editOthers,
        (req) => ({ json: req.site.store.post(req.params.postId as number)?.modified ?? null }),
        {
          postId: { ...int },
        },
        'When a post was last modified',
      ),
    ),
    route(
      'workouts/cornerstone_data',
      endpoint('GET', editOthers, cornerstoneData, {}, 'Cornerstone and most linked content'),
    ),
    route(
      'workouts/enable_cornerstone',
      endpoint(
        'POST',
        editOthers,
        enableCornerstone,
        { object_id: { ...int }, object_type: { ...str } },
        'Mark a post or term as cornerstone',
      ),
    ),
  ];
}
