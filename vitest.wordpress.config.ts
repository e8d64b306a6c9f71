/**
 * The real-WordPress tier (`npm run test:wordpress`): test/wordpress/ against
 * Debian's WordPress + MariaDB started by scripts/wordpress/start.sh. Files run
 * one after another: they share one site, and some of them write to it.
 */
import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // The same graphql build Node (Apollo, graphql-tools) loads; see vitest.config.ts.
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    include: ['test/wordpress/**/*.test.ts'],
    globalSetup: ['test/wordpress/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
