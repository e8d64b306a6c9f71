/**
 * The import graph (scripts/import-cycles.ts, `npm run imports`): src/ has no
 * import circle, type-only imports included. The sandbox has none because
 * namespaces name the small capabilities of packages/sandbox/src/capabilities.ts and
 * never the site that composes them; the gateway has none because codegen's
 * mappers name model modules only, which import nothing generated.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  KNOWN_SANDBOX_TWO_WAY,
  KNOWN_TWO_WAY,
  importCycles,
  importGraph,
  partOf,
  stronglyConnected,
  twoWayParts,
  type ImportGraph,
} from '../scripts/import-cycles.ts';
import { VENDORED_CLI_KIT, vendoredCliKit } from '../scripts/vendor-cli-kit.ts';

const runScript = (dir: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'scripts/import-cycles.ts', dir], {
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('the import graph of src/ and of the sandbox (packages/sandbox/src/)', () => {
  const graph = importGraph('src');
  // Named from the package's folder: src/site.ts is packages/sandbox/src/site.ts.
  const sandbox = importGraph('packages/sandbox/src');

  it('has no circle, in the sandbox or in the gateway', () => {
    // Before the capabilities, one circle held 78 sandbox files (site.ts <-> every namespace); before the
    // model modules, one held 9 gateway files (generated/graphql.ts <-> resolvers that hosted mapper types).
    expect(importCycles(graph)).toEqual([]);
    expect(importCycles(sandbox)).toEqual([]);
  });

  it('has nothing under src/ import the sandbox statically (src/demo.ts loads it by a name held in a variable)', () => {
    const specifiers = [...readdirSync('src', { recursive: true, encoding: 'utf8' })]
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        ts
          .preProcessFile(readFileSync(join('src', f), 'utf8'), true, true)
          .importedFiles.map((i) => `${f}: ${i.fileName}`),
      );
    expect(specifiers.length).toBeGreaterThan(100);
    expect(specifiers.filter((s) => /sandbox/.test(s.split(': ')[1]!))).toEqual([]);
  });

  it('has nothing in the sandbox import a file outside its package (it is a site of its own)', () => {
    const root = join('packages', 'sandbox');
    const outside = [...readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })]
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        ts
          .preProcessFile(readFileSync(join(root, 'src', f), 'utf8'), true, true)
          .importedFiles.map((i) => i.fileName)
          .filter(
            (spec) => spec.startsWith('.') && relative(root, resolve(root, 'src', dirname(f), spec)).startsWith('..'),
          )
          .map((spec) => `${f}: ${spec}`),
      );
    expect(outside).toEqual([]);
  });

  it("keeps the sandbox's copy of src/cli-kit.ts what scripts/vendor-cli-kit.ts writes (run it after editing the original)", () => {
    expect(readFileSync(VENDORED_CLI_KIT, 'utf8')).toBe(vendoredCliKit());
  });

  it('has no cast through `unknown` or `never` in src/ (`x as unknown as T`, `x as never`)', () => {
    const casts: string[] = [];
    for (const f of readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.ts'))) {
      const file = ts.createSourceFile(f, readFileSync(join('src', f), 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (
          ts.isAsExpression(node) &&
          (node.type.kind === ts.SyntaxKind.UnknownKeyword || node.type.kind === ts.SyntaxKind.NeverKeyword)
        ) {
          // `as unknown` alone widens (allowed); through it to another type, or to never, is a cast.
          const through = node.type.kind === ts.SyntaxKind.NeverKeyword || ts.isAsExpression(node.parent);
          if (through)
            casts.push(
              `src/${f}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.parent.getText().slice(0, 80)}`,
            );
        }
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
    expect(casts).toEqual([]);
  });

  it('has the rate-limit check in one place, the pipeline, whose stage every transport calls (ratelimit.ts rateGate)', () => {
    const files = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.ts'));
    const where = (re: RegExp) => files.filter((f) => re.test(readFileSync(join('src', f), 'utf8'))).sort();
    expect(where(/\.hit\(/)).toEqual(['ratelimit.ts']);
    expect(where(/rateLimit\.check\(/)).toEqual(['pipeline/index.ts']);
    expect(where(/pipeline\.rateLimit\('/)).toEqual([
      'http-routes.ts',
      'subscriptions/sse.ts',
      'subscriptions/ws.ts',
      'wpgraphql/handler.ts',
    ]);
    // Documents are parsed and validated in one place; graphql-sse, graphql-ws and Apollo are handed them.
    expect(where(/\b(parse|validate)\(\w+, \{ maxTokens|\bvalidate\(options\.schema/)).toEqual([
      'pipeline/document.ts',
    ]);
  });

  it('has only src/upstream/ send HTTP to the site: no undici, no http(s) request and no global fetch elsewhere', () => {
    const outside: string[] = [];
    for (const f of readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.ts'))) {
      if (f.startsWith('upstream/') || f.startsWith('generated/')) continue;
      const file = ts.createSourceFile(f, readFileSync(join('src', f), 'utf8'), ts.ScriptTarget.Latest, true);
      // A file that declares its own `fetch` (a parameter, a local function) calls that one, not the global.
      const ownFetch = (node: ts.Node): boolean =>
        ((ts.isParameter(node) || ts.isVariableDeclaration(node) || ts.isFunctionDeclaration(node)) &&
          node.name !== undefined &&
          ts.isIdentifier(node.name) &&
          node.name.text === 'fetch') ||
        ts.forEachChild(node, ownFetch) === true;
      const declaresFetch = ownFetch(file);
      const visit = (node: ts.Node): void => {
        if (
          ts.isImportDeclaration(node) &&
          ts.isStringLiteral(node.moduleSpecifier) &&
          !node.importClause?.isTypeOnly
        ) {
          const from = node.moduleSpecifier.text;
          const names = node.importClause?.namedBindings;
          const values =
            names && ts.isNamedImports(names)
              ? names.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text)
              : [];
          if (from === 'undici' && (values.length || node.importClause?.name)) outside.push(`${f}: imports undici`);
          if (/^node:https?$/.test(from) && values.some((v) => v === 'request' || v === 'get'))
            outside.push(`${f}: ${from} ${values.join(', ')}`);
        }
        if (ts.isCallExpression(node)) {
          const callee = node.expression;
          const global =
            (ts.isIdentifier(callee) && callee.text === 'fetch' && !declaresFetch) ||
            (ts.isPropertyAccessExpression(callee) && callee.getText() === 'globalThis.fetch');
          if (global) outside.push(`${f}: fetch()`);
        }
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
    expect(outside).toEqual([]);
  });

  it('has a calendar field spelled only in the field table (show_map_link: the table and the generated types)', () => {
    const found = spawnSync('git', ['grep', '-il', 'show_\\?map_\\?link', '--', 'src'], { encoding: 'utf8' });
    expect(found.stdout.trim().split('\n').sort()).toEqual([
      'src/generated/graphql.ts',
      'src/mapping/calendar-models.ts',
    ]);
  });

  it('has the generated types import only model modules (and the context type)', () => {
    expect(graph.get('src/generated/graphql.ts')?.toSorted()).toEqual([
      'src/context.ts',
      'src/mapping/models.ts',
      'src/mapping/platform-models.ts',
      'src/mapping/site-models.ts',
    ]);
    for (const model of ['src/mapping/models.ts', 'src/mapping/platform-models.ts', 'src/mapping/site-models.ts']) {
      expect(graph.get(model)?.filter((f) => !f.startsWith('src/mapping/') || !f.endsWith('models.ts'))).toEqual([]);
    }
  });

  it('has the site compose the namespaces, and only the server import the site', () => {
    expect(sandbox.get('src/site.ts')).toContain('src/namespaces/index.ts');
    const importers = [...sandbox].filter(([, targets]) => targets.includes('src/site.ts')).map(([f]) => f);
    expect(importers).toEqual(['src/server.ts']);
  });

  it('counts type-only imports as edges', () => {
    // rest/types.ts names the capabilities with `import type` only.
    expect(sandbox.get('src/rest/types.ts')).toContain('src/capabilities.ts');
    expect(sandbox.get('src/capabilities.ts')).not.toContain('src/rest/types.ts');
  });
});

describe('stronglyConnected', () => {
  it('finds every circle, a file importing itself included, and leaves the rest out', () => {
    const g: ImportGraph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', ['d']],
      ['e', ['a']],
      ['f', []],
    ]);
    expect(stronglyConnected(g)).toHaveLength(4);
    expect(importCycles(g)).toEqual([['d'], ['a', 'b', 'c']]);
  });
});

describe('two-way folder dependencies', () => {
  it('are pairs of top-level parts importing each other, with the imports of each direction', () => {
    const g: ImportGraph = new Map([
      ['src/a/x.ts', ['src/b/y.ts', 'src/a/z.ts']],
      ['src/a/z.ts', []],
      ['src/b/y.ts', ['src/c.ts']],
      ['src/b/w.ts', ['src/a/z.ts']],
      ['src/c.ts', ['src/b/w.ts']],
    ]);
    expect(partOf('src/a/x.ts')).toBe('a');
    expect(partOf('src/c.ts')).toBe('c.ts');
    expect(twoWayParts(g)).toEqual([
      { a: 'a', b: 'b', aToB: ['src/a/x.ts -> src/b/y.ts'], bToA: ['src/b/w.ts -> src/a/z.ts'] },
      { a: 'b', b: 'c.ts', aToB: ['src/b/y.ts -> src/c.ts'], bToA: ['src/c.ts -> src/b/w.ts'] },
    ]);
  });

  it('are none in src/', () => {
    expect(twoWayParts(importGraph('src')).map((t) => `${t.a} <-> ${t.b}`)).toEqual([]);
    expect(KNOWN_TWO_WAY).toEqual({});
  });

  it('are none in the sandbox', () => {
    expect(twoWayParts(importGraph('packages/sandbox/src')).map((t) => `${t.a} <-> ${t.b}`)).toEqual([]);
    expect(KNOWN_SANDBOX_TWO_WAY).toEqual({});
  });

  it('fail npm run imports on a fixture, naming the imports each way', () => {
    const r = runScript('test/fixtures/two-way');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('no import circle');
    expect(r.stdout).toContain('two-way: a <-> b');
    expect(r.stdout).toContain('two-way/a/x.ts -> two-way/b/y.ts');
    expect(r.stdout).toContain('two-way/b/w.ts -> two-way/a/z.ts');
  });
});

describe('npm run imports', () => {
  it('exits 1 and names the files of a circle made of type-only imports', () => {
    const r = runScript('test/fixtures/import-circle');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('circle 1: 2 files');
    expect(r.stdout).toMatch(/import-circle\/a\.ts\n\s+import-circle\/b\.ts/);
    expect(r.stdout).not.toMatch(/^\s+import-circle\/leaf\.ts$/m);
  });

  it('exits 0 on src/ and on the sandbox (no circle, no two-way folder dependency)', () => {
    for (const dir of ['src', 'packages/sandbox/src']) {
      const r = runScript(dir);
      expect(r.stdout).toContain('no import circle');
      expect(r.stdout).toContain('no two-way folder dependency');
      expect(r.status).toBe(0);
    }
  });
});
