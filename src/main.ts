/**
 * CLI entry: `npm start [-- --port <p>] [--host <h>] [--upstream <REST root>]`.
 * Without an upstream (flag or UPSTREAM_URL) it starts the embedded sandbox
 * in-process and points the gateway at it.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { startGateway } from './server.ts';
import { SandboxConfigError, sandboxOptionsFromEnv } from './sandbox/options.ts';
import { sandboxBanner } from './sandbox/banner.ts';
import { startSandbox, type RunningSandbox } from './sandbox/server.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      upstream: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log('usage: npm start -- [--port <p>] [--host <h>] [--upstream <REST root URL>]\nSee README.md for the environment variables.');
    return;
  }
  const config = loadConfig(process.env, values);
  let sandbox: RunningSandbox | null = null;
  let upstream = config.upstreamUrl;
  if (!upstream) {
    sandbox = await startSandbox({ ...sandboxOptionsFromEnv(), port: Number(process.env.SANDBOX_PORT ?? 0) });
    upstream = sandbox.url;
    console.log(sandboxBanner(sandbox));
  }
  const gateway = await startGateway(config, upstream);
  console.log(`sitegraph GraphQL: ${gateway.url} (open it in a browser for GraphiQL)`);
  console.log(`upstream: ${upstream}`);
  const stop = async (signal: string) => {
    console.log(`sitegraph: ${signal}, stopping`);
    await gateway.close();
    await sandbox?.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  const e = err as NodeJS.ErrnoException & { port?: number };
  if (err instanceof ConfigError || err instanceof SandboxConfigError) console.error(`sitegraph: ${err.message}`);
  else if (e?.code === 'EADDRINUSE') console.error(`sitegraph: port ${e.port ?? ''} is already in use; choose another with PORT or --port`);
  else console.error(err);
  process.exit(1);
});
