// The SDK's test: the built API server (started here on the embedded database, with encrypted bodies required), the
// README's two examples run against it, and the generated files checked against the build.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
