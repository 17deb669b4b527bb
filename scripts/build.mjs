// Builds the workspaces in dependency order: contracts, api, sdk, web. With --if-needed, skips a workspace whose
// output is newer than all of its sources, so that a second `npm start` does not rebuild.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const ifNeeded = process.argv.includes('--if-needed');

function newest(dir) {
  let t = 0;
  if (!fs.existsSync(dir)) return t;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

const steps = [
  { name: 'contracts', dir: 'packages/contracts', out: 'packages/contracts/dist/index.js', cmd: 'npx tsc -b packages/contracts' },
  { name: 'api', dir: 'apps/api/src', out: 'apps/api/dist/server.js', cmd: 'npx tsc -b apps/api' },
  { name: 'sdk', dir: 'packages/sdk/src', out: 'packages/sdk/dist/index.js', cmd: 'npx tsc -b packages/sdk' },
  { name: 'web', dir: 'apps/web', out: 'apps/web/dist/index.html', cmd: 'npm run build -w @farmland/web' },
];

for (const s of steps) {
  const out = path.join(root, s.out);
  if (!fs.existsSync(path.join(root, s.dir)) || (s.name === 'web' && !fs.existsSync(path.join(root, 'apps/web/package.json')))) continue;
  if (ifNeeded && fs.existsSync(out) && fs.statSync(out).mtimeMs >= newest(path.join(root, s.dir))) continue;
  const t0 = Date.now();
  execSync(s.cmd, { cwd: root, stdio: 'inherit' });
  process.stdout.write(`built ${s.name} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}
