// `npm run bench:eudr -- [--farms 100000] [--engine pglite|postgres] [--formats geojson,csv,kml] [--port 4312] [--keep] [--reuse <kept>]`
// Issue 28: the EUDR export (GET /farms/export/eudr) of a large registry over HTTP, through the built server as
// deployed. N farms (13-vertex polygons, a hundred per farmer) are written into the demo admin's tenant, the server
// restarts on that data, and every part of each format is downloaded. For each part: HTTP status, the part count
// header, bytes, time to first byte, total time, the server's RSS before and its peak during the part (sampled from
// /proc every 50 ms), and the wait of farm-list requests sent one after another alongside. Checks: every part ≤ 25 MB,
// the parts together hold every farm once. Targets: first byte ≤ 1 s, RSS within 300 MB of before. Not part of CI.
// PostgreSQL: --engine postgres with BENCH_PG_URL (a superuser URL, default postgres://postgres@127.0.0.1:5432/postgres):
// a fresh database is made, set up (db:setup) and dropped at the end unless --keep (--reuse <name>: a kept one).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../db/client.js';
import { DEMO_ACCOUNTS } from '../seed/seed-demo.js';
import { builtServerEnv, rssMb, signInEnrolling, startServer, stopServer } from './http.js';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1]!.startsWith('--') ? args[i + 1]! : dflt;
};
const FARMS = Number(arg('farms', '100000'));
const ENGINE = arg('engine', 'pglite');
const PORT = Number(arg('port', '4312'));
const FORMATS = arg('formats', 'geojson,csv,kml').split(',');
const PG_URL = process.env['BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LIMIT = 25 * 1024 * 1024;
const secs = (ms: number) => (ms / 1000).toFixed(1);

type Query = (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** FARMS farms of the demo admin's tenant: 13-vertex polygons (about 0.4 ha) on a grid, a hundred per farmer. */
async function seed(q: Query): Promise<void> {
  const t0 = performance.now();
  const [admin] = await q(`SELECT tenant_id FROM users WHERE email = $1`, [DEMO_ACCOUNTS.adminA]);
  const tenantId = admin!['tenant_id'] as string;
  await q(
    `INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) SELECT $1, 'Bench', 'Farmer ' || g, 'EUDR-BENCH-' || g FROM generate_series(1, $2::int) g`,
    [tenantId, Math.ceil(FARMS / 100)],
  );
  for (let from = 0; from < FARMS; from += 20_000) {
    const to = Math.min(FARMS, from + 20_000);
    await q(
      `WITH fr AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM farmers WHERE tenant_id = $1 AND folio_id LIKE 'EUDR-BENCH-%')
       INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm)
       SELECT $1, fr.id, 'Bench farm ' || g, s.geom, ST_Area(s.geom::geography)
         FROM generate_series($2::int, $3::int - 1) g
         JOIN fr ON fr.k = g / 100
        CROSS JOIN LATERAL (SELECT ST_Buffer(ST_SetSRID(ST_MakePoint(3.5 + (g % 500) * 0.002, 7.2 + (g / 500) * 0.002), 4326), 0.0004, 'quad_segs=3') AS geom) s`,
      [tenantId, from, to],
    );
    process.stdout.write(`  wrote ${to} farms (${secs(performance.now() - t0)} s)\n`);
  }
  await q('ANALYZE farms');
  await q('ANALYZE farmers');
}

type Result = {
  what: string;
  status: number;
  parts: number;
  bytes: number;
  features: number;
  ttfbMs: number;
  totalMs: number;
  rssBefore: number;
  rssPeak: number;
  listP50: number;
  listMax: number;
  lists: number;
  shed: number;
};

/** Downloads url (counting bytes and farms, keeping nothing), with RSS sampled and list requests sent alongside. */
async function partOnce(base: string, pid: number, token: string, url: string, marker: string): Promise<Omit<Result, 'what'>> {
  const rssBefore = rssMb(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(pid))), 50);
  const waits: number[] = [];
  let shed = 0;
  let exporting = true;
  const lister = (async () => {
    while (exporting) {
      const t = performance.now();
      const res = await fetch(`${base}/api/farms/?page=1&page_size=10`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      // A shed request (503 under load) is counted as a wait too: it is what the user saw.
      if (res.status !== 200) shed++;
      waits.push(performance.now() - t);
    }
  })();
  const t0 = performance.now();
  const out = await new Promise<{ status: number; parts: number; bytes: number; features: number; ttfbMs: number }>((resolve, reject) => {
    http
      .get(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        let bytes = 0;
        let features = 0;
        let tail = '';
        let ttfbMs = -1;
        res.on('data', (chunk: Buffer) => {
          if (ttfbMs < 0) ttfbMs = performance.now() - t0;
          bytes += chunk.length;
          const text = tail + chunk.toString('latin1');
          features += text.split(marker).length - 1;
          tail = text.slice(-(marker.length - 1));
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, parts: Number(res.headers['x-export-parts'] ?? 0), bytes, features, ttfbMs }));
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
  return {
    ...out,
    totalMs,
    rssBefore,
    rssPeak,
    listMax: waits[waits.length - 1] ?? 0,
    listP50: waits[Math.floor(waits.length / 2)] ?? 0,
    lists: waits.length,
    shed,
  };
}

/** What marks one farm in a format's text (a farm's id is in each). */
const MARKERS: Record<string, string> = { geojson: '"farm_id":', csv: '\r\n', kml: '<Placemark>' };

async function main(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '../../../..');
  if (!fs.existsSync(path.join(root, 'apps/api/dist/server.js'))) throw new Error('run npm run build first');
  const reuse = arg('reuse', '');
  // --engine pglite --reuse <dir>: the work directory a run kept (--keep), its registry not written again.
  const work = ENGINE === 'pglite' && reuse ? reuse : fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-bench-eudr-'));
  process.stdout.write(`== EUDR export bench: ${FARMS} farms, ${ENGINE}, built server on port ${PORT} ==\n`);
  const env = builtServerEnv(PORT, work, {
    SEED_DEMO: 'true',
    ANALYSIS_WORKERS: 'off',
    // The export is measured, not the load shedding (a shared machine's event-loop delay would shed the lists).
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    LOAD_SHED_MAX_IN_FLIGHT: '0',
  });

  let dropDb: (() => Promise<void>) | null = null;
  const t0 = performance.now();
  if (ENGINE === 'pglite' && reuse) {
    // The admin enrols two-factor again (this run signs in afresh).
    const database = await openDatabase({ kind: 'pglite', dataDir: path.join(work, 'pglite') });
    try {
      await database.adminQuery(`DELETE FROM mfa_secrets WHERE user_id = (SELECT id FROM users WHERE email = $1)`, [DEMO_ACCOUNTS.adminA]);
      await database.adminQuery(`UPDATE users SET mfa_enabled = false WHERE email = $1`, [DEMO_ACCOUNTS.adminA]);
    } finally {
      await database.close();
    }
  } else if (ENGINE === 'postgres' && reuse) {
    // A database kept by an earlier run (--keep): not seeded again; the admin enrols two-factor again.
    const adminUrl = PG_URL.replace(/\/[^/]*$/, `/${reuse}`);
    env['DATABASE_URL'] = adminUrl.replace('postgres@', 'farmland_eudr_bench@');
    env['DATABASE_ADMIN_URL'] = adminUrl;
    const db = new pg.Client({ connectionString: adminUrl });
    await db.connect();
    await db.query(`DELETE FROM mfa_secrets WHERE user_id = (SELECT id FROM users WHERE email = $1)`, [DEMO_ACCOUNTS.adminA]);
    await db.query(`UPDATE users SET mfa_enabled = false WHERE email = $1`, [DEMO_ACCOUNTS.adminA]);
    await db.end();
  } else if (ENGINE === 'postgres') {
    const dbName = `eudr_bench_${crypto.randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const adminUrl = PG_URL.replace(/\/[^/]*$/, `/${dbName}`);
    const setup = spawn(process.execPath, [path.join(root, 'apps/api/dist/bin/db-setup.js'), '--admin-url', adminUrl, '--app-user', 'farmland_eudr_bench'], {
      cwd: root,
      stdio: 'inherit',
      env,
    });
    await new Promise((r) => setup.on('exit', r));
    env['DATABASE_URL'] = adminUrl.replace('postgres@', 'farmland_eudr_bench@');
    env['DATABASE_ADMIN_URL'] = adminUrl;
    await stopServer(await startServer(env, { timeoutMs: 900_000 }));
    const db = new pg.Client({ connectionString: adminUrl });
    await db.connect();
    await seed(async (text, params) => (await db.query(text, params as unknown[])).rows);
    await db.end();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await c.end();
    };
  } else {
    // The server's first start migrates and seeds; the farms are then written into its data directory while it is stopped.
    await stopServer(await startServer(env, { timeoutMs: 900_000 }));
    const database = await openDatabase({ kind: 'pglite', dataDir: path.join(work, 'pglite') });
    try {
      await seed((text, params) => database.adminQuery(text, params));
    } finally {
      await database.close();
    }
  }
  process.stdout.write(`  registry written in ${secs(performance.now() - t0)} s\n`);
  const server = await startServer(env, { timeoutMs: 900_000 });
  const results: Result[] = [];
  const bad: string[] = [];
  try {
    const token = await signInEnrolling(server.base, DEMO_ACCOUNTS.adminA);
    const pid = server.child.pid!;
    const count = (await (await fetch(`${server.base}/api/farms/?page=1&page_size=1`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      data: { count: number };
    };
    const alone: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t = performance.now();
      await (await fetch(`${server.base}/api/farms/?page=1&page_size=10`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
      alone.push(performance.now() - t);
    }
    alone.sort((a, b) => a - b);
    process.stdout.write(
      `  tenant farms: ${count.data.count}; list request alone: p50 ${alone[7]!.toFixed(0)} / max ${alone[14]!.toFixed(0)} ms; load average ${os.loadavg()[0]!.toFixed(1)}\n`,
    );
    for (const format of FORMATS) {
      let parts = 1;
      let features = 0;
      for (let part = 1; part <= parts; part++) {
        const r = await partOnce(server.base, pid, token, `/api/farms/export/eudr?format=${format}&plots=all&part=${part}`, MARKERS[format]!);
        parts = r.parts;
        // csv: the header line is one line end too.
        features += format === 'csv' ? r.features - 1 : r.features;
        const what = `${format} part ${part}/${r.parts}`;
        results.push({ what, ...r });
        process.stdout.write(
          `  ${what.padEnd(20)} HTTP ${r.status}  ${(r.bytes / 1048576).toFixed(1).padStart(6)} MB  first byte ${r.ttfbMs.toFixed(0).padStart(5)} ms  total ${secs(r.totalMs).padStart(6)} s  ` +
            `RSS ${r.rssBefore.toFixed(0)} → peak ${r.rssPeak.toFixed(0)} MB (+${(r.rssPeak - r.rssBefore).toFixed(0)})  list wait p50 ${r.listP50.toFixed(0)} / max ${r.listMax.toFixed(0)} ms (${r.lists}, ${r.shed} shed)\n`,
        );
        if (r.status !== 200) bad.push(`${what}: HTTP ${r.status}`);
        if (r.bytes > LIMIT) bad.push(`${what}: ${r.bytes} bytes > 25 MB`);
        if (r.ttfbMs > 1000) bad.push(`${what}: first byte ${r.ttfbMs.toFixed(0)} ms`);
        if (r.rssPeak - r.rssBefore > 300) bad.push(`${what}: RSS +${(r.rssPeak - r.rssBefore).toFixed(0)} MB`);
      }
      process.stdout.write(`  ${format}: ${parts} part(s), ${features} farms (registry ${count.data.count})\n`);
      if (features !== count.data.count) bad.push(`${format}: ${features} farms exported of ${count.data.count}`);
    }
  } finally {
    await stopServer(server);
    if (!args.includes('--keep')) {
      fs.rmSync(work, { recursive: true, force: true });
      await dropDb?.();
    } else process.stdout.write(`  kept ${work}\n`);
  }
  process.stdout.write(bad.length ? `\nmissed: ${bad.join('; ')}\n` : '\nevery part met the targets\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${String((err as Error).stack ?? err)}\n`);
  process.exit(1);
});
