/**
 * The demo `npm start` gives without an upstream: the sandbox site, a workspace
 * package of the repository (packages/sandbox, `@sitegraph/sandbox`), loaded
 * only then. The gateway never imports it statically and does not depend on it:
 * the published package (and its production dependencies) has no sandbox, so an
 * installed gateway given no upstream says so in one line (exit code 2).
 */
import { UsageError } from './cli-kit.ts';

/** What the demo uses of the sandbox (test/helpers/sandbox.ts checks that the package fits it). */
export interface DemoSandbox {
  url: string;
  close(): Promise<void>;
}
export interface DemoOptions {
  host: string;
  port: number;
}
export interface SandboxModule {
  sandboxOptions(
    env: NodeJS.ProcessEnv,
    flags: Record<string, string | undefined>,
    sources: Map<string, string>,
  ): object;
  parseSandboxOptions(input: object, sources: ReadonlyMap<string, string>): DemoOptions;
  startSandbox(options: DemoOptions): Promise<DemoSandbox>;
  sandboxBanner(sandbox: DemoSandbox): string;
  SandboxConfigError: new (message: string) => Error;
}

/** A name in a variable: neither TypeScript nor a bundler follows it into the sandbox. */
const SANDBOX_PACKAGE: string = '@sitegraph/sandbox';

export const NO_SANDBOX =
  'no upstream given, and the demo sandbox is not installed (it ships with the repository only): ' +
  'pass --upstream <REST root URL>, e.g. https://example.org/wp-json/, or set UPSTREAM_URL';

export async function loadSandbox(): Promise<SandboxModule> {
  try {
    return (await import(SANDBOX_PACKAGE)) as SandboxModule;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new UsageError(NO_SANDBOX);
    throw err;
  }
}
