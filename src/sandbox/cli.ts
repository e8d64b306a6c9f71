/**
 * `npm run sandbox -- [--port <p>] [--db <file|:memory:>] [--host <h>]`: runs the
 * sandbox site alone, prints its REST root and credentials, stops cleanly on
 * SIGINT/SIGTERM. Other options come from `SANDBOX_*` variables (README).
 */
import { parseArgs } from 'node:util';
import { SandboxConfigError, sandboxOptionsFromEnv } from './options.ts';
import { sandboxBanner } from './banner.ts';
import { startSandbox } from './server.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, db: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    console.log('usage: npm run sandbox -- [--port <p>] [--db <file|:memory:>] [--host <h>]');
    return;
  }
  const env = sandboxOptionsFromEnv();
  if (values.port !== undefined && !/^\d+$/.test(values.port)) throw new SandboxConfigError(`--port must be a number, got ${JSON.stringify(values.port)}`);
  const sandbox = await startSandbox({
    ...env,
    port: values.port !== undefined ? Number(values.port) : (env.port ?? 8080),
    ...(values.db ? { db: values.db } : {}),
    ...(values.host ? { host: values.host } : {}),
  });
  console.log(sandboxBanner(sandbox));
  const stop = async (signal: string) => {
    console.log(`sandbox: ${signal}, stopping`);
    await sandbox.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof SandboxConfigError ? `sandbox: ${err.message}` : err);
  process.exit(1);
});
