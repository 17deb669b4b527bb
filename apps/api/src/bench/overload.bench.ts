// `npm run bench:overload -- [--route /api/farms/?page=1&page_size=10] [--connections 20] [--factor 3] [--seconds 30]
// [--port 3450] [--data-from DIR] [--cpu-prof DIR]` (issue 32): the overload target. "Under an overload test (open loop at 3× capacity for 30 s), health
// stays under 100 ms, shed requests get 503 with Retry-After, and the server recovers to normal latency within 10 s of
// the load ending." The built server as `npm start` runs it (embedded PGlite on a fresh data directory, demo data, the
// default load-shedding settings unless LOAD_SHED_* are set in the environment), the demo tenant admin signed in; then:
// 1. capacity: `connections` clients in a closed loop on the route for 5 s (after a 1 s warm-up): req/s and latency;
// 2. overload: an open loop (requests sent on a fixed schedule whatever the answers) at `factor` × capacity for
//    `seconds`, while /api/health is asked every 250 ms on a connection of its own; every answer is counted by status,
//    each 503 checked for Retry-After;
// 3. recovery: from the moment the load stops, the route is asked once every 250 ms, one request at a time, until three
//    answers in a row are within normal latency (at most the capacity phase's p95, and at least 2 × its p50): the time
//    from the end of the load to the first of those three.
// --data-from DIR: start from a copy of a seeded data directory (a warm start) instead of an empty one.
// --cpu-prof DIR: the server runs with node --cpu-prof and writes its profiles (main thread, database worker) there.
// Latencies are measured by the client over loopback; the server's own figures for the same window (main thread) are
// printed too: health answers by its request histogram (/api/metrics), and the longest event-loop block (/api/health),
// which tell a slow server from a machine too loaded to schedule it. Not run in CI (it needs the machine to itself to mean much).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { load, percentile, root, signInEnrolling, startServer, stopServer } from './http.js';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1]!.startsWith('--') ? args[i + 1]! : dflt;
};
const ROUTE = arg('route', '/api/farms/?page=1&page_size=10');
const CONNECTIONS = Number(arg('connections', '20'));
const FACTOR = Number(arg('factor', '3'));
const SECONDS = Number(arg('seconds', '30'));
const PORT = Number(arg('port', '3450'));
/** At most this many requests of the open loop in flight; past it a scheduled request is counted as not sent. */
const MAX_OUTSTANDING = Number(arg('max-outstanding', '4000'));
/** A request of the open loop that has no answer after this long is counted as timed out. */
const TIMEOUT_MS = 30_000;

type Answer = { status: number; ms: number; retryAfter: string | null };

function get(agent: http.Agent, route: string, token: string | null): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port: PORT, path: route, agent, timeout: TIMEOUT_MS, headers: token ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, retryAfter: res.headers['retry-after'] ?? null }));
        res.on('error', () => resolve({ status: -1, ms: performance.now() - t0, retryAfter: null }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve({ status: err.message === 'timeout' ? -2 : -1, ms: performance.now() - t0, retryAfter: null }));
  });
}

/** The server's own count of /api/health answers, and of those within 100 ms (its request histogram). */
async function healthHistogram(base: string): Promise<{ total: number; within100: number }> {
  const text = await (await fetch(`${base}/api/metrics`)).text();
  const value = (line: string | undefined) => Number(line?.split(' ').pop() ?? 0);
  const health = text.split('\n').filter((l) => l.includes('route="/api/health"') && l.includes('status_code="200"'));
  return {
    total: value(health.find((l) => l.startsWith('http_request_duration_seconds_count'))),
    within100: value(health.find((l) => l.startsWith('http_request_duration_seconds_bucket') && l.includes('le="0.1"'))),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f1 = (n: number) => n.toFixed(1);
const loadavg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** `rate` requests a second on a fixed schedule for `seconds`, whatever the answers; health asked every 250 ms meanwhile. */
async function openLoop(token: string, rate: number, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const healthAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const answers: Answer[] = [];
  const health: Answer[] = [];
  let outstanding = 0;
  let notSent = 0;
  let sent = 0;
  const inFlight: Promise<void>[] = [];
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const probes = (async () => {
    for (let next = t0; next < end; next += 250) {
      await sleep(Math.max(0, next - performance.now()));
      health.push(await get(healthAgent, '/api/health', null));
    }
  })();
  while (performance.now() < end) {
    const due = Math.floor(((performance.now() - t0) / 1000) * rate);
    for (; sent < due; sent++) {
      if (outstanding >= MAX_OUTSTANDING) {
        notSent++;
        continue;
      }
      outstanding++;
      inFlight.push(
        get(agent, ROUTE, token).then((a) => {
          outstanding--;
          answers.push(a);
        }),
      );
    }
    await sleep(5);
  }
  // The recovery is timed from here: the health probes still running (one may wait long) are awaited at the end.
  const loadEnded = performance.now();
  return {
    loadEnded,
    settle: async () => {
      await probes;
      await Promise.all(inFlight);
      agent.destroy();
      healthAgent.destroy();
    },
    answers,
    health,
    notSent,
    sent,
  };
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, 'apps/api/dist/server.js'))) throw new Error('run npm run build first');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-overload-'));
  const from = arg('data-from', '');
  if (from) fs.cpSync(from, dataDir, { recursive: true });
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
  };
  const prof = arg('cpu-prof', '');
  const server = await startServer(env, { timeoutMs: 240_000, execArgv: prof ? ['--cpu-prof', '--cpu-prof-dir', prof] : [] });
  try {
    const token = await signInEnrolling(server.base, 'admin@oyo-agro.example');
    const shedding = Object.entries(process.env)
      .filter(([k]) => k.startsWith('LOAD_SHED_'))
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    console.log(`embedded (PGlite), demo data, tenant admin, ${ROUTE}; load shedding: ${shedding || 'defaults'}; load average ${loadavg()}`);

    // 1. Capacity: a closed loop.
    const cap = await load(PORT, server.child.pid!, ROUTE, token, CONNECTIONS, 5);
    console.log(
      `capacity (closed loop, ${CONNECTIONS} connections, 5 s): ${cap.rps.toFixed(0)} req/s, p50 ${f1(cap.p50)} ms, p95 ${f1(cap.p95)} ms${cap.errors ? `, ${cap.errors} non-200` : ''}`,
    );
    // Sequential latency at rest: what "normal" is for one request at a time (the recovery probe's own kind).
    const restAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const rest: number[] = [];
    for (let i = 0; i < 20; i++) rest.push((await get(restAgent, ROUTE, token)).ms);
    const normal = Math.max(percentile(rest, 95), 2 * percentile(rest, 50));
    console.log(
      `at rest, one at a time: p50 ${f1(percentile(rest, 50))} ms, p95 ${f1(percentile(rest, 95))} ms; "normal" for the recovery: <= ${f1(normal)} ms`,
    );

    // 2. Overload: an open loop.
    const rate = Math.max(1, Math.round(cap.rps * FACTOR));
    console.log(`overload: open loop at ${rate} req/s (${FACTOR} x capacity) for ${SECONDS} s, /api/health every 250 ms ...`);
    const histBefore = await healthHistogram(server.base);
    const over = await openLoop(token, rate, SECONDS);

    // 3. Recovery: one request at a time every 250 ms from the end of the load.
    const recovery: Array<{ at: number; ms: number; status: number }> = [];
    let recoveredAt: number | null = null;
    for (let next = over.loadEnded; performance.now() - over.loadEnded < 60_000; next += 250) {
      await sleep(Math.max(0, next - performance.now()));
      const a = await get(restAgent, ROUTE, token);
      recovery.push({ at: performance.now() - a.ms - over.loadEnded, ms: a.ms, status: a.status });
      const last3 = recovery.slice(-3);
      if (last3.length === 3 && last3.every((r) => r.status === 200 && r.ms <= normal)) {
        recoveredAt = last3[0]!.at;
        break;
      }
    }
    await over.settle();
    restAgent.destroy();
    const histAfter = await healthHistogram(server.base);
    const loopMax = ((await (await fetch(`${server.base}/api/health`)).json()) as { event_loop_max_ms?: number }).event_loop_max_ms;

    const by = new Map<number, number>();
    for (const a of over.answers) by.set(a.status, (by.get(a.status) ?? 0) + 1);
    const ok = over.answers.filter((a) => a.status === 200).map((a) => a.ms);
    const shed = over.answers.filter((a) => a.status === 503);
    const shedWithRetry = shed.filter((a) => a.retryAfter !== null && Number(a.retryAfter) > 0).length;
    const name = (s: number) => (s === -1 ? 'connection error' : s === -2 ? `timeout (${TIMEOUT_MS / 1000} s)` : String(s));
    console.log(
      `  sent ${over.sent} (${over.notSent} not sent: ${MAX_OUTSTANDING} already in flight); answers: ${[...by]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${name(s)}: ${n}`)
        .join(', ')}`,
    );
    console.log(`  200s: p50 ${f1(percentile(ok, 50))} ms, p95 ${f1(percentile(ok, 95))} ms, max ${f1(Math.max(0, ...ok))} ms`);
    console.log(`  503s: ${shed.length}, with Retry-After: ${shedWithRetry}${shed.length ? ` (${shed[0]!.retryAfter ?? 'none'} s)` : ''}`);
    const h = over.health.map((a) => a.ms);
    const slowHealth = over.health.filter((a) => a.ms >= 100 || a.status !== 200).length;
    console.log(
      `  health during the load: ${over.health.length} probes, p50 ${f1(percentile(h, 50))} ms, p95 ${f1(percentile(h, 95))} ms, max ${f1(Math.max(0, ...h))} ms; ` +
        `${slowHealth} at or over 100 ms or not 200 (target: none)`,
    );
    const served = histAfter.total - histBefore.total;
    console.log(
      `  server side (main thread): ${histAfter.within100 - histBefore.within100} of ${served} health answers within 100 ms from request to response; ` +
        `longest event-loop block of the last minute ${loopMax ?? '?'} ms`,
    );
    const firstAfter = recovery[0];
    console.log(
      `recovery: ${recoveredAt === null ? 'not within 60 s' : `${(recoveredAt / 1000).toFixed(1)} s after the load ended`} (target: <= 10 s); ` +
        `first probe after the load: ${firstAfter ? `${f1(firstAfter.ms)} ms (${name(firstAfter.status)})` : 'none'}; ${recovery.length} probes`,
    );
    const targets = [slowHealth === 0, shed.length === shedWithRetry, recoveredAt !== null && recoveredAt <= 10_000];
    console.log(
      `targets: health < 100 ms ${targets[0] ? 'met' : 'missed'}; shed answers with Retry-After ${targets[1] ? 'met' : 'missed'}${shed.length ? '' : ' (none shed)'}; recovery <= 10 s ${targets[2] ? 'met' : 'missed'}; load average after ${loadavg()}`,
    );
  } finally {
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
