/**
 * Internal linking (Yoast SEO Premium): `GET seo/v1/link_suggestions` and
 * `POST seo/v1/prominent_words/*` (YP src/routes/link-suggestions-route.php,
 * prominent-words-route.php; reference other-upstream.md §7).
 *
 * Prominent words are `{stem: weight}` maps. The editor computes them and
 * saves them with `prominent_words/save`; `get_content` hands out, 10 at a
 * time, the published posts that have none saved yet (so a client that never
 * saves gets the same batch again, as with Yoast). A post without saved words
 * is compared through the words of its title and text.
 *
 * Suggestion score: the sum, over the stems both sides share, of the smaller
 * weight. Cornerstone content comes first, then higher scores, then lower IDs.
 */
import type { RestRequest, RouteDecl } from '../../rest/types.ts';
import type { Storage } from '../../capabilities.ts';
import type { PostRow } from '../../store/db.ts';
import { CONTENT_TYPES, derivedWords, postMetaAll, setPostSeoMeta } from './analysis.ts';
import { endpoint, needs, restUrl, route, wpseoSet, type Json } from './common.ts';
import { postUrl } from './indexables.ts';

export interface Suggestion {
  post: PostRow;
  score: number;
  isCornerstone: boolean;
}

function publishedContent(site: Storage): PostRow[] {
  return Object.keys(CONTENT_TYPES)
    .flatMap((t) => site.store.posts(t as PostRow['type'], ['publish']))
    .sort((a, b) => a.id - b.id);
}

export function wordsOf(site: Storage, post: PostRow): Record<string, number> {
  return postMetaAll(site)[post.id]?.prominentWords ?? derivedWords(post);
}

/** Posts related to a set of prominent words, best first. */
export function suggest(
  site: Storage,
  words: Record<string, number>,
  exclude: number | null,
  limit: number,
): Suggestion[] {
  const meta = postMetaAll(site);
  const wanted = Object.entries(words)
    .map(([stem, w]) => [stem.toLowerCase(), Number(w)] as const)
    .filter(([, w]) => Number.isFinite(w) && w > 0);
  const out: Suggestion[] = [];
  for (const post of publishedContent(site)) {
    const m = meta[post.id] ?? {};
    if (post.id === exclude || m.noindex) continue;
    const theirs = m.prominentWords ?? derivedWords(post);
    let score = 0;
    for (const [stem, w] of wanted) if (theirs[stem]) score += Math.min(w, Number(theirs[stem]));
    if (score > 0) out.push({ post, score: Math.round(score * 100) / 100, isCornerstone: Boolean(m.cornerstone) });
  }
  out.sort((a, b) => Number(b.isCornerstone) - Number(a.isCornerstone) || b.score - a.score || a.post.id - b.post.id);
  return out.slice(0, limit);
}

function linkSuggestions(req: RestRequest): unknown {
  const { site } = req;
  const p = req.params;
  const list = suggest(
    site,
    p.prominent_words as Record<string, number>,
    p.object_type === 'post' ? (p.object_id as number) : null,
    p.limit as number,
  );
  return list.map((s) => ({
    object_type: 'post',
    id: s.post.id,
    title: s.post.title,
    link: postUrl(site, s.post),
    isCornerstone: s.isCornerstone,
    labels: s.isCornerstone ? ['cornerstone'] : [],
    score: s.score,
  }));
}

const CONTENT_LIMIT = 10;

function getContent(req: RestRequest): unknown {
  const { site } = req;
  const meta = postMetaAll(site);
  const batch = publishedContent(site)
    .filter((p) => meta[p.id]?.prominentWords === undefined)
    .slice(0, CONTENT_LIMIT);
  const objects: Json[] = batch.map((p) => ({
    object_id: p.id,
    content: `<h1>${p.title}</h1>${p.content}`,
    meta: { primary_focus_keyword: meta[p.id]?.focuskw ?? '', title: p.title, description: '', keyphrase_synonyms: '' },
  }));
  return { objects, next_url: objects.length >= CONTENT_LIMIT ? restUrl(site, 'prominent_words/get_content') : false };
}

function saveWords(req: RestRequest): unknown {
  const data =
    (req.params.data as { object_id: number; prominent_words?: Record<string, unknown> }[] | undefined) ?? [];
  for (const item of data) {
    const words: Record<string, number> = {};
    for (const [stem, w] of Object.entries(item.prominent_words ?? {})) {
      const n = Number(w);
      if (Number.isFinite(n)) words[stem.toLowerCase()] = n;
    }
    setPostSeoMeta(req.site, Math.trunc(item.object_id), { prominentWords: words });
  }
  return { message: 'The words have been successfully saved for the given indexables.' };
}

export function linkRoutes(): RouteDecl[] {
  const canEdit = needs('edit_posts');
  return [
    route(
      'link_suggestions',
      endpoint(
        'GET',
        canEdit,
        linkSuggestions,
        {
          prominent_words: {
            type: 'object',
            required: true,
            description: 'The prominent words of the text: {stem: weight}.',
          },
          object_id: { type: 'integer', required: true, description: 'The object the suggestions are for.' },
          object_type: { type: 'string', required: true, description: 'The type of that object (post or term).' },
          limit: { type: 'integer', default: 5, description: 'The maximum number of suggestions.' },
        },
        'Posts to link to, for a set of prominent words',
      ),
    ),
    route(
      'prominent_words/get_content',
      endpoint('POST', canEdit, getContent, {}, 'The next posts that need prominent words'),
    ),
    route(
      'prominent_words/complete',
      endpoint(
        'POST',
        canEdit,
        (req) => {
          wpseoSet(req.site, { prominent_words_indexing_completed: true });
          return { objects: [], next_url: false };
        },
        {},
        'Mark prominent words indexing complete',
      ),
    ),
    route(
      'prominent_words/save',
      endpoint(
        'POST',
        canEdit,
        saveWords,
        {
          data: {
            type: 'array',
            items: {
              type: 'object',
              properties: { object_id: { type: 'number', required: true }, prominent_words: { type: 'object' } },
            },
          },
        },
        'Save prominent words of indexables',
      ),
    ),
  ];
}
