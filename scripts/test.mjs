// npm test: the API suite on PGlite, again on PostgreSQL when TEST_DATABASE_URL is set, the console's unit tests, the
// SDK against the built server, then the browser suite against the built app. Prints the failed tests (if any), one
// summary line per suite and, last, "N passed, N failed" for the whole run.
//
// By default the suites run one after another, each with its output live. `--lanes` (or TEST_LANES=1) runs them in two
// lanes at once (docs/decisions/0085-test-suites-in-two-lanes.md): the API suites and the console's unit tests in one,
// the SDK and the browser suite in the other, each suite's output printed whole when it ends. The lanes cut the suites'
// wall time from about 34 to about 14 minutes here, but with the browser suite beside the API suites three of three CI
// runs had browser tests fail on races the load exposes (a map search undone by a URL update, a confirmation left
// open), so they are opt-in until those are fixed. `--only=<suite>[,<suite>]` picks suites.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// --only=<suite>[,<suite>…]: those suites (api = both API suites).
const only =
  process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',') ?? null;
const serial = !(process.argv.includes('--lanes') || process.env.TEST_LANES === '1');
const pgUrl = process.env.TEST_DATABASE_URL;

const all = [
  { name: 'api-pglite', lane: 0, cwd: 'apps/api', args: ['vitest', 'run'], env: { TEST_DATABASE_URL: '' } },
  ...(pgUrl ? [{ name: 'api-pg', lane: 0, cwd: 'apps/api', args: ['vitest', 'run'], env: { TEST_DATABASE_URL: pgUrl } }] : []),
  { name: 'web-unit', lane: 0, cwd: 'apps/web', args: ['vitest', 'run'], env: {} },
  // The SDK against the built server (it starts one on the embedded database): its README examples and no drift.
  { name: 'sdk', lane: 1, cwd: 'packages/sdk', args: ['vitest', 'run'], env: { TEST_DATABASE_URL: '' } },
  ...(fs.existsSync(path.join(root, 'e2e/vitest.config.ts'))
    ? [{ name: 'e2e', lane: 1, cwd: '.', args: ['vitest', 'run', '--config', 'e2e/vitest.config.ts'], env: {} }]
    : []),
];
const suites = all.filter((s) => !only || only.includes(s.name) || (only.includes('api') && s.name.startsWith('api')));

if (only?.includes('api-pg') && !pgUrl) {
  console.error('Set TEST_DATABASE_URL (a PostgreSQL URL with PostGIS available, superuser) to run the PostgreSQL suite.');
  process.exit(2);
}

const lanes = serial ? [suites] : [0, 1].map((l) => suites.filter((s) => s.lane === l)).filter((l) => l.length > 0);
const live = lanes.length === 1;

/** Runs one suite; resolves with its counts and wall time. Output goes to the terminal (live) or to a file printed at the end. */
function run(s) {
  const report = path.join(os.tmpdir(), `farmland-${s.name}-${process.pid}.json`);
  const logFile = path.join(os.tmpdir(), `farmland-${s.name}-${process.pid}.log`);
  const t0 = Date.now();
  const out = live ? 'inherit' : fs.openSync(logFile, 'w');
  const child = spawn('npx', [...s.args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
    cwd: path.join(root, s.cwd),
    stdio: ['ignore', out, out],
    env: { ...process.env, ...s.env, ...(live ? {} : process.stdout.isTTY ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' }) },
  });
  if (!live) console.log(`[${s.name}] started`);
  return new Promise((resolve) => {
    child.on('close', (status) => {
      if (!live) {
        fs.closeSync(out);
        console.log(`\n==> ${s.name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
        process.stdout.write(fs.readFileSync(logFile));
        fs.rmSync(logFile, { force: true });
      }
      let p = 0;
      let f = 0;
      const failures = [];
      if (fs.existsSync(report)) {
        const json = JSON.parse(fs.readFileSync(report, 'utf8'));
        p = json.numPassedTests ?? 0;
        f = (json.numFailedTests ?? 0) + (json.numRuntimeErrorTests ?? 0);
        failures.push(...failedTests(json, s.cwd));
        if (status !== 0 && f === 0) f = 1; // a suite that crashed outside a test still fails the run
        fs.rmSync(report, { force: true });
      } else if (status !== 0) {
        f = 1;
      }
      resolve({ name: s.name, p, f, failures, seconds: (Date.now() - t0) / 1000 });
    });
  });
}

/**
 * The failed tests of a vitest JSON report, each as "file > test: first line of its error", so that the end of the
 * run's output (often all a CI log keeps) names what failed and why. A file that failed outside any test (a crash at
 * import, a failed hook) is named with its own message.
 */
function failedTests(json, cwd) {
  const lines = [];
  for (const file of json.testResults ?? []) {
    const rel = path.relative(root, path.resolve(root, cwd, file.name ?? ''));
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed) lines.push(`${rel} > ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    if (failed.length === 0 && file.status === 'failed') lines.push(`${rel}: ${firstLine(file.message)}`);
  }
  return lines;
}

function firstLine(text) {
  const line = (text ?? '').split('\n').find((l) => l.trim() !== '') ?? 'no message';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

const t0 = Date.now();
const results = (
  await Promise.all(
    lanes.map(async (lane) => {
      const done = [];
      for (const s of lane) done.push(await run(s));
      return done;
    }),
  )
).flat();
const order = suites.map((s) => s.name);
results.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
const passed = results.reduce((n, r) => n + r.p, 0);
const failed = results.reduce((n, r) => n + r.f, 0);
const failures = results.flatMap((r) => r.failures.map((line) => `[${r.name}] ${line}`));
if (failures.length > 0) console.log(`\nfailed:\n${failures.map((line) => `  ${line}`).join('\n')}`);
console.log(`\n${results.map((r) => `${r.name}: ${r.p} passed, ${r.f} failed (${r.seconds.toFixed(1)} s)`).join('\n')}`);
console.log(`all suites: ${((Date.now() - t0) / 1000).toFixed(1)} s (${lanes.length === 1 ? 'one at a time' : 'two lanes'})`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || suites.length === 0 ? 1 : 0);
