// Browser tests: Vitest runs e2e/*.e2e.ts one file at a time against the built app, which global-setup.ts starts
// on a fresh embedded database. Run: npx vitest run --config e2e/vitest.config.ts
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// sign-in.e2e.ts owns tenant A admin's first sign-in (its two-factor enrolment screen), so it runs first; the other
// files keep Vitest's order (unknown and larger first, then failed and longer first) and sign in through
// support/app.ts signIn, which uses the secret that enrolment stored.
class SignInFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (f: TestSpecification) => (f.moduleId.endsWith('/sign-in.e2e.ts') ? 0 : 1);
    return [...sorted].sort((a, b) => first(a) - first(b));
  }
}

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
    sequence: { concurrent: false, sequencer: SignInFirst },
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});
