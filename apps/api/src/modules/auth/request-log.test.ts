// No secret in the request log (issue 33, item 1): the reset, onboarding, admin-link and signed-file flows run through
// an app whose logger writes every line (info level, the production logger's options) into memory, and the log is then
// searched for every secret the flows handled: link tokens, the invitation key, the admin link's id, the file signature,
// refresh and access tokens. Links opened in the old query form are logged with their values redacted.
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loggerOptions } from '../../bootstrap.js';
import { withScope } from '../../db/client.js';
import { makeUser, signInEnrolling } from '../../test/fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { createAdminLink, createInvitation, invitationLink } from './auth.service.js';

let env: TestEnv;
let app: FastifyInstance;
const lines: string[] = [];

beforeAll(async () => {
  env = await testEnv();
  app = await buildApp(env.deps, { logger: pino(loggerOptions('info'), { write: (line: string) => void lines.push(line) }) });
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

async function call(opts: InjectOptions) {
  const res = await app.inject({ remoteAddress: `10.33.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`, ...opts });
  return { status: res.statusCode, json: res.headers['content-type']?.toString().includes('json') ? res.json<any>() : null, headers: res.headers };
}

/** The page request a browser makes for a link: everything before the fragment (which it never sends). */
const pageRequest = (link: string) => {
  const u = new URL(link);
  return `${u.pathname}${u.search}`;
};

function expectNotLogged(secrets: string[]): void {
  const log = lines.join('');
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(8);
    for (const form of new Set([secret, encodeURIComponent(secret)])) expect(log.includes(form), `a secret was logged: ${form.slice(0, 6)}…`).toBe(false);
  }
}

const loggedUrls = () => lines.map((l) => JSON.parse(l) as { req?: { url?: string } }).flatMap((l) => (l.req?.url ? [l.req.url] : []));

describe('the request log holds no secret', () => {
  it('after a password reset, opened from the new link and from an old ?token= link', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    expect((await call({ method: 'POST', url: '/api/auth/password/reset/', payload: { email } })).status).toBe(200);
    const [mail] = await env.sql<{ body: string }>(sql`SELECT body FROM outbox_emails WHERE to_address = ${email} ORDER BY created_at DESC LIMIT 1`);
    const link = /(https?:\/\/\S+)/.exec(mail!.body)![1]!;
    expect(link).toMatch(/\/reset-password#token=[\w-]+$/);
    const token = new URLSearchParams(new URL(link).hash.slice(1)).get('token')!;
    await call({ method: 'GET', url: pageRequest(link) });
    await call({ method: 'GET', url: `/reset-password?token=${token}` });
    expect((await call({ method: 'POST', url: '/api/auth/password/confirm-reset-token/', payload: { token } })).status).toBe(200);
    expect((await call({ method: 'POST', url: '/api/auth/password/set-new-password/', payload: { token, password: 'A-brand-new-pass-33' } })).status).toBe(200);
    expect(loggedUrls()).toContain('/reset-password?token=[redacted]');
    expectNotLogged([token]);
  });

  it('after an onboarding link is opened and accepted (the API route takes the key in its query)', async () => {
    const { id } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin', password: null });
    const key = await withScope(env.deps.db, { kind: 'system' }, (tx) => createInvitation(tx, env.deps, id));
    const link = invitationLink(env.deps, key);
    expect(link).toMatch(/\/onboarding#signed_key=/);
    await call({ method: 'GET', url: pageRequest(link) });
    await call({ method: 'GET', url: `/onboarding?signed_key=${encodeURIComponent(key)}` });
    const accept = await call({
      method: 'POST',
      url: `/api/onboarding/tenant-admin/?signed_key=${encodeURIComponent(key)}`,
      payload: { password: 'Onboarded-pass-33' },
    });
    expect(accept.status).toBe(200);
    expect(loggedUrls()).toContain('/api/onboarding/tenant-admin/?signed_key=[redacted]');
    expectNotLogged([key, key.split('.')[0]!, key.split('.')[1]!]);
  });

  it('after an admin link signs in, and its session refreshes', async () => {
    const { email } = await makeUser(env, { tenantId: null, role: 'super_admin' });
    const link = await createAdminLink(env.deps, email);
    const requestId = new URLSearchParams(new URL(link).hash.slice(1)).get('q')!;
    await call({ method: 'GET', url: pageRequest(link) });
    await call({ method: 'GET', url: `/?q=${requestId}` });
    const login = await call({ method: 'POST', url: '/api/auth/admin-login/', payload: { request_id: requestId } });
    expect(login.status).toBe(200);
    const refreshed = await call({ method: 'POST', url: '/api/auth/token/refresh/', payload: { refresh: login.json.data.refresh } });
    expect(refreshed.status).toBe(200);
    // A client that puts its refresh token in the query by mistake is not logged either.
    await call({ method: 'POST', url: `/api/auth/token/refresh/?refresh_token=${refreshed.json.data.refresh}`, payload: {} });
    expect(loggedUrls()).toContain('/?q=[redacted]');
    expectNotLogged([requestId, login.json.data.refresh, login.json.data.access, refreshed.json.data.refresh, refreshed.json.data.access]);
  });

  it('after a signed file link is downloaded', async () => {
    const { email } = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const { session } = await signInEnrolling(env, email);
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d0b1e30000000049454e44ae426082',
      'hex',
    );
    const boundary = '----request-log-test';
    const upload = await call({
      method: 'PUT',
      url: '/api/accounts/users/upload-image/',
      headers: { authorization: `Bearer ${session.access}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(upload.status).toBe(200);
    const url = new URL(upload.json.data.image as string);
    const sig = url.searchParams.get('sig')!;
    const file = await call({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(file.status).toBe(200);
    expect(loggedUrls()).toContain(`${url.pathname}?exp=${url.searchParams.get('exp')}&sig=[redacted]`);
    expect(loggedUrls().some((u) => u.includes(`/api/accounts/users/`) || u.includes('upload-image'))).toBe(true);
    expectNotLogged([sig, session.access]);
  });
});
