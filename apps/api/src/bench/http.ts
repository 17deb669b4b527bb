// What the HTTP benchmarks share: start the built server (as `npm start` runs it), read a process's RSS from /proc,
// call the API, and sign in with two-factor enrolment on a fresh database.
/* eslint-disable @typescript-eslint/no-explicit-any -- benchmarks read the API's JSON untyped, as any client would */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';

export const root = path.resolve(import.meta.dirname, '../../../..');
export const DEMO_PASSWORD = 'Farmland#2026';

export type Server = { child: ChildProcess; env: NodeJS.ProcessEnv; base: string; readyMs: number };

/** Starts apps/api/dist/server.js with env and waits for /api/health; onLine sees each line the server writes. */
export async function startServer(env: NodeJS.ProcessEnv, opts: { timeoutMs?: number; onLine?: (line: string) => void; execArgv?: string[] } = {}): Promise<Server> {
  const base = `http://127.0.0.1:${env['PORT']}`;
  const child = spawn(process.execPath, [...(opts.execArgv ?? []), path.join(root, 'apps/api/dist/server.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
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
    if (Date.now() - t0 > (opts.timeoutMs ?? 120_000)) throw new Error(`server not healthy in ${(opts.timeoutMs ?? 120_000) / 1000} s`);
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
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined && !isBuf ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: isBuf ? (body as Buffer) : JSON.stringify(body) } : {}),
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

/** p-th percentile of a list of numbers (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
