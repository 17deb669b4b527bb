// The Farmlands export (POST /base/export/mappings/): the screen's columns, the list's search, tenant scoping (tenant B's
// farms never appear in tenant A's file) and 400 for an unknown filter.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

const lines = (csv: string) => csv.split('\r\n').filter((l) => l.length > 0);

describe('POST /base/export/mappings/', () => {
  it('downloads mappings.csv with the Farmlands columns and only the tenant’s farms', async () => {
    const res = await env
      .as('adminA')
      .post('/api/base/export/mappings/', { column_list: ['name', 'farmer', 'area', 'operational_area', 'updated_at', 'status'] });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain('mappings.csv');
    const rows = lines(res.raw);
    expect(rows[0]).toBe('Farm name,Farmer,Area (sqm),Operational area,Updated at,Status');
    const count = (await env.as('adminA').get('/api/farms/?page_size=1')).body.data.count;
    expect(rows.length - 1).toBe(count);
    const statuses = new Set(rows.slice(1).map((r) => r.split(',').pop()));
    for (const s of statuses) expect(['Mapped', 'Overlap']).toContain(s);
    const idsB = (await env.as('adminB').get('/api/farms/?page_size=100')).body.data.results.map((f: { id: string }) => f.id);
    const idsA = new Set(lines((await env.as('adminA').post('/api/base/export/mappings/', { column_list: ['id'] })).raw).slice(1));
    expect(idsA.size).toBe(count);
    for (const id of idsB) expect(idsA.has(id)).toBe(false);
  });

  it('applies the search filter and refuses unknown filters and agents', async () => {
    const one = (await env.as('adminA').get('/api/farms/?page_size=1')).body.data.results[0];
    const res = await env.as('adminA').post('/api/base/export/mappings/', { column_list: ['name'], filters: { search: one.name } });
    expect(lines(res.raw).slice(1)).toContain(one.name);
    expect((await env.as('adminA').post('/api/base/export/mappings/', { column_list: ['name'], filters: { colour: 'red' } })).status).toBe(400);
    expect((await env.as('agentA').post('/api/base/export/mappings/', { column_list: ['name'] })).status).toBe(403);
  });
});

describe('POST /base/export/mappings/ with tenant_id (a tenant details page)', () => {
  it("gives provider staff one tenant's farms, with the capture columns", async () => {
    const farmB = (await env.as('adminB').get('/api/farms/?page_size=1')).body.data.results[0];
    const countB = (await env.as('adminB').get('/api/farms/?page_size=1')).body.data.count;
    const countAll = (await env.as('super').get('/api/farms/?page_size=1')).body.data.count;
    const res = await env.as('super').post('/api/base/export/mappings/', {
      column_list: ['id', 'tenant_id', 'mapped_by', 'gps_device_id', 'location', 'region', 'coordinates'],
      filters: { tenant_id: farmB.tenant_id },
    });
    expect(res.status).toBe(200);
    const rows = lines(res.raw);
    expect(rows[0]).toBe('Farm id,Tenant id,Mapped by,GPS device id,Location,Region,Coordinates');
    for (const r of rows.slice(1)) expect(r.split(',')[1]).toBe(farmB.tenant_id);
    expect(rows.length - 1).toBe(countB);
    expect(countAll).toBeGreaterThan(countB);
    expect(rows.slice(1).map((r) => r.split(',')[0])).toContain(farmB.id);
  });

  it("names each farm's tenant in the provider's file (the Farmlands table's Tenant column)", async () => {
    const farmB = (await env.as('adminB').get('/api/farms/?page_size=1')).body.data.results[0];
    const [t] = await env.sql<{ name: string }>(sql`SELECT name FROM tenants WHERE id = ${farmB.tenant_id}`);
    const res = await env.as('super').post('/api/base/export/mappings/', { column_list: ['id', 'tenant'], filters: { tenant_id: farmB.tenant_id } });
    expect(res.status).toBe(200);
    const rows = lines(res.raw);
    expect(rows[0]).toBe('Farm id,Tenant');
    expect(rows.length).toBeGreaterThan(1);
    for (const r of rows.slice(1)) expect(r.slice(r.indexOf(',') + 1).replace(/^"|"$/g, '')).toBe(t!.name);
  });

  it("gives a tenant admin naming another tenant an empty file, never that tenant's farms", async () => {
    const farmB = (await env.as('adminB').get('/api/farms/?page_size=1')).body.data.results[0];
    const res = await env.as('adminA').post('/api/base/export/mappings/', { column_list: ['id'], filters: { tenant_id: farmB.tenant_id } });
    expect(res.status).toBe(200);
    expect(lines(res.raw)).toEqual(['Farm id']);
    expect((await env.as('super').post('/api/base/export/mappings/', { column_list: ['id'], filters: { tenant_id: 'nope' } })).status).toBe(400);
  });
});
