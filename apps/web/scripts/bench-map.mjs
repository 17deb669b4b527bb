// npm run bench:map [-- --farms 10000 --runs 3 --no-markers --workers N]: builds the map benchmark page (apps/web/bench), serves it on a free
// loopback port, and draws N synthetic farms with the console's farm layers in headless Chromium (WebGL on SwiftShader),
// printing the time from data to a fully drawn map (MapLibre "idle"). Target (docs/design-rules.md): 10,000 farms in <= 2 s.
/* global window */
// Not part of CI: it needs Debian's Chromium and takes a while on a busy machine.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '../../..');
const benchDir = path.join(root, 'apps/web/bench');
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const farms = arg('farms', 10_000);
const runs = arg('runs', 3);
const markers = !process.argv.includes('--no-markers');
const TARGET_MS = 2000;

await build({ configFile: path.join(benchDir, 'vite.config.ts') });
const dist = path.join(benchDir, 'dist');
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
const server = http.createServer((req, res) => {
  const rel = decodeURIComponent((req.url ?? '/').split('?')[0]).replace(/^\/+/, '') || 'index.html';
  const file = path.resolve(dist, rel);
  if (!file.startsWith(dist) || !fs.existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(fs.readFileSync(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const workers = arg('workers', 0);
const url = `http://127.0.0.1:${server.address().port}/index.html${workers ? `?workers=${workers}` : ''}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--enable-unsafe-swiftshader',
    '--use-angle=swiftshader',
  ],
});
const times = [];
try {
  for (let i = 0; i < runs; i++) {
    const page = await browser.newPage({ viewport: { width: 1366, height: 860 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    await page.waitForFunction(() => typeof window.runBench === 'function');
    const { ms, features } = await page.evaluate(([n, m]) => window.runBench(n, { markers: m }), [farms, markers]);
    if (errors.length) throw new Error(errors.join('\n'));
    if (i === 0) await page.screenshot({ path: path.join(benchDir, 'dist/bench.png') });
    console.log(
      `run ${i + 1}: ${farms.toLocaleString('en-US')} farms drawn in ${Math.round(ms)} ms (${features.toLocaleString('en-US')} polygon fragments rendered)`,
    );
    times.push(ms);
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(
  `map draw, ${farms.toLocaleString('en-US')} farms, headless Chromium (SwiftShader): median ${(median / 1000).toFixed(2)} s over ${runs} runs (target <= ${TARGET_MS / 1000} s)`,
);
process.exitCode = median <= TARGET_MS ? 0 : 1;
