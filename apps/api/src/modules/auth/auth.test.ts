// Sign-in over HTTP: password, two-factor enrolment and confirmation, one-time codes, token rotation and reuse,
// logout, throttling, admin link, password change and reset, onboarding, and sessions ending on deactivation.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser, nextCode, PASSWORD, signInEnrolling } from '../../test/fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Moves a refresh token's use back in time (the reuse interval is measured from it). */
async function ageRefreshUse(token: string, seconds: number): Promise<void> {
  const hash = crypto.createHash('sha256').update(token).digest('hex');
  await env.sql(sql`UPDATE refresh_tokens SET used_at = used_at - make_interval(secs => ${seconds}) WHERE token_hash = ${hash}`);
}

describe('sign-in with two-factor', () => {
  it('takes a new user through enrolment to a session, then reads the profile', async () => {
    const { email, id } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const { session, cookie } = await signInEnrolling(env, email);
    expect(session.user).toMatchObject({ id, email, roles: ['tenant_admin'], tenant: { id: env.fx.tenantA, uuid: env.fx.tenantA } });
    expect(session.user).not.toHaveProperty('password_hash');
    expect(typeof session.access).toBe('string');
    expect(typeof session.refresh).toBe('string');
    expect(cookie).toMatch(/farmland_refresh=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const profile = await env.as('anonymous').get(`/api/accounts/users/${id}/`, bearer(session.access));
    expect(profile.status).toBe(200);
    expect(profile.body.data).toMatchObject({ id, email, mfa_enabled: true, role: 'tenant_admin' });
  });

  it('issues access tokens that live 15 minutes or less', async () => {
    const { email } = await makeUser(env, { tenantId: null, role: 'super_admin' });
    const { session } = await signInEnrolling(env, email);
    const payload = JSON.parse(Buffer.from(session.access.split('.')[1], 'base64url').toString());
    expect(payload.exp - payload.iat).toBeLessThanOrEqual(900);
    expect(payload.aud).toBe(env.config.jwt.audience);
  });

  it('asks an enrolled user for a code, and refuses a replayed code', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const { secret } = await signInEnrolling(env, email);
    const anon = env.as('anonymous');
    const code = nextCode(secret);

    const first = await anon.post('/api/auth/login/', { email, password: PASSWORD });
    expect(first.body.data).toMatchObject({ mfa_required: true, mfa_setup_required: false });
    const ok = await anon.post('/api/auth/login/confirm', { mfa_token: first.body.data.mfa_token, user_token: first.body.data.user_token, code });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Login successful');

    const second = await anon.post('/api/auth/login/', { email, password: PASSWORD });
    const replay = await anon.post('/api/auth/login/confirm', { mfa_token: second.body.data.mfa_token, user_token: second.body.data.user_token, code });
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe('mfa_code_reused');
    expect(Object.keys(replay.body.errors)[0]).toBe('code');
  });

  it('rejects a wrong code, and ends the attempt after five wrong codes', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const { secret } = await signInEnrolling(env, email);
    const anon = env.as('anonymous');
    const login = await anon.post('/api/auth/login/', { email, password: PASSWORD });
    const { mfa_token, user_token } = login.body.data;
    const right = nextCode(secret);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await anon.post('/api/auth/login/confirm', { mfa_token, user_token, code: wrong });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_mfa_code');
    }
    const late = await anon.post('/api/auth/login/confirm', { mfa_token, user_token, code: right });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('invalid_mfa_token');
  });

  it('counts wrong codes across challenges: a new password sign-in does not reset them, and 100 guesses take over an hour', async () => {
    const { email, id } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const { secret } = await signInEnrolling(env, email);
    const anon = env.as('anonymous');
    const right = nextCode(secret);
    const wrong = right === '000000' ? '111111' : '000000';
    const challenge = async () =>
      (await anon.request({ method: 'POST', url: '/api/auth/login/', payload: { email, password: PASSWORD }, remoteAddress: '10.9.9.9' })).body.data;
    // The lock still to wait, then time travel past it (the throttle's clock is the database's).
    const waitLeft = async () => {
      const rows = await env.sql<{ s: number }>(sql`
        SELECT coalesce(max(extract(epoch FROM locked_until - now())), 0)::float8 AS s FROM auth_throttle
         WHERE key IN (${`code-acct:${id}`}, ${`code-acct-ip:${id}|10.9.9.9`}) AND locked_until > now()`);
      await env.sql(
        sql`UPDATE auth_throttle SET locked_until = now() - interval '1 second' WHERE key IN (${`code-acct:${id}`}, ${`code-acct-ip:${id}|10.9.9.9`})`,
      );
      return rows[0]?.s ?? 0;
    };
    let guesses = 0;
    let waited = 0;
    let sawRetryAfter = false;
    let c = await challenge();
    let onChallenge = 0;
    while (guesses < 100) {
      if (onChallenge === 5) {
        c = await challenge();
        onChallenge = 0;
      }
      const r = await anon.request({
        method: 'POST',
        url: '/api/auth/login/confirm',
        payload: { mfa_token: c.mfa_token, user_token: c.user_token, code: wrong },
        remoteAddress: '10.9.9.9',
      });
      if (r.status === 429) {
        expect(r.body.code).toBe('too_many_attempts');
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
        sawRetryAfter = true;
        waited += await waitLeft();
        continue;
      }
      expect(r.status).toBe(400);
      guesses++;
      onChallenge++;
    }
    expect(sawRetryAfter).toBe(true);
    expect(waited, `100 wrong codes took only ${Math.round(waited)} s of forced waiting`).toBeGreaterThan(3600);
    // The activity log says when the account started being slowed down.
    const log = await env.sql<{ description: string }>(
      sql`SELECT description FROM activity_logs WHERE user_id = ${id} AND description LIKE '%wrong two-factor codes%'`,
    );
    expect(log).toHaveLength(1);
    // A right code still works once the lock has passed, and clears the count.
    await waitLeft();
    const fresh = await challenge();
    const ok = await anon.request({
      method: 'POST',
      url: '/api/auth/login/confirm',
      payload: { mfa_token: fresh.mfa_token, user_token: fresh.user_token, code: right },
      remoteAddress: '10.9.9.9',
    });
    expect(ok.status).toBe(200);
    expect(await env.sql(sql`SELECT 1 FROM auth_throttle WHERE key = ${`code-acct:${id}`}`)).toHaveLength(0);
  });

  it('answers the same 401 for an unknown email and a wrong password', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'agent' });
    const a = await env.as('anonymous').post('/api/auth/login/', { email, password: 'wrong-password' });
    const b = await env.as('anonymous').post('/api/auth/login/', { email: `nobody-${Date.now()}@test.example`, password: 'wrong-password' });
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(a.body).toEqual(b.body);
  });

  it('throttles repeated failures for an account from one address, and the lock ends', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'agent' });
    const anon = env.as('anonymous');
    const from = (password: string) => anon.request({ method: 'POST', url: '/api/auth/login/', payload: { email, password }, remoteAddress: '127.0.0.1' });
    for (let i = 0; i < 5; i++) expect((await from('wrong-password')).status).toBe(401);
    const locked = await from(PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('too_many_attempts');
    const [row] = await env.sql<{ locked_until: string }>(sql`SELECT locked_until FROM auth_throttle WHERE key = ${`acct-ip:${email}|127.0.0.1`}`);
    const seconds = (new Date(row!.locked_until).getTime() - Date.now()) / 1000;
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(15 * 60);
    // Time passes: the lock is over, and the right password works again.
    await env.sql(sql`UPDATE auth_throttle SET locked_until = now() - interval '1 second' WHERE key LIKE ${`%${email}%`}`);
    expect((await from(PASSWORD)).status).toBe(200);
  });

  it('does not let failures from other addresses lock the account out', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'agent' });
    const anon = env.as('anonymous');
    // Ten failures, each from a different address: the per-account+address rule never trips, the account rule needs 50.
    for (let i = 0; i < 10; i++) await anon.post('/api/auth/login/', { email, password: 'wrong-password' });
    expect((await anon.post('/api/auth/login/', { email, password: PASSWORD })).status).toBe(200);
  });
});

describe('tokens and sessions', () => {
  it('rotates the refresh token, and reuse of the old one after the reuse interval ends the whole session', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const { session } = await signInEnrolling(env, email);
    const anon = env.as('anonymous');
    const rotated = await anon.post('/api/auth/token/refresh/', { refresh: session.refresh });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.refresh).not.toBe(session.refresh);
    // The old token was rotated longer ago than the reuse interval: this is theft or a replay.
    await ageRefreshUse(session.refresh, env.config.jwt.reuseIntervalSeconds + 5);
    const reuse = await anon.post('/api/auth/token/refresh/', { refresh: session.refresh });
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('refresh_token_reused');
    // The family is dead: the newest refresh token and the access token no longer work.
    expect((await anon.post('/api/auth/token/refresh/', { refresh: rotated.body.data.refresh })).status).toBe(401);
    expect((await anon.get('/api/activity-logs/', bearer(rotated.body.data.access))).status).toBe(401);
    const [s] = await env.sql<{ revoked_reason: string }>(
      sql`SELECT revoked_reason FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = ${email})`,
    );
    expect(s!.revoked_reason).toBe('refresh_token_reused');
  });

  it('gives a token presented again within the reuse interval the same successor, and the session lives on', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const { session } = await signInEnrolling(env, email);
    const anon = env.as('anonymous');
    // An aborted page load: the server rotated, the browser never stored the answer, and the next load sends the old
    // cookie again (twice here: three reloads in a row).
    const first = await anon.post('/api/auth/token/refresh/', { refresh: session.refresh });
    const again = await anon.request({ method: 'POST', url: '/api/auth/token/refresh/', cookies: { farmland_refresh: session.refresh }, payload: {} });
    const third = await anon.post('/api/auth/token/refresh/', { refresh: session.refresh });
    for (const r of [first, again, third]) expect(r.status).toBe(200);
    expect(again.body.data.refresh).toBe(first.body.data.refresh);
    expect(third.body.data.refresh).toBe(first.body.data.refresh);
    expect(String(again.headers['set-cookie'])).toContain(`farmland_refresh=${first.body.data.refresh}`);
    // Every access token works, and the successor rotates on as usual.
    for (const r of [first, again, third]) expect((await anon.get('/api/activity-logs/', bearer(r.body.data.access))).status).toBe(200);
    const next = await anon.post('/api/auth/token/refresh/', { refresh: first.body.data.refresh });
    expect(next.status).toBe(200);
    // The first token, re-presented after its successor moved on (still within the interval), gets the family's
    // current token, never a used one that would end the session on its next refresh.
    const late = await anon.post('/api/auth/token/refresh/', { refresh: session.refresh });
    expect(late.status).toBe(200);
    expect(late.body.data.refresh).toBe(next.body.data.refresh);
    const rows = await env.sql<{ n: number; revoked: boolean }>(
      sql`SELECT (SELECT count(*)::int FROM refresh_tokens r WHERE r.session_id = s.id) AS n, s.revoked_at IS NOT NULL AS revoked FROM sessions s WHERE s.user_id = (SELECT id FROM users WHERE email = ${email})`,
    );
    expect(rows).toEqual([{ n: 3, revoked: false }]);
  });

  it('answers two refreshes with the same token at the same moment with one successor (two tabs)', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const { session } = await signInEnrolling(env, email);
    const anon = env.as('anonymous');
    const both = await Promise.all([0, 1, 2].map(() => anon.post('/api/auth/token/refresh/', { refresh: session.refresh })));
    expect(both.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(both.map((r) => r.body.data.refresh)).size).toBe(1);
    expect((await anon.post('/api/auth/token/refresh/', { refresh: both[0]!.body.data.refresh })).status).toBe(200);
  });

  it('ends a session left idle longer than SESSION_IDLE_MINUTES (no refresh for that long)', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const { session } = await signInEnrolling(env, email);
    const anon = env.as('anonymous');
    // Active: a refresh within the limit works.
    const active = await anon.post('/api/auth/token/refresh/', { refresh: session.refresh });
    expect(active.status).toBe(200);
    // Then the console sits unused past the limit.
    const idle = env.config.jwt.idleSeconds + 60;
    await env.sql(
      sql`UPDATE refresh_tokens SET created_at = now() - make_interval(secs => ${idle}) WHERE used_at IS NULL AND session_id IN (SELECT id FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = ${email}))`,
    );
    const late = await anon.post('/api/auth/token/refresh/', { refresh: active.body.data.refresh });
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('refresh_token_invalid');
    const [s] = await env.sql<{ revoked_reason: string }>(
      sql`SELECT revoked_reason FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = ${email}) ORDER BY created_at DESC LIMIT 1`,
    );
    expect(s!.revoked_reason).toBe('idle');
    expect((await anon.get('/api/activity-logs/', bearer(active.body.data.access))).status).toBe(401);
  });

  it('reads the refresh token from the httpOnly cookie', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const { session } = await signInEnrolling(env, email);
    const res = await env
      .as('anonymous')
      .request({ method: 'POST', url: '/api/auth/token/refresh/', cookies: { farmland_refresh: session.refresh }, payload: {} });
    expect(res.status).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/farmland_refresh=/);
  });

  it('logout revokes the session', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const { session } = await signInEnrolling(env, email);
    const anon = env.as('anonymous');
    const out = await anon.post('/api/auth/logout/', {}, bearer(session.access));
    expect(out.status).toBe(200);
    expect((await anon.get('/api/activity-logs/', bearer(session.access))).status).toBe(401);
    expect((await anon.post('/api/auth/token/refresh/', { refresh: session.refresh })).status).toBe(401);
  });

  it('refuses tokens with another algorithm, audience, or a past expiry', async () => {
    const user = await makeUser(env, { tenantId: null, role: 'super_admin' });
    const caller = await env.sessionFor(user.id);
    const claims = JSON.parse(Buffer.from(caller.token!.split('.')[1]!, 'base64url').toString());
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${caller.token!.split('.')[1]}.`;
    const wrongAud = await new SignJWT({ ...claims, aud: 'someone-else' }).setProtectedHeader({ alg: 'HS256' }).sign(env.deps.keys.jwt);
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }).setProtectedHeader({ alg: 'HS256' }).sign(env.deps.keys.jwt);
    const otherKey = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'.repeat(32)));
    for (const token of [unsigned, wrongAud, expired, otherKey, 'garbage']) {
      expect((await env.as('anonymous').get('/api/activity-logs/', bearer(token))).status).toBe(401);
    }
    expect((await caller.get('/api/activity-logs/')).status).toBe(200);
  });

  it('ends the sessions of a deactivated user at once', async () => {
    const user = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const caller = await env.sessionFor(user.id);
    expect((await caller.get('/api/activity-logs/')).status).toBe(200);
    await env.sql(sql`UPDATE users SET is_active = false WHERE id = ${user.id}`);
    expect((await caller.get('/api/activity-logs/')).status).toBe(401);
  });
});

describe('tenant gate', () => {
  it.each([
    ['tenant_inactive', sql`UPDATE tenants SET is_active = false WHERE id = `],
    ['tenant_suspended', sql`UPDATE tenants SET is_suspended = true WHERE id = `],
    ['license_revoked', sql`UPDATE licenses SET is_revoked = true WHERE tenant_id = `],
    ['license_expired', sql`UPDATE licenses SET expiry_date = current_date - 1 WHERE tenant_id = `],
  ])('answers 403 %s to the tenant’s users, on every call and at sign-in', async (code, statement) => {
    const tenant = await makeTenant(env);
    const admin = await makeUser(env, { tenantId: tenant.id, role: 'tenant_admin' });
    const caller = await env.sessionFor(admin.id);
    expect((await caller.get('/api/activity-logs/')).status).toBe(200);
    await env.sql(sql`${statement}${tenant.id}`);
    const gated = await caller.get('/api/activity-logs/');
    expect(gated.status).toBe(403);
    expect(gated.body.code).toBe(code);
    const login = await env.as('anonymous').post('/api/auth/login/', { email: admin.email, password: PASSWORD });
    expect(login.status).toBe(403);
    expect(login.body.code).toBe(code);
  });

  // The session check reads session, user and gate in one statement (findSessionCheck): the gate follows the tenant's
  // latest license, a tenant without one is treated as expired, and a deleted tenant's sessions end, each on the next call.
  it('follows the latest license, and shuts out a tenant without a license or a deleted one, on the next call', async () => {
    const tenant = await makeTenant(env);
    const admin = await makeUser(env, { tenantId: tenant.id, role: 'tenant_admin' });
    const caller = await env.sessionFor(admin.id);
    const provider = await env.sessionFor((await makeUser(env, { tenantId: null, role: 'super_admin' })).id);
    expect((await caller.get('/api/activity-logs/')).status).toBe(200);
    await env.sql(sql`DELETE FROM licenses WHERE tenant_id = ${tenant.id}`);
    expect([(await caller.get('/api/activity-logs/')).status, (await caller.get('/api/activity-logs/')).body.code]).toEqual([403, 'license_expired']);
    // An older revoked license and a newer valid one: the newer decides.
    await env.sql(sql`
      INSERT INTO licenses (tenant_id, type, issued_date, expiry_date, key_hash, key_hint, is_revoked)
      VALUES (${tenant.id}, 'Platform', current_date - 60, current_date + 300, ${`old-${tenant.id}`}, 'OLD', true),
             (${tenant.id}, 'Platform', current_date - 1, current_date + 300, ${`new-${tenant.id}`}, 'NEW', false)`);
    expect((await caller.get('/api/activity-logs/')).status).toBe(200);
    await env.sql(sql`UPDATE licenses SET is_revoked = true WHERE key_hint = 'NEW' AND tenant_id = ${tenant.id}`);
    expect((await caller.get('/api/activity-logs/')).body.code).toBe('license_revoked');
    await env.sql(sql`UPDATE licenses SET is_revoked = false WHERE key_hint = 'NEW' AND tenant_id = ${tenant.id}`);
    expect((await caller.get('/api/activity-logs/')).status).toBe(200);
    await env.sql(sql`UPDATE tenants SET deleted_at = now() WHERE id = ${tenant.id}`);
    expect((await caller.get('/api/activity-logs/')).status).toBe(401);
    // Provider staff have no tenant and no gate.
    expect((await provider.get('/api/activity-logs/')).status).toBe(200);
  });

  it('answers 401, not 500, to a correctly signed token whose session id is not a uuid or names no session', async () => {
    const user = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const caller = await env.sessionFor(user.id);
    const claims = JSON.parse(Buffer.from(caller.token!.split('.')[1]!, 'base64url').toString());
    for (const sid of ["x' OR '1'='1", '00000000-0000-4000-8000-000000000000']) {
      const token = await new SignJWT({ ...claims, sid }).setProtectedHeader({ alg: 'HS256' }).sign(env.deps.keys.jwt);
      expect((await env.as('anonymous').get('/api/activity-logs/', bearer(token))).status).toBe(401);
    }
  });
});

// The read-only lists and dashboard routes declare sessionWithRead (plugins/auth.ts): their session check travels with
// the handler's first read, or runs alone before anything is sent. Each must still refuse an ended, suspended or
// forged session before any data leaves, and answer the same codes as every other route.
