/**
 * Every example a user is shown runs: each GraphQL block of the README, of the
 * manual's pages that carry examples (PAGES) and each GraphiQL tab, against both kinds of site, answers data with no errors and no
 * null at its top level. An example marked `# needs: calendar batching` runs
 * against a site that marks calendar writes `allow_batch` (real sites do not),
 * and a site without calendar-core refuses it clearly (`atomic` needs batching);
 * one marked `# needs: calendar-core/v1` is refused clearly by a site without it.
 */
import { readFileSync } from 'node:fs';
import {
  buildClientSchema,
  getIntrospectionQuery,
  parse,
  print,
  validate,
  type IntrospectionQuery,
  type OperationDefinitionNode,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examples } from '../../src/graphiql.ts';
import { SITE_SHAPES, startHarness, type Harness } from '../helpers/gateway.ts';

interface Example {
  name: string;
  query: string;
  mutation: boolean;
  /** A subscription cannot run as a plain request: it is validated against the served schema. */
  subscription: boolean;
  batching: boolean;
  core: boolean;
}

/**
 * The documents whose ```graphql blocks are run, each with the fewest operations it must
 * hold (a page that lost its examples, or a fence that no longer matches, fails here).
 */
const PAGES: Record<string, number> = {
  'README.md': 1, // the first query
  'docs/writes.md': 6, // single, bulk and atomic writes
  'docs/graph.md': 4, // the example queries
};

function pageExamples(page: string): Example[] {
  const text = readFileSync(new URL(`../../${page}`, import.meta.url), 'utf8');
  const out: Example[] = [];
  for (const [i, m] of [...text.matchAll(/```graphql\n([\s\S]*?)```/g)].entries()) {
    const block = m[1]!;
    const batching = /# needs: calendar batching/.test(block);
    const defs = parse(block).definitions as OperationDefinitionNode[];
    for (const def of defs) {
      const query = print(def);
      // A `# needs: calendar-core/v1` comment applies to the operation that follows it.
      const before = block.slice(0, def.loc!.start).split('\n').slice(-3).join('\n');
      const core = /# needs: calendar-core\/v1/.test(before);
      out.push({
        name: `${page} block ${i + 1}: ${query.replace(/\s+/g, ' ').slice(0, 90)}`,
        query,
        mutation: def.operation === 'mutation',
        subscription: def.operation === 'subscription',
        batching,
        core,
      });
    }
  }
  return out;
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Values for the variables the examples declare. */
const VARIABLES: Record<string, unknown> = {
  inputs: [1, 2, 3].map((n) => ({
    title: `Example ${n}`,
    startDate: `${day(30 + n)}T18:00:00+00:00`,
    endDate: `${day(30 + n)}T20:00:00+00:00`,
    timezone: 'UTC',
  })),
};

const BY_PAGE = Object.fromEntries(Object.keys(PAGES).map((page) => [page, pageExamples(page)]));
const DOCS = Object.values(BY_PAGE).flat();
const TABS: Example[] = examples().map((e) => ({
  name: `GraphiQL tab: ${e.title}`,
  query: e.query,
  mutation: false,
  subscription: false,
  batching: false,
  core: false,
}));

describe.each(SITE_SHAPES)('the examples ($shape)', ({ sandbox, hasCore }) => {
  let h: Harness;
  let batchable: Harness;
  beforeAll(async () => {
    h = await startHarness({ sandbox });
    batchable = await startHarness({ sandbox: { ...sandbox, calendarBatchable: true } });
  });
  afterAll(async () => {
    await h.close();
    await batchable.close();
  });

  it('finds the examples', () => {
    for (const [page, least] of Object.entries(PAGES))
      expect(BY_PAGE[page]!.length, page).toBeGreaterThanOrEqual(least);
    expect(DOCS.length).toBeGreaterThanOrEqual(6);
    expect(TABS.length).toBe(5);
  });

  const noCore = !hasCore;
  for (const ex of [...TABS, ...DOCS]) {
    it(ex.name, async () => {
      const harness = ex.batching ? batchable : h;
      if (ex.subscription) {
        const served = await harness.gql(getIntrospectionQuery());
        const errors = validate(buildClientSchema(served.data as IntrospectionQuery), parse(ex.query));
        expect(errors.map((e) => e.message)).toEqual([]);
        return;
      }
      const r = await harness.gql(ex.query, VARIABLES, ex.mutation ? 'admin' : null);
      if (ex.batching && noCore) {
        // Batched calendar writes go through calendar-core's routes: a site without it refuses `atomic` clearly.
        expect(r.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', arguments: ['atomic'] });
        expect(r.errors![0]!.message).toMatch(/atomic: true needs \/batch\/v1, but the site does not allow batching/);
        return;
      }
      if (ex.core && noCore) {
        expect(r.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
        expect(r.errors![0]!.message).toMatch(/needs calendar-core\/v1, which this site does not offer/);
        return;
      }
      expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
      expect(r.data).not.toBeNull();
      for (const [field, value] of Object.entries(r.data)) expect(value, field).not.toBeNull();
    });
  }
});
