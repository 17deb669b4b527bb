// Builds the workspaces in dependency order: contracts, api, sdk, web. With --if-needed, skips a workspace whose
// output is newer than all of its sources and of the workspaces it depends on, so that a second `npm start` does not
// rebuild. Build products are not sources: dist/, node_modules/ and TypeScript's *.tsbuildinfo (written after the
// output, it made every start rebuild the contracts). After a build the output's time is set to the build's start, so a
// compiler that had nothing to write (tsc -b leaves an up-to-date output as it was) still counts as built.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const ifNeeded = process.argv.includes('--if-needed');

/** The newest modification time of a workspace's sources (build products left out). */
function newest(dir) {
  let t = 0;
  if (!fs.existsSync(dir)) return t;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.endsWith('.tsbuildinfo')) continue;
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

const steps = [
  { name: 'contracts', dirs: ['packages/contracts'], out: 'packages/contracts/dist/index.js', cmd: 'npx tsc -b packages/contracts' },
  { name: 'api', dirs: ['apps/api/src', 'apps/api/tsconfig.json', 'packages/contracts'], out: 'apps/api/dist/server.js', cmd: 'npx tsc -b apps/api' },
  { name: 'sdk', dirs: ['packages/sdk/src', 'packages/sdk/tsconfig.json'], out: 'packages/sdk/dist/index.js', cmd: 'npx tsc -b packages/sdk' },
  { name: 'web', dirs: ['apps/web', 'packages/contracts'], out: 'apps/web/dist/index.html', cmd: 'npm run build -w @farmland/web' },
];

const sourceTime = (p) => {
  const full = path.join(root, p);
  if (!fs.existsSync(full)) return 0;
  return fs.statSync(full).isDirectory() ? newest(full) : fs.statSync(full).mtimeMs;
};

for (const s of steps) {
  const out = path.join(root, s.out);
  if (!fs.existsSync(path.join(root, s.dirs[0])) || (s.name === 'web' && !fs.existsSync(path.join(root, 'apps/web/package.json')))) continue;
  if (ifNeeded && fs.existsSync(out) && fs.statSync(out).mtimeMs >= Math.max(...s.dirs.map(sourceTime))) continue;
  const t0 = Date.now();
  // Always a production build: called from a test run (NODE_ENV=test), Vite would otherwise bundle React's development
  // JSX runtime, and the browser tests and benches would measure a slower console than the one served.
  execSync(s.cmd, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  // The build saw every source older than t0: mark the output as of then (a source saved during the build stays newer).
  if (fs.existsSync(out)) fs.utimesSync(out, new Date(), new Date(t0));
  process.stdout.write(`built ${s.name} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}
