/**
 * docs/ARCHITECTURE.md's absolute claims are each held by a test: its section
 * "What holds each claim" pairs a claim with the test file and the test's
 * title. This keeps that table honest: every file named exists and has a test
 * of that exact title, so a claim whose test is renamed or deleted fails here
 * instead of going on being believed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DOC = readFileSync('docs/ARCHITECTURE.md', 'utf8');

interface Claim {
  claim: string;
  file: string;
  title: string;
}

/** The rows of the section's table: `| claim | `test/x.test.ts` › "title" |`, one title per row. */
function claims(doc: string): Claim[] {
  const start = doc.indexOf('\n## What holds each claim');
  if (start < 0) return [];
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  const rows: Claim[] = [];
  for (const line of section.split('\n')) {
    const m = /^\|\s*(.+?)\s*\|\s*`([^`]+)`\s*›\s*"(.+)"\s*\|$/.exec(line);
    if (m) rows.push({ claim: m[1]!, file: m[2]!, title: m[3]! });
  }
  return rows;
}

/** The titles of a test file's `it`/`test`/`describe` calls, as written (any quote). */
function titles(file: string): Set<string> {
  const text = readFileSync(file, 'utf8');
  const out = new Set<string>();
  for (const m of text.matchAll(/\b(?:it|test|describe)(?:\.each\([^)]*\))?\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g))
    out.add(m[2]!.replace(/\\(['"`\\])/g, '$1'));
  return out;
}

describe('docs/ARCHITECTURE.md: what holds each claim', () => {
  const rows = claims(DOC);

  it('has the table, with a row per claim', () => {
    expect(rows.length).toBeGreaterThanOrEqual(10);
  });

  it('names, for every claim, a test file that exists and a test of that exact title in it', () => {
    const missing = rows.flatMap((r) => {
      if (!existsSync(r.file)) return [`${r.file} (no such file) for: ${r.claim}`];
      return titles(r.file).has(r.title) ? [] : [`${r.file} has no test "${r.title}" (for: ${r.claim})`];
    });
    expect(missing).toEqual([]);
  });

  it('reads a row, and refuses a title the file does not have', () => {
    const sample = '\n## What holds each claim\n\n| x | `test/architecture.test.ts` › "no such test" |\n';
    const [row] = claims(sample);
    expect(row).toEqual({ claim: 'x', file: 'test/architecture.test.ts', title: 'no such test' });
    expect(titles('test/architecture.test.ts').has('no such test')).toBe(false);
    expect(titles('test/architecture.test.ts').has('has the table, with a row per claim')).toBe(true);
  });
});
