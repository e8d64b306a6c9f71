/**
 * `npm run imports [-- dir]`: the import graph of a source folder (src/ unless
 * told), its strongly connected components, and exit code 1 when any has more
 * than one file (or a file imports itself): an import circle. Then the same
 * question a level up: two top-level parts of the folder (a folder, or a file
 * at its root such as src/context.ts) that import each other, a two-way
 * folder dependency, with the imports that make each direction. Those
 * fail too, but for the ones listed as known (KNOWN_TWO_WAY for src/,
 * KNOWN_SANDBOX_TWO_WAY for packages/sandbox/src/: what is left to fix, each
 * with who fixes it); a listed pair that is gone fails as well, so the lists
 * only shrink.
 *
 * Type-only imports count. They erase at run time, but they are part of the
 * design: a namespace that names `type { Sandbox }` depends on the whole site
 * as surely as one that calls it, and a change there ripples back.
 *
 * Imports are read with the TypeScript scanner (`ts.preProcessFile`), not a
 * regex, so multi-line, `export … from`, `import type`, `import('./x.ts')`
 * and side-effect imports are all seen. Only relative specifiers are edges:
 * packages cannot import our files back.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** File (relative to the root's parent, with `/`) -> the files it imports, in the same form. */
export type ImportGraph = Map<string, string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return /\.m?ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
    });
}

/** Reads every `.ts` file under `root`; edges leaving `root` are dropped (they cannot close a circle inside it). */
export function importGraph(root: string): ImportGraph {
  const base = dirname(resolve(root));
  const files = sourceFiles(resolve(root));
  const known = new Set(files);
  const name = (abs: string) => relative(base, abs).split('\\').join('/');
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const targets = ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.map((f) => f.fileName)
      .filter((spec) => spec.startsWith('./') || spec.startsWith('../'))
      .map((spec) => resolve(dirname(file), spec))
      .filter((abs) => known.has(abs));
    graph.set(name(file), [...new Set(targets.map(name))]);
  }
  return graph;
}

/** Tarjan's algorithm; components come out in reverse topological order, each sorted by name. */
export function stronglyConnected(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

/** The components that are circles: more than one file, or one file importing itself. */
export function importCycles(graph: ImportGraph): string[][] {
  return stronglyConnected(graph).filter((c) => c.length > 1 || (graph.get(c[0]!) ?? []).includes(c[0]!));
}

/** Inside a circle, the files most imported from within it: usually the hub to cut. */
function hubs(graph: ImportGraph, component: string[]): string[] {
  const members = new Set(component);
  const inbound = new Map<string, number>();
  for (const f of component)
    for (const t of graph.get(f) ?? []) if (members.has(t)) inbound.set(t, (inbound.get(t) ?? 0) + 1);
  return [...inbound]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([f, n]) => `${f} (imported by ${n})`);
}

/**
 * The top-level part of the root a file belongs to: `src/cache/store.ts` -> `cache`, `src/context.ts` -> `context.ts`.
 */
export function partOf(file: string): string {
  const [, part = file] = file.split('/');
  return part;
}

/** One two-way dependency: parts `a` < `b`, and the imports each way. */
export interface TwoWay {
  a: string;
  b: string;
  aToB: string[];
  bToA: string[];
}

/** Pairs of top-level parts that import each other (type-only imports count, as for circles). */
export function twoWayParts(graph: ImportGraph): TwoWay[] {
  const edges = new Map<string, string[]>();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const a = partOf(from);
      const b = partOf(to);
      if (a === b) continue;
      const k = `${a}\0${b}`;
      edges.set(k, [...(edges.get(k) ?? []), `${from} -> ${to}`]);
    }
  }
  const out: TwoWay[] = [];
  for (const [k, aToB] of edges) {
    const [a = '', b = ''] = k.split('\0');
    const bToA = edges.get(`${b}\0${a}`);
    if (a < b && bToA) out.push({ a, b, aToB, bToA });
  }
  return out.sort((x, y) => `${x.a} ${x.b}`.localeCompare(`${y.a} ${y.b}`));
}

/**
 * Two-way dependencies of src/ still to fix, as `a <-> b` (a < b), each with
 * who owns the fix: none left. npm run imports fails on one not listed, and on
 * a listed one that no longer exists; keep it empty (a new pair is fixed, not listed).
 */
export const KNOWN_TWO_WAY: Readonly<Record<string, string>> = {};

/**
 * The sandbox's (packages/sandbox/src/): none left. The three found when the
 * check came were fixed by moving code down: the REST errors to errors.ts
 * (auth.ts and rest/ both import it), the Yoast head builders to
 * yoast-head.ts (the calendar's representations and the namespaces both read
 * them), and the index's argument shape to rest/arg-index.ts
 * (namespaces/root.ts and openapi.ts both read it). Keep it empty: a new pair
 * is fixed, not listed.
 */
export const KNOWN_SANDBOX_TWO_WAY: Readonly<Record<string, string>> = {};

/** The known two-way dependencies of a root this script checks (none for any other folder). */
export function knownTwoWay(root: string): Readonly<Record<string, string>> {
  const r = root.replace(/\/$/, '');
  if (r === 'src') return KNOWN_TWO_WAY;
  if (r === 'packages/sandbox/src') return KNOWN_SANDBOX_TWO_WAY;
  return {};
}

const pairName = (t: TwoWay) => `${t.a} <-> ${t.b}`;

function main(root: string): number {
  const graph = importGraph(root);
  const edges = [...graph.values()].reduce((n, t) => n + t.length, 0);
  const cycles = importCycles(graph);
  console.log(`${graph.size} files, ${edges} imports under ${root}`);
  for (const [i, c] of cycles.entries()) {
    console.log(`\ncircle ${i + 1}: ${c.length} files; most imported inside it: ${hubs(graph, c).join(', ')}`);
    for (const f of c) console.log(`  ${f}`);
  }
  console.log(
    cycles.length
      ? `\n${cycles.length} import circle(s), ${cycles.reduce((n, c) => n + c.length, 0)} files in them`
      : 'no import circle',
  );
  const known = knownTwoWay(root);
  const twoWay = twoWayParts(graph);
  const fresh = twoWay.filter((t) => !(pairName(t) in known));
  const gone = Object.keys(known).filter((k) => !twoWay.some((t) => pairName(t) === k));
  for (const t of twoWay) {
    const note = known[pairName(t)];
    console.log(`\ntwo-way: ${pairName(t)}${note ? ` (known, left to fix: ${note})` : ''}`);
    for (const e of t.aToB.slice(0, 3)) console.log(`  ${e}`);
    if (t.aToB.length > 3) console.log(`  … ${t.aToB.length - 3} more`);
    for (const e of t.bToA.slice(0, 3)) console.log(`  ${e}`);
    if (t.bToA.length > 3) console.log(`  … ${t.bToA.length - 3} more`);
  }
  for (const k of gone)
    console.log(`\n${k} is fixed: remove it from the known two-way dependencies (scripts/import-cycles.ts)`);
  console.log(
    twoWay.length
      ? `\n${twoWay.length} two-way folder dependenc${twoWay.length === 1 ? 'y' : 'ies'}, ${fresh.length} new`
      : 'no two-way folder dependency',
  );
  return cycles.length || fresh.length || gone.length ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main(process.argv[2] ?? 'src');
