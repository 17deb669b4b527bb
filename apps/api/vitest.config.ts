// Vitest configuration for the API: tests live next to the code as src/**/*.test.ts. One database per worker
// (see src/test/harness.ts); files in a worker share it, so isolation is off and tests never depend on global counts.
import { configDefaults, defineConfig } from 'vitest/config';
import { ENGINE_FREE } from './src/test/engine-free.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(process.env['TEST_DATABASE_URL'] ? ENGINE_FREE : [])],
    globalSetup: ['src/test/global-setup.ts'],
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
  },
});
