/**
 * Typed clients (issue 12): the front-end set-up in examples/client/ is
 * generated with graphql-codegen's client preset (programmatically, into the
 * example's gitignored src/gql/), type-checked with the repository's
 * TypeScript, and its typed call then runs against a gateway that accepts only
 * the operations of the manifest that same generation wrote: client codegen to
 * safelisted gateway, end to end.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { generate } from '@graphql-codegen/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import codegenConfig from '../examples/client/codegen.ts';
import { startHarness, type Harness } from './helpers/gateway.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const example = (path: string) => fileURLToPath(new URL(`../examples/client/${path}`, import.meta.url));
const MANIFEST = example('src/gql/persisted-documents.json');
/** Type-checks what a consumer writes; removed after the run (inside the gitignored folder). */
const PROBE = example('src/gql/probe.ts');

/** The example's modules, imported once generated (so not statically: src/gql/ does not exist before). */
interface ClientModules {
  main: { upcomingTitles(endpoint: string, first?: number): Promise<string[]> };
  client: {
    execute(endpoint: string, document: unknown, variables?: unknown): Promise<any>;
    GraphQLRequestError: new (...a: never[]) => Error;
  };
  operations: { UpcomingEventsQuery: unknown; EventTitleQuery: { __meta__?: { hash?: string } } };
}

describe('typed client example', () => {
  let h: Harness | undefined;
  let manifest: Record<string, string>;
  let mods: ClientModules;

  beforeAll(async () => {
    await rm(example('src/gql'), { recursive: true, force: true });
    await generate({ ...codegenConfig, silent: true }, true);
    manifest = JSON.parse(await readFile(MANIFEST, 'utf8')) as Record<string, string>;
  }, 120_000);

  afterAll(async () => {
    await rm(PROBE, { force: true });
    await h?.close();
  });

  it('generates graphql() and a persisted-documents manifest keyed by sha256 ids', () => {
    const ids = Object.keys(manifest);
    expect(ids).toHaveLength(2);
    for (const [id, doc] of Object.entries(manifest)) {
      expect(id).toBe(`sha256:${createHash('sha256').update(doc).digest('hex')}`);
    }
    expect(Object.values(manifest).join('\n')).toMatch(/query UpcomingEvents\(\$first: Int!, \$startDate: DateTime\)/);
    expect(Object.values(manifest).join('\n')).toMatch(/query EventTitle\(\$id: ID!\)/);
  });

  it('type-checks with tsc, and a misspelled field does not', async () => {
    await writeFile(
      PROBE,
      [
        "import { execute } from '../client.ts';",
        "import { EventTitleQuery, UpcomingEventsQuery } from '../operations.ts';",
        'export async function probe(url: string): Promise<string | null | undefined> {',
        '  const data = await execute(url, UpcomingEventsQuery, { first: 1 });',
        '  // @ts-expect-error: no such field (tsc fails on an unused expectation, so this proves the types are real)',
        '  void data.events?.nodes[0]?.titel;',
        '  // @ts-expect-error: a required variable missing',
        '  await execute(url, EventTitleQuery, {});',
        '  const one = await execute(url, EventTitleQuery, { id: "1" });',
        '  return one.event?.title;',
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

  it('calls a safelisted gateway with the generated manifest and typed documents', async () => {
    h = await startHarness({ config: { persistedDocuments: { manifest: MANIFEST, safelist: true } } });
    const load = async <T>(path: string) => (await import(pathToFileURL(example(path)).href)) as T;
    mods = {
      main: await load('src/main.ts'),
      client: await load('src/client.ts'),
      operations: await load('src/operations.ts'),
    };

    h.mark();
    const titles = await mods.main.upcomingTitles(h.gateway.url, 3);
    expect(titles).toHaveLength(3);
    for (const t of titles) expect(t).toMatch(/^\S+ .+ @ .+$/);
    expect(h.calls().length).toBeGreaterThan(0);

    const page = await mods.client.execute(h.gateway.url, mods.operations.UpcomingEventsQuery, { first: 1 });
    const first = page.events.nodes[0] as { id: string; title: string };
    const one = await mods.client.execute(h.gateway.url, mods.operations.EventTitleQuery, { id: first.id });
    expect(one.event).toEqual({ id: first.id, title: first.title });
    expect(mods.operations.EventTitleQuery.__meta__?.hash).toMatch(/^sha256:[0-9a-f]{64}$/);

    // The same gateway refuses what the manifest does not hold.
    const adHoc = await h.gql('{ events(first: 1) { nodes { title } } }');
    expect(adHoc.status).toBe(403);
    expect(adHoc.errors![0]!.extensions).toMatchObject({ code: 'OPERATION_NOT_ALLOWED' });
    const err = await mods.client
      .execute(h.gateway.url, Object.assign(new String('{ __typename }'), { __meta__: { hash: 'sha256:0000' } }))
      .catch((e: Error) => e);
    expect(err).toBeInstanceOf(mods.client.GraphQLRequestError);
    expect((err as Error).message).toMatch(/PERSISTED_QUERY_NOT_FOUND/);
  });
});
