// What the HTTP benchmarks share: start the built server (as `npm start` runs it), read a process's RSS from /proc,
// call the API, and sign in with two-factor enrolment on a fresh database.
/* eslint-disable @typescript-eslint/no-explicit-any -- benchmarks read the API's JSON untyped, as any client would */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';

export const root = path.resolve(import.meta.dirname, '../../../..');
export const DEMO_PASSWORD = 'Farmland#2026';

/**
 * The environment a bench starts the built server with: production mode on its own port and data directory, a fresh
 * secret, warnings only, encrypted bodies optional, nothing else of the caller's environment but PATH. `extra` adds or
 * overrides settings.
 */
export function builtServerEnv(port: number, dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'],
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_SECRET: crypto.randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    PAYLOAD_ENCRYPTION: 'optional',
    ...extra,
  };
}

export type Server = { child: ChildProcess; env: NodeJS.ProcessEnv; base: string; readyMs: number };

/** Starts apps/api/dist/server.js with env and waits for /api/health; onLine sees each line the server writes. */
export async function startServer(
  env: NodeJS.ProcessEnv,
  opts: { timeoutMs?: number; onLine?: (line: string) => void; execArgv?: string[] } = {},
): Promise<Server> {
  const base = `http://127.0.0.1:${env['PORT']}`;
  const child = spawn(process.execPath, [...(opts.execArgv ?? []), path.join(root, 'apps/api/dist/server.js')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const l of lines) opts.onLine?.(l);
  });
  const t0 = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not yet
    }
    if (Date.now() - t0 > (opts.timeoutMs ?? 120_000)) {
      // Not left running: it would hold the port (and its data directory) for the next run.
      child.kill('SIGKILL');
      throw new Error(`server not healthy in ${(opts.timeoutMs ?? 120_000) / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, env, base, readyMs: Date.now() - t0 };
}

export async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}

/** A process's resident memory from /proc (VmRSS now, or VmHWM: the peak), in MB; 0 when it has gone. */
export const rssMb = (pid: number | undefined, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number => {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};

export type Answer<T = any> = { status: number; body: T };

export function apiAt(base: string) {
  return async <T = any>(method: string, url: string, token: string | null, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> => {
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
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON (a file, a tile): keep the text
    }
    return { status: res.status, body: parsed as T };
  };
}

/** Signs in with two-factor enrolment (a fresh database has none enrolled); returns the access token. */
export async function signInEnrolling(base: string, email: string, password = DEMO_PASSWORD): Promise<string> {
  return (await signInSession(base, email, password)).access;
}

/** The same, returning the refresh token too (for runs longer than an access token's life). */
export async function signInSession(base: string, email: string, password = DEMO_PASSWORD): Promise<{ access: string; refresh: string; userId: string }> {
  const api = apiAt(base);
  const login = await api('POST', '/api/auth/login/', null, { email, password });
  if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${JSON.stringify(login.body)}`);
  const { mfa_token, user_token } = login.body.data;
  const setup = await api('POST', '/api/auth/setup-mfa/', null, { mfa_token, user_token });
  const code = new TOTP({ secret: Secret.fromBase32(setup.body.data.secret), digits: 6, period: 30 }).generate();
  const confirm = await api('POST', '/api/auth/confirm-mfa/', null, { mfa_token, user_token, code });
  if (confirm.status !== 200) throw new Error(`confirm ${email}: ${confirm.status} ${JSON.stringify(confirm.body)}`);
  return { access: confirm.body.data.access as string, refresh: confirm.body.data.refresh as string, userId: confirm.body.data.user.id as string };
}

export type Load = { route: string; rps: number; p50: number; p95: number; p99: number; errors: number; cpu: Cpu | null };
/**
 * CPU time per request, from /proc (robust to a busy machine, unlike req/s), in ms: the server's main thread, its
 * busiest other thread (the embedded database's), the rest of its threads (GC, compilers); the PostgreSQL server's
 * processes (0 on PGlite); and this load generator itself.
 */
export type Cpu = { main: number; db: number; rest: number; postgres: number; client: number };

/** Each thread's user + system CPU time of process pid, in ms (Linux /proc; empty elsewhere). */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) out.set(tid, statCpuMs(`/proc/${pid}/task/${tid}/stat`));
  } catch {
    // not Linux, or the process has gone
  }
  return out;
}

/** utime + stime of a /proc stat file, in ms (fields 14 and 15, in clock ticks of 10 ms); 0 when it has gone. */
function statCpuMs(file: string): number {
  try {
    const stat = fs.readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** The CPU time of every process named postgres (the server and its backends), by pid, in ms. */
function postgresCpu(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') out.set(pid, statCpuMs(`/proc/${pid}/stat`));
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    // not Linux
  }
  return out;
}

const sumDelta = (before: Map<string, number>, after: Map<string, number>) => [...after].reduce((n, [k, ms]) => n + ms - (before.get(k) ?? 0), 0);

/** The pids of process pid and of its children (the server's cluster workers), from /proc. */
function processTree(pid: number): number[] {
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return [pid, ...children.flatMap(processTree)];
  } catch {
    return [pid];
  }
}

function cpuSnapshot(pid: number) {
  const threads = new Map<string, Map<string, number>>();
  for (const p of processTree(pid)) threads.set(String(p), threadCpu(p));
  const self = process.cpuUsage();
  return { threads, postgres: postgresCpu(), client: (self.user + self.system) / 1000 };
}

function cpuPerRequest(before: ReturnType<typeof cpuSnapshot>, after: ReturnType<typeof cpuSnapshot>, requests: number): Cpu | null {
  if (after.threads.size === 0 || requests === 0) return null;
  let main = 0;
  const others: number[] = [];
  for (const [pid, ts] of after.threads) {
    const b = before.threads.get(pid) ?? new Map<string, number>();
    for (const [tid, ms] of ts) {
      const d = ms - (b.get(tid) ?? 0);
      if (tid === pid) main += d;
      else others.push(d);
    }
  }
  others.sort((a, b) => b - a);
  const db = others[0] ?? 0;
  const rest = others.slice(1).reduce((n, d) => n + d, 0);
  const postgres = sumDelta(before.postgres, after.postgres);
  return { main: main / requests, db: db / requests, rest: rest / requests, postgres: postgres / requests, client: (after.client - before.client) / requests };
}

/** One line of a Cpu for a report. */
export const cpuText = (c: Cpu | null) =>
  c
    ? `cpu/req: main ${c.main.toFixed(2)}, db ${c.db.toFixed(2)}, other ${c.rest.toFixed(2)}, postgres ${c.postgres.toFixed(2)}, client ${c.client.toFixed(2)} ms`
    : '';

/**
 * `connections` clients, each sending its next request when the last answered, for `seconds` after a one-second
 * warm-up; plain keep-alive HTTP (cheaper per request than fetch, so the load generator takes less of the machine).
 */
export async function load(port: number, pid: number, route: string, token: string, connections: number, seconds: number): Promise<Load> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const one = () =>
    new Promise<number>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: route, agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  const run = async (ms: number, record: boolean) => {
    const times: number[] = [];
    let errors = 0;
    const end = performance.now() + ms;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < end) {
          const t0 = performance.now();
          const status = await one();
          if (!record) continue;
          if (status === 200) times.push(performance.now() - t0);
          else errors++;
        }
      }),
    );
    return { times, errors };
  };
  await run(1000, false);
  const cpu0 = cpuSnapshot(pid);
  const t0 = performance.now();
  const { times, errors } = await run(seconds * 1000, true);
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = cpuPerRequest(cpu0, cpuSnapshot(pid), times.length + errors);
  agent.destroy();
  return { route, rps: times.length / elapsed, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), errors, cpu };
}

/** p-th percentile of a list of numbers (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
