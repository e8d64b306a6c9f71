/**
 * `npx tsx scripts/vendor-cli-kit.ts`: copies src/cli-kit.ts into the sandbox
 * (packages/sandbox/src/vendor/cli-kit.ts), so that both CLIs answer flags,
 * ports and signals alike while the sandbox, a site of its own, imports nothing
 * from the gateway. The copy is generated, never edited; a test
 * (test/import-graph.test.ts) fails when it differs from what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SOURCE = fileURLToPath(new URL('../src/cli-kit.ts', import.meta.url));
export const VENDORED_CLI_KIT = fileURLToPath(new URL('../packages/sandbox/src/vendor/cli-kit.ts', import.meta.url));

const HEADER = '// Generated from src/cli-kit.ts by scripts/vendor-cli-kit.ts: edit the original and run it again.\n';

export const vendoredCliKit = (): string => HEADER + readFileSync(SOURCE, 'utf8');

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(VENDORED_CLI_KIT, vendoredCliKit());
  console.log('wrote packages/sandbox/src/vendor/cli-kit.ts');
}
