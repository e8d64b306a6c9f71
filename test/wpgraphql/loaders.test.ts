/**
 * WordPress's own core/v2 collections (users, pages, media, terms) are read through one function, which refuses a
 * parameter the site's route does not declare before anything is sent: WordPress would drop it without a word and
 * answer a wider list.
 */
import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/context.ts';
import { corePage } from '../../src/wpgraphql/loaders.ts';

function ctxWith(declared: string[], sent: unknown[]): Context {
  const site = { namespaces: ['core/v2'], routes: [{ pattern: '/core/v2/users', args: { GET: declared } }] };
  const upstream = {
    request: async (r: unknown) => {
      sent.push(r);
      return { status: 200, headers: { 'x-wp-total': '0' }, body: [] };
    },
  };
  return { site, upstream } as unknown as Context;
}

describe('corePage', () => {
  it('refuses, naming it, a parameter the route does not declare, and sends nothing', async () => {
    const sent: unknown[] = [];
    const ctx = ctxWith(['page', 'per_page', 'search'], sent);
    await expect(corePage(ctx, 'users', { slug: ['author'], page: 1, per_page: 10 })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', undeclaredParameters: ['slug'] },
    });
    expect(sent).toEqual([]);
  });

  it('sends what the route declares', async () => {
    const sent: unknown[] = [];
    const ctx = ctxWith(['page', 'per_page', 'slug'], sent);
    expect(await corePage(ctx, 'users', { slug: ['author'], page: 1, per_page: 10 })).toEqual({ items: [], total: 0 });
    expect(sent).toHaveLength(1);
  });
});
