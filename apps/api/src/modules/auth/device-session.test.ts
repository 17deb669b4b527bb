// Device sessions (issue 31, the field app): an agent signs in once per device with device: true and the session
// survives days offline (DEVICE_SESSION_IDLE_DAYS) up to DEVICE_SESSION_TTL_DAYS; other roles cannot ask for one; a
// suspended or reset agent's next refresh fails with a code the app can show.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateTotp } from '../../lib/totp.js';
import { makeUser, nextCode, PASSWORD, signInEnrolling } from '../../test/fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

const DAY = 86_400;
const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const maxAgeOf = (cookie: unknown) => Number(/Max-Age=(\d+)/.exec(String(cookie))?.[1]);
/** Makes a refresh token look issued `days` ago (the idle limit is measured from it). */
const ageToken = (token: string, days: number) =>
  env.sql(sql`UPDATE refresh_tokens SET created_at = now() - make_interval(days => ${days}) WHERE token_hash = ${hashOf(token)}`);
const refresh = (token: string) => env.as('anonymous').post('/api/auth/token/refresh/', { refresh: token });

/** An agent enrolled and signed in on a device: password, enrolment, then a second sign-in with device: true. */
async function deviceSignIn() {
  const { email, id } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'agent' });
  const { secret } = await signInEnrolling(env, email);
  const anon = env.as('anonymous');
  const login = await anon.post('/api/auth/login/', { email, password: PASSWORD });
  const res = await anon.post('/api/auth/login/confirm', { ...login.body.data, code: nextCode(secret), device: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id, email, secret, res };
}

describe('device sign-in', () => {
  it('gives an agent a device session of DEVICE_SESSION_TTL_DAYS, with a refresh cookie as long', async () => {
    const { id, res } = await deviceSignIn();
    expect(res.body.data.device).toBe(true);
    const ttl = env.config.jwt.deviceTtl;
    expect(ttl).toBe(30 * DAY);
    const until = Date.parse(res.body.data.session_expires_at);
    expect(Math.abs(until - (Date.now() + ttl * 1000))).toBeLessThan(120_000);
    expect(Math.abs(maxAgeOf(res.headers['set-cookie']) - ttl)).toBeLessThan(120);
    const rows = await env.sql<{ device: boolean; days: number }>(
      sql`SELECT device, round(extract(epoch FROM expires_at - created_at) / 86400)::int AS days FROM sessions WHERE user_id = ${id} ORDER BY created_at`,
    );
    expect(rows).toEqual([
      { device: false, days: 14 },
      { device: true, days: 30 },
    ]);
  });

  it('also on the enrolment step (confirm-mfa), and the console sign-in stays as it was', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'agent' });
    const anon = env.as('anonymous');
    const login = await anon.post('/api/auth/login/', { email, password: PASSWORD });
    const setup = await anon.post('/api/auth/setup-mfa/', login.body.data);
    const res = await anon.post('/api/auth/confirm-mfa/', { ...login.body.data, code: generateTotp(setup.body.data.secret), device: true });
    expect(res.status).toBe(200);
    expect(res.body.data.device).toBe(true);
    const { session, cookie } = await signInEnrolling(env, (await makeUser(env, { tenantId: env.fx.tenantA, role: 'agent' })).email);
    expect(session.device).toBe(false);
    expect(maxAgeOf(cookie)).toBe(env.config.jwt.refreshTtl);
  });

  it('survives days offline: a device refresh token 5 days old still refreshes; a console one is idle after 30 minutes', async () => {
    const { res } = await deviceSignIn();
    await ageToken(res.body.data.refresh, 5);
    const ok = await refresh(res.body.data.refresh);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // The renewed cookie lives as long as the session has left (about 30 days).
    expect(Math.abs(maxAgeOf(ok.headers['set-cookie']) - 30 * DAY)).toBeLessThan(120);
    // Past DEVICE_SESSION_IDLE_DAYS without a refresh, the device session ends.
    await ageToken(ok.body.data.refresh, 15);
    const idle = await refresh(ok.body.data.refresh);
    expect([idle.status, idle.body.code]).toEqual([401, 'refresh_token_invalid']);

    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'agent' });
    const consoleSession = (await signInEnrolling(env, email)).session;
    await ageToken(consoleSession.refresh, 1);
    const consoleIdle = await refresh(consoleSession.refresh);
    expect([consoleIdle.status, consoleIdle.body.code]).toEqual([401, 'refresh_token_invalid']);
  });

  it('ends at DEVICE_SESSION_TTL_DAYS even when refreshed every day', async () => {
    const { id, res } = await deviceSignIn();
    await env.sql(sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = ${id} AND device`);
    const late = await refresh(res.body.data.refresh);
    expect([late.status, late.body.code]).toEqual([401, 'refresh_token_invalid']);
  });

  it('refuses device: true for a tenant admin with a 400 on device, and the same challenge still signs in without it', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const { secret } = await signInEnrolling(env, email);
    const anon = env.as('anonymous');
    const login = await anon.post('/api/auth/login/', { email, password: PASSWORD });
    const code = nextCode(secret);
    const refused = await anon.post('/api/auth/login/confirm', { ...login.body.data, code, device: true });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.device[0]).toMatch(/field agents/);
    const ok = await anon.post('/api/auth/login/confirm', { ...login.body.data, code });
    expect(ok.status).toBe(200);
    expect(ok.body.data.device).toBe(false);
    const bad = await anon.post('/api/auth/login/confirm', { ...login.body.data, code, device: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.device[0]).toBeTruthy();
  });
});

describe('a device session ended by the tenant admin', () => {
  it("answers a suspended agent's refresh with 403 account_suspended (and the access token too)", async () => {
    const { id, res } = await deviceSignIn();
    const s = await env.as('adminA').put(`/api/accounts/agents/${id}/suspend`, {});
    expect(s.status).toBe(200);
    const r = await refresh(res.body.data.refresh);
    expect([r.status, r.body.code]).toEqual([403, 'account_suspended']);
    const call = await env.as('anonymous').get('/api/field/areas/', { authorization: `Bearer ${res.body.data.access}` });
    expect(call.status).toBeGreaterThanOrEqual(401);
    expect(call.body.code).toMatch(/account_suspended|not_authenticated/);
  });

  it("answers a reset agent's refresh with 401 session_revoked", async () => {
    const { id, res } = await deviceSignIn();
    expect((await env.as('adminA').put(`/api/accounts/users/${id}/reset`, {})).status).toBe(200);
    const r = await refresh(res.body.data.refresh);
    expect([r.status, r.body.code]).toEqual([401, 'session_revoked']);
  });

  it("cannot be ended by another tenant's admin", async () => {
    const { id, res } = await deviceSignIn();
    expect((await env.as('adminB').put(`/api/accounts/agents/${id}/suspend`, {})).status).toBe(404);
    expect((await refresh(res.body.data.refresh)).status).toBe(200);
  });
});
