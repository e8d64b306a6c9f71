/**
 * Terms named on legacy writes: the `categories` and `tags` of events, and
 * the slugs of new terms, resolved and created as WordPress and TEC do.
 */
import { slugify } from '../../calendar/model.ts';
import { parseList } from '../../rest/validate.ts';
import type { Storage } from '../../capabilities.ts';

/** `Tribe__Terms::translate_terms_to_ids`: IDs that exist, names or slugs found, other names created. */
export function termIdsFor(site: Storage, taxonomy: string, value: unknown): number[] {
  const ids: number[] = [];
  for (const raw of parseList(value)) {
    const s = String(raw).trim();
    if (/^\d+$/.test(s)) {
      const t = site.store.term(Number(s));
      if (t && t.taxonomy === taxonomy) ids.push(t.id);
      continue;
    }
    const found = site.store.termByName(taxonomy, s) ?? site.store.termBySlug(taxonomy, slugify(s));
    ids.push(
      found
        ? found.id
        : site.store.insertTerm({
            taxonomy,
            name: s,
            slug: uniqueTermSlug(site, taxonomy, slugify(s)),
            description: '',
            parent: 0,
          }).id,
    );
  }
  return [...new Set(ids)];
}

/** `wp_unique_term_slug`: appends -2, -3, ... */
export function uniqueTermSlug(site: Storage, taxonomy: string, base: string): string {
  const clean = base || 'term';
  let slug = clean;
  for (let n = 2; site.store.termBySlug(taxonomy, slug); n++) slug = `${clean}-${n}`;
  return slug;
}
