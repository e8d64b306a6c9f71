/**
 * What the gateway's CLI (src/main.ts) uses of the sandbox when no upstream is
 * given: it imports this module dynamically (src/demo.ts), so the compiled,
 * installed gateway runs without the sandbox and its native dependency.
 */
export { sandboxBanner } from './banner.ts';
export {
  SandboxConfigError,
  parseSandboxOptions,
  sandboxOptions,
  type SandboxOptions,
  type SandboxOptionsInput,
} from './options.ts';
export { startSandbox, type RunningSandbox } from './server.ts';
