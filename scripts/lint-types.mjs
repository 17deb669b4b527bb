// npm run lint:types: the type-aware rules (eslint.types.config.js), one TypeScript project per ESLint run, one after
// the other, so one program is in memory at a time. Exits non-zero on the first project with a problem.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { TYPED_PROJECTS } from '../eslint.types.config.js';

const root = path.resolve(import.meta.dirname, '..');
const fix = process.argv.includes('--fix');
let failed = false;
for (const p of TYPED_PROJECTS) {
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/eslint/bin/eslint.js'), '-c', 'eslint.types.config.js', '--max-warnings', '0', ...(fix ? ['--fix'] : []), ...p.files],
    { cwd: root, stdio: 'inherit', env: { ...process.env, LINT_TYPES_PROJECT: p.tsconfig } },
  );
  console.log(`lint:types ${p.tsconfig}: ${r.status === 0 ? 'clean' : 'problems'} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
