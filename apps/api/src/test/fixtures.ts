// Arrange helpers for API tests: throwaway tenants (so a test may suspend or revoke without disturbing others),
// users with a known password, and the full HTTP sign-in with two-factor enrolment.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { uuidArray } from '../db/client.js';
import { sha256 } from '../lib/crypto.js';
import { hashPassword } from '../lib/passwords.js';
import { generateTotp } from '../lib/totp.js';
import type { TestEnv } from './harness.js';

let seq = 0;
const unique = () => `${process.pid}-${Date.now()}-${++seq}`;
export const PASSWORD = 'Correct-Horse-9';
let hashed: Promise<string> | null = null;

export async function makeTenant(env: TestEnv, opts: { license?: 'Platform' | 'SDK'; expired?: boolean; revoked?: boolean } = {}) {
  const name = `Tenant ${unique()}`;
  const key = `KEY-${unique()}`;
  const [t] = await env.sql<{ id: string }>(sql`
    INSERT INTO tenants (name, country_id) VALUES (${name}, '1e7050d0-9e8f-5e82-9ca3-884850256d74') RETURNING id`);
  await env.sql(sql`
    INSERT INTO licenses (tenant_id, type, issued_date, expiry_date, key_hash, key_hint, is_revoked)
    VALUES (${t!.id}, ${opts.license ?? 'Platform'}, current_date - 30, ${opts.expired ? sql`current_date - 1` : sql`current_date + 300`}, ${sha256(key)}, ${key.slice(0, 10)}, ${opts.revoked ?? false})`);
  return { id: t!.id, name, licenseKey: key };
}

export async function makeUser(env: TestEnv, opts: { tenantId: string | null; role: 'super_admin' | 'tenant_admin' | 'agent'; password?: string | null }) {
  hashed ??= hashPassword(PASSWORD);
  const email = `u-${unique()}@test.example`;
  const hash = opts.password === null ? null : opts.password ? await hashPassword(opts.password) : await hashed;
  const [u] = await env.sql<{ id: string }>(sql`
    INSERT INTO users (tenant_id, role, email, password_hash, first_name, last_name)
    VALUES (${opts.tenantId}, ${opts.role}, ${email}, ${hash}, 'Test', 'Person') RETURNING id`);
  return { id: u!.id, email };
}

/** Signs in over HTTP exactly as a new user would: password, enrolment secret, a TOTP computed from it, confirmation. */
export async function signInEnrolling(env: TestEnv, email: string, password = PASSWORD) {
  const anon = env.as('anonymous');
  const login = await anon.post('/api/auth/login/', { email, password });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  expect(login.body.data.mfa_setup_required).toBe(true);
  const { mfa_token, user_token } = login.body.data;
  const setup = await anon.post('/api/auth/setup-mfa/', { mfa_token, user_token });
  expect(setup.status).toBe(200);
  const secret: string = setup.body.data.secret;
  const code = generateTotp(secret);
  const confirm = await anon.post('/api/auth/confirm-mfa/', { mfa_token, user_token, code });
  expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
  return { secret, code, session: confirm.body.data, cookie: String(confirm.headers['set-cookie'] ?? '') };
}

/** A TOTP for the next 30-second step (still inside the ±1 window), so a second sign-in is not a replay. */
export const nextCode = (secret: string, steps = 1) => generateTotp(secret, Date.now() + steps * 30_000);

/**
 * Waits until no verdict sweep is due for these tenants (reference-layers.verdicts.ts): another file of the worker that
 * loaded a layer asks for one, and it stores or changes every farm's verdict of the tenant while it runs.
 */
export async function verdictSweepsDone(env: TestEnv, tenantIds: readonly string[]): Promise<void> {
  await expect
    .poll(
      async () => (await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM farm_verdict_sweeps WHERE tenant_id = ANY(${uuidArray(tenantIds)})`))[0]!.n,
      { timeout: 30_000 },
    )
    .toBe(0);
}
