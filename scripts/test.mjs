// npm test: the API suite on PGlite, again on PostgreSQL when TEST_DATABASE_URL is set, the console's unit tests, then the browser suite against
// the built app. Prints one summary line per suite and, last, "N passed, N failed" for the whole run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7) ?? null;
const pgUrl = process.env.TEST_DATABASE_URL;

const suites = [
  { name: 'api-pglite', cwd: 'apps/api', args: ['vitest', 'run'], env: { TEST_DATABASE_URL: '' } },
  ...(pgUrl ? [{ name: 'api-pg', cwd: 'apps/api', args: ['vitest', 'run'], env: { TEST_DATABASE_URL: pgUrl } }] : []),
  // The SDK against the built server (it starts one on the embedded database): its README examples and no drift.
  { name: 'sdk', cwd: 'packages/sdk', args: ['vitest', 'run'], env: { TEST_DATABASE_URL: '' } },
  { name: 'web-unit', cwd: 'apps/web', args: ['vitest', 'run'], env: {} },
  ...(fs.existsSync(path.join(root, 'e2e/vitest.config.ts')) ? [{ name: 'e2e', cwd: '.', args: ['vitest', 'run', '--config', 'e2e/vitest.config.ts'], env: {} }] : []),
].filter((s) => !only || s.name === only || (only === 'api' && s.name.startsWith('api')));

if (only === 'api-pg' && !pgUrl) {
  console.error('Set TEST_DATABASE_URL (a PostgreSQL URL with PostGIS available, superuser) to run the PostgreSQL suite.');
  process.exit(2);
}

let passed = 0;
let failed = 0;
const lines = [];
for (const s of suites) {
  const report = path.join(os.tmpdir(), `farmland-${s.name}-${process.pid}.json`);
  const t0 = Date.now();
  const r = spawnSync('npx', [...s.args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
    cwd: path.join(root, s.cwd),
    stdio: 'inherit',
    env: { ...process.env, ...s.env },
  });
  let p = 0;
  let f = 0;
  if (fs.existsSync(report)) {
    const json = JSON.parse(fs.readFileSync(report, 'utf8'));
    p = json.numPassedTests ?? 0;
    f = (json.numFailedTests ?? 0) + (json.numRuntimeErrorTests ?? 0);
    if (r.status !== 0 && f === 0) f = 1; // a suite that crashed outside a test still fails the run
    fs.rmSync(report, { force: true });
  } else if (r.status !== 0) {
    f = 1;
  }
  passed += p;
  failed += f;
  lines.push(`${s.name}: ${p} passed, ${f} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
console.log(`\n${lines.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || suites.length === 0 ? 1 : 0);
