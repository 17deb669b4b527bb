// The activity log: every mutation writes its entry in the same transaction; listing filters by search, action and
// dates; provider staff see every tenant, a tenant admin only their own, an agent nothing.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

describe('activity log', () => {
  it('pages with the default size of 30 and the list envelope', async () => {
    const res = await env.as('super').get('/api/activity-logs/');
    expect(res.status).toBe(200);
    expect(res.body.data.results.length).toBe(30);
    expect(res.body.data.count).toBeGreaterThanOrEqual(300);
    expect(res.body.data.next).toMatch(/page=2/);
    expect(res.body.data.previous).toBeNull();
    expect(Object.keys(res.body.data.results[0]).sort()).toEqual([
      'action',
      'country',
      'description',
      'id',
      'platform',
      'role',
      'tenant',
      'timestamp',
      'user',
      'user_id',
    ]);
  });

  it('shows a tenant admin only their tenant', async () => {
    const res = await env.as('adminB').get('/api/activity-logs/?page_size=100');
    const tenants = new Set(res.body.data.results.map((r: { tenant: string }) => r.tenant));
    expect([...tenants]).toEqual(['Green Harvest SDK Ltd']);
    const all = await env.as('super').get('/api/activity-logs/?page_size=100');
    expect(all.body.data.count).toBeGreaterThan(res.body.data.count);
  });

  it('filters by action, search and date range, ignoring empty values', async () => {
    const admin = env.as('adminA');
    const creates = await admin.get('/api/activity-logs/?action=Create&search=&date_after=');
    expect(creates.status).toBe(200);
    expect(creates.body.data.results.every((r: { action: string }) => r.action === 'Create')).toBe(true);
    const search = await admin.get('/api/activity-logs/?search=operational%20area');
    expect(search.body.data.results.length).toBeGreaterThan(0);
    expect(search.body.data.results.every((r: { description: string }) => /operational area/i.test(r.description))).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    const future = await admin.get(`/api/activity-logs/?date_after=2999-01-01`);
    expect(future.body.data.count).toBe(0);
    const upToToday = await admin.get(`/api/activity-logs/?date_before=${today}`);
    expect(upToToday.body.data.count).toBeGreaterThan(0);
  });

  it('names a bad filter value', async () => {
    const res = await env.as('adminA').get('/api/activity-logs/?action=Explode&date_after=21-11-2026');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['action', 'date_after']);
  });

  it('keeps the entry and the change together: a failed mutation leaves neither', async () => {
    const user = await makeUser(env, { tenantId: env.fx.tenantA, role: 'tenant_admin' });
    const me = await env.sessionFor(user.id);
    const before = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM activity_logs WHERE user_id = ${user.id}`);
    // The region name is taken: the service fails after its checks, nothing is written.
    await me.post('/api/base/regions/', { country_id: '1e7050d0-9e8f-5e82-9ca3-884850256d74', name: 'Ogbomosho North' });
    const after = await env.sql<{ n: number }>(sql`SELECT count(*)::int AS n FROM activity_logs WHERE user_id = ${user.id}`);
    expect(after[0]!.n).toBe(before[0]!.n);
    const ok = await me.post('/api/base/regions/', { country_id: '1e7050d0-9e8f-5e82-9ca3-884850256d74', name: `Fresh ${Date.now()}` });
    expect(ok.status).toBe(201);
    const logged = await env.sql<{ action: string; platform: string; country: string }>(
      sql`SELECT action, platform, country FROM activity_logs WHERE user_id = ${user.id}`,
    );
    expect(logged).toEqual([{ action: 'Create', platform: 'api', country: 'Nigeria' }]);
  });

  it('refuses agents', async () => {
    expect((await env.as('agentA').get('/api/activity-logs/')).status).toBe(403);
  });
});
