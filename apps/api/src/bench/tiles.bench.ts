// `npm run bench:tiles -- [--farms 1000000] [--requests 300] [--port 3392] [--keep] [--reuse DB]`: the vector-tile target of issue 8 ("a tile
// answers in <= 50 ms p95 with 1M farms on PostgreSQL") over HTTP against the built server. On a fresh PostgreSQL
// database (migrated, demo data seeded), it adds N farms to tenant A in a grid of 60 m squares 100 m apart around Oyo
// (one farmer per 100 farms), runs ANALYZE, signs in as tenant A's admin, and asks for tiles at random positions over
// the grid at zooms 8 to 17 (clusters from the farm_tile_cells rollup up to zoom 14, the farms' polygons and points
// from 15), printing p50/p95/max per zoom band and overall. The seeding runs the rollup's triggers (its time includes
// them); the bench also times a rebuild of the whole rollup, which is what migration 0013's backfill costs on such a
// registry. The database is dropped at the end (--keep leaves it; --reuse DB runs the tiles again on a database an
// earlier --keep left, without seeding, and keeps it).
/* eslint-disable @typescript-eslint/no-explicit-any -- the benchmark reads the API's JSON untyped, as any client would */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1]!.startsWith('--') ? args[i + 1]! : dflt;
};
const FARMS = Number(arg('farms', '1000000'));
const REQUESTS = Number(arg('requests', '300'));
const PORT = Number(arg('port', '3392'));
const REUSE = arg('reuse', '');
const KEEP = args.includes('--keep') || REUSE !== '';
const PG_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const root = path.resolve(import.meta.dirname, '../../../..');
const base = `http://127.0.0.1:${PORT}`;
const PASSWORD = 'Farmland#2026';
/** The grid's south-west corner (near Oyo, south-west Nigeria) and its spacing in degrees (about 100 m). */
const ORIGIN = [3.3, 7.2] as const;
const STEP = 0.0009;

async function api(method: string, url: string, token: string | null, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function signIn(email: string): Promise<string> {
  const login = await api('POST', '/api/auth/login/', null, { email, password: PASSWORD });
  const { mfa_token, user_token } = login.body.data;
  const setup = await api('POST', '/api/auth/setup-mfa/', null, { mfa_token, user_token });
  const code = new TOTP({ secret: Secret.fromBase32(setup.body.data.secret), digits: 6, period: 30 }).generate();
  const confirm = await api('POST', '/api/auth/confirm-mfa/', null, { mfa_token, user_token, code });
  if (confirm.status !== 200) throw new Error(`sign-in ${email}: ${confirm.status}`);
  return confirm.body.data.access as string;
}

async function startServer(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(root, 'apps/api/dist/server.js')], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return child;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not start');
}

/** The tile (x, y) holding a position at zoom z (Web Mercator). */
function tileOf(lng: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const x = Math.floor(((lng + 180) / 360) * n);
  const r = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  return [x, y];
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, 'apps/api/dist/server.js'))) throw new Error('run npm run build first');
  const dbName = REUSE || `tiles_bench_${crypto.randomBytes(3).toString('hex')}`;
  if (!REUSE) {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
  }
  const adminUrl = PG_URL.replace(/\/[^/]*$/, `/${dbName}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-tiles-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_SECRET: crypto.randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    ANALYSIS_WORKERS: 'off',
    LOAD_SHED_MAX_IN_FLIGHT: process.env['LOAD_SHED_MAX_IN_FLIGHT'] ?? '0',
  }; // capacity is measured: no in-flight bound unless asked for
  if (!REUSE) {
    const setup = spawn(process.execPath, [path.join(root, 'apps/api/dist/bin/db-setup.js'), '--admin-url', adminUrl, '--app-user', 'farmland_tiles'], {
      cwd: root,
      stdio: 'inherit',
      env,
    });
    await new Promise((r) => setup.on('exit', r));
  }
  env['DATABASE_URL'] = adminUrl.replace('postgres@', 'farmland_tiles@');
  env['DATABASE_ADMIN_URL'] = adminUrl;
  let server = await startServer(env);
  const db = new pg.Client({ connectionString: adminUrl });
  await db.connect();
  try {
    const [{ id: tenantA }] = (await db.query(`SELECT tenant_id AS id FROM users WHERE email = 'admin@oyo-agro.example'`)).rows;
    const side = Math.ceil(Math.sqrt(FARMS));
    let t0 = performance.now();
    if (!REUSE) {
      t0 = performance.now();
      await db.query(
        `INSERT INTO farmers (tenant_id, first_name, last_name, folio_id)
         SELECT $1, 'Bench', 'Farmer ' || g, 'BENCH-' || g FROM generate_series(1, $2::int) g`,
        [tenantA, Math.ceil(FARMS / 100)],
      );
      // In chunks of 100,000 so that no statement grows the server's memory much.
      for (let from = 0; from < FARMS; from += 100_000) {
        const to = Math.min(FARMS, from + 100_000);
        await db.query(
          `WITH fr AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM farmers WHERE tenant_id = $1 AND folio_id LIKE 'BENCH-%'),
                cells AS (SELECT g, (g % $4::int) AS col, (g / $4::int) AS rw FROM generate_series($2::int, $3::int - 1) g)
           INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm)
           SELECT $1, fr.id, 'Bench farm ' || c.g,
                  ST_MakeEnvelope($5::float8 + c.col * $7::float8, $6::float8 + c.rw * $7::float8, $5::float8 + c.col * $7::float8 + $7::float8 * 0.6, $6::float8 + c.rw * $7::float8 + $7::float8 * 0.6, 4326), 3600
             FROM cells c JOIN fr ON fr.k = c.g / 100`,
          [tenantA, from, to, side, ORIGIN[0], ORIGIN[1], STEP],
        );
      }
      await db.query('ANALYZE farms; ANALYZE farmers');
      const [{ n }] = (await db.query('SELECT count(*)::int AS n FROM farms WHERE tenant_id = $1', [tenantA])).rows;
      console.log(
        `seeded ${n.toLocaleString('en')} farms of tenant A in ${((performance.now() - t0) / 1000).toFixed(1)} s (grid ${side} × ${side}, ${(side * STEP).toFixed(2)}° a side; rollup triggers included)`,
      );
      // The rollup rebuilt from scratch for every farm: what migration 0013's backfill costs on this registry.
      t0 = performance.now();
      await db.query(`BEGIN; SELECT set_config('app.scope', 'system', true); TRUNCATE farm_tile_cells`);
      await db.query(`DO $$ DECLARE a uuid[]; b smallint[]; c bigint[]; BEGIN
        EXECUTE farm_tile_cells_sql('SELECT tenant_id, id, geom, is_overlapping, flag, operational_area_id, 1 AS d FROM farms') INTO a, b, c; END $$`);
      await db.query('COMMIT; ANALYZE farm_tile_cells');
      const [{ cells }] = (await db.query('SELECT count(*)::int AS cells FROM farm_tile_cells')).rows;
      console.log(`rollup rebuilt (the migration's backfill) in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${cells.toLocaleString('en')} cells`);
    } else {
      // A kept database: the admin enrolled two-factor authentication in the earlier run; enrol again.
      await db.query(`DELETE FROM mfa_secrets WHERE user_id = (SELECT id FROM users WHERE email = 'admin@oyo-agro.example')`);
      await db.query(`UPDATE users SET mfa_enabled = false WHERE email = 'admin@oyo-agro.example'`);
      console.log(`reusing ${dbName} (not seeded again)`);
    }

    // A fresh server: its caches and the database's start from the seeded state.
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    server = await startServer(env);
    const token = await signIn('admin@oyo-agro.example');
    const bands: Record<string, number[]> = { 'z8-11 (clusters)': [], 'z12-14 (clusters)': [], 'z15-17 (polygons)': [] };
    const sizes: number[] = [];
    let failed = 0;
    // Warm-up: a few tiles, not counted.
    for (let i = 0; i < 10; i++)
      await fetch(`${base}/api/farms/tiles/12/${tileOf(ORIGIN[0] + 0.1, ORIGIN[1] + 0.1, 12).join('/')}.mvt`, {
        headers: { authorization: `Bearer ${token}` },
      });
    t0 = performance.now();
    for (let i = 0; i < REQUESTS; i++) {
      const z = 8 + (i % 10);
      const lng = ORIGIN[0] + Math.random() * side * STEP;
      const lat = ORIGIN[1] + Math.random() * side * STEP;
      const [x, y] = tileOf(lng, lat, z);
      const s0 = performance.now();
      const res = await fetch(`${base}/api/farms/tiles/${z}/${x}/${y}.mvt`, { headers: { authorization: `Bearer ${token}` } });
      const buf = Buffer.from(await res.arrayBuffer());
      const ms = performance.now() - s0;
      if (res.status !== 200) failed++;
      sizes.push(buf.length);
      (z < 12 ? bands['z8-11 (clusters)'] : z < 15 ? bands['z12-14 (clusters)'] : bands['z15-17 (polygons)'])!.push(ms);
    }
    const all = Object.values(bands).flat();
    for (const [band, xs] of Object.entries(bands))
      console.log(`${band}: ${xs.length} tiles, p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`);
    console.log(
      `all: ${all.length} tiles in ${((performance.now() - t0) / 1000).toFixed(1)} s, p50 ${pct(all, 50).toFixed(1)} ms, p95 ${pct(all, 95).toFixed(1)} ms (target <= 50 ms); ` +
        `median tile ${(pct(sizes, 50) / 1024).toFixed(1)} KB, largest ${(Math.max(...sizes) / 1024).toFixed(1)} KB; ${failed} not 200`,
    );
  } finally {
    await db.end();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (!KEEP) {
      const a = new pg.Client({ connectionString: PG_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await a.end();
    } else console.log(`kept database ${dbName}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
