// `npm run bench:export -- [--rows 1000000] [--categories outside,within,...] [--formats geojson,csv] [--port 4311] [--keep]`
// Issue 28: exports of a large analysis over HTTP on the embedded default, through the built server as deployed. A
// completed analysis of N rows is written into a fresh embedded database the way the pipeline leaves its rows (the
// pipeline itself is bench:analysis's subject; a real 1M-row run takes many minutes here), then the server starts on
// that data directory, and each category is exported as GeoJSON and csv. For each: HTTP status, bytes, time to first
// byte, total time, the server's RSS before and its peak during the export (sampled from /proc every 50 ms), and the
// wait of list requests sent one after another alongside. Targets: 200, RSS within 300 MB of before, first byte ≤ 1 s,
// parallel list wait ≤ 200 ms. Not part of CI.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../db/client.js';
import { DEMO_ACCOUNTS } from '../seed/seed-demo.js';
import { builtServerEnv, apiAt, rssMb, signInEnrolling, startServer, stopServer } from './http.js';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1]!.startsWith('--') ? args[i + 1]! : dflt;
};
const ROWS = Number(arg('rows', '100000'));
const PORT = Number(arg('port', '4311'));
const CATEGORIES = arg('categories', 'within,outside,overlapping,unrecognized,errors').split(',');
const FORMATS = arg('formats', 'geojson,csv').split(',');
const secs = (ms: number) => (ms / 1000).toFixed(1);

/** A completed analysis of ROWS rows in the demo admin's tenant: 30 % within, 60 % outside, 10 % errors; 5 % overlapping, 20 % unrecognized. */
async function writeAnalysis(dataDir: string): Promise<{ id: string; ms: number }> {
  const t0 = performance.now();
  const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
  try {
    const q = database.adminQuery.bind(database);
    const [admin] = await q<{ id: string; tenant_id: string }>(`SELECT id, tenant_id FROM users WHERE email = $1`, [DEMO_ACCOUNTS.adminA]);
    const [area] = await q<{ id: string }>(`SELECT id FROM operational_areas WHERE tenant_id = $1 ORDER BY name LIMIT 1`, [admin!.tenant_id]);
    const [a] = await q<{ id: string }>(
      `INSERT INTO custom_analyses (tenant_id, name, minimum_farm_size, total_uploaded_data_count, created_by, status, progress, completed_at)
       VALUES ($1, $2, 100, $3, $4, 'completed', 100, now()) RETURNING id`,
      [admin!.tenant_id, `Export bench ${ROWS}`, ROWS, admin!.id],
    );
    const id = a!.id;
    await q(`INSERT INTO custom_analysis_areas (analysis_id, operational_area_id, tenant_id) VALUES ($1, $2, $3)`, [id, area!.id, admin!.tenant_id]);
    for (let from = 1; from <= ROWS; from += 20_000) {
      const to = Math.min(ROWS, from + 19_999);
      await q(
        `INSERT INTO custom_analysis_rows (analysis_id, row_number, tenant_id, farm_name, geom, area_sqm, row_data, errors, category,
                                           operational_area_id, covered_fraction, is_unrecognized, is_overlapping, overlapping_id, group_size)
         SELECT $1, n, $2, 'Farm ' || n, CASE WHEN n % 10 <> 0 THEN g END, CASE WHEN n % 10 <> 0 THEN ST_Area(g::geography) END,
                jsonb_build_object('farm_ref', 'R-' || n, 'village', 'Village ' || (n % 977)),
                CASE WHEN n % 10 = 0 THEN '[{"field":"farm_coordinates","code":"invalid_polygon","message":"farm_coordinates: the polygon is invalid: Self-intersection"}]'::jsonb END,
                CASE WHEN n % 10 = 0 THEN 'error' WHEN n % 10 IN (1, 4, 7) THEN 'within' ELSE 'outside' END,
                CASE WHEN n % 10 IN (1, 4, 7) THEN $3::uuid END,
                CASE WHEN n % 10 = 0 THEN NULL WHEN n % 10 IN (1, 4, 7) THEN 1.0 ELSE 0.0 END,
                n % 10 <> 0 AND n % 5 = 1, n % 10 <> 0 AND n % 20 = 3, CASE WHEN n % 10 <> 0 AND n % 20 = 3 THEN 1 + n / 40 END,
                CASE WHEN n % 10 <> 0 AND n % 20 = 3 THEN 2 END
           FROM generate_series($4::int, $5::int) n
          CROSS JOIN LATERAL (SELECT ST_Buffer(ST_SetSRID(ST_MakePoint(3 + (n % 1000) * 0.002, 7 + (n / 1000) * 0.002), 4326), 0.0006, 'quad_segs=3') AS g) s`,
        [id, admin!.tenant_id, area!.id, from, to],
      );
      if (to % 100_000 === 0 || to === ROWS) process.stdout.write(`  wrote ${to} rows (${secs(performance.now() - t0)} s)\n`);
    }
    await q(
      `UPDATE custom_analyses c SET within_count = s.within, outside_count = s.outside, error_count = s.errors, overlapping_count = s.overlapping,
              unrecognized_count = s.unrecognized, total_area = s.area
         FROM (SELECT count(*) FILTER (WHERE category = 'within')::int AS within, count(*) FILTER (WHERE category = 'outside')::int AS outside,
                      count(*) FILTER (WHERE category = 'error')::int AS errors, count(*) FILTER (WHERE is_overlapping)::int AS overlapping,
                      count(*) FILTER (WHERE is_unrecognized)::int AS unrecognized, coalesce(sum(area_sqm), 0) AS area
                 FROM custom_analysis_rows WHERE analysis_id = $1) s
        WHERE c.id = $1`,
      [id],
    );
    await database.adminExec('ANALYZE custom_analysis_rows');
    return { id, ms: performance.now() - t0 };
  } finally {
    await database.close();
  }
}

type Result = {
  what: string;
  status: number;
  bytes: number;
  ttfbMs: number;
  totalMs: number;
  rssBefore: number;
  rssPeak: number;
  listMax: number;
  listP50: number;
  lists: number;
};

/** Downloads url (reading as fast as it comes, keeping nothing), with RSS sampled and list requests sent alongside. */
async function exportOnce(base: string, pid: number, token: string, url: string, listUrl: string): Promise<Omit<Result, 'what'>> {
  const rssBefore = rssMb(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(pid))), 50);
  const waits: number[] = [];
  let exporting = true;
  const lister = (async () => {
    while (exporting) {
      const t = performance.now();
      const res = await fetch(`${base}${listUrl}`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`list answered ${res.status}`);
      waits.push(performance.now() - t);
    }
  })();
  const t0 = performance.now();
  const out = await new Promise<{ status: number; bytes: number; ttfbMs: number }>((resolve, reject) => {
    http
      .get(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        let bytes = 0;
        let ttfbMs = -1;
        res.on('data', (chunk: Buffer) => {
          if (ttfbMs < 0) ttfbMs = performance.now() - t0;
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ttfbMs }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
  const totalMs = performance.now() - t0;
  exporting = false;
  await lister;
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, rssMb(pid));
  waits.sort((a, b) => a - b);
  return { ...out, totalMs, rssBefore, rssPeak, listMax: waits[waits.length - 1] ?? 0, listP50: waits[Math.floor(waits.length / 2)] ?? 0, lists: waits.length };
}

async function main(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '../../../..');
  if (!fs.existsSync(path.join(root, 'apps/api/dist/server.js'))) throw new Error('run npm run build first');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-bench-export-'));
  process.stdout.write(`== export bench: ${ROWS} rows, embedded (PGlite), built server on port ${PORT} ==\n`);
  const env = builtServerEnv(PORT, work);

  // The server's first start migrates and seeds the lookups and the demo tenants; the analysis is then written into its
  // data directory while it is stopped (the embedded database has one process).
  await stopServer(await startServer(env, { timeoutMs: 900_000, onLine: (l) => args.includes('--verbose') && process.stdout.write(`  server: ${l}\n`) }));
  const { id, ms } = await writeAnalysis(work);
  process.stdout.write(`  analysis written in ${secs(ms)} s\n`);
  const server = await startServer(env, { timeoutMs: 900_000 });
  const results: Result[] = [];
  try {
    const token = await signInEnrolling(server.base, DEMO_ACCOUNTS.adminA);
    const detail = await apiAt(server.base)('GET', `/api/custom-analysis/${id}/`, token);
    if (detail.status !== 200) throw new Error(`analysis ${detail.status}`);
    const pid = server.child.pid!;
    const listUrl = `/api/custom-analysis/${id}/within/?page=1&page_size=10`;
    // The list request alone, for comparison (the machine's load shows in it too).
    const alone: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t = performance.now();
      const res = await fetch(`${server.base}${listUrl}`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      alone.push(performance.now() - t);
    }
    alone.sort((a, b) => a - b);
    process.stdout.write(`  list request alone: p50 ${alone[7]!.toFixed(0)} / max ${alone[14]!.toFixed(0)} ms; load average ${os.loadavg()[0]!.toFixed(1)}\n`);
    for (const category of CATEGORIES) {
      for (const format of FORMATS) {
        const r = await exportOnce(server.base, pid, token, `/api/custom-analysis/${id}/export/?category=${category}&format=${format}`, listUrl);
        const what = `${category} ${format}`;
        results.push({ what, ...r });
        process.stdout.write(
          `  ${what.padEnd(22)} HTTP ${r.status}  ${(r.bytes / 1048576).toFixed(1).padStart(7)} MB  first byte ${r.ttfbMs.toFixed(0).padStart(5)} ms  total ${secs(r.totalMs).padStart(6)} s  ` +
            `RSS ${r.rssBefore.toFixed(0)} → peak ${r.rssPeak.toFixed(0)} MB (+${(r.rssPeak - r.rssBefore).toFixed(0)})  list wait p50 ${r.listP50.toFixed(0)} / max ${r.listMax.toFixed(0)} ms (${r.lists})\n`,
        );
      }
    }
  } finally {
    await stopServer(server);
    if (!args.includes('--keep')) fs.rmSync(work, { recursive: true, force: true });
    else process.stdout.write(`  kept ${work}\n`);
  }
  const bad = results.filter((r) => r.status !== 200 || r.rssPeak - r.rssBefore > 300 || r.ttfbMs > 1000 || r.listMax > 200);
  process.stdout.write(bad.length ? `\n${bad.length} export(s) missed a target: ${bad.map((r) => r.what).join(', ')}\n` : '\nevery export met the targets\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${String((err as Error).stack ?? err)}\n`);
  process.exit(1);
});
