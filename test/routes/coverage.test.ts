/**
 * Route coverage, proven: every row of spec/routes.tsv must have been reached
 * through the gateway by some end-to-end test of this run, according to the
 * request logs of the tests' sandboxes; and no test saw the gateway send an
 * argument a route does not declare. Runs after the main suite (`npm test` runs
 * it second, with vitest.routes.config.ts).
 */
import { describe, expect, it } from 'vitest';
import { readSpecRoutes, specPath } from '../../src/routes-tsv.ts';
import { ROUTE_TABLE } from '../../src/namespaces/route-table.ts';
import { describeUndeclared, readRouteLogs, readUndeclared } from '../helpers/route-log.ts';

describe('route coverage', () => {
  const rows = readSpecRoutes();
  const key = (method: string, path: string) => `${method} ${path}`;

  it('has all 192 rows of the spec', () => {
    expect(rows).toHaveLength(192);
  });

  it('declares a GraphQL field for every row', () => {
    const declared = new Set(ROUTE_TABLE.map((r) => key(r.method, r.path)));
    const missing = rows.filter((r) => !declared.has(key(r.method, r.path))).map((r) => key(r.method, r.path));
    expect(missing, `rows without a GraphQL field:\n${missing.join('\n')}`).toEqual([]);
  });

  it('reached every row through the gateway in this test run', () => {
    const reached = new Set(
      readRouteLogs()
        .filter((c) => c.route !== undefined)
        .map((c) => key(c.method, specPath(c.route!))),
    );
    const missing = rows.filter((r) => !reached.has(key(r.method, r.path))).map((r) => key(r.method, r.path));
    expect(
      missing,
      `rows no end-to-end test reached through the gateway (${rows.length - missing.length}/${rows.length} covered):\n${missing.join('\n')}`,
    ).toEqual([]);
  });

  it('saw the gateway send no argument a route does not declare, in any test', () => {
    // Every sandbox a test starts logs here (test/helpers/route-log.ts); WordPress drops such an argument without a word.
    const undeclared = readUndeclared();
    expect(
      undeclared,
      `arguments sent that their routes do not declare (test file: request, route, arguments):\n${describeUndeclared(undeclared)}`,
    ).toEqual([]);
  });
});
