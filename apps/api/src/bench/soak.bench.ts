// `npm run soak -- [--minutes 30 | --seconds 60] [--rate 2x | --rps 40] [--port 3395] [--max-growth 20]`
// A mixed workload against the built server on a fresh embedded database (as `npm start` runs it), at a steady
// arrival rate, as two tenants' admins: 65 % lists of every kind, 15 % farmer creations, 10 % password sign-ins
// (argon2id), 7.5 % profile reads, 2.5 % small analyses (tokens are refreshed every 5 minutes, as a console does). It prints per kind the count, p50/p95/p99 and the 5xx, the server's RSS after the warm-up (the first
// 10 % of the run, at least 10 s) and at the end, and the longest event-loop block the server reported.
// Exit code 1 on any 5xx, a request that failed without an answer, or RSS growth above --max-growth % (CI runs 60 s).
// The base rate (1x) is 20 requests/s: a large cooperative's busy hour (about 200 agents syncing and 20 admins at
// their lists), written down in docs/decisions/0009-hardening.md; --rate 2x is 40/s.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiAt, percentile, rssMb, signInSession, startServer, stopServer, DEMO_PASSWORD } from './http.js';

const args = process.argv.slice(2);
const arg = (name: string): string | null => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1]!.startsWith('--') ? args[i + 1]! : null;
};
const BASE_RATE = 20;
const seconds = arg('seconds') ? Number(arg('seconds')) : Number(arg('minutes') ?? '30') * 60;
const rateArg = arg('rate');
const rps = arg('rps') ? Number(arg('rps')) : rateArg ? Number(rateArg.replace(/x$/, '')) * BASE_RATE : 2 * BASE_RATE;
const PORT = Number(arg('port') ?? '3395');
const MAX_GROWTH = Number(arg('max-growth') ?? '20');
if (!(seconds > 0) || !(rps > 0)) {
  process.stderr.write('Usage: npm run soak -- [--minutes M | --seconds S] [--rate Nx | --rps R]\n');
  process.exit(2);
}

type Kind = 'list' | 'write' | 'analysis' | 'sign-in' | 'profile';
type Sample = { kind: Kind; ms: number; status: number };

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farmland-soak-'));
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
  delete env['DATABASE_URL'];
  const server = await startServer(env, { timeoutMs: 300_000 });
  const pid = server.child.pid;
  const api = apiAt(server.base);
  console.log(`soak: server ready in ${(server.readyMs / 1000).toFixed(1)} s (pid ${pid}), ${seconds} s at ${rps} requests/s`);
  try {
    const sessions = { A: await signInSession(server.base, 'admin@oyo-agro.example'), B: await signInSession(server.base, 'admin@greenharvest.example') };
    const tokens = { A: sessions.A.access, B: sessions.B.access };
    // Access tokens live 15 minutes: refresh both every 5, as the console does on its next call after expiry.
    const refresher = setInterval(() => {
      for (const who of ['A', 'B'] as const) {
        void api('POST', '/api/auth/token/refresh/', null, { refresh: sessions[who].refresh })
          .then((r) => {
            if (r.status !== 200) throw new Error(`refresh answered ${r.status}`);
            sessions[who] = { ...sessions[who], access: r.body.data.access, refresh: r.body.data.refresh };
            tokens[who] = r.body.data.access;
          })
          .catch((err: unknown) => console.error(`soak: token refresh failed: ${String(err)}`));
      }
    }, 300_000);
    const areas = (await api('GET', '/api/operational-areas/?page=1&page_size=5', tokens.A)).body.data.results as Array<{
      id: string;
      coordinates: number[][];
    }>;
    const area = areas[0]!;
    const [x0, y0] = area.coordinates[0]!;
    const lists = [
      '/api/farms/?page=1&page_size=10',
      '/api/farmers/?page=1&page_size=10',
      '/api/accounts/agents/?page=1&page_size=10',
      '/api/operational-areas/?page=1&page_size=10',
      '/api/activity-logs/?page=1&page_size=10',
      '/api/custom-analysis/?page=1&page_size=10',
      '/api/analytics/',
    ];
    let n = 0;
    const op = async (): Promise<{ kind: Kind; status: number }> => {
      const i = n++;
      const r = i % 20;
      const who = i % 2 === 0 ? 'A' : 'B';
      if (r < 13) return { kind: 'list', status: (await api('GET', lists[i % lists.length]!, tokens[who])).status };
      if (r < 16) {
        const res = await api('POST', '/api/farmers/', tokens[who], { first_name: 'Soak', last_name: `Farmer ${i}`, folio_id: `soak-${i}` });
        return { kind: 'write', status: res.status };
      }
      if (r === 16 && i % 40 === 16) {
        const d = 0.0005 + (i % 50) * 0.0001;
        const square = [
          [x0! + d, y0! + d],
          [x0! + d + 0.0004, y0! + d],
          [x0! + d + 0.0004, y0! + d + 0.0004],
          [x0! + d, y0! + d + 0.0004],
        ];
        const res = await api('POST', '/api/custom-analysis/', tokens.A, {
          name: `Soak ${i}`,
          operational_areas: [area.id],
          locations: [{ farm_name: 'S', farm_coordinates: square }],
        });
        return { kind: 'analysis', status: res.status };
      }
      if (r < 19 && r !== 16) {
        // The password step of a sign-in (argon2id), answered with a two-factor challenge.
        const res = await api('POST', '/api/auth/login/', null, {
          email: who === 'A' ? 'admin@oyo-agro.example' : 'admin@greenharvest.example',
          password: DEMO_PASSWORD,
        });
        return { kind: 'sign-in', status: res.status };
      }
      return { kind: 'profile', status: (await api('GET', `/api/accounts/users/${sessions[who].userId}/`, tokens[who])).status };
    };

    const samples: Sample[] = [];
    let failures = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    let loopMax = 0;
    const warmupMs = Math.max(10_000, seconds * 100);
    let rssAfterWarmup = 0;
    let rssMax = 0;
    const t0 = Date.now();
    const pending: Array<Promise<void>> = [];
    const health = setInterval(() => {
      rssMax = Math.max(rssMax, rssMb(pid));
      void api('GET', '/api/health', null)
        .then((h) => void (Date.now() - t0 > warmupMs && (loopMax = Math.max(loopMax, Number(h.body?.event_loop_max_ms ?? 0)))))
        .catch(() => undefined);
    }, 5_000);
    // Open loop: requests start on schedule whatever the answers' pace (a slow server queues, as it would in life).
    for (let k = 0; Date.now() - t0 < seconds * 1000; k++) {
      const due = t0 + (k * 1000) / rps;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (!rssAfterWarmup && Date.now() - t0 >= warmupMs) rssAfterWarmup = rssMb(pid);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const started = performance.now();
      pending.push(
        op()
          .then(({ kind, status }) => void samples.push({ kind, status, ms: performance.now() - started }))
          .catch(() => void failures++)
          .finally(() => void inFlight--),
      );
    }
    await Promise.all(pending);
    clearInterval(health);
    clearInterval(refresher);
    const rssEnd = rssMb(pid);
    rssMax = Math.max(rssMax, rssEnd);
    const elapsed = (Date.now() - t0) / 1000;

    const kinds: Kind[] = ['list', 'write', 'analysis', 'sign-in', 'profile'];
    console.log(
      `\n${samples.length} answers in ${elapsed.toFixed(1)} s (${(samples.length / elapsed).toFixed(1)}/s), at most ${maxInFlight} in flight, ${failures} without an answer`,
    );
    console.log('kind        count   p50 ms   p95 ms   p99 ms   4xx   5xx');
    for (const kind of kinds) {
      const s = samples.filter((x) => x.kind === kind);
      const ms = s.map((x) => x.ms);
      const c4 = s.filter((x) => x.status >= 400 && x.status < 500).length;
      const c5 = s.filter((x) => x.status >= 500).length;
      console.log(
        `${kind.padEnd(10)} ${String(s.length).padStart(6)} ${percentile(ms, 50).toFixed(0).padStart(8)} ${percentile(ms, 95).toFixed(0).padStart(8)} ${percentile(ms, 99).toFixed(0).padStart(8)} ${String(c4).padStart(5)} ${String(c5).padStart(5)}`,
      );
    }
    const all = samples.map((x) => x.ms);
    const fives = samples.filter((x) => x.status >= 500).length;
    const unexpected = samples.filter((x) => x.status >= 400 && x.status < 500);
    const growth = rssAfterWarmup > 0 ? ((rssEnd - rssAfterWarmup) / rssAfterWarmup) * 100 : 0;
    console.log(`all        p50 ${percentile(all, 50).toFixed(0)} ms, p95 ${percentile(all, 95).toFixed(0)} ms, p99 ${percentile(all, 99).toFixed(0)} ms`);
    console.log(
      `server RSS: ${rssAfterWarmup.toFixed(0)} MB after the warm-up, ${rssEnd.toFixed(0)} MB at the end (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} %), peak ${rssMax.toFixed(0)} MB`,
    );
    console.log(`longest event-loop block the server reported after the warm-up: ${loopMax.toFixed(0)} ms`);
    if (unexpected.length > 0) console.log(`4xx answers: ${[...new Set(unexpected.map((x) => `${x.kind} ${x.status}`))].join(', ')}`);
    const problems = [
      ...(fives > 0 ? [`${fives} answers were 5xx`] : []),
      ...(failures > 0 ? [`${failures} requests got no answer`] : []),
      ...(unexpected.length > 0 ? [`${unexpected.length} answers were 4xx`] : []),
      ...(growth > MAX_GROWTH ? [`RSS grew ${growth.toFixed(1)} % (limit ${MAX_GROWTH} %)`] : []),
    ];
    console.log(problems.length === 0 ? 'soak: passed' : `soak: FAILED: ${problems.join('; ')}`);
    process.exitCode = problems.length === 0 ? 0 : 1;
  } finally {
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
