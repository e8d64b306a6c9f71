/**
 * The sandbox runs from its TypeScript sources. Under tsx or vitest (`npm run dev`,
 * the tests) they load as they are; from plain Node (the compiled gateway's
 * `npm start`, which imports this package for its demo) through tsx's
 * `tsImport`. src/index.ts says what the gateway uses.
 */
let sandbox;
try {
  sandbox = await import('./src/index.ts');
} catch (err) {
  if (err?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
  const { tsImport } = await import('tsx/esm/api');
  sandbox = await tsImport('./src/index.ts', import.meta.url);
}

export const { SandboxConfigError, parseSandboxOptions, sandboxBanner, sandboxOptions, startSandbox } = sandbox;
