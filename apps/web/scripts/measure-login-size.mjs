// Adds up the gzip size of the JavaScript the sign-in route (/ and /login) loads, from Vite's build manifest:
// the entry chunk and its static imports, plus the login page's lazy chunk and its static imports. The two-factor
// enrolment dialog (loaded only for users without two-factor) is reported on top. Fails above the 300 KB budget.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const manifestFile = path.join(dist, '.vite/manifest.json');
if (!fs.existsSync(manifestFile)) {
  console.error('No build manifest: run `npm run build -w @farmland/web` first.');
  process.exit(2);
}
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
const BUDGET_KB = 300;

function closure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no ${key}`);
    seen.add(key);
    closure(chunk.imports ?? [], seen);
  }
  return seen;
}

const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (bytes) => (bytes / 1024).toFixed(1);

function measure(keys) {
  const files = [...closure(keys)].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  const rows = files.map((f) => ({ file: f, raw: fs.statSync(path.join(dist, f)).size, gzip: gz(f) }));
  return { rows, raw: rows.reduce((s, r) => s + r.raw, 0), gzip: rows.reduce((s, r) => s + r.gzip, 0) };
}

// The console's entry (index.html); field.html is the field app's own entry (scripts/bench-field.mjs).
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry && k === 'index.html');
const loginKey = Object.keys(manifest).find((k) => k.endsWith('app/routes/login-page.tsx'));
const enrolKey = Object.keys(manifest).find((k) => k.endsWith('mfa-enrolment-dialog.tsx'));
if (!entry || !loginKey) throw new Error('entry or login page chunk not found in the manifest');

const route = measure([entry, loginKey]);
const withEnrol = enrolKey ? measure([entry, loginKey, enrolKey]) : route;

const json = process.argv.includes('--json');
if (json) {
  process.stdout.write(
    `${JSON.stringify({ files: route.rows.length, rawBytes: route.raw, gzipBytes: route.gzip, withEnrolmentGzipBytes: withEnrol.gzip, budgetKB: BUDGET_KB })}\n`,
  );
} else {
  for (const r of route.rows.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${kb(r.gzip).padStart(7)} KB gz  ${kb(r.raw).padStart(7)} KB  ${r.file}`);
  console.log(`sign-in route JS: ${route.rows.length} files, ${kb(route.raw)} KB raw, ${kb(route.gzip)} KB gzip (budget ${BUDGET_KB} KB)`);
  console.log(`with the two-factor enrolment dialog: ${kb(withEnrol.gzip)} KB gzip`);
}
if (withEnrol.gzip > BUDGET_KB * 1024) {
  console.error(`over budget: ${kb(withEnrol.gzip)} KB > ${BUDGET_KB} KB`);
  process.exit(1);
}
