/**
 * Legacy categories (`calendar_events_cat`) and tags (`post_tag`): spec A3,
 * calendar-upstream.md §1.5, TEC `Term_Archive_Base` / `Term_Single_Base`,
 * which hand the work to WordPress's terms controller — hence its errors
 * (`rest_term_invalid`, `term_exists`) and its ordering and filters.
 */
import { can } from '../../auth.ts';
import { LEGACY_NAMESPACE, archiveTerm, legacyRestUrl } from '../../calendar/legacy-repr.ts';
import { CATEGORY_TAX, EVENT, TAG_TAX, slugify } from '../../calendar/model.ts';
import { paginate } from '../../calendar/query.ts';
import { RestError } from '../../errors.ts';
import { EDITABLE, RestResult, type RestRequest, type RouteDecl } from '../../rest/types.ts';
import { parseList } from '../../rest/validate.ts';
import type { TermRow } from '../../store/db.ts';
import { pageArgs, unrequired, type Args } from './args.ts';
import { termArchive } from './archive.ts';
import { uniqueTermSlug } from './term-input.ts';
import { isPostOfType, isString, isTermId, termRefIds, termRefList } from './validators.ts';

const NS = LEGACY_NAMESPACE;

interface Taxonomy {
  taxonomy: string;
  plural: 'categories' | 'tags';
  hierarchical: boolean;
}

const CATEGORIES: Taxonomy = { taxonomy: CATEGORY_TAX, plural: 'categories', hierarchical: true };
const TAGS: Taxonomy = { taxonomy: TAG_TAX, plural: 'tags', hierarchical: false };

/** WP_Term_Query `orderby` values and their sort keys; anything else sorts by name. */
const ORDERBY: Record<string, (t: TermRow, count: number) => string | number> = {
  id: (t) => t.id,
  term_id: (t) => t.id,
  name: (t) => t.name.toLowerCase(),
  slug: (t) => t.slug,
  description: (t) => t.description.toLowerCase(),
  count: (_t, n) => n,
  term_group: () => 0,
  parent: (t) => t.parent,
};

function archiveArgs(tx: Taxonomy): Args {
  const refs = {
    validate: termRefList(tx.taxonomy),
    sanitize: termRefIds(tx.taxonomy),
    items: { type: 'integer' as const },
  };
  const eventId = (v: unknown, req: RestRequest) => isPostOfType(req.site, v, EVENT);
  return {
    ...pageArgs(tx.plural),
    search: { type: 'string', description: 'Limit results to those matching a string', validate: isString },
    exclude: { description: 'Ensure result set exclude specific IDs', ...refs },
    include: { description: 'Limit result set to specific IDs', ...refs },
    order: { type: 'string', description: 'Order sort attribute ascending or descending', validate: isString },
    orderby: { type: 'string', description: 'Sort collection by term attribute', validate: isString },
    hide_empty: { type: 'boolean', default: '1', description: 'Whether to hide terms not assigned to any posts' },
    // Only the ID of an existing term: `parent=0` (top-level terms) is refused with
    // rest_invalid_param (real-site-behaviour.md, "Categories"). Tags take no `parent`.
    ...(tx.hierarchical
      ? {
          parent: {
            type: 'integer',
            description: 'Limit result set to terms assigned to a specific parent',
            validate: isTermId(tx.taxonomy),
          },
        }
      : {}),
    post: { type: 'integer', description: 'Limit result set to terms assigned to a specific post', validate: eventId },
    event: {
      type: 'integer',
      description: 'Limit result set to terms assigned to a specific event (an alias of the "post" parameter)',
      validate: eventId,
    },
    slug: { type: 'string', description: 'Limit result set to terms with a specific slug', validate: isString },
  };
}

function archive(tx: Taxonomy) {
  return (req: RestRequest) => {
    const { site } = req;
    const p = req.params;
    const sent = (k: string) => req.sent.has(k) && p[k] !== undefined && p[k] !== null;
    const counts = site.store.termCounts(tx.taxonomy);
    const count = (t: TermRow) => counts.get(t.id) ?? 0;
    const postId = sent('post') ? Number(p.post) : sent('event') ? Number(p.event) : undefined;
    const ofPost = postId !== undefined ? new Set(site.store.termIdsOf(postId, tx.taxonomy)) : null;
    const include = sent('include') ? (p.include as number[]) : null;
    const exclude = sent('exclude') ? (p.exclude as number[]) : [];
    const slugs = sent('slug') ? parseList(p.slug).map(String) : null;
    const needle = sent('search') ? String(p.search).toLowerCase() : '';
    let terms = site.store.terms(tx.taxonomy).filter((t) => {
      if (p.hide_empty && count(t) === 0) return false;
      if (include && !include.includes(t.id)) return false;
      if (exclude.includes(t.id)) return false;
      if (tx.hierarchical && sent('parent') && t.parent !== Number(p.parent)) return false;
      if (ofPost && !ofPost.has(t.id)) return false;
      if (slugs && !slugs.includes(t.slug)) return false;
      if (needle && !t.name.toLowerCase().includes(needle) && !t.slug.includes(needle)) return false;
      return true;
    });
    const orderby = sent('orderby') ? String(p.orderby) : 'name';
    const dir = sent('order') && String(p.order).toLowerCase() === 'desc' ? -1 : 1;
    const key =
      orderby === 'include' && include ? (t: TermRow) => include.indexOf(t.id) : (ORDERBY[orderby] ?? ORDERBY.name!);
    terms = [...terms].sort((a, b) => {
      const ka = key(a, count(a));
      const kb = key(b, count(b));
      return (ka < kb ? -1 : ka > kb ? 1 : a.id - b.id) * dir;
    });
    const page = Number(p.page);
    const perPage = Number(p.per_page);
    const { items, total, totalPages } = paginate(terms, page, perPage);
    return termArchive({
      key: tx.plural,
      items: items.map((t) => archiveTerm(site, t, count(t))),
      // `rest_url` is the bare base: TEC never adds the query (sample legacy-categories-archive.json).
      restUrl: legacyRestUrl(site, `${tx.plural}/`),
      page,
      total,
      totalPages,
    });
  };
}

function termOr404(req: RestRequest, tx: Taxonomy): TermRow {
  const term = req.site.store.term(Number(req.urlParams.id));
  if (!term || term.taxonomy !== tx.taxonomy) throw new RestError('rest_term_invalid', 'Term does not exist.', 404);
  return term;
}

/** `wp_insert_term`/`wp_update_term` parent check, as the terms controller reports it. */
function checkParent(req: RestRequest, tx: Taxonomy, parent: number): void {
  if (!tx.hierarchical || !parent) return;
  const t = req.site.store.term(parent);
  if (!t || t.taxonomy !== tx.taxonomy) throw new RestError('rest_term_invalid', 'Parent term does not exist.', 400);
}

function emptyName(): RestError {
  // wp_insert_term's WP_Error carries no status, so WordPress answers 500.
  return new RestError('empty_term_name', 'A name is required for this term.', 500);
}

function createTerm(tx: Taxonomy) {
  return (req: RestRequest) => {
    const { store } = req.site;
    const p = req.params;
    const name = String(p.name).trim();
    if (!name) throw emptyName();
    const parent = tx.hierarchical && p.parent !== undefined ? Number(p.parent) : 0;
    checkParent(req, tx, parent);
    const slugGiven = typeof p.slug === 'string' && p.slug.trim() !== '';
    const slug = slugify(slugGiven ? String(p.slug) : name);
    // wp_insert_term: a same-named term (among siblings, for categories) is a conflict unless a fresh slug is given.
    const sameName = store
      .terms(tx.taxonomy)
      .find((t) => t.name.toLowerCase() === name.toLowerCase() && (!tx.hierarchical || t.parent === parent));
    if (sameName && (!slugGiven || sameName.slug === slug || store.termBySlug(tx.taxonomy, slug))) {
      const message = tx.hierarchical
        ? 'A term with the name provided already exists with this parent.'
        : 'A term with the name provided already exists in this taxonomy.';
      throw new RestError('term_exists', message, 400, { term_id: sameName.id });
    }
    const term = store.insertTerm({
      taxonomy: tx.taxonomy,
      name,
      slug: uniqueTermSlug(req.site, tx.taxonomy, slug),
      description: typeof p.description === 'string' ? p.description : '',
      parent,
    });
    return new RestResult(archiveTerm(req.site, term), 201);
  };
}

function updateTerm(tx: Taxonomy) {
  return (req: RestRequest) => {
    const { store } = req.site;
    const p = req.params;
    const term = termOr404(req, tx);
    const patch: Partial<Omit<TermRow, 'id' | 'taxonomy'>> = {};
    if (p.name !== undefined) {
      const name = String(p.name).trim();
      if (!name) throw emptyName();
      patch.name = name;
    }
    if (typeof p.description === 'string') patch.description = p.description;
    if (tx.hierarchical && p.parent !== undefined) {
      checkParent(req, tx, Number(p.parent));
      patch.parent = Number(p.parent);
    }
    // wp_update_term keeps the slug unless one is given, and refuses one in use.
    if (typeof p.slug === 'string' && p.slug.trim() !== '') {
      const slug = slugify(p.slug);
      const other = store.termBySlug(tx.taxonomy, slug);
      if (other && other.id !== term.id) {
        throw new RestError('duplicate_term_slug', `The slug “${slug}” is already in use by another term.`, 500);
      }
      patch.slug = slug;
    }
    return archiveTerm(req.site, store.updateTerm(term.id, patch));
  };
}

function deleteTerm(tx: Taxonomy) {
  return (req: RestRequest) => {
    const term = termOr404(req, tx);
    // Always a hard delete (`tribe_events_rest_term_allow_delete`), answered with the term as it was.
    const previous = archiveTerm(req.site, term);
    req.site.store.deleteTerm(term.id);
    return previous;
  };
}

function writeArgs(tx: Taxonomy): Args {
  const what = tx.hierarchical ? 'category' : 'tag';
  return {
    name: { type: 'string', required: true, description: `The ${what} name`, validate: isString },
    description: { type: 'string', description: `The ${what} description`, validate: isString },
    slug: { type: 'string', description: `The ${what} slug`, validate: isString },
    ...(tx.hierarchical ? { parent: { type: 'integer', description: 'The category parent category' } } : {}),
  };
}

function termRoutes(tx: Taxonomy): RouteDecl[] {
  // Creating, editing and deleting terms is `manage_categories` (editors and administrators).
  const manage = (req: RestRequest) => can(req.user, 'manage_categories');
  // TEC checks the ID is a term of the taxonomy before the callback (as `is_event_id` does for events): an
  // unknown ID, or another taxonomy's, is 400 rest_invalid_param naming `id` on GET, EDIT and DELETE, as
  // the real 5.7.1 and 6.15.14 answer (test/real/differential.test.ts).
  const id: Args = {
    id: {
      type: 'integer',
      required: true,
      description: `the ${tx.hierarchical ? 'event category' : 'event tag'} term ID`,
      validate: (_v, req) => isTermId(tx.taxonomy)(req.urlParams.id, req),
    },
  };
  return [
    {
      namespace: NS,
      path: `/${NS}/${tx.plural}`,
      endpoints: [
        {
          methods: ['GET'],
          args: archiveArgs(tx),
          permission: () => true,
          handler: archive(tx),
          summary: `Returns the ${tx.plural} matching the query`,
        },
        {
          methods: ['POST'],
          args: writeArgs(tx),
          permission: manage,
          handler: createTerm(tx),
          summary: `Creates a ${tx.hierarchical ? 'category' : 'tag'}`,
        },
      ],
    },
    {
      namespace: NS,
      path: `/${NS}/${tx.plural}/(?P<id>\\d+)`,
      endpoints: [
        {
          methods: ['GET'],
          args: id,
          permission: () => true,
          handler: (req) => archiveTerm(req.site, termOr404(req, tx)),
          summary: 'Returns one term',
        },
        {
          methods: EDITABLE,
          args: { ...id, ...unrequired(writeArgs(tx)) },
          permission: manage,
          handler: updateTerm(tx),
          summary: 'Updates a term',
        },
        { methods: ['DELETE'], args: id, permission: manage, handler: deleteTerm(tx), summary: 'Deletes a term' },
      ],
    },
  ];
}

export function categoryRoutes(): RouteDecl[] {
  return termRoutes(CATEGORIES);
}

export function tagRoutes(): RouteDecl[] {
  return termRoutes(TAGS);
}
