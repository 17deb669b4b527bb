// Issue 33 on licenses: Rotate key (a new key shown once signs captures, the old one is refused), a tenant edit that
// does not re-date the license (a type change issues a new license and keeps the old one, revoked, in the history),
// and tenant and license state changes racing a tenant delete: 200, 400 (delete of an already deleted tenant), 404 or
// 409, never a 500 (the tenant row is locked by every change; run on PostgreSQL too, where the requests really overlap).
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../lib/crypto.js';
import { makeTenant } from '../../test/fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
let seq = 0;
const uniq = () => `${process.pid}-${Date.now()}-${++seq}`;
const NIGERIA = '1e7050d0-9e8f-5e82-9ca3-884850256d74';
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  env = await testEnv();
});

type Created = {
  id: string;
  name: string;
  email: string;
  admin: { email: string };
  license: { id: string; issued_date: string; expiry_date: string; key: string };
  license_key: string;
};

const body = (t: { name: string; email: string; adminEmail: string }, license: Record<string, unknown>) => ({
  name: t.name,
  address: '1 Farm Road',
  phone_number: '+2348030000001',
  email: t.email,
  country_id: NIGERIA,
  city: 'Ibadan',
  enable_farm_sync: license['type'] === 'SDK',
  admin: { email: t.adminEmail, first_name: 'Ada', last_name: 'Admin', phone_number: '+2348030000002' },
  license: { type: 'SDK', issued_date: day(0), expiry_date: day(365), price: '220000', ...license },
});

async function create(license: Record<string, unknown> = {}): Promise<Created> {
  const u = uniq();
  const res = await env
    .as('super')
    .post('/api/base/tenants/', body({ name: `License Test Org ${u}`, email: `lic-${u}@test.example`, adminEmail: `lic-admin-${u}@test.example` }, license));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Created;
}

const capture = (key: string) => env.as('anonymous').post('/api/farmers/', { first_name: 'Key', last_name: 'Check' }, { 'x-license-key': key });

describe('Rotate key', () => {
  it('answers a new key once; the new key signs captures, the old one is refused as revoked; the old license stays in the history', async () => {
    const t = await create();
    expect((await capture(t.license_key)).status).toBe(201);
    const res = await env.as('super').post(`/api/base/licenses/${t.license.id}/rotate-key/`);
    expect([res.status, res.body.message], JSON.stringify(res.body)).toEqual([200, 'License key rotated successfully']);
    const rotated = res.body.data as { id: string; license_key: string; key: string; status: string; type: string; issued_date: string; expiry_date: string };
    expect(rotated.license_key).toMatch(/^SDK-[A-Za-z0-9_-]{43}$/);
    expect(rotated.license_key).not.toBe(t.license_key);
    expect(rotated).toMatchObject({
      key: rotated.license_key.slice(0, 10),
      status: 'Active',
      type: 'SDK',
      issued_date: t.license.issued_date,
      expiry_date: t.license.expiry_date,
    });
    expect(rotated.id).not.toBe(t.license.id);
    // Stored hashed: only the hash and the hint
    const [stored] = await env.sql<{ key_hash: string; key_hint: string }>(sql`SELECT key_hash, key_hint FROM licenses WHERE id = ${rotated.id}`);
    expect(stored).toEqual({ key_hash: sha256(rotated.license_key), key_hint: rotated.license_key.slice(0, 10) });
    // The new key captures; the old one gets the usual answer for a revoked license
    expect((await capture(rotated.license_key)).status).toBe(201);
    const old = await capture(t.license_key);
    expect([old.status, old.body.code]).toEqual([403, 'license_revoked']);
    // The tenant's current license is the new one; the history has both
    const tenant = await env.as('super').get(`/api/base/tenants/${t.id}/`);
    expect(tenant.body.data.license).toMatchObject({ id: rotated.id, status: 'Active' });
    expect(JSON.stringify(tenant.body)).not.toContain(rotated.license_key);
    const history = await env.as('super').get(`/api/base/licenses/?tenant_id=${t.id}`);
    expect(history.body.data.results.map((l: { id: string; status: string }) => [l.id, l.status])).toEqual([
      [rotated.id, 'Active'],
      [t.license.id, 'Revoked'],
    ]);
    const [log] = await env.sql<{ description: string }>(
      sql`SELECT description FROM activity_logs WHERE tenant_id = ${t.id} AND description LIKE '%rotated the key%'`,
    );
    expect(log!.description).toContain(`${t.license.key}… revoked, ${rotated.key}… issued`);
    expect(log!.description).not.toContain(rotated.license_key);
  });

  it('refuses a revoked or superseded license with 409 (and will not re-issue a superseded one), an unknown one with 404, and other roles with 403', async () => {
    const t = await create();
    const first = await env.as('super').post(`/api/base/licenses/${t.license.id}/rotate-key/`);
    expect(first.status).toBe(200);
    const again = await env.as('super').post(`/api/base/licenses/${t.license.id}/rotate-key/`);
    expect([again.status, again.body.code]).toEqual([409, 'license_superseded']);
    // Nor can the superseded license be re-issued (that would bring its old key back)
    const reissue = await env.as('super').post(`/api/base/licenses/${t.license.id}/reissue/`);
    expect([reissue.status, reissue.body.code]).toEqual([409, 'license_superseded']);
    expect((await capture(t.license_key)).status).toBe(403);
    const revoked = await makeTenant(env, { license: 'SDK', revoked: true });
    const [lic] = await env.sql<{ id: string }>(sql`SELECT id FROM licenses WHERE tenant_id = ${revoked.id}`);
    const r = await env.as('super').post(`/api/base/licenses/${lic!.id}/rotate-key/`, {});
    expect([r.status, r.body.code]).toEqual([409, 'license_not_rotatable']);
    expect((await env.as('super').post('/api/base/licenses/00000000-0000-4000-8000-000000000000/rotate-key/')).status).toBe(404);
    for (const persona of ['adminA', 'agentA', 'adminB'] as const) {
      expect((await env.as(persona).post(`/api/base/licenses/${first.body.data.id}/rotate-key/`)).status).toBe(403);
    }
    const [n] = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM licenses WHERE tenant_id = ${t.id}`);
    expect(n!.n).toBe(2);
  });
});

describe('Tenant edit and the license dates', () => {
  it('keeps the issued date on edit (expiry and price change); a type change issues a new license and keeps the old one, revoked', async () => {
    const t = await create({ issued_date: day(-40), expiry_date: day(300) });
    expect(t.license.issued_date).toBe(day(-40));
    const who = { name: t.name, email: t.email, adminEmail: t.admin.email };
    // The console sends today's date as issued_date on every submit (docs/requirements.md §4): the license keeps its own.
    const edit = await env.as('super').put(`/api/base/tenants/${t.id}/`, body(who, { issued_date: day(0), expiry_date: day(500), price: '250000' }));
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(edit.body.data.license).toMatchObject({ id: t.license.id, issued_date: day(-40), expiry_date: day(500), price: '250000.00', key: t.license.key });
    expect(edit.body.data.license_key).toBeUndefined();
    expect((await capture(t.license_key)).status).toBe(201);
    // An expiry before the kept issued date is refused, naming the field
    const early = await env.as('super').put(`/api/base/tenants/${t.id}/`, body(who, { issued_date: day(-60), expiry_date: day(-50) }));
    expect([early.status, Object.keys(early.body.errors ?? {})[0]]).toEqual([400, 'license.expiry_date']);
    // A type change: a new Platform license from today, its key shown once; the SDK license is revoked and kept
    const change = await env.as('super').put(`/api/base/tenants/${t.id}/`, body(who, { type: 'Platform', issued_date: day(0), expiry_date: day(365) }));
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    expect(change.body.data.license_key).toMatch(/^PLT-/);
    expect(change.body.data.license).toMatchObject({
      type: 'Platform',
      issued_date: day(0),
      expiry_date: day(365),
      status: 'Active',
      key: change.body.data.license_key.slice(0, 10),
    });
    expect(change.body.data.license.id).not.toBe(t.license.id);
    const history = await env.as('super').get(`/api/base/licenses/?tenant_id=${t.id}`);
    expect(history.body.data.results.map((l: { type: string; status: string; issued_date: string }) => [l.type, l.status, l.issued_date])).toEqual([
      ['Platform', 'Active', day(0)],
      ['SDK', 'Revoked', day(-40)],
    ]);
    const old = await capture(t.license_key);
    expect([old.status, old.body.code]).toEqual([403, 'license_revoked']);
  });
});

describe('tenant and license changes racing a tenant delete', () => {
  it('answers 200, 400, 404 or 409 to every request, never a 500, and leaves the tenant deleted', async () => {
    const statuses = new Map<number, number>();
    for (let round = 0; round < 8; round++) {
      const t = await create();
      const who = { name: t.name, email: t.email, adminEmail: t.admin.email };
      const s = env.as('super');
      const results = await Promise.all([
        s.put(`/api/base/licenses/${t.license.id}/revoke/`),
        s.post(`/api/base/licenses/${t.license.id}/reissue/`),
        s.post('/api/base/tenants/delete/', { uuids: [t.id] }),
        s.post(`/api/base/licenses/${t.license.id}/rotate-key/`),
        s.put(`/api/base/licenses/${t.license.id}/revoke/`),
        s.put(`/api/base/tenants/${t.id}/suspend-deactivate/`, { is_suspended: true }),
        s.put(`/api/base/tenants/${t.id}/`, body(who, { expiry_date: day(400) })),
        s.post(`/api/base/licenses/${t.license.id}/reissue/`),
        s.post('/api/base/tenants/delete/', { uuids: [t.id] }),
      ]);
      for (const r of results) {
        expect([200, 400, 404, 409], `${r.status} ${JSON.stringify(r.body)}`).toContain(r.status);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
      const [row] = await env.sql<{ deleted: boolean }>(sql`SELECT deleted_at IS NOT NULL AS deleted FROM tenants WHERE id = ${t.id}`);
      expect(row!.deleted).toBe(true);
    }
    // One delete of each round won: 8 deletes answered 200
    expect(statuses.get(200)).toBeGreaterThanOrEqual(8);
  });
});
