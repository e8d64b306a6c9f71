/**
 * seo/v1 served from its declarations (src/namespaces/seo/routes.ts): every field of
 * SeoQuery and SeoMutation has a resolver, and the declarations' coverage rows
 * are exactly the spec's seo/v1 routes but the index (which Query.namespace
 * reads). The behaviour of each field is proven end to end in
 * test/e2e/seo.test.ts and seo-redirects.test.ts.
 */
import { isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { seoResolvers } from '../../src/namespaces/seo/resolvers.ts';
import { fieldText } from '../../src/routes/route-use.ts';
import { SEO_MUTATION_ROUTES, SEO_QUERY_ROUTES, SEO_ROUTES } from '../../src/namespaces/seo/routes.ts';
import { readSpecRoutes } from '../../src/routes-tsv.ts';
import { buildSchema } from '../../src/schema.ts';

const schema = buildSchema();
const fieldsOf = (name: string) => {
  const t = schema.getType(name);
  if (!isObjectType(t)) throw new Error(`${name} is not an object type`);
  return Object.keys(t.getFields()).sort();
};

describe('seo/v1 declarations', () => {
  it('serve every field of SeoQuery and SeoMutation', () => {
    expect(Object.keys(seoResolvers.SeoQuery ?? {}).sort()).toEqual(fieldsOf('SeoQuery'));
    expect(Object.keys(seoResolvers.SeoMutation ?? {}).sort()).toEqual(fieldsOf('SeoMutation'));
  });

  it('declare only fields of the schema; importRedirects alone is hand-written', () => {
    expect(Object.keys(SEO_QUERY_ROUTES).sort()).toEqual(fieldsOf('SeoQuery'));
    expect(fieldsOf('SeoMutation').filter((f) => !(f in SEO_MUTATION_ROUTES))).toEqual(['importRedirects']);
  });

  it('cover exactly the spec rows of seo/v1 but its index, once each', () => {
    const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
    const spec = readSpecRoutes()
      .filter((r) => r.path.startsWith('/seo/v1/'))
      .map(key)
      .sort();
    const declared = SEO_ROUTES.map(key).sort();
    expect(declared).toEqual(spec);
    expect(new Set(declared).size).toBe(declared.length);
  });

  it('name the field that reaches each row, the indexing action and the bulk writer included', () => {
    const field = (method: string, path: string) =>
      fieldText(SEO_ROUTES.find((r) => r.method === method && r.path === path)?.field ?? '');
    expect(field('GET', '/seo/v1/file_size')).toBe('SeoQuery.fileSize');
    expect(field('POST', '/seo/v1/link-indexing/terms')).toBe('SeoMutation.runIndexing(action: LINK_TERMS)');
    expect(field('POST', '/seo/v1/redirects')).toBe('SeoMutation.createRedirect, SeoMutation.importRedirects');
    expect(field('POST', '/seo/v1/introductions/<introduction_id>/seen')).toBe('SeoMutation.markIntroductionSeen');
  });
});
