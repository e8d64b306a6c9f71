/**
 * The demo `npm start` gives without an upstream: the sandbox site, loaded only
 * then and only dynamically. It lives in the repository, not in the published
 * package (nor in its production dependencies), so an installed gateway that is
 * given no upstream says so in one line (exit code 2) instead of a stack trace.
 */
import { UsageError } from './cli-kit.ts';
import type * as Sandbox from './sandbox/index.ts';

export type SandboxModule = typeof Sandbox;

export const NO_SANDBOX =
  'no upstream given, and the demo sandbox is not installed (it ships with the repository only): ' +
  'pass --upstream <REST root URL>, e.g. https://example.org/wp-json/, or set UPSTREAM_URL';

export async function loadSandbox(): Promise<SandboxModule> {
  try {
    return await import('./sandbox/index.ts');
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new UsageError(NO_SANDBOX);
    throw err;
  }
}
