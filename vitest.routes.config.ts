import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

/** The route-coverage check: runs after the main suite, over the request logs it left. */
export default defineConfig({
  resolve: { alias: { graphql: require.resolve('graphql') } },
  test: { include: ['test/routes/**/*.test.ts'], testTimeout: 30_000 },
});
