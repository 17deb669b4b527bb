// The analysis benchmark over HTTP (--http; always from 200,001 rows): the built server as deployed, with each process's RSS.
/* eslint-disable @typescript-eslint/no-explicit-any -- the HTTP mode reads the API's JSON untyped, as any client would */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { apiAt, root as httpRoot, rssMb, signInEnrolling, startServer, stopServer } from './http.js';
import { writeXlsx } from './xlsx-file.js';
import { openDatabase } from '../db/client.js';
import { args, arg, ROWS, SEED, AREAS, PG_URL, DB_PREFIX, FORMAT, secs } from './analysis-options.js';
import { farmRows, CSV_HEADER, areasFor, generateToFile } from './analysis-data.js';

// ---------- over HTTP (--http; always from 200,001 rows): the built server, as deployed ----------

export const HTTP_PORT = Number(arg('port', '3431'));

/** A process's VmRSS and VmHWM (peak) from /proc, sampled every 100 ms. */
export function rssWatch(pids: Record<string, number | undefined>) {
  const peak: Record<string, number> = Object.fromEntries(Object.keys(pids).map((k) => [k, 0]));
  const t = setInterval(() => {
    for (const [k, pid] of Object.entries(pids)) peak[k] = Math.max(peak[k]!, rssMb(pid));
  }, 100);
  return () => {
    clearInterval(t);
    return Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, { peak: Math.max(peak[k]!, rssMb(pid)), hwm: rssMb(pid, 'VmHWM') }]));
  };
}

/** POST /custom-analysis/ with the file streamed from disk (multipart built around it; nothing held whole here either). */
export function uploadFile(
  base: string,
  token: string,
  fields: Array<[string, string]>,
  file: string,
  filename: string,
): Promise<{ status: number; body: any }> {
  const boundary = `----bench${crypto.randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = fs.statSync(file).size;
  const url = new URL('/api/custom-analysis/', base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        method: 'POST',
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + size + tail.length,
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString();
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.write(head);
    const rs = fs.createReadStream(file, { highWaterMark: 1024 * 1024 });
    rs.on('error', reject);
    rs.on('end', () => req.end(tail));
    rs.pipe(req, { end: false });
  });
}

/** The bench's 400 areas and registry farms in the demo tenant of a server's database (HTTP mode); answers the tenant's area ids. */
export async function seedDemoTenant(
  admin: (text: string, params?: unknown[]) => Promise<any[]>,
  registered: Array<Array<[number, number]>>,
): Promise<string[]> {
  const [{ tenant_id: tenantId }] = await admin(`SELECT tenant_id FROM users WHERE email = 'admin@oyo-agro.example'`);
  const [{ id: regionId }] = await admin(
    `INSERT INTO regions (tenant_id, country_id, name) VALUES ($1, (SELECT country_id FROM tenants WHERE id = $1), 'Bench') RETURNING id`,
    [tenantId],
  );
  const [{ id: cityId }] = await admin(`SELECT id FROM cities LIMIT 1`);
  await admin(
    `INSERT INTO operational_areas (tenant_id, name, region_id, city_id, geom, area_sqm)
     SELECT $1, a.name, $2, $3, g, ST_Area(g::geography)
       FROM jsonb_to_recordset($4::jsonb) AS a(name text, ring jsonb), LATERAL (SELECT ST_SetSRID(ST_GeomFromGeoJSON(jsonb_build_object('type', 'Polygon', 'coordinates', jsonb_build_array(a.ring))), 4326) AS g) x`,
    [tenantId, regionId, cityId, JSON.stringify(areasFor(ROWS, AREAS))],
  );
  const [{ id: farmerId }] = await admin(
    `INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES ($1, 'Reg', 'Istry', 'HS-BENCH-1') RETURNING id`,
    [tenantId],
  );
  for (let i = 0; i < registered.length; i += 5000) {
    await admin(
      `INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm)
       SELECT $1, $2, 'Registered', g, ST_Area(g::geography) FROM jsonb_array_elements($3::jsonb) AS x(ring),
              LATERAL (SELECT ST_SetSRID(ST_GeomFromGeoJSON(jsonb_build_object('type', 'Polygon', 'coordinates', jsonb_build_array(x.ring))), 4326) AS g) y
        WHERE ST_IsValid(g)`,
      [tenantId, farmerId, JSON.stringify(registered.slice(i, i + 5000))],
    );
  }
  await admin('ANALYZE');
  return (await admin(`SELECT id FROM operational_areas WHERE tenant_id = $1`, [tenantId])).map((r: { id: string }) => r.id);
}

export async function benchHttp(
  kind: 'pglite' | 'postgres',
): Promise<{ kind: string; seconds: number; rssMb: number; workerMb: number | null; probeMs: number }> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-http-'));
  const csvFile = path.join(work, 'bench.csv');
  const g0 = performance.now();
  const generated = await generateToFile(ROWS, SEED, csvFile);
  const { registered } = generated;
  let bytes = generated.bytes;
  const upload = { file: csvFile, name: 'bench.csv' };
  if (FORMAT === 'xlsx') {
    upload.file = path.join(work, 'bench.xlsx');
    upload.name = 'bench.xlsx';
    bytes = await writeXlsx(upload.file, function* () {
      yield CSV_HEADER.split(',');
      for (const r of farmRows(ROWS, SEED)) yield [r.name, `${JSON.stringify(r.coords)}`, '', `R-${r.i + 1}`];
    });
    fs.rmSync(csvFile);
  } else if (FORMAT === 'geojson') {
    upload.file = path.join(work, 'bench.geojson');
    upload.name = 'bench.geojson';
    const out = fs.createWriteStream(upload.file);
    const write = (text: string) => (out.write(text) ? undefined : new Promise<void>((resolve) => out.once('drain', () => resolve())));
    await write('{"type":"FeatureCollection","features":[\n');
    let i = 0;
    for (const r of farmRows(ROWS, SEED)) {
      await write(
        `${i++ > 0 ? ',\n' : ''}${JSON.stringify({ type: 'Feature', properties: { farm_name: r.name, operational_area_id: '', farm_ref: `R-${r.i + 1}` }, geometry: { type: 'Polygon', coordinates: [r.coords] } })}`,
      );
    }
    await new Promise<void>((resolve) => out.end('\n]}\n', () => resolve()));
    bytes = fs.statSync(upload.file).size;
    fs.rmSync(csvFile);
  }
  process.stdout.write(
    `\n== ${kind} over HTTP: ${ROWS} rows, ${AREAS} areas (${upload.name}, ${(bytes / 1048576).toFixed(1)} MB, written in ${secs(performance.now() - g0)} s), built server on port ${HTTP_PORT} ==\n`,
  );
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    NODE_ENV: 'production',
    PORT: String(HTTP_PORT),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(work, 'data'),
    APP_SECRET: crypto.randomBytes(32).toString('hex'),
    LOG_LEVEL: 'info',
    UPLOAD_LIMIT_BYTES: String(Math.max(3_145_728, bytes + 1024 * 1024)),
    ANALYSIS_MAX_ROWS: String(Math.max(ROWS, 100_000)),
    PAYLOAD_ENCRYPTION: 'optional',
    MEMORY_TRIM_INTERVAL_S: '30',
    // A loaded machine can stage a million rows slower than the parse deadline allows (196 s for 180 MB); raise its base.
    ...(process.env['PARSE_TIMEOUT_MS'] ? { PARSE_TIMEOUT_MS: process.env['PARSE_TIMEOUT_MS'] } : {}),
  };
  const dbName = `${DB_PREFIX || 'hs_bench'}_${process.pid}`;
  const root = kind === 'postgres' ? new pg.Client({ connectionString: PG_URL }) : null;
  const children: ChildProcess[] = [];
  const lines: Record<string, string[]> = { api: [], worker: [] };
  let closeAdmin = async (): Promise<void> => undefined;
  let embeddedAreaIds: string[] = [];
  try {
    let admin: (text: string, params?: unknown[]) => Promise<any[]>;
    if (root) {
      await root.connect();
      await root.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      const u = new URL(PG_URL);
      u.pathname = `/${dbName}`;
      const adminUrl = u.toString();
      const setup = spawn(process.execPath, [path.join(httpRoot, 'apps/api/dist/bin/db-setup.js'), '--admin-url', adminUrl, '--app-user', 'hs_bench_app'], {
        cwd: httpRoot,
        stdio: 'ignore',
        env,
      });
      if ((await new Promise((r) => setup.on('exit', r))) !== 0) throw new Error('db-setup failed');
      const app = new URL(adminUrl);
      app.username = 'hs_bench_app';
      Object.assign(env, { DATABASE_URL: app.toString(), DATABASE_ADMIN_URL: adminUrl, SEED_DEMO: 'true', ANALYSIS_WORKERS: 'off' });
      const c = new pg.Client({ connectionString: adminUrl });
      c.on('error', () => undefined);
      await c.connect();
      admin = async (t, p) => (await c.query(t, p ?? [])).rows;
      closeAdmin = () => c.end();
    }
    const t0 = performance.now();
    let server = await startServer(env, { timeoutMs: 900_000, onLine: (l) => lines['api']!.push(l) });
    children.push(server.child);
    process.stdout.write(`  API ready in ${secs(performance.now() - t0)} s (first start, demo data seeded)\n`);
    if (!root) {
      // Embedded: measured after a restart, as a running installation is (the first start's seeding leaves its peak).
      await stopServer(server);
      children.pop();
      // The same areas and registry farms as the other runs, written into the server's data directory while it is
      // stopped (PGlite is one process's); the restart then serves them.
      const seeded = await openDatabase({ kind: 'pglite', dataDir: path.join(env['DATA_DIR']!, 'pglite') });
      try {
        embeddedAreaIds = await seedDemoTenant((t, p) => seeded.adminQuery(t, p ?? []), registered);
      } finally {
        await seeded.close();
      }
      const t1 = performance.now();
      server = await startServer(env, { timeoutMs: 900_000, onLine: (l) => lines['api']!.push(l) });
      children.push(server.child);
      await new Promise((r) => setTimeout(r, 10_000));
      process.stdout.write(`  restarted in ${secs(performance.now() - t1)} s; idle RSS ${rssMb(server.child.pid).toFixed(0)} MB 10 s later\n`);
    }
    if (!root) {
      // Embedded: the data directory is the server's own, and one process's at a time; the areas and registry farms
      // go in between the first start and the restart (below).
      admin = async () => {
        throw new Error('no admin connection on the embedded engine');
      };
    }
    const token = await signInEnrolling(server.base, 'admin@oyo-agro.example');
    const api = apiAt(server.base);
    let areaIds: string[];
    if (root) {
      areaIds = await seedDemoTenant(admin!, registered);
      process.stdout.write(`  seeded ${areaIds.length} areas and ${registered.length} registry farms in the demo tenant\n`);
      const worker = spawn(process.execPath, [path.join(httpRoot, 'apps/api/dist/worker.js')], { cwd: httpRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(worker);
      worker.stdout?.on('data', (c: Buffer) => lines['worker']!.push(...c.toString().split('\n').filter(Boolean)));
      await new Promise((r) => setTimeout(r, 3000));
    } else {
      areaIds = embeddedAreaIds;
      process.stdout.write(`  seeded ${areaIds.length} areas and ${registered.length} registry farms in the demo tenant (before the restart)\n`);
    }
    const pids: Record<string, number | undefined> = { api: server.child.pid, ...(children[1] ? { worker: children[1].pid } : {}) };
    const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, rssMb(pid)]));
    const stopWatch = rssWatch(pids);
    // A request's view while the analysis runs: the analyses list every 100 ms; its longest answer.
    const u0 = performance.now();
    const probe = { max: 0, at: 0, stop: false, n: 0 };
    const probing = (async () => {
      while (!probe.stop) {
        const p0 = performance.now();
        await api('GET', '/api/custom-analysis/?page=1&page_size=10', token).catch(() => undefined);
        const took = performance.now() - p0;
        if (took > probe.max) Object.assign(probe, { max: took, at: p0 - u0 });
        probe.n++;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const fields: Array<[string, string]> = [
      ['name', `bench ${ROWS}`],
      ['require_farm_recognition', 'true'],
      ['operational_areas', JSON.stringify(areaIds)],
    ];
    const res = await uploadFile(server.base, token, fields, upload.file, upload.name);
    const uploadMs = performance.now() - u0;
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
    const id = res.body.data.id as string;
    process.stdout.write(`  upload → 201 (streamed to disk, parsed and staged in a stream, source stored): ${secs(uploadMs)} s\n`);
    let d: any;
    let lastProgress = -1;
    for (;;) {
      d = (await api('GET', `/api/custom-analysis/${id}/`, token)).body?.data;
      if (d && (d.status === 'completed' || d.status === 'failed')) break;
      if (args.includes('--verbose') && d?.progress !== lastProgress) {
        lastProgress = d?.progress;
        process.stdout.write(`    ${secs(performance.now() - u0)} s: ${d?.status} ${d?.progress}%\n`);
      }
      if (performance.now() - u0 > 1_800_000) throw new Error('not settled in 30 min');
      await new Promise((r) => setTimeout(r, 250));
    }
    const total = performance.now() - u0;
    probe.stop = true;
    await probing;
    const mem = stopWatch();
    process.stdout.write(
      `  analysis ${d.status} ${d.failure_reason ? `(${d.failure_reason}) ` : ''}${secs(total)} s upload to completed, ${Math.round(ROWS / (total / 1000))} rows/s\n`,
    );
    process.stdout.write(
      `  result: within ${d.within_operational_area?.count}, outside ${d.outside_operational_area?.count}, errors ${d.errors?.count}, overlapping ${d.overlapping_farmlands?.count}, unrecognized ${d.unrecognized_farmlands?.count ?? '?'}, total ${d.total_uploaded_data_count ?? '?'}\n`,
    );
    for (const [k, m] of Object.entries(mem))
      process.stdout.write(
        `  ${k} process: RSS ${before[k]!.toFixed(0)} MB before, peak ${m.peak.toFixed(0)} MB during the analysis (sampled every 100 ms), VmHWM ${m.hwm.toFixed(0)} MB over the process's life\n`,
      );
    process.stdout.write(
      `  longest answer of a concurrent GET /custom-analysis/ (every 100 ms, ${probe.n} requests): ${probe.max.toFixed(0)} ms, sent ${secs(probe.at)} s after the upload began\n`,
    );
    const finished = [...lines['worker']!, ...lines['api']!]
      .map((l) => {
        try {
          return JSON.parse(l) as { msg?: string; phases?: Record<string, { ms: number; statements: number; longestStatementMs: number }> };
        } catch {
          return {};
        }
      })
      .find((l) => l.msg === 'custom analysis finished');
    if (finished?.phases)
      process.stdout.write(
        `  job phases: ${Object.entries(finished.phases)
          .map(([k, v]) => `${k} ${secs(v.ms)} s (${v.statements} statements, longest ${v.longestStatementMs} ms)`)
          .join(', ')}\n`,
      );
    const m = Object.values(mem);
    return {
      kind: `${kind} http${FORMAT !== 'csv' ? ` ${FORMAT}` : ''}`,
      seconds: total / 1000,
      rssMb: m[0]!.peak,
      workerMb: m[1]?.peak ?? null,
      probeMs: probe.max,
    };
  } finally {
    await closeAdmin().catch(() => undefined);
    for (const c of children.reverse()) {
      if (c.exitCode === null) {
        c.kill('SIGTERM');
        await Promise.race([new Promise((r) => c.once('exit', r)), new Promise((r) => setTimeout(r, 15_000))]);
        if (c.exitCode === null) c.kill('SIGKILL');
      }
    }
    if (root) {
      await root.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      await root.end();
    }
    fs.rmSync(work, { recursive: true, force: true });
  }
}
