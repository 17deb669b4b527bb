// `npm run bench:resilience -- [--only clique|squares|poison|kill] [--engine pglite|postgres]`: issue 16's checks over
// HTTP against the built server (as `npm start` runs it), on a fresh data directory (or a fresh PostgreSQL database):
//  * clique: a csv of exactly 3,145,728 bytes whose ~75,000 rows are all the same triangle;
//  * squares: a JSON upload of 3,000 identical squares;
//  * poison: a JSON upload with NUL, lone-surrogate, antipodal and pole-crossing rows among good rows;
//  * kill: kill -9 of the server mid-analysis, a restart, and the time until the analysis has settled.
// Meanwhile it asks /api/health and another tenant's farm list every 50 ms, and prints the longest waits, the server's
// peak RSS (VmHWM) and each analysis's time and counts.
/* eslint-disable @typescript-eslint/no-explicit-any -- the benchmark reads the API's JSON untyped, as any client would */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { apiAt, root, rssMb, signInEnrolling, startServer as startBuilt, type Server } from './http.js';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1]!.startsWith('--') ? args[i + 1]! : dflt;
};
const ONLY = arg('only', 'all');
const ENGINE = arg('engine', 'pglite') as 'pglite' | 'postgres';
const PORT = Number(arg('port', '3391'));
const PG_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const base = `http://127.0.0.1:${PORT}`;

const api = apiAt(base);
const signIn = (email: string) => signInEnrolling(base, email);

async function startServer(env: NodeJS.ProcessEnv): Promise<Server> {
  // The server's own account of each analysis (phases and their longest statements) and of recoveries.
  const server = await startBuilt(env, { onLine: (l) => void (/custom analysis|recovery/.test(l) && console.log(`  server: ${l.slice(0, 600)}`)) });
  console.log(`server ready in ${(server.readyMs / 1000).toFixed(1)} s (pid ${server.child.pid})`);
  return server;
}

/** Asks health and another tenant's list every 50 ms; returns the longest waits seen. */
function probe(tokenB: string, pid: number | undefined) {
  const worst = { health: 0, list: 0, samples: 0, failures: 0, rssBefore: rssMb(pid), rssMax: 0 };
  const sampler = setInterval(() => {
    worst.rssMax = Math.max(worst.rssMax, rssMb(pid));
  }, 50);
  let on = true;
  const loop = async (url: string, key: 'health' | 'list', token: string | null) => {
    while (on) {
      const t0 = performance.now();
      try {
        const r = await api('GET', url, token);
        if (r.status !== 200) worst.failures++;
      } catch {
        worst.failures++;
      }
      worst[key] = Math.max(worst[key], performance.now() - t0);
      worst.samples++;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const done = Promise.all([loop('/api/health', 'health', null), loop('/api/farms/?page=1&page_size=10', 'list', tokenB)]);
  return {
    stop: async () => {
      on = false;
      await done;
      clearInterval(sampler);
      return worst;
    },
  };
}

async function waitSettled(token: string, id: string, timeoutMs: number): Promise<any> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await api('GET', `/api/custom-analysis/${id}/`, token).catch(() => null);
    const d = r?.body?.data;
    if (d && (d.status === 'completed' || d.status === 'failed')) return d;
    if (Date.now() > end) return d ?? { status: 'unknown' };
    await new Promise((r) => setTimeout(r, 250));
  }
}

function multipart(fields: Record<string, string[]>, filename: string, content: Buffer) {
  const boundary = `----bench${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, vs] of Object.entries(fields))
    for (const v of vs) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** ~75,000 rows of one triangle, padded to exactly `bytes`. */
function cliqueCsv(bytes: number): Buffer {
  const header = 'farm_name,farm_coordinates\n';
  const line = (i: number) => `T${i},"[[3.7,7.6],[3.8,7.6],[3.7,7.7]]"\n`;
  const lines: string[] = [header];
  let size = header.length;
  for (let i = 1; size + line(i).length <= bytes; i++) {
    lines.push(line(i));
    size += line(i).length;
  }
  // The first farm's name takes up the remainder, so the file is exactly `bytes` long.
  lines[1] = `T1${'x'.repeat(bytes - size)}${lines[1]!.slice(2)}`;
  return Buffer.from(lines.join(''));
}

type Case = { name: string; send: (token: string, areas: string[]) => Promise<{ status: number; body: any }>; expect: (d: any) => string };

const cases: Case[] = [
  {
    name: 'clique',
    send: (token, areas) => {
      const csv = cliqueCsv(3_145_728);
      const m = multipart({ name: ['clique'], operational_areas: areas, require_farm_recognition: ['false'] }, 'clique.csv', csv);
      console.log(`clique csv: ${csv.length} bytes, ${csv.toString().split('\n').length - 2} rows`);
      return api('POST', '/api/custom-analysis/', token, m.body, m.headers);
    },
    expect: (d) => `overlapping ${d.overlapping_farmlands?.count}, errors ${d.errors?.count}`,
  },
  {
    name: 'squares',
    send: (token, areas) =>
      api('POST', '/api/custom-analysis/', token, {
        name: 'squares',
        operational_areas: areas,
        require_farm_recognition: false,
        locations: Array.from({ length: 3000 }, (_, i) => ({
          farm_name: `S${i}`,
          farm_coordinates: [
            [3.77, 7.64],
            [3.771, 7.64],
            [3.771, 7.641],
            [3.77, 7.641],
            [3.77, 7.64],
          ],
        })),
      }),
    expect: (d) => `overlapping ${d.overlapping_farmlands?.count}, errors ${d.errors?.count}`,
  },
  {
    name: 'poison',
    send: (token, areas) =>
      api('POST', '/api/custom-analysis/', token, {
        name: 'poison',
        operational_areas: areas,
        require_farm_recognition: false,
        locations: [
          ...Array.from({ length: 50 }, (_, i) => ({
            farm_name: `G${i}`,
            farm_coordinates: [
              [3.7 + i * 0.01, 7.6],
              [3.705 + i * 0.01, 7.6],
              [3.705 + i * 0.01, 7.605],
              [3.7 + i * 0.01, 7.6],
            ],
          })),
          {
            farm_name: 'NUL\u0000name',
            farm_coordinates: [
              [3.1, 7.1],
              [3.105, 7.1],
              [3.105, 7.105],
            ],
          },
          {
            farm_name: 'surrogate',
            note: 'x\uD800y',
            farm_coordinates: [
              [3.2, 7.1],
              [3.205, 7.1],
              [3.205, 7.105],
            ],
          },
          {
            farm_name: 'antipodal',
            farm_coordinates: [
              [-90, 0],
              [90, 0],
              [90, 10],
            ],
          },
          {
            farm_name: 'pole',
            farm_coordinates: [
              [0, 80],
              [180, 80],
              [90, 85],
            ],
          },
        ],
      }),
    expect: (d) => `errors ${d.errors?.count} (expected 4), total ${d.total_uploaded_data_count}`,
  },
];

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, 'apps/api/dist/server.js'))) throw new Error('run npm run build first');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-resilience-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_SECRET: crypto.randomBytes(32).toString('hex'),
    LOG_LEVEL: 'info',
    SEED_DEMO: 'true',
  };
  let dbName: string | null = null;
  if (ENGINE === 'postgres') {
    dbName = `farmland_res_${crypto.randomBytes(3).toString('hex')}`;
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
  let server = await startServer(env);
  try {
    const tokenA = await signIn('admin@oyo-agro.example');
    const tokenB = await signIn('admin@greenharvest.example');
    const areas = (await api('GET', '/api/operational-areas/?page=1&page_size=100', tokenA)).body.data.results.map((a: { id: string }) => a.id);
    for (const c of cases.filter((x) => ONLY === 'all' || ONLY === x.name)) {
      const p = probe(tokenB, server.child.pid);
      const t0 = performance.now();
      const res = await c.send(tokenA, areas);
      if (res.status !== 201) throw new Error(`${c.name}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      const d = await waitSettled(tokenA, res.body.data.id, 600_000);
      const worst = await p.stop();
      console.log(
        `${c.name}: ${d.status} in ${((performance.now() - t0) / 1000).toFixed(2)} s (upload to settled); ${c.expect(d)}; ` +
          `longest /api/health ${worst.health.toFixed(0)} ms, other tenant's list ${worst.list.toFixed(0)} ms over ${worst.samples} requests, ${worst.failures} failed; server RSS ${worst.rssBefore.toFixed(0)} MB before, peak ${worst.rssMax.toFixed(0)} MB (+${(worst.rssMax - worst.rssBefore).toFixed(0)} MB)`,
      );
    }
    if (ONLY === 'all' || ONLY === 'kill') {
      // 60,000 distinct triangles that all overlap (each moved a little): the crowded path, with real work to interrupt.
      const lines = ['farm_name,farm_coordinates'];
      for (let i = 1; i <= 60_000; i++) lines.push(`K${i},"[[${(3.7 + (i % 500) * 0.0001).toFixed(4)},7.64],[3.78,7.64],[3.77,7.65]]"`);
      const m = multipart({ name: ['kill'], operational_areas: areas, require_farm_recognition: ['false'] }, 'kill.csv', Buffer.from(lines.join('\n')));
      const res = await api('POST', '/api/custom-analysis/', tokenA, m.body, m.headers);
      if (res.status !== 201) throw new Error(`kill upload: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      const id = res.body.data.id as string;
      for (let i = 0; i < 400; i++) {
        const d = (await api('GET', `/api/custom-analysis/${id}/`, tokenA)).body.data;
        if (d.status === 'processing' && d.progress >= 10) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      server.child.kill('SIGKILL');
      await new Promise((r) => server.child.once('exit', r));
      const tKill = performance.now();
      console.log('kill -9 sent mid-analysis; restarting');
      server = await startServer(env);
      // The access token outlives the restart (same secret, session in the database).
      const d = await waitSettled(tokenA, id, 180_000);
      console.log(
        `kill: ${d.status} ${((performance.now() - tKill) / 1000).toFixed(1)} s after the kill; attempts ${d.attempts ?? '?'}; ${d.failure_reason ?? ''} total ${d.total_uploaded_data_count}, errors ${d.errors?.count}, overlapping ${d.overlapping_farmlands?.count}`,
      );
    }
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dbName) {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
