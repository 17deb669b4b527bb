// `npm run bench:sync -- [--captures 500] [--farmers 50] [--engine pglite|postgres|both]`: issue 31's sync target on
// the built server. A demo agent of tenant A signs in, downloads its area's bundle, and sends a queue as the field app's
// sync (apps/web/src/field/sync.ts) sends it: one request at a time, the farmers registered on the device first, then
// the captures in the order they were saved, each with its Idempotency-Key. Captures are 40 m squares on a 70 m grid in
// the agent's area, clear of the registry's farms. Targets: 500 captures in ≤ 60 s embedded, ≤ 30 s on PostgreSQL.
// Then the network cut mid-sync: a further 100 captures, every fifth one's answer lost (the request is aborted after the
// server received it, as a dropped connection does), each resent with its key until it is answered; the tenant must
// then hold each of those farms once. Printed, never asserted in a timed test.
// This replays the app's requests from Node (the browser's IndexedDB writes, two per item, are not in the figure).
/* eslint-disable @typescript-eslint/no-explicit-any -- benchmarks read the API's JSON untyped, as any client would */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { apiAt, root, signInEnrolling, startServer, stopServer, type Server } from './http.js';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1]!.startsWith('--') ? args[i + 1]! : dflt;
};
const CAPTURES = Number(arg('captures', '500'));
const FARMERS = Number(arg('farmers', '50'));
const CUT = 100;
const ENGINES = arg('engine', 'both') === 'both' ? (['pglite', 'postgres'] as const) : ([arg('engine', 'both')] as Array<'pglite' | 'postgres'>);
const PG_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const PORT = Number(process.env['BENCH_PORT'] ?? 3920);

type LngLat = [number, number];
const M_LAT = 111_320;

const inside = (p: LngLat, ring: LngLat[]) => {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
};

/** Bounding boxes of the registry's farms near the area, grown by 10 m. */
function farmBoxes(farms: Array<{ geometry: { type: string; coordinates: any } }>, mLng: number): Array<[number, number, number, number]> {
  return farms.map((f) => {
    const pts: LngLat[] = (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates).flat(2);
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    return [Math.min(...xs) - 10 / mLng, Math.min(...ys) - 10 / M_LAT, Math.max(...xs) + 10 / mLng, Math.max(...ys) + 10 / M_LAT];
  });
}

/** n 40 m squares on a 70 m grid inside the area's ring, clear of every registry farm's box. */
function squares(n: number, ring: LngLat[], farms: Array<{ geometry: { type: string; coordinates: any } }>, skip: number): LngLat[][] {
  const xs = ring.map((p) => p[0]);
  const ys = ring.map((p) => p[1]);
  const mLng = M_LAT * Math.cos((((Math.min(...ys) + Math.max(...ys)) / 2) * Math.PI) / 180);
  const boxes = farmBoxes(farms, mLng);
  const [dx, dy, side] = [70 / mLng, 70 / M_LAT, [40 / mLng, 40 / M_LAT] as const];
  const out: LngLat[][] = [];
  let seen = 0;
  for (let y = Math.min(...ys) + dy; y < Math.max(...ys) - dy && out.length < n; y += dy)
    for (let x = Math.min(...xs) + dx; x < Math.max(...xs) - dx && out.length < n; x += dx) {
      const sq: LngLat[] = [
        [x, y],
        [x + side[0], y],
        [x + side[0], y + side[1]],
        [x, y + side[1]],
        [x, y],
      ].map(([a, b]) => [Math.round(a! * 1e7) / 1e7, Math.round(b! * 1e7) / 1e7]);
      if (!sq.every((p) => inside(p, ring))) continue;
      if (boxes.some((b) => !(x + side[0] < b[0] || x > b[2] || y + side[1] < b[1] || y > b[3]))) continue;
      if (seen++ < skip) continue;
      out.push(sq);
    }
  if (out.length < n) throw new Error(`the area holds only ${out.length} free cells for ${n} captures`);
  return out;
}

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? 0;
};

async function runEngine(engine: 'pglite' | 'postgres'): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-sync-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_SECRET: crypto.randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
  };
  let dbName: string | null = null;
  if (engine === 'postgres') {
    dbName = `farmland_sync_${crypto.randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const adminUrl = PG_URL.replace(/\/[^/]*$/, `/${dbName}`);
    const setup = spawn(process.execPath, [path.join(root, 'apps/api/dist/bin/db-setup.js'), '--admin-url', adminUrl, '--app-user', 'farmland_bench'], {
      cwd: root,
      stdio: 'inherit',
      env,
    });
    await new Promise((r) => setup.on('exit', r));
    env['DATABASE_URL'] = adminUrl.replace('postgres@', 'farmland_bench@');
    env['DATABASE_ADMIN_URL'] = adminUrl;
  }
  let server: Server | null = null;
  try {
    // A first start migrates and seeds the demo data: minutes on a busy machine.
    server = await startServer(env, { timeoutMs: 900_000 });
    const base = server.base;
    const api = apiAt(base);
    const admin = await signInEnrolling(base, 'admin@oyo-agro.example');
    const agents = (await api('GET', '/api/accounts/agents/?page=1&page_size=50', admin)).body.data.results as Array<{
      email: string;
      is_suspended: boolean;
      operational_area_id: string | null;
    }>;
    const agent = agents.find((a) => !a.is_suspended && a.operational_area_id);
    if (!agent) throw new Error('no active demo agent with an operational area');
    const token = await signInEnrolling(base, agent.email);
    const areas = (await api('GET', '/api/field/areas/', token)).body.data as Array<{ id: string; assigned: boolean }>;
    const area = areas.find((a) => a.assigned) ?? areas[0]!;
    const bundle = (await api('GET', `/api/field/bundle/?area_id=${area.id}`, token)).body.data;
    const ring = bundle.area.geometry.coordinates[0] as LngLat[];
    const cells = squares(CAPTURES + CUT, ring, bundle.farms, 0);
    const run = crypto.randomBytes(3).toString('hex');
    const device = `bench-${run}`;
    const send = (url: string, key: string, body: unknown, signal?: AbortSignal) =>
      fetch(`${base}/api${url}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      });
    const farmBody = (i: number, farmerId: string, sq: LngLat[]) => ({
      farmer_id: farmerId,
      name: `Sync ${run} ${i}`,
      coordinates: sq,
      time_taken_to_map: '00:04:12',
      gps_device_id: device,
      location: 'Bench field',
    });

    // 1. The queue: FARMERS farmers registered on the device, then CAPTURES captures (each farmer's in turn).
    const farmerKeys = Array.from({ length: FARMERS }, () => crypto.randomUUID());
    const captureKeys = Array.from({ length: CAPTURES + CUT }, () => crypto.randomUUID());
    const times: number[] = [];
    const t0 = performance.now();
    const farmerIds: string[] = [];
    for (let i = 0; i < FARMERS; i++) {
      const t = performance.now();
      const res = await send('/farmers/', farmerKeys[i]!, {
        first_name: 'Sync',
        last_name: `${run} ${i}`,
        gender: i % 2 ? 'Male' : 'Female',
        location: 'Bench field',
      });
      times.push(performance.now() - t);
      if (res.status !== 201) throw new Error(`farmer ${i}: ${res.status} ${(await res.text()).slice(0, 300)}`);
      farmerIds.push(((await res.json()) as any).data.id);
    }
    let refused = 0;
    for (let i = 0; i < CAPTURES; i++) {
      const t = performance.now();
      const res = await send('/farms/', captureKeys[i]!, farmBody(i, farmerIds[i % FARMERS]!, cells[i]!));
      times.push(performance.now() - t);
      if (res.status !== 201) {
        refused++;
        if (refused <= 3) console.log(`  capture ${i} refused: ${res.status} ${(await res.text()).slice(0, 300)}`);
      } else await res.arrayBuffer();
    }
    const total = (performance.now() - t0) / 1000;
    const target = engine === 'postgres' ? 30 : 60;
    console.log(
      `${engine}: ${FARMERS} farmers + ${CAPTURES} captures synced in ${total.toFixed(1)} s (target ≤ ${target} s): ${refused} refused; ` +
        `per request p50 ${pct(times, 0.5).toFixed(0)} ms, p95 ${pct(times, 0.95).toFixed(0)} ms, max ${pct(times, 1).toFixed(0)} ms`,
    );

    // 2. The network cut mid-sync: every fifth answer is lost after the server received the request; the item is sent
    //    again with its key until it is answered (a 409 idempotency_key_in_progress means the first is still running).
    let lost = 0;
    let resent = 0;
    let inProgress = 0;
    for (let i = CAPTURES; i < CAPTURES + CUT; i++) {
      const body = farmBody(i, farmerIds[i % FARMERS]!, cells[i]!);
      if ((i - CAPTURES) % 5 === 0) {
        const ac = new AbortController();
        const pending = send('/farms/', captureKeys[i]!, body, ac.signal).catch(() => null);
        // Abort once the body is on the wire: the server has the request; the app never hears its answer.
        setTimeout(() => ac.abort(), 5);
        await pending;
        lost++;
      }
      for (;;) {
        const res = await send('/farms/', captureKeys[i]!, body);
        const text = await res.text();
        if (res.status === 409 && text.includes('idempotency_key_in_progress')) {
          inProgress++;
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        if (res.status !== 201 && res.status !== 200) throw new Error(`resend ${i}: ${res.status} ${text.slice(0, 300)}`);
        resent++;
        break;
      }
    }
    let copies = 0;
    let distinct = 0;
    for (let i = CAPTURES; i < CAPTURES + CUT; i++) {
      const name = `Sync ${run} ${i}`;
      const hits = (
        (await api('GET', `/api/farms/?search=${encodeURIComponent(name)}&page_size=10`, admin)).body.data.results as Array<{ name: string }>
      ).filter((f) => f.name === name).length;
      copies += hits;
      if (hits > 0) distinct++;
    }
    console.log(
      `${engine}: cut mid-sync: ${CUT} captures, ${lost} answers lost and resent with their key (${inProgress} answers of 409 in progress while the first ran), ${resent} answered; the tenant holds ${copies} farms for ${distinct} captures (duplicates: ${copies - distinct})`,
    );
  } finally {
    if (server) await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dbName) {
      const a = new pg.Client({ connectionString: PG_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      await a.end();
    }
  }
}

if (!fs.existsSync(path.join(root, 'apps/api/dist/server.js'))) throw new Error('run npm run build first');
for (const e of ENGINES) await runEngine(e);
