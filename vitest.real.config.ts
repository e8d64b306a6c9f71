/**
 * The real-calendar tier (`npm run test:real`): test/real/ against real WordPress + The Events
 * Calendar sites (scripts/wordpress/start.sh, SITEGRAPH_WP_SHAPE=tec57 | tec615) brought up by
 * test/real/global-setup.ts from the real plugins' tarballs. Files run one after another: they share
 * the sites, and some of them write to them.
 */
import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    include: ['test/real/**/*.test.ts'],
    globalSetup: ['test/real/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
