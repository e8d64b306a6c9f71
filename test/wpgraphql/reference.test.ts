/**
 * The six front-end queries recorded against WPGraphQL 1.8.6 + WPGraphQL Yoast SEO 4.18.1 + ql-events 0.1.0
 * (test/fixtures/wpgraphql/) validate unchanged against the compatible graph and, run on the sandbox (other demo
 * data: the slugs, URIs and dates the queries name are the sandbox's own), answer with the shape and JSON types the
 * real site answered.
 */
import { readFileSync } from 'node:fs';
import { parse, validate, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWpGraphqlSchema } from '../../src/wpgraphql/schema.ts';
import { wpGraphqlRules } from '../../src/wpgraphql/rules.ts';
import { startWpHarness, type WpHarness } from './harness.ts';

const QUERIES = readFileSync(new URL('../fixtures/wpgraphql/queries.graphql', import.meta.url), 'utf8');
const ANSWERS = JSON.parse(
  readFileSync(new URL('../fixtures/wpgraphql/answers.json', import.meta.url), 'utf8'),
) as Record<string, { data: unknown }>;
const document = parse(QUERIES);
const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');

/** Differences between an answer and the recorded one: keys, JSON types, list items (null is a value of any type). */
function shapeDiff(ours: unknown, ref: unknown, path = '$'): string[] {
  if (ref === null || ours === null) return [];
  if (Array.isArray(ref)) {
    if (!Array.isArray(ours)) return [`${path}: list expected, got ${typeof ours}`];
    if (ref.length === 0) return [];
    return ours.flatMap((item, i) => shapeDiff(item, ref[0], `${path}[${i}]`));
  }
  if (typeof ref === 'object') {
    if (typeof ours !== 'object' || Array.isArray(ours)) return [`${path}: object expected`];
    const o = ours as Record<string, unknown>;
    const r = ref as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(o), ...Object.keys(r)])];
    return keys.flatMap((k) =>
      !(k in o)
        ? [`${path}.${k}: missing`]
        : !(k in r)
          ? [`${path}.${k}: not in the recorded answer`]
          : shapeDiff(o[k], r[k], `${path}.${k}`),
    );
  }
  return typeof ours === typeof ref ? [] : [`${path}: ${typeof ref} expected, got ${typeof ours}`];
}

function source(name: string): string {
  const op = operations.find((o) => o.name?.value === name)!;
  return QUERIES.slice(op.loc!.start, op.loc!.end);
}

describe('the reference queries', () => {
  it('all six validate against the compatible schema', () => {
    expect(operations.map((o) => o.name?.value)).toEqual([
      'EventsInMarch2027',
      'EventBySlug',
      'Venues',
      'Posts',
      'NodeByUriPost',
      'PostSeo',
    ]);
    expect(validate(createWpGraphqlSchema(), document, wpGraphqlRules())).toEqual([]);
  });

  it('the shape check tells a different shape', () => {
    expect(shapeDiff({ a: 1, b: [{ c: 'x' }] }, { a: 2, b: [{ c: 'y' }] })).toEqual([]);
    expect(shapeDiff({ a: '1', b: [{ d: 'x' }] }, { a: 2, b: [{ c: 'y' }] })).toEqual([
      '$.a: number expected, got string',
      '$.b[0].d: not in the recorded answer',
      '$.b[0].c: missing',
    ]);
  });
});

describe('the reference queries on the sandbox', () => {
  let h: WpHarness;
  /** The sandbox's own values for what the queries name. */
  let post: { slug: string; uri: string };
  let event: { slug: string; start: string };
  beforeAll(async () => {
    h = await startWpHarness();
    const posts = await h.gql('{ posts(first: 1) { nodes { slug uri } } }');
    post = posts.data.posts.nodes[0];
    const events = await h.gql('{ events(first: 1) { nodes { slug startDate } } }');
    event = { slug: events.data.events.nodes[0].slug, start: events.data.events.nodes[0].startDate };
  });
  afterAll(() => h.close());

  const run = async (name: string, text: string) => {
    const r = await h.gql(text, undefined, name);
    const ref = ANSWERS[name]!;
    expect(r.status).toBe(200);
    return { r, diff: shapeDiff(r.data, ref.data) };
  };

  it('EventsInMarch2027 (the month of the first upcoming event)', async () => {
    const [y, m] = event.start.split('-').map(Number) as [number, number];
    const prev = new Date(Date.UTC(y, m - 1, 0));
    const next = new Date(Date.UTC(y, m, 1));
    const text = source('EventsInMarch2027')
      .replace(
        '{ year: 2027, month: 2, day: 28 }',
        `{ year: ${prev.getUTCFullYear()}, month: ${prev.getUTCMonth() + 1}, day: ${prev.getUTCDate()} }`,
      )
      .replace(
        '{ year: 2027, month: 4, day: 1 }',
        `{ year: ${next.getUTCFullYear()}, month: ${next.getUTCMonth() + 1}, day: 1 }`,
      );
    const { r, diff } = await run('EventsInMarch2027', text);
    expect(r.errors).toBeUndefined();
    expect(diff).toEqual([]);
    const nodes = r.data.events.nodes as { title: string; startDate: string; endDate: string }[];
    expect(nodes.length).toBeGreaterThan(0);
    for (const n of nodes) expect(n.startDate.slice(0, 7)).toBe(event.start.slice(0, 7));
    const titles = nodes.map((n) => n.title);
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
  });

  it('EventBySlug', async () => {
    const { r, diff } = await run(
      'EventBySlug',
      source('EventBySlug').replace('"real-event-1"', JSON.stringify(event.slug)),
    );
    expect(diff).toEqual([]);
    expect(r.data.event.slug).toBe(event.slug);
    expect(r.data.event.startDate).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // The one field the site's REST answers cannot give: said, not a silent null.
    expect(r.errors?.map((e) => [e.path?.join('.'), e.extensions?.code])).toEqual([
      ['event.origin', 'NOT_IMPLEMENTED'],
    ]);
  });

  it('Venues', async () => {
    const { r, diff } = await run('Venues', source('Venues'));
    expect(r.errors).toBeUndefined();
    expect(diff).toEqual([]);
    const titles = (r.data.venues.nodes as { title: string }[]).map((n) => n.title);
    expect(titles.length).toBe(20);
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
  });

  it('Posts', async () => {
    const { r, diff } = await run('Posts', source('Posts'));
    expect(diff).toEqual([]);
    expect(r.data.posts.nodes.length).toBe(5);
    expect(r.data.posts.nodes[0].author.node.name).toEqual(expect.any(String));
    // The sandbox's index has no core/v2 categories route (real WordPress has): named, per post.
    for (const e of r.errors ?? []) {
      expect(e.path?.slice(-1)).toEqual(['categories']);
      expect(e.extensions?.code).toBe('NAMESPACE_UNAVAILABLE');
    }
  });

  it('NodeByUriPost', async () => {
    const { r, diff } = await run(
      'NodeByUriPost',
      source('NodeByUriPost').replace('"/hello-world/"', JSON.stringify(post.uri)),
    );
    expect(r.errors).toBeUndefined();
    expect(diff).toEqual([]);
    expect(r.data.nodeByUri).toMatchObject({ __typename: 'Post', uri: post.uri });
  });

  it('PostSeo', async () => {
    const { r, diff } = await run('PostSeo', source('PostSeo').replace('"/hello-world/"', JSON.stringify(post.uri)));
    expect(r.errors).toBeUndefined();
    expect(diff).toEqual([]);
    const seo = r.data.post.seo;
    expect(seo.canonical).toMatch(new RegExp(`${post.uri}$`));
    expect(seo.breadcrumbs.at(-1).url).toBe(seo.canonical);
    expect(JSON.parse(seo.schema.raw)['@graph'].length).toBeGreaterThan(0);
  });
});
