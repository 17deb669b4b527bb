// The Tenants and Licenses exports (POST /base/export/tenants/ and /licenses/): provider staff only, the lists' filters,
// the license merged in, the key as its hint, and the formula-injection guard on an organisation's own text.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTenant } from '../../test/fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

const lines = (csv: string) =>
  csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);

describe('provider exports', () => {
  it('tenants.csv: chosen columns with the license merged in, filters applied, formulas neutralised', async () => {
    const tag = `Exp${Date.now()}`;
    const created = await env.as('super').post('/api/base/tenants/', {
      name: `=HYPERLINK("x") ${tag}`,
      phone_number: '+2348030000001',
      email: `${tag.toLowerCase()}@org.example`,
      country_id: '1e7050d0-9e8f-5e82-9ca3-884850256d74',
      admin: { email: `${tag.toLowerCase()}@admin.example`, first_name: 'Exa', last_name: 'Port', phone_number: '+2348030000002' },
      license: { type: 'Platform', issued_date: '2026-01-01', expiry_date: '2099-01-01', price: '1500000' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const res = await env
      .as('super')
      .post('/api/base/export/tenants/', { column_list: ['name', 'type', 'price', 'expiry_date', 'admin', 'status'], filters: { search: tag } });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain('tenants.csv');
    expect(lines(res.raw)).toEqual([
      'Organisation,License type,Price,Expiry date,Admin,Admin email,Status',
      `"'=HYPERLINK(""x"") ${tag}",Platform,1500000.00,2099-01-01,Exa Port,${tag.toLowerCase()}@admin.example,Active`,
    ]);
    const none = await env.as('super').post('/api/base/export/tenants/', { column_list: ['name'], filters: { search: tag, license_type: 'SDK' } });
    expect(lines(none.raw)).toHaveLength(1);
    expect((await env.as('super').post('/api/base/export/tenants/', { column_list: ['name'], filters: { is_active: 'perhaps' } })).status).toBe(400);
  });

  it('licenses.csv: the key as its hint and the derived status; tenant admins are refused', async () => {
    const t = await makeTenant(env, { license: 'SDK', revoked: true });
    const res = await env.as('super').post('/api/base/export/licenses/', { column_list: ['tenant', 'type', 'key', 'status'], filters: { tenant_id: t.id } });
    expect(res.status).toBe(200);
    expect(lines(res.raw)).toEqual(['Tenant,Type,Key (first 10 characters),Status', `${t.name},SDK,${t.licenseKey.slice(0, 10)},Revoked`]);
    expect(res.raw).not.toContain(t.licenseKey);
    for (const name of ['tenants', 'licenses']) expect((await env.as('adminA').post(`/api/base/export/${name}/`, { column_list: ['id'] })).status).toBe(403);
  });
});
