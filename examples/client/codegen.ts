import { fileURLToPath } from 'node:url';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { preset as clientPreset } from '@graphql-codegen/client-preset';

/**
 * Typed operations for a front end, with graphql-codegen's client preset.
 *
 * From the repository root: `npm run codegen:client` (or
 * `npx graphql-codegen --config examples/client/codegen.ts`). It reads the
 * gateway's schema from the repository's SDL, or from a running gateway when
 * `SITEGRAPH_SCHEMA` is its URL (`SITEGRAPH_SCHEMA=http://127.0.0.1:4000/graphql`:
 * codegen introspects it, so introspection must be on there), and writes
 * src/gql/ (gitignored: generated, never edited):
 *
 * - `graphql()`: give it an operation's text, get a typed document back;
 * - `persisted-documents.json`: `{ "sha256:<hex>": "<document>" }`, the manifest
 *   the gateway's `PERSISTED_DOCUMENTS` / `SAFELIST=1` take (docs/production.md,
 *   "Operation safelist and persisted queries"; the example's client sends ids only,
 *   so the gateway it calls must be started with this manifest). Each document also carries its id
 *   (`__meta__.hash`), which src/client.ts sends as `documentId`.
 *
 * Paths are relative to this file, so it works from any directory.
 */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

type Output = Extract<NonNullable<CodegenConfig['generates']>[string], { preset?: unknown }>;
/**
 * The preset itself, not the name 'client': by name, codegen resolves it from its own
 * install, which may bundle an older preset (whose manifest ids are sha1). The cast
 * only bridges two copies of @graphql-codegen/plugin-helpers' types.
 */
const preset = clientPreset as unknown as NonNullable<Output['preset']>;

const config: CodegenConfig = {
  schema: process.env.SITEGRAPH_SCHEMA || here('../../schema/*.graphql'),
  documents: [here('src/**/*.ts'), `!${here('src/gql/**')}`],
  // An example without operations is a broken example.
  ignoreNoDocuments: false,
  generates: {
    [here('src/gql/')]: {
      preset,
      presetConfig: {
        // The manifest for the safelist; ids are `sha256:` + the hex digest of the printed
        // document (the GraphQL-over-HTTP persisted documents appendix's form).
        persistedDocuments: { hashAlgorithm: 'sha256' },
        // Plain typed results: fragment masking suits component trees, not this example.
        fragmentMasking: false,
      },
      config: {
        // Documents as strings (TypedDocumentString): what a fetch call needs, no graphql-js at run time.
        documentMode: 'string',
        useTypeImports: true,
        enumsAsTypes: true,
        // Imports of the generated files end in `.ts`, like the rest of this repository (NodeNext).
        importExtension: '.ts',
        // The gateway's scalars: DateTime is ISO 8601 text; JSON is any JSON value.
        scalars: { DateTime: 'string', JSON: 'unknown' },
      },
    },
  },
};
export default config;
