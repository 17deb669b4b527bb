// Sign-in over HTTP, continued (auth.test.ts has sign-in, tokens and the tenant gate): the session check sent with the
// first read, the admin link, two-factor reset, password change and reset, onboarding, and the activity of sign-in.
import { sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser, PASSWORD, signInEnrolling } from '../../test/fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { createAdminLink, createInvitation, RESET_ANSWER_FLOOR_MS, RESET_MAILS_PER_ACCOUNT_HOUR } from './auth.service.js';
import { withScope } from '../../db/client.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The request id of an admin link (/#q=<id>). */
const adminLinkId = (url: string): string => new URLSearchParams(new URL(url).hash.slice(1)).get('q')!;

describe('session check with the first read', () => {
  const year = new Date().getUTCFullYear();
  const routes = [
    '/api/farms/?page_size=5',
    '/api/farms/?all=true',
    '/api/farms/overview',
    '/api/farmers/?page_size=5',
    '/api/accounts/agents/?page_size=5',
    '/api/operational-areas/?page_size=5',
    '/api/custom-analysis/?page_size=5',
    '/api/activity-logs/?page_size=5',
    '/api/analytics/',
    '/api/analytics/tenant-mapped-count/?range_type=months&range_value=3',
    `/api/analytics/mapping-data/?year=${year}`,
  ];
  const statuses = async (token: string) => Promise.all(routes.map(async (r) => [r, (await env.as('anonymous').get(r, bearer(token))).status] as const));

  it('answers with data while the session lives, and 401 without a byte of data once it has ended', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const { session } = await signInEnrolling(env, email);
    expect(await statuses(session.access)).toEqual(routes.map((r) => [r, 200]));
    expect((await env.as('anonymous').post('/api/auth/logout/', {}, bearer(session.access))).status).toBe(200);
    for (const r of routes) {
      const res = await env.as('anonymous').get(r, bearer(session.access));
      expect([r, res.status]).toEqual([r, 401]);
      expect(res.body.data, r).toBeUndefined();
    }
  });

  it("refuses a signed token whose role or tenant is not its user's (no provider data for a forged super_admin claim)", async () => {
    const user = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const caller = await env.sessionFor(user.id);
    const claims = JSON.parse(Buffer.from(caller.token!.split('.')[1]!, 'base64url').toString());
    for (const forged of [{ role: 'super_admin', tid: null }, { tid: env.fx.tenantB }, { role: 'agent' }]) {
      const token = await new SignJWT({ ...claims, ...forged }).setProtectedHeader({ alg: 'HS256' }).sign(env.deps.keys.jwt);
      for (const r of routes) {
        const res = await env.as('anonymous').get(r, bearer(token));
        // Refused (401 by the check, 403 by the route's roles), or, where a route the claimed role may not call
        // checks the session first as every other route does, exactly the user's own answer: never what the claims say.
        if (res.status === 200) expect(res.body, `${r} ${JSON.stringify(forged)}`).toEqual((await caller.get(r)).body);
        else {
          expect([401, 403], `${r} ${JSON.stringify(forged)}`).toContain(res.status);
          expect(res.body.data, r).toBeUndefined();
        }
      }
    }
    expect(await statuses(caller.token!)).toEqual(routes.map((r) => [r, 200]));
  });

  it('answers a suspended account and a gated tenant with their codes, and an error before any read still after the check', async () => {
    const tenant = await makeTenant(env);
    const admin = await makeUser(env, { tenantId: tenant.id, role: 'tenant_admin' });
    const caller = await env.sessionFor(admin.id);
    // Another tenant's id: 404 for a live session, before any read.
    expect((await caller.get(`/api/analytics/?tenant_id=${env.fx.tenantA}`)).status).toBe(404);
    await env.sql(sql`UPDATE tenants SET is_suspended = true WHERE id = ${tenant.id}`);
    for (const r of [...routes, `/api/analytics/?tenant_id=${env.fx.tenantA}`]) {
      const res = await caller.get(r);
      expect([r, res.status, res.body.code]).toEqual([r, 403, 'tenant_suspended']);
    }
    await env.sql(sql`UPDATE tenants SET is_suspended = false WHERE id = ${tenant.id}`);
    await env.sql(sql`UPDATE users SET is_suspended = true WHERE id = ${admin.id}`);
    for (const r of routes) {
      const res = await caller.get(r);
      expect([r, res.status, res.body.code]).toEqual([r, 403, 'account_suspended']);
    }
    await env.sql(sql`UPDATE sessions SET revoked_at = now() WHERE user_id = ${admin.id}`);
    await env.sql(sql`UPDATE users SET is_suspended = false WHERE id = ${admin.id}`);
    expect((await caller.get(`/api/analytics/?tenant_id=${env.fx.tenantA}`)).status).toBe(401);
  });
});

describe('admin link', () => {
  it('signs a super-admin in once; unknown → 105, non-super-admin → 106', async () => {
    const anon = env.as('anonymous');
    const sa = await makeUser(env, { tenantId: null, role: 'super_admin' });
    const url = await createAdminLink(env.deps, sa.email);
    // The id rides in the fragment, which a browser never sends to a server.
    expect(url).toMatch(/^http:\/\/localhost:3000\/#q=[\w-]+$/);
    const requestId = adminLinkId(url);
    const ok = await anon.post('/api/auth/admin-login/', { request_id: requestId });
    expect(ok.status).toBe(200);
    expect(ok.body.data.user).toMatchObject({ id: sa.id, roles: ['super_admin'] });
    const again = await anon.post('/api/auth/admin-login/', { request_id: requestId });
    expect(again.body).toEqual({ message: 'Invalid Service Provider', code: '105' });
    const admin = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const other = adminLinkId(await createAdminLink(env.deps, admin.email));
    const denied = await anon.post('/api/auth/admin-login/', { request_id: other });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: 'You do not have the right access to this service Provider', code: '106' });
  });

  it('expires a link after its short life', async () => {
    const sa = await makeUser(env, { tenantId: null, role: 'super_admin' });
    const requestId = adminLinkId(await createAdminLink(env.deps, sa.email));
    await env.sql(sql`UPDATE auth_challenges SET expires_at = now() - interval '1 second' WHERE user_id = ${sa.id} AND kind = 'admin_link'`);
    expect((await env.as('anonymous').post('/api/auth/admin-login/', { request_id: requestId })).body.code).toBe('105');
  });
});

describe('two-factor reset', () => {
  it('lets a super-admin reset a user’s two-factor; the user enrols again', async () => {
    const { email, id } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const { session } = await signInEnrolling(env, email);
    const res = await env.as('super').post(`/api/auth/${id}/reset-mfa/`, {});
    expect(res.status).toBe(200);
    expect((await env.as('anonymous').get('/api/activity-logs/', bearer(session.access))).status).toBe(401);
    const login = await env.as('anonymous').post('/api/auth/login/', { email, password: PASSWORD });
    expect(login.body.data.mfa_setup_required).toBe(true);
  });

  it('answers 404 to an admin of another tenant', async () => {
    const { id } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'agent' });
    expect((await env.as('adminB').post(`/api/auth/${id}/reset-mfa/`, {})).status).toBe(404);
  });
});

describe('passwords', () => {
  it('changes the password with the current one, and ends other sessions', async () => {
    const user = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const me = await env.sessionFor(user.id);
    const other = await env.sessionFor(user.id);
    const wrong = await me.post('/api/auth/password/update/', { old_password: 'not-it', new_password: 'Brand-new-pass-1' });
    expect(wrong.status).toBe(400);
    expect(Object.keys(wrong.body.errors)[0]).toBe('old_password');
    const short = await me.post('/api/auth/password/update/', { old_password: PASSWORD, new_password: 'short' });
    expect(short.status).toBe(400);
    expect(Object.keys(short.body.errors)[0]).toBe('new_password');
    expect((await me.post('/api/auth/password/update/', { old_password: PASSWORD, new_password: 'Brand-new-pass-1' })).status).toBe(200);
    expect((await me.get('/api/activity-logs/')).status).toBe(200);
    expect((await other.get('/api/activity-logs/')).status).toBe(401);
    expect((await env.as('anonymous').post('/api/auth/login/', { email: user.email, password: 'Brand-new-pass-1' })).status).toBe(200);
  });

  it('throttles wrong current passwords on password change with the sign-in counters', async () => {
    const user = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const me = await env.sessionFor(user.id);
    const change = (old_password: string) =>
      me.request({ method: 'POST', url: '/api/auth/password/update/', payload: { old_password, new_password: 'Brand-new-pass-2' }, remoteAddress: '10.9.4.4' });
    for (let i = 0; i < 5; i++) expect((await change(`wrong-${i}`)).status).toBe(400);
    // Locked now, for the right password too, and for a password sign-in of the account from the same address.
    const locked = await change(PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('too_many_attempts');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const signIn = await env
      .as('anonymous')
      .request({ method: 'POST', url: '/api/auth/login/', payload: { email: user.email, password: PASSWORD }, remoteAddress: '10.9.4.4' });
    expect(signIn.status).toBe(429);
    const [row] = await env.sql<{ password_hash: string | null }>(sql`SELECT password_hash FROM users WHERE id = ${user.id}`);
    expect(row!.password_hash).not.toBeNull();
    // After the lock, the right password works and clears the count.
    await env.sql(sql`UPDATE auth_throttle SET locked_until = now() - interval '1 second' WHERE key LIKE ${`%${user.email}%`}`);
    expect((await change(PASSWORD)).status).toBe(200);
    const left = await env.sql<{ key: string }>(sql`SELECT key FROM auth_throttle WHERE key IN (${`acct:${user.email}`}, ${`acct-ip:${user.email}|10.9.4.4`})`);
    expect(left).toEqual([]);
  });

  it('sends one account at most RESET_MAILS_PER_ACCOUNT_HOUR reset mails an hour, whatever addresses ask, with the same answer', async () => {
    const user = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const answers = [];
    for (let i = 0; i < RESET_MAILS_PER_ACCOUNT_HOUR + 2; i++) {
      const res = await env
        .as('anonymous')
        .request({ method: 'POST', url: '/api/auth/password/reset/', payload: { email: user.email }, remoteAddress: `10.8.${i}.1` });
      answers.push({ status: res.status, message: res.body.message });
    }
    const unknown = await env.as('anonymous').post('/api/auth/password/reset/', { email: `nobody-${Date.now()}@test.example` });
    for (const a of answers) expect(a).toEqual({ status: 200, message: unknown.body.message });
    const [mails] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM outbox_emails WHERE to_address = ${user.email}`);
    expect(mails!.n).toBe(RESET_MAILS_PER_ACCOUNT_HOUR);
    // An hour later the account may be sent one again.
    await env.sql(sql`UPDATE auth_challenges SET created_at = created_at - interval '61 minutes' WHERE user_id = ${user.id} AND kind = 'password_reset'`);
    await env.as('anonymous').post('/api/auth/password/reset/', { email: user.email });
    const [after] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM outbox_emails WHERE to_address = ${user.email}`);
    expect(after!.n).toBe(RESET_MAILS_PER_ACCOUNT_HOUR + 1);
  });

  it('limits reset requests and admin-link guesses per address (the forwarded one behind TRUST_PROXY)', async () => {
    const anon = env.as('anonymous');
    const from = (ip: string, url: string, payload: object) => anon.request({ method: 'POST', url, payload, remoteAddress: ip });
    for (let i = 0; i < 10; i++) expect((await from('10.7.7.7', '/api/auth/password/reset/', { email: `r${i}@test.example` })).status).toBe(200);
    const limited = await from('10.7.7.7', '/api/auth/password/reset/', { email: 'r10@test.example' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('10.7.7.8', '/api/auth/password/reset/', { email: 'r10@test.example' })).status).toBe(200);

    for (let i = 0; i < 10; i++) expect((await from('10.6.6.6', '/api/auth/admin-login/', { request_id: `guess-${i}` })).status).toBe(400);
    const { id: superId } = await makeUser(env, { tenantId: null, role: 'super_admin' });
    const [su] = await env.sql<{ email: string }>(sql`SELECT email FROM users WHERE id = ${superId}`);
    const requestId = adminLinkId(await createAdminLink(env.deps, su!.email));
    expect((await from('10.6.6.6', '/api/auth/admin-login/', { request_id: requestId })).status).toBe(429);
    expect((await from('10.6.6.9', '/api/auth/admin-login/', { request_id: requestId })).status).toBe(200);
  });

  it('refuses a new password under 12 characters or among the most common ones, naming the field', async () => {
    const { email, id } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const me = await env.sessionFor(id);
    const short = await me.post('/api/auth/password/update/', { old_password: PASSWORD, new_password: 'Short-pass1' });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({ new_password: ['Password must be at least 12 characters'] });
    const common = await me.post('/api/auth/password/update/', { old_password: PASSWORD, new_password: 'password1234' });
    expect(common.status).toBe(400);
    expect(Object.keys(common.body.errors)[0]).toBe('new_password');
    expect(common.body.errors['new_password'][0]).toMatch(/most common/);
    // The reset path checks the same.
    await env.as('anonymous').post('/api/auth/password/reset/', { email });
    const [mail] = await env.sql<{ body: string }>(sql`SELECT body FROM outbox_emails WHERE to_address = ${email} ORDER BY created_at DESC LIMIT 1`);
    const token = /token=([\w-]+)/.exec(mail!.body)![1]!;
    const viaReset = await env.as('anonymous').post('/api/auth/password/set-new-password/', { token, password: 'Qwertyuiop12' });
    expect(viaReset.status).toBe(400);
    expect(Object.keys(viaReset.body.errors)[0]).toBe('password');
  });

  it('answers a reset request no sooner than the floor, known account or not, and never logs the link', async () => {
    const user = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const logged: string[] = [];
    const original = env.deps.log.info.bind(env.deps.log);
    env.deps.log.info = (obj: unknown, msg?: string) => {
      logged.push(JSON.stringify(obj) + (msg ?? ''));
      return original(obj as object, msg);
    };
    try {
      for (const email of [user.email, `nobody-${Date.now()}@test.example`]) {
        const t0 = performance.now();
        const res = await env.as('anonymous').post('/api/auth/password/reset/', { email });
        expect(res.status).toBe(200);
        expect(performance.now() - t0).toBeGreaterThanOrEqual(RESET_ANSWER_FLOOR_MS - 5);
      }
    } finally {
      env.deps.log.info = original;
    }
    const [mail] = await env.sql<{ body: string }>(sql`SELECT body FROM outbox_emails WHERE to_address = ${user.email} ORDER BY created_at DESC LIMIT 1`);
    const token = /token=([\w-]+)/.exec(mail!.body)![1]!;
    expect(logged.some((l) => l.includes('mail queued'))).toBe(true);
    expect(logged.join('\n')).not.toContain(token);
  });

  it('resets a forgotten password with a single-use token from the outbox', async () => {
    const user = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const anon = env.as('anonymous');
    const asked = await anon.post('/api/auth/password/reset/', { email: user.email.toUpperCase() });
    expect(asked.status).toBe(200);
    const [mail] = await env.sql<{ body: string }>(sql`SELECT body FROM outbox_emails WHERE to_address = ${user.email} ORDER BY created_at DESC LIMIT 1`);
    const token = /token=([\w-]+)/.exec(mail!.body)![1]!;
    const [challenge] = await env.sql<{ ttl: number }>(
      sql`SELECT extract(epoch FROM expires_at - created_at)::int AS ttl FROM auth_challenges WHERE user_id = ${user.id} AND kind = 'password_reset'`,
    );
    expect(challenge!.ttl).toBeLessThanOrEqual(3600);
    expect((await anon.post('/api/auth/password/confirm-reset-token/', { token })).status).toBe(200);
    expect((await anon.post('/api/auth/password/set-new-password/', { token, password: 'Reset-pass-123' })).status).toBe(200);
    const reuse = await anon.post('/api/auth/password/set-new-password/', { token, password: 'Another-pass-123' });
    expect(reuse.status).toBe(400);
    expect(reuse.body.code).toBe('invalid_reset_token');
    expect((await anon.post('/api/auth/login/', { email: user.email, password: 'Reset-pass-123' })).status).toBe(200);
  });

  it('answers the same to a reset request for an unknown email, and writes no mail', async () => {
    const email = `ghost-${Date.now()}@test.example`;
    const res = await env.as('anonymous').post('/api/auth/password/reset/', { email });
    expect(res.status).toBe(200);
    expect(await env.sql(sql`SELECT 1 FROM outbox_emails WHERE to_address = ${email}`)).toHaveLength(0);
  });

  it('refuses an expired reset token', async () => {
    const user = await makeUser(env, { tenantId: env.fx.tenantA, role: 'agent' });
    await env.as('anonymous').post('/api/auth/password/reset/', { email: user.email });
    const [mail] = await env.sql<{ body: string }>(sql`SELECT body FROM outbox_emails WHERE to_address = ${user.email}`);
    const token = /token=([\w-]+)/.exec(mail!.body)![1]!;
    await env.sql(sql`UPDATE auth_challenges SET expires_at = now() - interval '1 second' WHERE user_id = ${user.id}`);
    expect((await env.as('anonymous').post('/api/auth/password/confirm-reset-token/', { token })).status).toBe(400);
  });
});

describe('onboarding', () => {
  it('lets an invited tenant admin set a password once from the signed key', async () => {
    const invited = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin', password: null });
    const key = await withScope(env.deps.db, { kind: 'system' }, (tx) => createInvitation(tx, env.deps, invited.id));
    const anon = env.as('anonymous');
    const url = `/api/onboarding/tenant-admin/?signed_key=${encodeURIComponent(key)}`;
    const tampered = `/api/onboarding/tenant-admin/?signed_key=${encodeURIComponent(`${key.slice(0, -2)}xx`)}`;
    expect((await anon.post(tampered, { password: 'Welcome-pass-1' })).status).toBe(400);
    expect((await anon.post(url, { password: 'Welcome-pass-1' })).status).toBe(200);
    expect((await anon.post(url, { password: 'Welcome-pass-2' })).body.code).toBe('invalid_invitation');
    const login = await anon.post('/api/auth/login/', { email: invited.email, password: 'Welcome-pass-1' });
    expect(login.status).toBe(200);
    expect(login.body.data.mfa_setup_required).toBe(true);
  });
});

describe('activity of sign-in', () => {
  it('writes a Login entry with the platform from the request header', async () => {
    const { email, id } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const anon = env.as('anonymous');
    const login = await anon.post('/api/auth/login/', { email, password: PASSWORD }, { 'x-platform': 'mobile' });
    const setup = await anon.post('/api/auth/setup-mfa/', login.body.data);
    const { generateTotp } = await import('../../lib/totp.js');
    await anon.post('/api/auth/confirm-mfa/', { ...login.body.data, code: generateTotp(setup.body.data.secret) }, { 'x-platform': 'mobile' });
    const rows = await env.sql<{ action: string; platform: string; tenant_id: string; country: string }>(
      sql`SELECT action, platform, tenant_id, country FROM activity_logs WHERE user_id = ${id} AND action = 'Login'`,
    );
    expect(rows).toEqual([{ action: 'Login', platform: 'mobile', tenant_id: env.fx.tenantA, country: 'Nigeria' }]);
  });
});
