// Profiles: read and edit yourself, administrators their tenant's users, image upload checked by content and size,
// account reset; another tenant's user is a 404 and cannot be changed.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures.js';
import { testEnv, type Caller, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d0b1e30000000049454e44ae426082',
  'hex',
);

function multipart(field: string, filename: string, content: Buffer, contentType = 'application/octet-stream') {
  const boundary = '----profile-test';
  return {
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const upload = (caller: Caller, field: string, filename: string, content: Buffer, type?: string) =>
  caller.request({ method: 'PUT', url: '/api/accounts/users/upload-image/', ...multipart(field, filename, content, type) });

describe('profile', () => {
  it('reads your own profile without secrets', async () => {
    const res = await env.as('adminA').get(`/api/accounts/users/${env.fx.adminA}/`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: env.fx.adminA, role: 'tenant_admin', tenant: { id: env.fx.tenantA } });
    expect(JSON.stringify(res.body)).not.toMatch(/password|secret|hash/i);
  });

  it('answers 404 for a user of another tenant, exactly like a missing one', async () => {
    const foreign = await env.as('adminB').get(`/api/accounts/users/${env.fx.adminA}/`);
    const missing = await env.as('adminB').get('/api/accounts/users/00000000-0000-4000-8000-000000000000/');
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect((await env.as('adminB').patch(`/api/accounts/users/${env.fx.adminA}/`, { first_name: 'Hacked' })).status).toBe(404);
    const [row] = await env.sql<{ first_name: string }>(sql`SELECT first_name FROM users WHERE id = ${env.fx.adminA}`);
    expect(row!.first_name).not.toBe('Hacked');
  });

  it('lets an agent read only themselves', async () => {
    expect((await env.as('agentA').get(`/api/accounts/users/${env.fx.agentA}/`)).status).toBe(200);
    expect((await env.as('agentA').get(`/api/accounts/users/${env.fx.adminA}/`)).status).toBe(404);
  });

  it('edits a profile, persists it and logs the change', async () => {
    const user = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const me = await env.sessionFor(user.id);
    const res = await me.patch(`/api/accounts/users/${user.id}/`, { first_name: 'Bisi', phone_number: '+2348012345678', gender: 'Female' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Profile updated successfully');
    expect((await me.get(`/api/accounts/users/${user.id}/`)).body.data).toMatchObject({ first_name: 'Bisi', phone_number: '+2348012345678', gender: 'Female' });
    const log = await env.sql<{ action: string }>(sql`SELECT action FROM activity_logs WHERE user_id = ${user.id} AND action = 'Update'`);
    expect(log.length).toBe(1);
  });

  it('names the bad field and stores nothing', async () => {
    const user = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const me = await env.sessionFor(user.id);
    const bad = await me.patch(`/api/accounts/users/${user.id}/`, { first_name: 'Ok', phone_number: 'call me maybe' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ phone_number: ['Enter a valid phone number'] });
    const unknown = await me.patch(`/api/accounts/users/${user.id}/`, { role: 'super_admin' });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.errors)[0]).toBe('role');
    const [row] = await env.sql<{ first_name: string; role: string }>(sql`SELECT first_name, role FROM users WHERE id = ${user.id}`);
    expect(row).toEqual({ first_name: 'Test', role: 'tenant_admin' });
  });
});

describe('profile image', () => {
  it('accepts a PNG checked by its bytes and serves it through a signed URL', async () => {
    const user = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const me = await env.sessionFor(user.id);
    const res = await upload(me, 'image', 'me.png', PNG, 'image/png');
    expect(res.status).toBe(200);
    const url = new URL(res.body.data.image);
    const file = await env.as('anonymous').get(`${url.pathname}${url.search}`);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    const forged = await env.as('anonymous').get(`${url.pathname}?exp=${url.searchParams.get('exp')}&sig=${'A'.repeat(43)}`);
    expect(forged.status).toBe(404);
  });

  it('refuses a file that only claims to be an image', async () => {
    const res = await upload(env.as('adminA'), 'image', 'evil.png', Buffer.from('<script>alert(1)</script>'), 'image/png');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)[0]).toBe('image');
  });

  it('refuses an image over the size cap with a 4xx', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(env.config.imageLimit + 10)]);
    const res = await upload(env.as('adminA'), 'image', 'big.png', big, 'image/png');
    expect([400, 413]).toContain(res.status);
  });

  it('refuses an image of 20,000 × 20,000 pixels by its header, naming the field', async () => {
    const header = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const size = Buffer.alloc(8);
    size.writeUInt32BE(20_000, 0);
    size.writeUInt32BE(20_000, 4);
    const res = await upload(env.as('adminA'), 'image', 'huge.png', Buffer.concat([header, size, Buffer.from('0806000000', 'hex')]), 'image/png');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['image']);
    expect(res.body.errors.image[0]).toMatch(/20000 × 20000 pixels/);
  });

  it('refuses a JSON body', async () => {
    const res = await env.as('adminA').put('/api/accounts/users/upload-image/', { image: 'x' });
    expect(res.status).toBe(415);
  });
});

describe('account reset', () => {
  it('ends the sessions, clears password and two-factor, and mails a new invitation', async () => {
    const agent = await makeUser(env, { tenantId: env.fx.tenantA, role: 'agent' });
    const session = await env.sessionFor(agent.id);
    const res = await env.as('adminA').put(`/api/accounts/users/${agent.id}/reset`, {});
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Account reset successfully');
    expect((await session.get(`/api/accounts/users/${agent.id}/`)).status).toBe(401);
    const [row] = await env.sql<{ password_hash: string | null; mfa_enabled: boolean }>(
      sql`SELECT password_hash, mfa_enabled FROM users WHERE id = ${agent.id}`,
    );
    expect(row).toEqual({ password_hash: null, mfa_enabled: false });
    const mail = await env.sql<{ body: string }>(sql`SELECT body FROM outbox_emails WHERE to_address = ${agent.email}`);
    expect(mail[0]!.body).toMatch(/onboarding#signed_key=/);
  });

  it('cannot reach another tenant’s user', async () => {
    const agent = await makeUser(env, { tenantId: env.fx.tenantA, role: 'agent' });
    expect((await env.as('adminB').put(`/api/accounts/users/${agent.id}/reset`, {})).status).toBe(404);
    const [row] = await env.sql<{ password_hash: string | null }>(sql`SELECT password_hash FROM users WHERE id = ${agent.id}`);
    expect(row!.password_hash).not.toBeNull();
  });
});

describe('authorization comes first', () => {
  it('answers 401 to an anonymous caller whatever the body, before validating it', async () => {
    const res = await env.as('anonymous').patch('/api/accounts/users/not-a-uuid/', { first_name: 42, nonsense: true });
    expect(res.status).toBe(401);
    const agent = await env.as('agentA').put('/api/accounts/users/not-a-uuid/reset', { junk: 1 });
    expect(agent.status).toBe(403);
  });
});
