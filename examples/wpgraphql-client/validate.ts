/**
 * The example's documents against a WPGraphQL schema file: `npx tsx examples/wpgraphql-client/validate.ts
 * <schema.graphql>...`, one line per document and schema, exit 1 if any fails. Without arguments it checks the subset
 * the types come from (schema-wpgraphql/schema.graphql); give it WPGraphQL's full printed schema (WPGraphQL 1.8.6 +
 * WPGraphQL Yoast SEO + ql-events, `wp graphql print-schema` or an introspection printed as SDL) to show the same
 * documents are valid WPGraphQL, not only valid against sitegraph's cut of it. The tests do not read that file (it is
 * not in the repository), so this is run by hand.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema, parse, validate } from 'graphql';
import { operations } from './src/operations.ts';

const files = process.argv.slice(2);
if (!files.length) files.push(fileURLToPath(new URL('../../schema-wpgraphql/schema.graphql', import.meta.url)));

let failed = 0;
for (const file of files) {
  const schema = buildSchema(readFileSync(file, 'utf8'));
  for (const [name, document] of Object.entries(operations)) {
    const errors = validate(schema, parse(document.toString()));
    failed += errors.length ? 1 : 0;
    console.log(`${errors.length ? 'INVALID' : 'valid'}  ${name}  ${file}`);
    for (const e of errors) console.log(`    ${e.message}`);
  }
}
process.exit(failed ? 1 : 0);
