// `npm run bench:footprint -- [--engine pglite|postgres|both] [--rows 15000,100000] [--port 3397] [--settle 10]
//  [--existing DIR] [--start-timeout 900]`:
// issue 12's memory figures, read from /proc (VmRSS, RssAnon) of the built server started as `npm start` starts it.
//  * pglite: a first start on a fresh data directory (initdb, migrations, lookups, demo data) and a restart on it; RSS at
//    idle after each, after a burst of 1,000 list requests, and at the peak of a 15k and a 100k-row analysis (csv upload
//    over HTTP, upload limit raised for the 100k file); first-start and warm-start times (spawn to a healthy /api/health).
//  * postgres: the same for the API process (ANALYSIS_WORKERS=off) and, apart, for a worker process (`npm run worker`)
//    that runs the analyses, on a fresh PostgreSQL database.
// Timings on a shared machine are noisy; memory figures are steady within ~±30 MB from run to run.
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
const ENGINES = arg('engine', 'pglite') === 'both' ? (['pglite', 'postgres'] as const) : ([arg('engine', 'pglite')] as Array<'pglite' | 'postgres'>);
const ROWS = arg('rows', '15000,100000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const PORT = Number(arg('port', '3397'));
const SETTLE_MS = Number(arg('settle', '10')) * 1000;
/** --existing DIR: skip the first start and run the rest on a copy of an existing embedded data directory. */
const EXISTING = arg('existing', '');
const START_TIMEOUT_MS = Number(arg('start-timeout', '900')) * 1000;
const PG_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const root = path.resolve(import.meta.dirname, '../../../..');
const base = `http://127.0.0.1:${PORT}`;
const PASSWORD = 'Farmland#2026';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Mem = { rss: number; anon: number; hwm: number; threads: number };
function mem(pid: number | undefined): Mem {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) / 1024;
    return { rss: kb('VmRSS'), anon: kb('RssAnon'), hwm: kb('VmHWM'), threads: kb('Threads') * 1024 };
  } catch {
    return { rss: 0, anon: 0, hwm: 0, threads: 0 };
  }
}
const fmt = (m: Mem) => `RSS ${m.rss.toFixed(0)} MB (anonymous ${m.anon.toFixed(0)} MB, ${m.threads} threads)`;

/** Samples VmRSS every 50 ms until stopped; returns the peak. */
function peakSampler(pid: number | undefined) {
  let peak = mem(pid).rss;
  const t = setInterval(() => (peak = Math.max(peak, mem(pid).rss)), 50);
  return () => {
    clearInterval(t);
    return Math.max(peak, mem(pid).rss);
  };
}

async function startProcess(script: string, env: NodeJS.ProcessEnv, waitHealthy: boolean): Promise<{ child: ChildProcess; ms: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'apps/api/dist', script)], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (!waitHealthy) {
    await sleep(100);
    return { child, ms: 0 };
  }
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not yet
    }
    if (performance.now() - t0 > START_TIMEOUT_MS) throw new Error(`server not healthy in ${START_TIMEOUT_MS / 1000} s`);
    await sleep(100);
  }
  return { child, ms: performance.now() - t0 };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await Promise.race([new Promise((r) => child.once('exit', r)), sleep(15_000).then(() => child.kill('SIGKILL'))]);
}

async function api<T = any>(
  method: string,
  url: string,
  token: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const isBuf = Buffer.isBuffer(body);
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined && !isBuf ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: isBuf ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Signs in, enrolling two-factor the first time (a fresh database has none enrolled); the secret is kept for later. */
const secrets = new Map<string, string>();
async function signIn(email: string): Promise<string> {
  const login = await api('POST', '/api/auth/login/', null, { email, password: PASSWORD });
  if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${JSON.stringify(login.body)}`);
  const { mfa_token, user_token } = login.body.data;
  let secret = secrets.get(email);
  let confirmUrl = '/api/auth/login/confirm';
  if (!secret) {
    const setup = await api('POST', '/api/auth/setup-mfa/', null, { mfa_token, user_token });
    secret = setup.body.data.secret as string;
    secrets.set(email, secret);
    confirmUrl = '/api/auth/confirm-mfa/';
  }
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
  const confirm = await api('POST', confirmUrl, null, { mfa_token, user_token, code });
  if (confirm.status !== 200) throw new Error(`${confirmUrl} ${email}: ${confirm.status} ${JSON.stringify(confirm.body)}`);
  return confirm.body.data.access as string;
}

/** 1,000 list requests (farms, farmers, activity, analyses in turn), 10 at a time. */
async function listBurst(token: string): Promise<{ seconds: number; failed: number }> {
  const urls = [
    '/api/farms/?page=1&page_size=20',
    '/api/farmers/?page=1&page_size=20',
    '/api/activity-logs/?page=1&page_size=20',
    '/api/custom-analysis/?page=1&page_size=20',
  ];
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let i = next++; i < 1000; i = next++) {
        const r = await api('GET', urls[i % urls.length]!, token).catch(() => ({ status: 0 }));
        if (r.status !== 200) failed++;
      }
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, failed };
}

/** Farms on a 150 m grid near the demo tenant's areas, 8 % shifted onto a neighbour (overlaps), deterministic. */
function farmsCsv(rows: number): Buffer {
  const lines = ['farm_name,farm_coordinates,farm_ref'];
  const side = Math.ceil(Math.sqrt(rows));
  const mLat = 111_320;
  const mLng = mLat * Math.cos((7.6466 * Math.PI) / 180);
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < rows; i++) {
    let x = (i % side) * 150 - side * 75;
    const y = Math.floor(i / side) * 150 - side * 75;
    if (rnd() < 0.08) x += 90;
    const n = 5 + Math.floor(rnd() * 3);
    const pts: string[] = [];
    for (let k = 0; k < n; k++) {
      const t = (k * 2 * Math.PI) / n;
      const r = 55 * (0.8 + rnd() * 0.2);
      pts.push(`[${(3.7717 + (x + r * Math.cos(t)) / mLng).toFixed(7)},${(7.6466 + (y + r * Math.sin(t)) / mLat).toFixed(7)}]`);
    }
    pts.push(pts[0]!);
    lines.push(`F${i + 1},"[${pts.join(',')}]",R${i + 1}`);
  }
  return Buffer.from(lines.join('\n'));
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

/** Uploads an analysis of `rows` farms and waits until it settles; returns its time and the peaks of the watched processes. */
async function analysis(token: string, areas: string[], rows: number, watch: Record<string, number | undefined>): Promise<string> {
  const csv = farmsCsv(rows);
  const m = multipart({ name: [`footprint ${rows}`], operational_areas: areas, require_farm_recognition: ['true'] }, `farms-${rows}.csv`, csv);
  const samplers = Object.fromEntries(Object.entries(watch).map(([k, pid]) => [k, { pid, before: mem(pid).rss, peak: peakSampler(pid) }]));
  const t0 = performance.now();
  const res = await api('POST', '/api/custom-analysis/', token, m.body, m.headers);
  if (res.status !== 201) throw new Error(`upload ${rows}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  const id = res.body.data.id as string;
  let d: any;
  for (;;) {
    d = (await api('GET', `/api/custom-analysis/${id}/`, token)).body?.data;
    if (d && (d.status === 'completed' || d.status === 'failed')) break;
    if (performance.now() - t0 > 900_000) throw new Error(`analysis ${rows} not settled in 900 s`);
    await sleep(200);
  }
  const secs = (performance.now() - t0) / 1000;
  const peaks = Object.entries(samplers).map(([k, s]) => `${k} RSS ${s.before.toFixed(0)} MB before, peak ${s.peak().toFixed(0)} MB`);
  await sleep(SETTLE_MS);
  const after = Object.entries(watch).map(([k, pid]) => `${k} ${mem(pid).rss.toFixed(0)} MB`);
  return `${rows} rows (${(csv.length / 1048576).toFixed(1)} MB csv): ${d.status} in ${secs.toFixed(1)} s (upload to settled; within ${d.within_operational_area?.count ?? '?'}, outside ${d.outside_operational_area?.count ?? '?'}, errors ${d.errors?.count ?? '?'}, overlapping ${d.overlapping_farmlands?.count ?? '?'}); ${peaks.join('; ')}; ${SETTLE_MS / 1000} s later ${after.join(', ')}`;
}

async function idle(label: string, pids: Record<string, number | undefined>): Promise<void> {
  await sleep(SETTLE_MS);
  for (const [k, pid] of Object.entries(pids)) console.log(`  ${label}, ${k}: ${fmt(mem(pid))}`);
}

async function runPglite(): Promise<void> {
  secrets.clear(); // each engine's run has a fresh database, where nobody has enrolled two-factor yet
  console.log(`\n== embedded (PGlite): node apps/api/dist/server.js, port ${PORT}, idle = ${SETTLE_MS / 1000} s after /api/health answers`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-footprint-'));
  if (EXISTING) fs.cpSync(EXISTING, dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_SECRET: crypto.randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    UPLOAD_LIMIT_BYTES: String(64 * 1048576),
    // The 100k file parses in about a second on a quiet machine; the 20 s deadline is hit when others load the cores.
    PARSE_TIMEOUT_MS: '180000',
  };
  delete env['DATABASE_URL'];
  const children: ChildProcess[] = [];
  try {
    if (!EXISTING) {
      const first = await startProcess('server.js', env, true);
      children.push(first.child);
      console.log(`  first start (fresh data directory: initdb, migrations, lookups, demo): ${(first.ms / 1000).toFixed(1)} s`);
      await idle('idle after the first start', { server: first.child.pid });
      console.log(`  peak during the first start (VmHWM): ${mem(first.child.pid).hwm.toFixed(0)} MB`);
      await stop(first.child);
    }
    const warm = await startProcess('server.js', env, true);
    children.push(warm.child);
    const pid = warm.child.pid;
    console.log(`  warm start (existing data directory): ${(warm.ms / 1000).toFixed(1)} s`);
    await idle('idle after a restart', { server: pid });
    const token = await signIn('admin@oyo-agro.example');
    const peak = peakSampler(pid);
    const burst = await listBurst(token);
    console.log(`  1,000 list requests in ${burst.seconds.toFixed(1)} s (${burst.failed} failed): peak RSS ${peak().toFixed(0)} MB`);
    await idle('after the burst', { server: pid });
    const areas = (await api('GET', '/api/operational-areas/?page=1&page_size=100', token)).body.data.results.map((a: { id: string }) => a.id);
    for (const rows of ROWS) console.log(`  analysis of ${await analysis(token, areas, rows, { server: pid })}`);
    console.log(`  server peak over the whole run after the restart (VmHWM): ${mem(pid).hwm.toFixed(0)} MB`);
  } finally {
    for (const c of children) await stop(c);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function runPostgres(): Promise<void> {
  secrets.clear(); // each engine's run has a fresh database, where nobody has enrolled two-factor yet
  console.log(`\n== PostgreSQL: API (ANALYSIS_WORKERS=off) and a worker process (npm run worker), port ${PORT}`);
  const dbName = `farmland_fp_${crypto.randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const adminUrl = PG_URL.replace(/\/[^/]*$/, `/${dbName}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-footprint-pg-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_SECRET: crypto.randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    UPLOAD_LIMIT_BYTES: String(64 * 1048576),
    PARSE_TIMEOUT_MS: '180000',
  };
  const children: ChildProcess[] = [];
  try {
    const setup = spawn(process.execPath, [path.join(root, 'apps/api/dist/bin/db-setup.js'), '--admin-url', adminUrl, '--app-user', 'farmland_bench'], {
      cwd: root,
      stdio: 'ignore',
      env,
    });
    await new Promise((r) => setup.on('exit', r));
    env['DATABASE_URL'] = adminUrl.replace('postgres@', 'farmland_bench@');
    env['DATABASE_ADMIN_URL'] = adminUrl;
    const first = await startProcess('server.js', { ...env, ANALYSIS_WORKERS: 'off' }, true);
    children.push(first.child);
    console.log(`  API first start (migrations done by db:setup; demo data seeded): ${(first.ms / 1000).toFixed(1)} s`);
    await idle('idle after the first start', { api: first.child.pid });
    await stop(first.child);
    const apiProc = await startProcess('server.js', { ...env, ANALYSIS_WORKERS: 'off', SEED_DEMO: 'false' }, true);
    children.push(apiProc.child);
    console.log(`  API warm start: ${(apiProc.ms / 1000).toFixed(1)} s`);
    const worker = await startProcess('worker.js', env, false);
    children.push(worker.child);
    await idle('idle after a restart', { api: apiProc.child.pid, worker: worker.child.pid });
    const token = await signIn('admin@oyo-agro.example');
    const peak = peakSampler(apiProc.child.pid);
    const burst = await listBurst(token);
    console.log(`  1,000 list requests in ${burst.seconds.toFixed(1)} s (${burst.failed} failed): API peak RSS ${peak().toFixed(0)} MB`);
    await idle('after the burst', { api: apiProc.child.pid });
    const areas = (await api('GET', '/api/operational-areas/?page=1&page_size=100', token)).body.data.results.map((a: { id: string }) => a.id);
    for (const rows of ROWS) console.log(`  analysis of ${await analysis(token, areas, rows, { api: apiProc.child.pid, worker: worker.child.pid })}`);
    console.log(`  peaks over the run (VmHWM): API ${mem(apiProc.child.pid).hwm.toFixed(0)} MB, worker ${mem(worker.child.pid).hwm.toFixed(0)} MB`);
  } finally {
    for (const c of children.reverse()) await stop(c);
    fs.rmSync(dataDir, { recursive: true, force: true });
    const a = new pg.Client({ connectionString: PG_URL });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await a.end();
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, 'apps/api/dist/server.js'))) throw new Error('run npm run build first');
  console.log(
    `footprint benchmark: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GB, Node ${process.version}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const engine of ENGINES) await (engine === 'pglite' ? runPglite() : runPostgres());
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
