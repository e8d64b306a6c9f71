import { fileURLToPath } from 'node:url';
import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Types for a front end written against WPGraphQL, generated from WPGraphQL's own SDL: the subset sitegraph's
 * /wpgraphql serves (schema-wpgraphql/schema.graphql, cut from WPGraphQL 1.8.6 + WPGraphQL Yoast SEO + ql-events), so
 * the same documents and types run against WPGraphQL and against sitegraph.
 *
 * From the repository root: `npm run codegen:wpgraphql-client`. It writes src/gql/, which is checked in (so the example
 * type-checks without a codegen step) and kept current by test/wpgraphql/client.test.ts, which generates it again and
 * compares. `WPGRAPHQL_SCHEMA` points it at another SDL or a running server's URL (WPGraphQL's /graphql, or a gateway's
 * /wpgraphql; codegen introspects it then). Paths are relative to this file, so it works from any directory.
 */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const config: CodegenConfig = {
  schema: process.env.WPGRAPHQL_SCHEMA || here('../../schema-wpgraphql/schema.graphql'),
  documents: [here('src/**/*.ts'), `!${here('src/gql/**')}`],
  ignoreNoDocuments: false,
  generates: {
    // WPGRAPHQL_CLIENT_OUT: another folder, for the staleness check (test/wpgraphql/client.test.ts) to compare.
    [process.env.WPGRAPHQL_CLIENT_OUT || here('src/gql/')]: {
      // By name, as the CLI resolves it from the repository (@graphql-codegen/client-preset); the test runs the CLI too.
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        documentMode: 'string',
        useTypeImports: true,
        enumsAsTypes: true,
        importExtension: '.ts',
      },
      // Checked in: formatted as the rest of the repository, so `prettier --check` passes on it.
      hooks: { afterOneFileWrite: ['prettier --write'] },
    },
  },
};
export default config;
