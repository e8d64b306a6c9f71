/**
 * The typed WPGraphQL client in examples/wpgraphql-client/: its generated types (src/gql/, checked in) are what codegen
 * makes from WPGraphQL's SDL now, it type-checks with tsc (and a misspelled field or a missing variable does not), and
 * its documents, sent unchanged, answer on the gateway's /wpgraphql in front of the sandbox.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPages } from '../../examples/wpgraphql-client/src/main.ts';
import { operations } from '../../examples/wpgraphql-client/src/operations.ts';
import { startWpHarness, type WpHarness } from './harness.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const example = (path: string) => fileURLToPath(new URL(`../../examples/wpgraphql-client/${path}`, import.meta.url));
/** Type-checks what a consumer writes; removed after the run. */
const PROBE = example('src/gql/probe.ts');
const CONFIG = example('codegen.ts');
/** The CLI the npm script runs. */
const CODEGEN = fileURLToPath(new URL('../../node_modules/.bin/graphql-codegen', import.meta.url));
/** Where the staleness check generates (outside src/, so codegen does not read it as documents); removed after. */
const CHECK = example('.gql-check');

describe('typed WPGraphQL client example', () => {
  let h: WpHarness | undefined;
  beforeAll(async () => {
    h = await startWpHarness();
  });
  afterAll(async () => {
    await rm(PROBE, { force: true });
    await h?.close();
  });

  it('its checked-in src/gql/ is what codegen generates from schema-wpgraphql/schema.graphql now', async () => {
    // The CLI, as `npm run codegen:wpgraphql-client` runs it (its preset and its formatting hook), into another folder.
    await rm(CHECK, { recursive: true, force: true });
    try {
      await run(CODEGEN, ['--config', CONFIG, '--silent'], {
        env: { ...process.env, WPGRAPHQL_CLIENT_OUT: `${CHECK}/` },
      });
      const fresh = (await readdir(CHECK)).sort();
      expect(fresh.length).toBeGreaterThan(0);
      expect((await readdir(example('src/gql'))).filter((f) => f !== 'probe.ts').sort()).toEqual(fresh);
      for (const f of fresh) {
        const stale = `src/gql/${f} is stale: npm run codegen:wpgraphql-client`;
        expect(await readFile(example(`src/gql/${f}`), 'utf8'), stale).toBe(await readFile(join(CHECK, f), 'utf8'));
      }
    } finally {
      await rm(CHECK, { recursive: true, force: true });
    }
  }, 120_000);

  it('type-checks with tsc, and a misspelled field or a missing variable does not', async () => {
    await writeFile(
      PROBE,
      [
        "import { execute } from '../client.ts';",
        "import { EventBySlugQuery, PostSeoQuery } from '../operations.ts';",
        'export async function probe(url: string): Promise<string | null | undefined> {',
        "  const seo = await execute(url, PostSeoQuery, { uri: '/hello-world/' });",
        '  // @ts-expect-error: no such field (tsc fails on an unused expectation, so this proves the types are real)',
        '  void seo.data.post?.seo?.metaDescription;',
        '  // @ts-expect-error: a required variable missing',
        '  await execute(url, EventBySlugQuery, {});',
        "  const one = await execute(url, EventBySlugQuery, { slug: 'x' });",
        '  return one.data.event?.venue?.city;',
        '}',
        '',
      ].join('\n'),
    );
    const tsc = require.resolve('typescript/bin/tsc');
    const r = await run(process.execPath, [tsc, '-p', example('tsconfig.json')]).then(
      () => ({ code: 0, out: '' }),
      (e: { code?: number; stdout?: string }) => ({ code: e.code ?? 1, out: e.stdout ?? '' }),
    );
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  }, 120_000);

  it("runs the example's documents unchanged against /wpgraphql", async () => {
    h!.mark();
    const pages = await readPages(h!.url);
    expect(pages.errors).toEqual({});
    expect(pages.posts.length).toBeGreaterThan(0);
    expect(pages.post).toMatchObject({ typename: 'Post', uri: expect.stringMatching(/^\//) });
    expect(pages.events.length).toBeGreaterThan(0);
    expect(pages.event?.title).toBeTruthy();
    expect(pages.events[0]).toContain(` ${pages.event!.title!} @ `);
    expect(pages.venues.length).toBeGreaterThan(0);
    expect(h!.calls().length).toBeGreaterThan(0);

    // Every document of the set validates there as sent: a refused one answers 400 without data.
    for (const [name, document] of Object.entries(operations)) {
      const r = await h!.gql(document.toString(), {}, name);
      expect(r.errors?.filter((e) => e.extensions?.code === 'GRAPHQL_VALIDATION_FAILED') ?? [], name).toEqual([]);
    }
  });
});
