/**
 * The sandbox's stand-in for Yoast's content analysis. Yoast computes SEO and
 * readability scores in the editor and stores them in post meta; the sandbox
 * has no editor, so it derives both from the stored post, deterministically:
 *
 * - SEO score (`primary_focus_keyword_score`): none (not analysed) unless the
 *   post has a focus keyphrase; otherwise 5 for having text (20 from 100 words,
 *   40 from 300), +30 when the keyphrase is in the title, +20 in the text,
 *   +10 in the slug.
 * - Readability score: none when the text is empty; otherwise by the average
 *   sentence length in words: <= 15 gives 90, <= 20 gives 60, longer gives 30.
 *
 * Yoast's groups (src/dashboard/domain/score-groups): good 71-100, ok 41-70,
 * bad 1-40, notAnalyzed for none or 0.
 */
import { slugify } from '../../calendar/model.ts';
import { stripTags } from '../../calendar/query.ts';
import type { Storage } from '../../capabilities.ts';
import type { PostRow, PostType } from '../../store/db.ts';
import { OPT } from './common.ts';

/** The `_yoast_wpseo_*` meta of one post. */
export interface PostSeoMeta {
  focuskw?: string;
  noindex?: boolean;
  cornerstone?: boolean;
  /** Prominent words saved by `prominent_words/save`: `{stem: weight}`. */
  prominentWords?: Record<string, number>;
}

/**
 * Post types Yoast treats as indexable content types (public, not
 * attachments), with their singular labels (used by workouts' cornerstone data).
 */
export const CONTENT_TYPES: Partial<Record<PostType, string>> = {
  post: 'Post',
  page: 'Page',
  calendar_events: 'Event',
  calendar_venue: 'Venue',
  calendar_organizer: 'Organizer',
  calendar_event_series: 'Series',
};

export function isContentType(type: string): type is PostType {
  return Object.prototype.hasOwnProperty.call(CONTENT_TYPES, type);
}

/** The one taxonomy a content type can be filtered by in the dashboard (Taxonomies_Repository). */
export const FILTER_TAXONOMY: Partial<Record<PostType, { name: string; queryVar: string }>> = {
  post: { name: 'category', queryVar: 'category_name' },
  calendar_events: { name: 'calendar_events_cat', queryVar: 'calendar_events_cat' },
};

/** Taxonomies whose terms are indexables. */
export const TAXONOMIES = ['category', 'post_tag', 'calendar_events_cat'] as const;

export function postMetaAll(site: Storage): Record<string, PostSeoMeta> {
  return site.store.option<Record<string, PostSeoMeta>>(OPT.postMeta, {});
}

export function postSeoMeta(site: Storage, postId: number): PostSeoMeta {
  return postMetaAll(site)[postId] ?? {};
}

/** Sets `_yoast_wpseo_*` meta of a post (exported for the seed and for tests). */
export function setPostSeoMeta(site: Storage, postId: number, patch: Partial<PostSeoMeta>): void {
  const all = postMetaAll(site);
  all[postId] = { ...(all[postId] ?? {}), ...patch };
  site.store.setOption(OPT.postMeta, all);
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export function plainText(post: Pick<PostRow<unknown>, 'content'>): string {
  return stripTags(post.content)
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .trim();
}

export function seoScore(post: PostRow<unknown>, meta: PostSeoMeta): number | null {
  const kw = (meta.focuskw ?? '').trim().toLowerCase();
  if (!kw) return null;
  const text = plainText(post).toLowerCase();
  const count = words(text).length;
  let score = count >= 300 ? 40 : count >= 100 ? 20 : count > 0 ? 5 : 0;
  if (post.title.toLowerCase().includes(kw)) score += 30;
  if (text.includes(kw)) score += 20;
  const kwSlug = slugify(kw);
  if (kwSlug && post.slug.includes(kwSlug)) score += 10;
  return score;
}

export function readabilityScore(post: PostRow<unknown>): number | null {
  const text = plainText(post);
  const count = words(text).length;
  if (count === 0) return null;
  const sentences = text.split(/[.!?]+/).filter((s) => words(s).length > 0).length || 1;
  const avg = count / sentences;
  return avg <= 15 ? 90 : avg <= 20 ? 60 : 30;
}

export type ScoreGroup = 'good' | 'ok' | 'bad' | 'notAnalyzed';

export function scoreGroup(score: number | null): ScoreGroup {
  if (score === null || score <= 0) return 'notAnalyzed';
  if (score >= 71) return 'good';
  if (score >= 41) return 'ok';
  return 'bad';
}

/** Yoast's rank names (WPSEO_Rank) for the statistics widget. */
export function seoRank(score: number | null): 'na' | 'bad' | 'ok' | 'good' {
  const g = scoreGroup(score);
  return g === 'notAnalyzed' ? 'na' : g;
}

/** Words of a post's title and text with their counts, when no prominent words were saved. */
export function derivedWords(post: PostRow<unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const w of words(`${post.title} ${plainText(post)}`)) {
    if (w.length < 4 || /^\d+$/.test(w)) continue;
    out[w] = (out[w] ?? 0) + 1;
  }
  return out;
}
