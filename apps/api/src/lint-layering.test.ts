// The API's layering is enforced by lint (eslint.config.js: import-x/no-cycle and import-x/no-restricted-paths, see
// docs/decisions/0066-api-layering.md). This runs ESLint's Node API on real files of the tree with one forbidden import
// added, and checks that the rule fires, and that the same file without it is clean (so the rule is not firing on
// everything, nor silently resolving nothing).
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });
const src = (rel: string) => path.join(root, 'apps/api/src', rel);

/** The rule ids ESLint reports for `file` with `extra` added at its top (the file itself is not changed). */
async function rulesFired(rel: string, extra = ''): Promise<string[]> {
  const file = src(rel);
  const text = `${extra}\n${fs.readFileSync(file, 'utf8')}`;
  const [result] = await eslint.lintText(text, { filePath: file });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

// ESLint parses most of the tree for the cycle checks: up to a minute on a loaded 2-core machine.
describe('layering lint', { timeout: 180_000 }, () => {
  it('fails on a new cycle between two files', async () => {
    // queue.ts imports fair-queue.queries.ts; the reverse import closes a cycle.
    expect(await rulesFired('jobs/fair-queue.queries.ts', "import { startBoss } from './queue.js';\nvoid startBoss;")).toContain('import-x/no-cycle');
  });

  it('fails on a new cycle between two folders', async () => {
    // farmers use farms; farms importing farmers back is the cycle that was broken (a folder cycle, no file cycle).
    expect(await rulesFired('modules/farms/farms.service.ts', "import { findFarmer } from '../farmers/farmers.queries.js';\nvoid findFarmer;")).toContain(
      'layering/no-folder-cycle',
    );
    expect(await rulesFired('lib/union-find.ts', '')).not.toContain('layering/no-folder-cycle');
  });

  it('fails when lib/ imports the app', async () => {
    expect(await rulesFired('lib/union-find.ts', "import { withScope } from '../db/client.js';\nvoid withScope;")).toContain('import-x/no-restricted-paths');
    expect(await rulesFired('lib/union-find.ts', "import type { Config } from '../config.js';\nexport type C = Config;")).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it('fails when db/ or ingest/ import a module', async () => {
    expect(await rulesFired('db/pagination.ts', "import { recordActivity } from '../modules/activity/activity.service.js';\nvoid recordActivity;")).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await rulesFired('ingest/read.ts', "import { stageRows } from '../modules/analyses/analyses.rows.js';\nvoid stageRows;")).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it('lets jobs/ reach a module only through its *.job.ts', async () => {
    expect(
      await rulesFired('jobs/fair-queue.queries.ts', "import { runAnalysis } from '../modules/analyses/analyses.pipeline.js';\nvoid runAnalysis;"),
    ).toContain('import-x/no-restricted-paths');
    expect(
      await rulesFired('jobs/fair-queue.queries.ts', "import { analysisJobs } from '../modules/analyses/analyses.job.js';\nvoid analysisJobs;"),
    ).not.toContain('import-x/no-restricted-paths');
  });

  it('fails when a module imports the app or the seed', async () => {
    expect(await rulesFired('modules/farms/farms.service.ts', "import { buildApp } from '../../app.js';\nvoid buildApp;")).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await rulesFired('modules/farms/farms.service.ts', "import { seedDemoIfEmpty } from '../../seed/seed-demo.js';\nvoid seedDemoIfEmpty;")).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it("fails when the seed reads a module's queries", async () => {
    expect(await rulesFired('seed/seed-demo.ts', "import { listFarms } from '../modules/farms/farms.queries.js';\nvoid listFarms;")).toContain(
      'import-x/no-restricted-paths',
    );
  });

  // Last: import-x keeps what it parsed for the process, so the cycles are checked before the clean files are read.
  it('passes the files as they are', async () => {
    for (const rel of [
      'lib/union-find.ts',
      'jobs/fair-queue.queries.ts',
      'db/pagination.ts',
      'ingest/read.ts',
      'seed/seed-demo.ts',
      'modules/farms/farms.service.ts',
    ]) {
      expect(await rulesFired(rel), rel).toEqual([]);
    }
  });
});
