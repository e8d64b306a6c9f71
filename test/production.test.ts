/**
 * NODE_ENV defaults to production for the gateway (src/production.ts):
 * graphql-js reads it once, when it is loaded, so the entry point must import
 * it before anything that loads graphql.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.ts';

function nodeEnvSeen(env: Record<string, string>): string {
  // What graphql-js itself decided: in production its instanceOf is a bare `instanceof`.
  const script =
    "import './src/production.ts'; const { instanceOf } = await import('graphql/jsutils/instanceOf.js'); console.log(process.env.NODE_ENV, instanceOf.toString().length < 100 ? 'bare' : 'checked');";
  return execFileSync(process.execPath, ['--import', 'tsx/esm', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  })
    .toString()
    .trim();
}

describe('NODE_ENV', () => {
  it('defaults to production, and graphql-js then skips its development checks', () => {
    expect(nodeEnvSeen({})).toBe('production bare');
  });

  it('is left alone when set', () => {
    expect(nodeEnvSeen({ NODE_ENV: 'development' })).toBe('development checked');
  });

  it('is set by the first import of the entry point, before anything loads graphql', () => {
    const firstImport = readFileSync(new URL('../src/main.ts', import.meta.url), 'utf8').match(/^import .*$/m)?.[0];
    expect(firstImport).toBe("import './production.ts';");
  });
});
