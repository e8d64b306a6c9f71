/**
 * `GET seo/v1/seo_scores` and `readability_scores` (Yoast
 * src/dashboard/user-interface/scores/abstract-scores-route.php; reference
 * site-upstream.md §8). Counts the published, indexable posts of one content
 * type per score group (good, ok, bad, notAnalyzed, in that order), optionally
 * narrowed to one term of the type's filter taxonomy. Posts set to noindex
 * are left out, as Yoast's query does.
 *
 * Like Yoast's transient, a result is cached for 60 seconds per content type
 * and term (`cacheUsed: true`, `queryTime: 0`); `troubleshooting=true`
 * bypasses the cache and adds `ids` (comma-separated post IDs, as MySQL's
 * GROUP_CONCAT gives them) to every non-empty group.
 */
import { RawError } from '../../errors.ts';
import type { ArgSchema, RestRequest, RouteDecl } from '../../rest/types.ts';
import type { Origin, Storage } from '../../capabilities.ts';
import type { PostType } from '../../store/db.ts';
import {
  FILTER_TAXONOMY,
  isContentType,
  postMetaAll,
  readabilityScore,
  scoreGroup,
  seoScore,
  type ScoreGroup,
} from './analysis.ts';
import { OPT, adminUrl, endpoint, needs, route, type Json } from './common.ts';

const GROUPS: ScoreGroup[] = ['good', 'ok', 'bad', 'notAnalyzed'];
/** The value of each group in the posts list filter (`seo_filter` / `readability_filter`). */
const FILTER_VALUE: Record<ScoreGroup, string> = { good: 'good', ok: 'ok', bad: 'bad', notAnalyzed: 'na' };
const CACHE_MS = 60_000;

type Kind = 'seo' | 'readability';

function invalid(error: string): RawError {
  return new RawError(400, { error });
}

interface Counted {
  amounts: Record<ScoreGroup, number>;
  ids: Record<ScoreGroup, number[]>;
}

function count(site: Storage, kind: Kind, type: PostType, termId: number | null, taxonomy: string | null): Counted {
  const meta = postMetaAll(site);
  const withTerm =
    termId !== null && taxonomy
      ? new Set([...site.store.termMap(taxonomy)].filter(([, t]) => t.includes(termId)).map(([p]) => p))
      : null;
  const out: Counted = {
    amounts: { good: 0, ok: 0, bad: 0, notAnalyzed: 0 },
    ids: { good: [], ok: [], bad: [], notAnalyzed: [] },
  };
  for (const post of site.store.posts(type, ['publish'])) {
    const m = meta[post.id] ?? {};
    if (m.noindex) continue;
    if (withTerm && !withTerm.has(post.id)) continue;
    const group = scoreGroup(kind === 'seo' ? seoScore(post, m) : readabilityScore(post));
    out.amounts[group]++;
    out.ids[group].push(post.id);
  }
  return out;
}

function viewLink(
  site: Origin,
  kind: Kind,
  group: ScoreGroup,
  type: string,
  taxonomy: { queryVar: string } | null,
  termSlug: string | null,
): string {
  const q = new URLSearchParams({ post_status: 'publish', post_type: type, [`${kind}_filter`]: FILTER_VALUE[group] });
  if (taxonomy && termSlug !== null) q.set(taxonomy.queryVar, termSlug);
  return `${adminUrl(site, 'edit.php')}?${q.toString()}`;
}

function scores(kind: Kind) {
  return (req: RestRequest): unknown => {
    const { site } = req;
    const p = req.params;
    const contentType = String(p.contentType);
    if (!isContentType(contentType)) throw invalid('Invalid content type.');
    const taxonomyName = String(p.taxonomy ?? '');
    let taxonomy: { name: string; queryVar: string } | null = null;
    if (taxonomyName !== '') {
      const valid = FILTER_TAXONOMY[contentType];
      if (!valid || valid.name !== taxonomyName) throw invalid('Invalid taxonomy.');
      taxonomy = valid;
    }
    const termId = p.term === null || p.term === undefined ? null : Number(p.term);
    if (termId !== null && taxonomy === null) throw invalid('Term needs a provided taxonomy.');
    if (termId === null && taxonomy !== null) throw invalid('Taxonomy needs a provided term.');
    let termSlug: string | null = null;
    if (termId !== null) {
      const term = site.store.term(termId);
      if (!term || term.taxonomy !== taxonomy!.name) throw invalid('Invalid term.');
      termSlug = term.slug;
    }
    const troubleshooting = p.troubleshooting === true;

    const cacheKey = `wpseo_${kind}_scores_${contentType}${termId === null ? '' : `_${termId}`}`;
    const cache = site.store.option<Record<string, { expires: number; amounts: Counted['amounts'] }>>(
      OPT.scoreCache,
      {},
    );
    const now = site.now().getTime();
    const hit = cache[cacheKey];
    let amounts: Counted['amounts'];
    let ids: Counted['ids'] | null = null;
    let queryTime = 0;
    let cacheUsed = false;
    if (!troubleshooting && hit && hit.expires > now) {
      amounts = hit.amounts;
      cacheUsed = true;
    } else {
      const started = performance.now();
      const counted = count(site, kind, contentType, termId, taxonomy?.name ?? null);
      queryTime = (performance.now() - started) / 1000;
      amounts = counted.amounts;
      if (troubleshooting) ids = counted.ids;
      else site.store.setOption(OPT.scoreCache, { ...cache, [cacheKey]: { expires: now + CACHE_MS, amounts } });
    }
    const list: Json[] = GROUPS.map((g) => {
      const item: Json = {
        name: g,
        amount: amounts[g],
        links: { view: viewLink(site, kind, g, contentType, taxonomy, termSlug) },
      };
      if (ids && ids[g].length) item.ids = ids[g].join(',');
      return item;
    });
    return { scores: list, queryTime, cacheUsed };
  };
}

export function scoreRoutes(): RouteDecl[] {
  const args: Record<string, ArgSchema> = {
    contentType: { type: 'string', required: true },
    taxonomy: { type: 'string', default: '' },
    term: { type: 'integer', default: null },
    troubleshooting: { type: 'boolean', default: null },
  };
  const manage = needs('wpseo_manage_options');
  return [
    route(
      'readability_scores',
      endpoint('GET', manage, scores('readability'), { ...args }, 'Readability scores of a content type'),
    ),
    route('seo_scores', endpoint('GET', manage, scores('seo'), { ...args }, 'SEO scores of a content type')),
  ];
}
