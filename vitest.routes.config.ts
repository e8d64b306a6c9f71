import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';

/** The route-coverage check: runs after the main suite, over the logs it left. */
export default mergeConfig(base, defineConfig({ test: { include: ['test/routes/**/*.test.ts'], globalSetup: [] } }));
