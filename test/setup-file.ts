/**
 * Runs before each test file (vitest.config.ts setupFiles): names the file
 * for the route logs its sandboxes write (test/helpers/route-log.ts), and
 * fails the file when the gateway sent any of its sandboxes an argument the
 * route does not declare. WordPress drops such an argument without a word, so
 * the answer would silently ignore it. This holds for every sandbox a test
 * starts, harness or not, with the gateway in this process or a child: the
 * route log files this process named (testSandbox's, and the CLI children's of
 * test/helpers/cli.ts), and testSandbox's sandboxes in memory too (a run
 * starting beside this one clears the files). The route-coverage step checks
 * the same over the whole run's files.
 */
import { afterAll, expect } from 'vitest';
import {
  currentTestFile,
  describeUndeclared,
  readUndeclared,
  routeLogPrefix,
  undeclaredIn,
  uniqueCalls,
} from './helpers/route-log.ts';
import { startedSandboxes } from './helpers/sandbox.ts';

process.env.SITEGRAPH_TEST_FILE = expect.getState().testPath ?? '';

afterAll(() => {
  const undeclared = uniqueCalls([
    ...startedSandboxes().flatMap((sb) => undeclaredIn(currentTestFile(), sb.log.entries)),
    ...readUndeclared(routeLogPrefix()),
  ]);
  if (undeclared.length) {
    throw new Error(
      `the gateway sent arguments routes do not declare (the site drops them silently):\n${describeUndeclared(undeclared)}`,
    );
  }
});
