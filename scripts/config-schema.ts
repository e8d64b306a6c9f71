/**
 * `npm run config-schema`: writes config.schema.json, the configuration file's JSON
 * Schema, from the zod schema of src/config.ts (configJsonSchema). `-- --check`
 * (in `npm run build`): exit 1 when the file is not what it would write.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { configJsonSchema } from '../src/config.ts';

export const CONFIG_SCHEMA_FILE = fileURLToPath(new URL('../config.schema.json', import.meta.url));

export const configSchemaText = (): string => `${JSON.stringify(configJsonSchema(), null, 2)}\n`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const text = configSchemaText();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(CONFIG_SCHEMA_FILE, 'utf8');
    } catch {
      /* missing: stale */
    }
    if (current !== text) {
      console.error('config.schema.json is stale: run npm run config-schema');
      process.exitCode = 1;
    }
  } else {
    writeFileSync(CONFIG_SCHEMA_FILE, text);
    console.log('wrote config.schema.json');
  }
}
