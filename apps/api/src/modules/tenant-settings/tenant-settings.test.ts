// Tenant configuration through the API: read by the tenant's users, changed by its admins within bounds (audited),
// the settings summary, provider reads by tenant_id, and tenant isolation.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;

beforeAll(async () => {
  env = await testEnv();
});
afterAll(async () => {
  await env.as('adminB').put('/api/base/tenant-configurations', { minimum_farm_size: 100, recognition_threshold: 0.5 });
});

describe('tenant configuration', () => {
  it('is read by admins and agents of the tenant, and by provider staff naming the tenant', async () => {
    const a = await env.as('agentA').get('/api/base/tenant-configurations');
    expect(a.status).toBe(200);
    expect(a.body.data).toMatchObject({ tenant_id: env.fx.tenantA, minimum_farm_size: expect.any(Number), recognition_threshold: expect.any(Number) });
    expect((await env.as('super').get('/api/base/tenant-configurations')).status).toBe(400);
    expect((await env.as('super').get(`/api/base/tenant-configurations?tenant_id=${env.fx.tenantB}`)).body.data.tenant_id).toBe(env.fx.tenantB);
  });

  it('is changed by the admin within bounds, with an activity entry', async () => {
    const ok = await env.as('adminB').put('/api/base/tenant-configurations', { minimum_farm_size: 250, recognition_threshold: 0.6 });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ minimum_farm_size: 250, recognition_threshold: 0.6 });
    expect((await env.as('adminB').get('/api/base/tenant-configurations')).body.data.minimum_farm_size).toBe(250);
    const [log] = await env.sql<{ description: string }>(
      sql`SELECT description FROM activity_logs WHERE tenant_id = ${env.fx.tenantB} ORDER BY created_at DESC LIMIT 1`,
    );
    expect(log!.description).toMatch(/minimum farm size 250/);
    for (const bad of [{ minimum_farm_size: -1 }, { recognition_threshold: 0 }, { recognition_threshold: 1.5 }, {}, { other: 1 }]) {
      const res = await env.as('adminB').put('/api/base/tenant-configurations', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await env.as('adminB').put('/api/base/tenant-configurations', { recognition_threshold: 1 })).status).toBe(200);
  });

  it('cannot be changed by agents, provider staff or another tenant', async () => {
    expect((await env.as('agentA').put('/api/base/tenant-configurations', { minimum_farm_size: 1 })).status).toBe(403);
    expect((await env.as('adminB').put(`/api/base/tenant-configurations?tenant_id=${env.fx.tenantA}`, { minimum_farm_size: 1 })).status).toBe(404);
    expect((await env.as('adminB').get(`/api/base/tenant-configurations?tenant_id=${env.fx.tenantA}`)).status).toBe(404);
    expect((await env.as('adminA').get('/api/base/tenant-configurations')).body.data.minimum_farm_size).not.toBe(1);
  });

  it('settings summarise tenant, current license and configuration', async () => {
    const res = await env.as('adminA').get('/api/base/tenant-settings/');
    expect(res.status).toBe(200);
    expect(res.body.data.tenant).toMatchObject({ id: env.fx.tenantA, uuid: env.fx.tenantA, country: 'Nigeria' });
    expect(res.body.data.license).toMatchObject({ type: 'Platform', status: 'Active', is_revoked: false, is_expired: false });
    expect(res.body.data.configuration.tenant_id).toBe(env.fx.tenantA);
    expect((await env.as('agentA').get('/api/base/tenant-settings/')).status).toBe(403);
    expect((await env.as('adminB').get(`/api/base/tenant-settings/?tenant_id=${env.fx.tenantA}`)).status).toBe(404);
  });
});
