/**
 * The real-calendar tier (`npm run test:real`): test/real/ against real WordPress + The Events
 * Calendar sites (scripts/wordpress/start.sh, SITEGRAPH_WP_SHAPE=tec57 | tec615) brought up by
 * test/real/global-setup.ts from the real plugins' tarballs. Files run one after another: they share
 * the sites, and some of them write to them.
 */
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files in a fixed order: those that compare the sites' data with what the seeder wrote first,
 * on untouched sites, then those that write (events hidden from listings, drafts, deleted places),
 * whose leftovers would change what a list holds. Vitest's own order (slowest, or failed, first)
 * would move them about from run to run.
 */
const ORDER = [
  'differential',
  'reads',
  'where',
  'inert',
  'errors',
  'wpgraphql',
  'writes',
  'concurrency',
  'subscriptions',
];
class TierOrder extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = ORDER.indexOf(basename(f.moduleId).replace(/\.test\.ts$/, ''));
      return i < 0 ? ORDER.length : i;
    };
    return Promise.resolve([...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId)));
  }
}

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
    sequence: { sequencer: TierOrder },
  },
});
