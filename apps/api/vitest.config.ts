// Vitest configuration for the API: tests live next to the code as src/**/*.test.ts. One database per worker
// (see src/test/harness.ts); files in a worker share it, so isolation is off and tests never depend on global counts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
  },
});
