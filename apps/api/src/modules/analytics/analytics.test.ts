// Dashboard analytics through the API: counts equal the tables', the mapped series puts each farm in its period and
// compares with the periods before, and a tenant sees only its own.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

const count = async (q: ReturnType<typeof sql>) => (await env.sql<{ n: number }>(q))[0]!.n;

describe('analytics', () => {
  it("counts the tenant's agents, farmers, farms, areas, devices and mapped farmers", async () => {
    const t = env.fx.tenantA;
    const res = await env.as('adminA').get('/api/analytics/');
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.agents).toBe(await count(sql`SELECT count(*)::int AS n FROM users WHERE tenant_id = ${t} AND role = 'agent'`));
    expect(d.farmers).toBe(await count(sql`SELECT count(*)::int AS n FROM farmers WHERE tenant_id = ${t}`));
    expect(d.farms).toBe(await count(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${t}`));
    expect(d.operational_areas).toBe(await count(sql`SELECT count(*)::int AS n FROM operational_areas WHERE tenant_id = ${t}`));
    expect(d.gps_devices).toBe(
      await count(sql`SELECT count(DISTINCT gps_device_id)::int AS n FROM mapping_records WHERE tenant_id = ${t} AND coalesce(gps_device_id, '') <> ''`),
    );
    expect(d.mapped_farmers + d.unmapped_farmers).toBe(d.farmers);
    expect(d.mapped_farmers).toBe(await count(sql`SELECT count(DISTINCT farmer_id)::int AS n FROM farms WHERE tenant_id = ${t}`));
    expect(d.farms).toBeGreaterThan(0);
    // Tenant B's own numbers differ, and B cannot name A.
    const b = await env.as('adminB').get('/api/analytics/');
    expect(b.body.data.farms).toBe(await count(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${env.fx.tenantB}`));
    expect((await env.as('adminB').get(`/api/analytics/?tenant_id=${t}`)).status).toBe(404);
    // Provider staff: one tenant, or all of them.
    expect((await env.as('super').get(`/api/analytics/?tenant_id=${t}`)).body.data.farms).toBe(d.farms);
    // (deleted tenants' farms are left out: soft delete, issue 11)
    expect((await env.as('super').get('/api/analytics/')).body.data.farms).toBe(
      await count(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id NOT IN (SELECT id FROM tenants WHERE deleted_at IS NOT NULL)`),
    );
  });

  it('puts farms mapped in each period in its bucket, and compares with the periods before', async () => {
    const t = env.fx.tenantA;
    // Two farms of tenant A moved to known days: 10 days ago, and 40 days ago (the previous 30 days); put back after.
    const farms = await env.sql<{ id: string; created_at: string }>(
      sql`SELECT id, created_at::text AS created_at FROM farms WHERE tenant_id = ${t} ORDER BY id LIMIT 2`,
    );
    const before = (await env.as('adminA').get('/api/analytics/tenant-mapped-count/?range_type=days&range_value=30')).body.data;
    await env.sql(sql`UPDATE farms SET created_at = now() - interval '10 days' WHERE id = ${farms[0]!.id}`);
    await env.sql(sql`UPDATE farms SET created_at = now() - interval '40 days' WHERE id = ${farms[1]!.id}`);
    const res = await env.as('adminA').get('/api/analytics/tenant-mapped-count/?range_type=days&range_value=30');
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.buckets).toHaveLength(30);
    expect(d.buckets[29].period).toBe(new Date().toISOString().slice(0, 10));
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    const bucket = d.buckets.find((b: { period: string }) => b.period === tenDaysAgo);
    expect(bucket.count).toBeGreaterThanOrEqual(1);
    expect(d.total).toBe(d.buckets.reduce((n: number, b: { count: number }) => n + b.count, 0));
    expect(d.total).toBe(
      await count(
        sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${t} AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '29 days'`,
      ),
    );
    expect(d.previous_total).toBe(
      await count(sql`
      SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${t}
         AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '59 days'
         AND created_at < date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '29 days'`),
    );
    expect(d.previous_total).toBeGreaterThanOrEqual(1);
    expect(d.change_percent).toBe(Math.round(((d.total - d.previous_total) / d.previous_total) * 1000) / 10);
    expect(before.range_type).toBe('days');

    const months = (await env.as('adminA').get('/api/analytics/tenant-mapped-count/?range_type=months&range_value=12')).body.data;
    expect(months.buckets).toHaveLength(12);
    expect(months.buckets[11].period).toBe(new Date().toISOString().slice(0, 7));
    const years = (await env.as('adminA').get('/api/analytics/tenant-mapped-count/?range_type=years&range_value=2')).body.data;
    expect(years.buckets.map((b: { period: string }) => b.period)).toEqual([String(new Date().getUTCFullYear() - 1), String(new Date().getUTCFullYear())]);
    // Put the farms back as they were.
    for (const f of farms) await env.sql(sql`UPDATE farms SET created_at = ${f.created_at}::timestamptz WHERE id = ${f.id}`);
  });

  it('names a bad range', async () => {
    const r1 = await env.as('adminA').get('/api/analytics/tenant-mapped-count/?range_type=weeks');
    expect(r1.status).toBe(400);
    expect(Object.keys(r1.body.errors)[0]).toBe('range_type');
    const r2 = await env.as('adminA').get('/api/analytics/tenant-mapped-count/?range_value=0');
    expect(Object.keys(r2.body.errors)[0]).toBe('range_value');
    expect((await env.as('agentA').get('/api/analytics/')).status).toBe(403);
  });
});
