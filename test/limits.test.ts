/**
 * The cost estimate and the argument sizes (src/limits.ts), on the real
 * schema, with variables: what each form of a query costs and which argument
 * a refusal names.
 */
import { getIntrospectionQuery, getOperationAST, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../src/config.ts';
import {
  operationCost,
  operationDepth,
  oversizedArgument,
  perOperation,
  resolveOperation,
  type SizeLimits,
} from '../src/limits.ts';
import { buildSchema } from '../src/schema.ts';

const schema = buildSchema();
const resolved = (query: string, variables?: Record<string, unknown>) => {
  const doc = parse(query);
  const r = resolveOperation(schema, doc, getOperationAST(doc)!, variables);
  if (!r) throw new Error('variables did not coerce');
  return r;
};
const cost = (query: string, variables?: Record<string, unknown>) =>
  operationCost(resolved(query, variables), { defaultPageSize: 10 });
const { limits } = parseConfig({});
const sizes: SizeLimits = limits;

describe('operationCost', () => {
  it('reads page sizes from variables, and from their defaults', () => {
    const q = `query($n: Int = 20) { events(first: $n) { nodes { venues { events(first: $n) { nodes { title } } } } } }`;
    expect(cost(q, { n: 500 })).toBe(1 + 500 * 5);
    expect(cost(q)).toBe(1 + 20 * 5);
  });

  it('costs nodes { … } and edges { node { … } } the same', () => {
    const nodes = `{ events(first: 40) { nodes { venues { events(first: 5) { nodes { title } } } } } }`;
    const edges = `{ events(first: 40) { edges { cursor node { venues { events(first: 5) { edges { node { title } } } } } } pageInfo { hasNextPage } totalCount } }`;
    expect(cost(nodes)).toBe(201);
    expect(cost(edges)).toBe(201);
  });

  it('uses the default page size when first and last are absent, and last when given', () => {
    expect(cost(`{ venues { nodes { events { nodes { title } } } } }`)).toBe(1 + 10);
    expect(cost(`{ venues(last: 3) { nodes { events { nodes { title } } } } }`)).toBe(1 + 3);
  });

  it('counts fragments where they are spread and every alias', () => {
    const q = `
      query { a: events(first: 10) { ...E } b: events(first: 10) { nodes { ... on Event { venues { events { nodes { title } } } } } } }
      fragment E on EventConnection { nodes { venues { events { nodes { title } } } } }`;
    expect(cost(q)).toBe(2 * (1 + 10 * 5));
  });

  it('applies @skip and @include with their variables', () => {
    const q = `query($s: Boolean!) { events(first: 100) @skip(if: $s) { nodes { title } } site { name } }`;
    expect(cost(q, { s: true })).toBe(0);
    expect(cost(q, { s: false })).toBe(1);
  });

  it('counts nodes(ids:) one per ID, and node(id:) one', () => {
    const ids = Array.from({ length: 30 }, (_, i) => `V${i}`);
    expect(cost(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids })).toBe(30);
    expect(
      cost(`query($ids: [ID!]!) { nodes(ids: $ids) { ... on Venue { events { nodes { title } } } } }`, { ids }),
    ).toBe(30 + 30);
    expect(cost(`{ node(id: "x") { id } }`)).toBe(1);
  });

  it('charges introspection: the standard query passes, many __schema selections do not', () => {
    const standard = cost(
      getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, schemaDescription: true }),
    );
    expect(standard).toBe(272);
    expect(standard).toBeLessThanOrEqual(limits.maxCost);
    expect(
      cost(`{ ${Array.from({ length: 50 }, (_, i) => `s${i}: __schema { queryType { name } }`).join(' ')} }`),
    ).toBe(5000);
    expect(cost(`{ __typename }`)).toBe(0);
  });
});

describe('operationDepth', () => {
  it('counts introspection fields; the standard introspection query is within the default', () => {
    const doc = parse(getIntrospectionQuery());
    expect(operationDepth(doc, getOperationAST(doc)!)).toBe(15);
    expect(limits.maxDepth).toBe(15);
  });
});

describe('oversizedArgument', () => {
  const check = (q: string, v?: Record<string, unknown>) => oversizedArgument(resolved(q, v), sizes);

  it('names the argument path inside where', () => {
    expect(
      check(`query($s: String) { events(where: { search: $s }) { nodes { title } } }`, { s: 'x'.repeat(201) }),
    ).toMatchObject({ argument: 'where.search', limit: 'maxSearchLength', max: 200, actual: 201, field: 'events' });
    expect(
      check(`query($s: String) { events(where: { search: $s }) { nodes { title } } }`, { s: 'x'.repeat(200) }),
    ).toBeNull();
  });

  it('caps every list of IDs, in any where or input, and nested fields name their parent type', () => {
    const ids = Array.from({ length: 101 }, (_, i) => i);
    expect(
      check(`query($v: [Int!]) { venues { nodes { events(where: { organizerIds: $v }) { nodes { title } } } } }`, {
        v: ids,
      }),
    ).toMatchObject({ argument: 'where.organizerIds', field: 'Venue.events', limit: 'maxListItems' });
    expect(check(`query($v: [Int!]) { posts(where: { include: $v }) { nodes { title } } }`, { v: ids })).toMatchObject({
      argument: 'where.include',
    });
  });

  it('checks slugs, URLs, page sizes and other query strings', () => {
    expect(check(`{ events(where: { tagSlugs: ["${'s'.repeat(201)}"] }) { nodes { title } } }`)).toMatchObject({
      argument: 'where.tagSlugs',
      limit: 'maxSlugLength',
    });
    expect(check(`{ oembed(url: "${'u'.repeat(2049)}") { title } }`)).toMatchObject({
      argument: 'url',
      limit: 'maxUrlLength',
    });
    expect(check(`{ events(last: 501) { nodes { title } } }`)).toMatchObject({
      argument: 'last',
      limit: 'maxPageSize',
      max: 500,
    });
    expect(check(`{ namespace(name: "${'n'.repeat(1001)}") { name } }`)).toMatchObject({
      argument: 'name',
      limit: 'maxArgumentLength',
    });
  });

  it('leaves long text in mutation inputs to the request-size limit', () => {
    const q = `mutation($i: EventInput!) { createEvent(input: $i) { event { id } } }`;
    expect(
      check(q, {
        i: {
          title: 'T',
          description: 'd'.repeat(50_000),
          startDate: '2030-01-01T10:00:00Z',
          endDate: '2030-01-01T11:00:00Z',
        },
      }),
    ).toBeNull();
  });
});

describe('configuration of the limits', () => {
  it('has documented defaults', () => {
    expect(limits).toMatchObject({
      maxCost: 1000,
      maxDepth: 15,
      maxAliases: 50,
      maxListItems: 100,
      maxSearchLength: 200,
      maxSlugLength: 200,
      maxUrlLength: 2048,
      maxArgumentLength: 1000,
      maxPageSize: 500,
    });
  });

  it('reads each limit from the environment, and INTROSPECTION=0 turns introspection off', () => {
    const c = loadConfig({
      MAX_LIST_ITEMS: '20',
      MAX_SEARCH_LENGTH: '50',
      MAX_SLUG_LENGTH: '60',
      MAX_URL_LENGTH: '500',
      MAX_ARGUMENT_LENGTH: '300',
      MAX_QUERY_COST: '99',
      INTROSPECTION: '0',
    });
    expect(c.limits).toMatchObject({
      maxListItems: 20,
      maxSearchLength: 50,
      maxSlugLength: 60,
      maxUrlLength: 500,
      maxArgumentLength: 300,
      maxCost: 99,
    });
    expect(c.introspection).toBe(false);
  });
});

describe('perOperation', () => {
  const doc = parse('query($n: Int) { events(first: $n) { nodes { title } } } ');
  const plain = parse('{ events(first: 3) { nodes { title } } }');
  const counting = () => {
    let calls = 0;
    const memo = perOperation((_s, _d, _o, variables) => {
      calls += 1;
      return (variables?.n as number | undefined) ?? 'none';
    });
    return { memo, calls: () => calls };
  };

  it('computes once per operation node without variables', () => {
    const c = counting();
    for (let i = 0; i < 3; i++) expect(c.memo(schema, plain, getOperationAST(plain)!, undefined)).toBe('none');
    expect(c.calls()).toBe(1);
    // Another parse of the same text is another node (Apollo's document store returns the same one).
    const again = parse('{ events(first: 3) { nodes { title } } }');
    c.memo(schema, again, getOperationAST(again)!, undefined);
    expect(c.calls()).toBe(2);
  });

  it('keeps nothing for an operation with variables: each request computes with its own', () => {
    const c = counting();
    expect([5, 5, 6].map((n) => c.memo(schema, doc, getOperationAST(doc)!, { n }))).toEqual([5, 5, 6]);
    expect(c.calls()).toBe(3);
  });
});
