// Browser tests: Vitest runs e2e/*.e2e.ts one file at a time against the built app, which global-setup.ts starts
// on a fresh embedded database. Run: npx vitest run --config e2e/vitest.config.ts
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: path.resolve(import.meta.dirname, '..'),
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 90_000,
    // No retries: menus, selects, dialogs and drawers are driven by their state (support/ui.ts), not by timing, so a
    // failure is a real one.
    hookTimeout: 240_000,
    teardownTimeout: 30_000,
    sequence: { concurrent: false },
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});
