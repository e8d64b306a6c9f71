/**
 * `npm run imports [-- dir]`: the import graph of a source folder (src/ unless
 * told), its strongly connected components, and exit code 1 when any has more
 * than one file (or a file imports itself): an import circle.
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
  return readdirSync(dir).sort().flatMap((name) => {
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
    const targets = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles
      .map((f) => f.fileName)
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
  for (const f of component) for (const t of graph.get(f) ?? []) if (members.has(t)) inbound.set(t, (inbound.get(t) ?? 0) + 1);
  return [...inbound].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([f, n]) => `${f} (imported by ${n})`);
}

function main(root: string): number {
  const graph = importGraph(root);
  const edges = [...graph.values()].reduce((n, t) => n + t.length, 0);
  const cycles = importCycles(graph);
  console.log(`${graph.size} files, ${edges} imports under ${root}`);
  for (const [i, c] of cycles.entries()) {
    console.log(`\ncircle ${i + 1}: ${c.length} files; most imported inside it: ${hubs(graph, c).join(', ')}`);
    for (const f of c) console.log(`  ${f}`);
  }
  console.log(cycles.length ? `\n${cycles.length} import circle(s), ${cycles.reduce((n, c) => n + c.length, 0)} files in them` : 'no import circle');
  return cycles.length ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main(process.argv[2] ?? 'src');
