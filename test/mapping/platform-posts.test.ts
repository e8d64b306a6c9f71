/**
 * Planning of GET /core/v2/posts: every graph argument whose REST parameter
 * the site's index does not declare is refused (WordPress ignores an
 * undeclared query parameter, so the answer would silently be unfiltered;
 * 6.1 lacks `search_columns`, `format` and `search_semantics`), and the
 * declared arguments are read from the list endpoint itself, not from the
 * route's other endpoints. Also the post write bodies and delete answers.
 */
import { describe, expect, it } from 'vitest';
import { deletedPost, postBody, postInputField, postsQuery } from '../../src/namespaces/posts/mapping.ts';
import { declaredArgs, parseIndex } from '../../src/upstream/discovery.ts';
import { GatewayError } from '../../src/errors.ts';

/** The arguments WordPress 6.1 declares on GET /wp/v2/posts (as served as core/v2 by scripts/wordpress). */
const WP61_LIST = [
  'context',
  'page',
  'per_page',
  'search',
  'after',
  'modified_after',
  'author',
  'author_exclude',
  'before',
  'modified_before',
  'exclude',
  'include',
  'offset',
  'order',
  'orderby',
  'slug',
  'status',
  'tax_relation',
  'categories',
  'categories_exclude',
  'tags',
  'tags_exclude',
  'sticky',
];
const WP61_CREATE = [
  'date',
  'date_gmt',
  'slug',
  'status',
  'password',
  'title',
  'content',
  'author',
  'excerpt',
  'featured_media',
  'comment_status',
  'ping_status',
  'format',
  'meta',
  'sticky',
  'template',
  'categories',
  'tags',
];
const declared61 = new Set(WP61_LIST);

function refusal(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('postsQuery against the arguments the site declares', () => {
  it('passes every filter a site declaring all of them takes', () => {
    const where = {
      search: 'x',
      searchSemantics: 'EXACT' as const,
      searchColumns: ['POST_TITLE' as const],
      after: '2025-01-01T00:00:00Z',
      author: [1],
      include: [2],
      status: ['DRAFT' as const],
      categories: { terms: [3], operator: 'AND' as const },
      tags: { terms: [4] },
      tagsExclude: [5],
      sticky: true,
      format: ['ASIDE' as const],
      offset: 2,
    };
    const all = new Set([...WP61_LIST, 'search_semantics', 'search_columns', 'format']);
    const { query, offset } = postsQuery(where, { field: 'TITLE', direction: 'ASC' }, 'EDIT', all);
    expect(offset).toBe(2);
    expect(query).toMatchObject({
      search_semantics: 'exact',
      search_columns: ['post_title'],
      format: ['aside'],
      'categories[terms]': [3],
      'categories[operator]': 'AND',
      tags: [4],
      orderby: 'title',
      order: 'asc',
      context: 'edit',
    });
  });

  it('refuses where.format on a site whose list does not declare `format` (WordPress 6.1), naming it', () => {
    const e = refusal(() => postsQuery({ format: ['ASIDE'] }, null, null, declared61));
    expect(e.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      arguments: ['where.format'],
      undeclaredParameters: ['format'],
    });
    expect(e.message).toContain('where.format');
    expect(e.message).toContain('does not take `format`');
  });

  it('refuses where.searchSemantics and where.searchColumns together, in one error', () => {
    const e = refusal(() =>
      postsQuery(
        { search: 'walrus', searchSemantics: 'EXACT', searchColumns: ['POST_CONTENT'] },
        null,
        null,
        declared61,
      ),
    );
    expect(e.extensions.arguments).toEqual(['where.searchSemantics', 'where.searchColumns']);
    expect(e.extensions.undeclaredParameters).toEqual(['search_semantics', 'search_columns']);
  });

  it('applies the same rule to every argument: term objects, offset, orderBy, context', () => {
    const without = (name: string) => new Set(WP61_LIST.filter((a) => a !== name));
    expect(
      refusal(() =>
        postsQuery({ categories: { terms: [1], includeChildren: true } }, null, null, without('categories')),
      ).extensions.arguments,
    ).toEqual(['where.categories']);
    expect(refusal(() => postsQuery({ offset: 3 }, null, null, without('offset'))).extensions.arguments).toEqual([
      'where.offset',
    ]);
    expect(
      refusal(() => postsQuery(null, { field: 'ID', direction: 'ASC' }, null, without('order'))).extensions.arguments,
    ).toEqual(['orderBy.direction']);
    expect(refusal(() => postsQuery(null, null, 'EMBED', without('context'))).extensions.arguments).toEqual([
      'context',
    ]);
    expect(
      refusal(() => postsQuery({ modifiedAfter: '2025-01-01T00:00:00Z' }, null, null, without('modified_after')))
        .extensions.arguments,
    ).toEqual(['where.modifiedAfter']);
  });

  it('arguments left out, empty lists and offset 0 send nothing, so nothing is refused', () => {
    expect(postsQuery({ format: [], searchColumns: [], offset: 0 }, null, null, declared61).query).toEqual({});
  });

  it('checks nothing when the site announces no arguments', () => {
    expect(postsQuery({ format: ['ASIDE'] }, null, null, null).query).toEqual({ format: ['aside'] });
  });
});

describe('declaredArgs: the arguments of one method of a route, from the root index', () => {
  const index = (listArgs: unknown) =>
    parseIndex({
      namespaces: ['core/v2'],
      routes: {
        '/core/v2/posts': {
          namespace: 'core/v2',
          methods: ['GET', 'POST'],
          endpoints: [
            { methods: ['GET'], args: listArgs },
            {
              methods: ['POST'],
              allow_batch: { v1: true },
              args: Object.fromEntries(WP61_CREATE.map((a) => [a, { required: false }])),
            },
          ],
        },
      },
    });

  it('reads the list endpoint only: `format` of the create endpoint does not make the list take it', () => {
    const site = index(Object.fromEntries(WP61_LIST.map((a) => [a, { required: false }])));
    const list = declaredArgs(site, 'GET', '/core/v2/posts')!;
    expect([...list].sort()).toEqual([...WP61_LIST].sort());
    expect(list.has('format')).toBe(false);
    // The create endpoint has it: arguments are kept per method.
    expect(site.routes[0]!.args.POST).toContain('format');
    expect(declaredArgs(site, 'POST', '/core/v2/posts')!.has('format')).toBe(true);
  });

  it("null when the index gives no args or no such route; `[]` (PHP's empty array) declares none", () => {
    expect(declaredArgs(index(undefined), 'GET', '/core/v2/posts')).toBeNull();
    expect(declaredArgs(index(undefined), 'GET', '/core/v2/nothing')).toBeNull();
    expect(declaredArgs(index([]), 'GET', '/core/v2/posts')!.size).toBe(0);
  });
});

describe('post writes', () => {
  it('postBody sends only the fields given, under their REST names', () => {
    expect(
      postBody({
        title: 'T',
        excerpt: null,
        status: 'PUBLISH',
        authorId: 3,
        categoryIds: [],
        date: '2025-01-01T10:00:00+01:00',
        commentStatus: 'CLOSED',
      }),
    ).toEqual({
      title: 'T',
      status: 'publish',
      author: 3,
      categories: [],
      date_gmt: '2025-01-01T09:00:00',
      comment_status: 'closed',
    });
    expect(postBody({ date: '2025-01-01 10:00:00' })).toEqual({ date: '2025-01-01T10:00:00' });
    expect(postBody({})).toEqual({});
    expect(['date_gmt', 'featured_media', 'tags', 'title'].map(postInputField)).toEqual([
      'date',
      'featuredMediaId',
      'tagIds',
      'title',
    ]);
  });

  it('deletedPost reads both answers of DELETE: the trashed post, and {deleted, previous}', () => {
    const post = {
      id: 7,
      title: { rendered: 'P' },
      status: 'trash',
      date: '2025-01-01T10:00:00',
      date_gmt: '2025-01-01T09:00:00',
    };
    expect(deletedPost(7, post, 'Europe/Paris')).toMatchObject({
      databaseId: 7,
      permanently: false,
      post: { databaseId: 7, status: 'trash', title: 'P' },
    });
    const gone = deletedPost(7, { deleted: true, previous: { ...post, status: 'publish' } }, 'Europe/Paris');
    expect(gone).toMatchObject({ databaseId: 7, permanently: true, post: { status: 'publish' } });
  });
});
