// Tenants and licenses through the API, as provider staff use them: create (admin with onboarding mail, license with a
// key shown once and stored hashed), the list with the license merged in and its filters, edit, suspend/deactivate and
// the tenant gate, the all-or-nothing bulk delete, revoke and re-issue; duplicate emails and bad prices named; tenant
// admins refused.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../lib/crypto.js';
import { makeTenant, makeUser } from '../../test/fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
let seq = 0;
const uniq = () => `${process.pid}-${Date.now()}-${++seq}`;
const NIGERIA = '1e7050d0-9e8f-5e82-9ca3-884850256d74';
const today = () => new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  env = await testEnv();
});

const payload = (over: Record<string, unknown> = {}, license: Record<string, unknown> = {}, admin: Record<string, unknown> = {}) => {
  const u = uniq();
  return {
    name: `Provider Test Org ${u}`,
    address: '1 Farm Road',
    phone_number: '+2348030000001',
    email: `org-${u}@test.example`,
    country_id: NIGERIA,
    city: 'Ibadan',
    enable_farm_sync: true,
    admin: { email: `admin-${u}@test.example`, first_name: 'Ada', last_name: 'Admin', phone_number: '+2348030000002', ...admin },
    license: { type: 'SDK', issued_date: today(), expiry_date: inDays(365), price: '220000', ...license },
    ...over,
  };
};

const create = async (over: Record<string, unknown> = {}, license: Record<string, unknown> = {}) => {
  const res = await env.as('super').post('/api/base/tenants/', payload(over, license));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as {
    id: string;
    name: string;
    email: string;
    admin: { id: string; email: string };
    license: { id: string; key: string; expiry_date: string };
    license_key: string;
  };
};

describe('tenants', () => {
  it('creates a tenant with its admin (onboarding mail in the outbox) and its license (key shown once, stored hashed)', async () => {
    const t = await create();
    expect(t).toMatchObject({ status: 'Active', is_active: true, is_suspended: false, enable_farm_sync: true, country: 'Nigeria', number_of_agents: 0 });
    expect(t.license_key).toMatch(/^SDK-[A-Za-z0-9_-]{43}$/);
    expect(t.license.key).toBe(t.license_key.slice(0, 10));
    const [lic] = await env.sql<{ key_hash: string }>(sql`SELECT key_hash FROM licenses WHERE id = ${t.license.id}`);
    expect(lic!.key_hash).toBe(sha256(t.license_key));
    const [admin] = await env.sql<{ role: string; tenant_id: string; password_hash: string | null }>(
      sql`SELECT role, tenant_id, password_hash FROM users WHERE id = ${t.admin.id}`,
    );
    expect(admin).toEqual({ role: 'tenant_admin', tenant_id: t.id, password_hash: null });
    const mail = await env.sql<{ body: string }>(sql`SELECT body FROM outbox_emails WHERE to_address = ${t.admin.email}`);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body).toMatch(/\/onboarding#signed_key=/);
    const [config] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM tenant_configurations WHERE tenant_id = ${t.id}`);
    expect(config!.n).toBe(1);
    const [log] = await env.sql<{ action: string }>(sql`SELECT action FROM activity_logs WHERE tenant_id = ${t.id} ORDER BY created_at LIMIT 1`);
    expect(log!.action).toBe('Create');
    // The key works for SDK capture at once (the same lookup as every capture)
    const capture = await env.as('anonymous').post('/api/farmers/', { first_name: 'Key', last_name: 'Works' }, { 'x-license-key': t.license_key });
    expect(capture.status, JSON.stringify(capture.body)).toBe(201);
    // The details never show the key again
    const one = await env.as('super').get(`/api/base/tenants/${t.id}`);
    expect(one.status).toBe(200);
    expect(JSON.stringify(one.body)).not.toContain(t.license_key);
  });

  it('lists tenants with the license merged in, filters them, and pages them', async () => {
    const sdk = await create();
    const plt = await create({ enable_farm_sync: false }, { type: 'Platform' });
    const list = await env.as('super').get(`/api/base/tenants/?search=${encodeURIComponent(sdk.name)}`);
    expect(list.status).toBe(200);
    expect(list.body.data.count).toBe(1);
    expect(list.body.data.results[0]).toMatchObject({
      id: sdk.id,
      uuid: sdk.id,
      type: 'SDK',
      price: '220000.00',
      license_status: 'Active',
      status: 'Active',
      number_of_agents: 0,
      expiry_date: sdk.license.expiry_date,
    });
    const platform = await env.as('super').get(`/api/base/tenants/?license_type=Platform&search=${encodeURIComponent('Provider Test Org')}&page_size=100`);
    const ids = platform.body.data.results.map((r: { id: string }) => r.id);
    expect(ids).toContain(plt.id);
    expect(ids).not.toContain(sdk.id);
    const byAdmin = await env.as('super').get(`/api/base/tenants/?search=${encodeURIComponent(plt.admin.email)}`);
    expect(byAdmin.body.data.results.map((r: { id: string }) => r.id)).toEqual([plt.id]);
    const page = await env.as('super').get('/api/base/tenants/?page_size=1&page=2&is_active=');
    expect(page.status).toBe(200);
    expect(page.body.data.results).toHaveLength(1);
    expect(page.body.data.previous).toBeTruthy();
  });

  it('edits a tenant with the same payload (admin and license too)', async () => {
    const t = await create();
    const body = payload(
      { name: `${t.name} renamed`, email: t.email },
      { price: '300000.50', expiry_date: inDays(700) },
      { email: t.admin.email, first_name: 'Bola' },
    );
    const res = await env.as('super').put(`/api/base/tenants/${t.id}/`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Tenant edited successfully');
    expect(res.body.data).toMatchObject({
      name: `${t.name} renamed`,
      admin: { first_name: 'Bola' },
      license: { price: '300000.50', expiry_date: inDays(700), key: t.license.key },
    });
  });

  it('refuses a duplicate tenant email or admin email, a price with separators and a bad date, naming the field', async () => {
    const t = await create();
    const fieldOf = async (body: unknown) => {
      const res = await env.as('super').post('/api/base/tenants/', body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return Object.keys(res.body.errors as Record<string, string[]>);
    };
    expect(await fieldOf(payload({ email: t.email.toUpperCase() }))).toEqual(['email']);
    expect(await fieldOf(payload({}, {}, { email: t.admin.email }))).toEqual(['admin.email']);
    expect(await fieldOf(payload({}, { price: '1,500,000' }))).toEqual(['license.price']);
    expect(await fieldOf(payload({}, { price: '1 500 000' }))).toEqual(['license.price']);
    expect(await fieldOf(payload({}, { issued_date: '2026-02-30' }))).toEqual(['license.issued_date']);
    expect(await fieldOf(payload({}, { expiry_date: '24/11/2027' }))).toEqual(['license.expiry_date']);
    expect(await fieldOf(payload({}, { expiry_date: '2001-01-01', issued_date: '2002-01-01' }))).toEqual(['license.expiry_date']);
    expect(await fieldOf(payload({ enable_farm_sync: true }, { type: 'Platform' }))).toEqual(['enable_farm_sync']);
    expect(await fieldOf(payload({ country_id: '00000000-0000-4000-8000-000000000000' }))).toEqual(['country_id']);
    // Nothing of those attempts was written
    const [n] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM tenants WHERE lower(email) = ${t.email}`);
    expect(n!.n).toBe(1);
    // On edit, another tenant's email is refused too
    const other = await create();
    const res = await env.as('super').put(`/api/base/tenants/${other.id}/`, payload({ email: t.email }, {}, { email: other.admin.email }));
    expect([res.status, Object.keys(res.body.errors ?? {})[0]]).toEqual([400, 'email']);
  });

  it("suspends and deactivates: the tenant's admin is refused with the gate's code at once, and let back in after", async () => {
    const t = await makeTenant(env);
    const admin = await makeUser(env, { tenantId: t.id, role: 'tenant_admin' });
    const caller = await env.sessionFor(admin.id);
    expect((await caller.get('/api/accounts/agents/')).status).toBe(200);
    const s = await env.as('super').put(`/api/base/tenants/${t.id}/suspend-deactivate/`, { is_suspended: true });
    expect([s.status, s.body.message, s.body.data.status]).toEqual([200, 'Tenant suspended successfully', 'Suspended']);
    const refused = await caller.get('/api/accounts/agents/');
    expect([refused.status, refused.body.code]).toEqual([403, 'tenant_suspended']);
    const u = await env.as('super').put(`/api/base/tenants/${t.id}/suspend-deactivate/`, { is_suspended: 'false' });
    expect([u.status, u.body.message]).toEqual([200, 'Tenant unsuspended successfully']);
    expect((await caller.get('/api/accounts/agents/')).status).toBe(200);
    const d = await env.as('super').put(`/api/base/tenants/${t.id}/suspend-deactivate/`, { is_active: false });
    expect([d.body.message, d.body.data.status]).toEqual(['Tenant deactivated successfully', 'Inactive']);
    const inactive = await caller.get('/api/accounts/agents/');
    expect([inactive.status, inactive.body.code]).toEqual([403, 'tenant_inactive']);
    const filtered = await env.as('super').get(`/api/base/tenants/?status=Inactive&search=${encodeURIComponent(t.name)}`);
    expect(filtered.body.data.count).toBe(1);
    const a = await env.as('super').put(`/api/base/tenants/${t.id}/suspend-deactivate/`, { is_active: true });
    expect(a.body.message).toBe('Tenant activated successfully');
    expect((await caller.get('/api/accounts/agents/')).status).toBe(200);
    const empty = await env.as('super').put(`/api/base/tenants/${t.id}/suspend-deactivate/`, {});
    expect(empty.status).toBe(400);
  });

  it('deletes all or nothing: one unknown uuid deletes none; then all go, users shut out, activity kept', async () => {
    const t1 = await makeTenant(env);
    const t2 = await makeTenant(env);
    const admin = await makeUser(env, { tenantId: t1.id, role: 'tenant_admin' });
    const caller = await env.sessionFor(admin.id);
    await env.sql(
      sql`INSERT INTO activity_logs (tenant_id, user_name, action, description, platform) VALUES (${t1.id}, 'Someone', 'Create', 'before the delete', 'web')`,
    );
    const unknown = '00000000-0000-4000-8000-000000000000';
    const partial = await env.as('super').post('/api/base/tenants/delete/', { uuids: [t1.id, t2.id, unknown] });
    expect([partial.status, Object.keys(partial.body.errors ?? {})[0]]).toEqual([400, 'uuids']);
    const [alive] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM tenants WHERE id IN (${t1.id}, ${t2.id}) AND deleted_at IS NULL`);
    expect(alive!.n).toBe(2);
    const ok = await env.as('super').post('/api/base/tenants/delete/', { uuids: [t1.id, t2.id] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.deleted).toBe(2);
    expect((await env.as('super').get(`/api/base/tenants/${t1.id}`)).status).toBe(404);
    expect((await env.as('super').get(`/api/base/tenants/?search=${encodeURIComponent(t1.name)}`)).body.data.count).toBe(0);
    expect((await caller.get('/api/accounts/agents/')).status).toBe(401);
    const logs = await env.sql<{ description: string }>(sql`SELECT description FROM activity_logs WHERE tenant_id = ${t1.id} ORDER BY created_at`);
    expect(logs.map((l) => l.description)).toEqual(expect.arrayContaining(['before the delete', expect.stringMatching(/deleted the tenant/)]));
    // Deleting again: they are unknown now, so nothing happens
    expect((await env.as('super').post('/api/base/tenants/delete/', { uuids: [t1.id] })).status).toBe(400);
  });

  it('is for provider staff only: a tenant admin or agent gets 403 on every tenants route and on license changes', async () => {
    const t = await makeTenant(env);
    for (const persona of ['adminA', 'agentA', 'adminB'] as const) {
      const c = env.as(persona);
      expect((await c.get('/api/base/tenants/')).status).toBe(403);
      expect((await c.get(`/api/base/tenants/${t.id}`)).status).toBe(403);
      expect((await c.post('/api/base/tenants/', payload())).status).toBe(403);
      expect((await c.put(`/api/base/tenants/${t.id}/`, payload())).status).toBe(403);
      expect((await c.put(`/api/base/tenants/${t.id}/suspend-deactivate/`, { is_suspended: true })).status).toBe(403);
      expect((await c.post('/api/base/tenants/delete/', { uuids: [t.id] })).status).toBe(403);
      expect((await c.get('/api/base/licenses/')).status).toBe(persona === 'agentA' ? 403 : 200);
    }
    // Its own organisation is no exception: a tenant admin cannot read, edit, suspend or delete its own tenant here.
    const own = env.as('adminA');
    expect((await own.get(`/api/base/tenants/${env.fx.tenantA}`)).status).toBe(403);
    expect((await own.put(`/api/base/tenants/${env.fx.tenantA}/`, payload())).status).toBe(403);
    expect((await own.put(`/api/base/tenants/${env.fx.tenantA}/suspend-deactivate/`, { is_suspended: false, is_active: true })).status).toBe(403);
    expect((await own.post('/api/base/tenants/delete/', { uuids: [env.fx.tenantA] })).status).toBe(403);
    const [still] = await env.sql<{ is_suspended: boolean; deleted_at: string | null }>(sql`SELECT is_suspended, deleted_at FROM tenants WHERE id = ${t.id}`);
    expect(still).toEqual({ is_suspended: false, deleted_at: null });
  });
});

describe('licenses', () => {
  it("gives a tenant admin its own organisation's licenses only (the dashboard's license card), whatever it asks", async () => {
    const a = await env.as('adminA').get('/api/base/licenses/');
    expect(a.status).toBe(200);
    expect(a.body.data.count).toBeGreaterThan(0);
    expect(a.body.data.results.every((l: { tenant: string }) => l.tenant === env.fx.tenantA)).toBe(true);
    const asked = await env.as('adminA').get(`/api/base/licenses/?tenant_id=${env.fx.tenantB}`);
    expect(asked.body.data.results.every((l: { tenant: string }) => l.tenant === env.fx.tenantA)).toBe(true);
    const b = await env.as('adminB').get('/api/base/licenses/');
    expect(b.body.data.results.every((l: { tenant: string }) => l.tenant === env.fx.tenantB)).toBe(true);
    const lic = a.body.data.results[0].id as string;
    expect((await env.as('adminA').put(`/api/base/licenses/${lic}/revoke/`)).status).toBe(403);
    expect((await env.as('adminA').post(`/api/base/licenses/${lic}/reissue/`)).status).toBe(403);
  });

  it('lists licenses with the derived status and filters', async () => {
    const revoked = await makeTenant(env, { revoked: true, expired: true });
    const expired = await makeTenant(env, { expired: true });
    const get = async (q: string) =>
      (await env.as('super').get(`/api/base/licenses/?page_size=100&${q}`)).body.data.results as Array<{ tenant: string; status: string; key: string }>;
    const rev = (await get(`search=${encodeURIComponent(revoked.name)}`))[0]!;
    expect(rev).toMatchObject({ tenant: revoked.id, status: 'Revoked', is_revoked: true, is_expired: true, key: revoked.licenseKey.slice(0, 10) });
    expect((await get(`search=${encodeURIComponent(expired.name)}`))[0]).toMatchObject({ status: 'Expired' });
    expect((await get(`is_expired=true&is_revoked=false&tenant_id=${expired.id}`)).map((l) => l.tenant)).toEqual([expired.id]);
    expect(await get(`status=Active&tenant_id=${expired.id}`)).toEqual([]);
    const bad = await env.as('super').get('/api/base/licenses/?issued_date=2026-13-01');
    expect([bad.status, Object.keys(bad.body.errors ?? {})[0]]).toEqual([400, 'issued_date']);
  });

  it("revokes a license (the tenant's users get license_revoked) and re-issues an SDK license one year on", async () => {
    const t = await create();
    const admin = await makeUser(env, { tenantId: t.id, role: 'tenant_admin' });
    const caller = await env.sessionFor(admin.id);
    const r = await env.as('super').put(`/api/base/licenses/${t.license.id}/revoke/`);
    expect([r.status, r.body.message, r.body.data?.status], JSON.stringify(r.body)).toEqual([200, 'License revoked successfully', 'Revoked']);
    const refused = await caller.get('/api/accounts/agents/');
    expect([refused.status, refused.body.code]).toEqual([403, 'license_revoked']);
    const key = await env.as('anonymous').post('/api/farmers/', { first_name: 'No', last_name: 'Way' }, { 'x-license-key': t.license_key });
    expect([key.status, key.body.code]).toEqual([403, 'license_revoked']);
    const re = await env.as('super').post(`/api/base/licenses/${t.license.id}/reissue/`);
    expect([re.status, re.body.message, re.body.data.status]).toEqual([200, 'License reissued successfully', 'Active']);
    const before = new Date(`${t.license.expiry_date}T00:00:00Z`);
    before.setUTCFullYear(before.getUTCFullYear() + 1);
    expect(re.body.data.expiry_date).toBe(before.toISOString().slice(0, 10));
    expect((await caller.get('/api/accounts/agents/')).status).toBe(200);
  });

  it('refuses to re-issue a Platform license with a clear 409, and answers 404 for an unknown license', async () => {
    const t = await create({ enable_farm_sync: false }, { type: 'Platform' });
    const res = await env.as('super').post(`/api/base/licenses/${t.license.id}/reissue/`);
    expect([res.status, res.body.code]).toEqual([409, 'license_not_reissuable']);
    expect(res.body.message).toMatch(/Only SDK licenses can be re-issued/);
    expect((await env.as('super').put('/api/base/licenses/00000000-0000-4000-8000-000000000000/revoke/')).status).toBe(404);
  });
});
