// Provider analytics through the API (issue 11): the counts equal the tables' (deleted tenants left out), mapping data
// and the ranking put each farm in its month and tenant, the Reports progress counts agents who mapped, and a tenant
// admin reads only its own counts and none of the provider's.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../../test/fixtures.js';
import { freshSpot, square } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
// A year no other test writes farms in, so that the figures are exactly this file's.
const YEAR = 2012;
let x: { id: string; name: string };
let y: { id: string; name: string };
let agents: string[];

const count = async (q: ReturnType<typeof sql>) => (await env.sql<{ n: number }>(q))[0]!.n;

async function farm(tenantId: string, farmerId: string, at: string, mappedBy: string | null) {
  const ring = square(...freshSpot(), 100);
  const geo = JSON.stringify({ type: 'Polygon', coordinates: [[...ring, ring[0]]] });
  await env.sql(sql`
    INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm, mapped_by, created_at)
    SELECT ${tenantId}, ${farmerId}, 'Analytics farm', g, 1000, ${mappedBy}, ${at}::timestamptz FROM (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${geo}), 4326) AS g) s`);
}

async function farmer(tenantId: string): Promise<string> {
  const [f] = await env.sql<{ id: string }>(
    sql`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES (${tenantId}, 'Ana', 'Lytic', ${`F-${Date.now()}-${Math.random()}`}) RETURNING id`,
  );
  return f!.id;
}

beforeAll(async () => {
  env = await testEnv();
  x = await makeTenant(env, { license: 'SDK' });
  y = await makeTenant(env);
  agents = [(await makeUser(env, { tenantId: x.id, role: 'agent' })).id, (await makeUser(env, { tenantId: x.id, role: 'agent' })).id];
  const fx = await farmer(x.id);
  await farm(x.id, fx, `${YEAR}-01-05T10:00:00Z`, agents[0]!);
  await farm(x.id, fx, `${YEAR}-01-20T10:00:00Z`, agents[1]!);
  await farm(x.id, fx, `${YEAR}-03-02T10:00:00Z`, agents[0]!);
  await farmer(x.id); // a farmer without farms
  const fy = await farmer(y.id);
  await farm(y.id, fy, `${YEAR}-01-07T10:00:00Z`, null);
  // Tenant Y is deleted: its farm no longer counts anywhere.
  expect((await env.as('super').post('/api/base/tenants/delete/', { uuids: [y.id] })).status).toBe(200);
});

describe('provider analytics', () => {
  it('mapping-data: farms and area per month of the year, for all tenants or one', async () => {
    const one = await env.as('super').get(`/api/analytics/mapping-data/?year=${YEAR}&tenant_id=${x.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data.months).toHaveLength(12);
    expect(one.body.data.months[0]).toEqual({ month: `${YEAR}-01`, label: 'Jan', count: 2, area_sqm: 2000 });
    expect(one.body.data.months[2]).toMatchObject({ month: `${YEAR}-03`, count: 1 });
    expect(one.body.data.total).toBe(3);
    const all = await env.as('super').get(`/api/analytics/mapping-data/?year=${YEAR}`);
    expect(all.body.data.total).toBe(3); // tenant Y's farm is deleted with it
    const bad = await env.as('super').get('/api/analytics/mapping-data/?year=twenty');
    expect([bad.status, Object.keys(bad.body.errors ?? {})[0]]).toEqual([400, 'year']);
  });

  it('mapping-ranking: tenants by farms mapped in the year, deleted ones left out', async () => {
    const res = await env.as('super').get(`/api/analytics/mapping-ranking/?year=${YEAR}`);
    expect(res.status).toBe(200);
    expect(res.body.data.results[0]).toMatchObject({ rank: 1, tenant_id: x.id, mapped_farms: 3, area_sqm: 3000 });
    expect(res.body.data.results.map((r: { tenant_id: string }) => r.tenant_id)).not.toContain(y.id);
  });

  it('tenant-progress: per tenant and month, farms, area and the agents who mapped', async () => {
    const res = await env.as('super').get(`/api/analytics/tenant-progress/?year=${YEAR}`);
    expect(res.status).toBe(200);
    const row = res.body.data.results.find((r: { tenant_id: string }) => r.tenant_id === x.id);
    expect(row).toMatchObject({ tenant_name: x.name, license_type: 'SDK', agents_total: 2, agents_active: 2, farms_mapped: 3, area_sqm: 3000 });
    expect(row.months[0]).toEqual({ month: `${YEAR}-01`, farms_mapped: 2, area_sqm: 2000, agents_active: 2 });
    expect(row.months[2]).toEqual({ month: `${YEAR}-03`, farms_mapped: 1, area_sqm: 1000, agents_active: 1 });
    expect(res.body.data.totals).toMatchObject({ farms_mapped: 3, agents_active: 2 });
    expect(res.body.data.results.map((r: { tenant_id: string }) => r.tenant_id)).not.toContain(y.id);
  });

  it("tenant-progress equals the plain one-pass grouping of the year's farms (month edges included)", async () => {
    const fx = await farmer(x.id);
    await farm(x.id, fx, `${YEAR}-12-31T23:59:59Z`, agents[1]!); // the year's last second, in December
    await farm(x.id, fx, `${YEAR + 1}-01-01T00:00:00Z`, agents[0]!); // the next year's first: not counted
    try {
      for (const year of [YEAR, new Date().getUTCFullYear()]) {
        // The query the Reports route ran before it was folded per month, as the reference.
        const ref = await env.sql<{ tenant_id: string | null; m: number | null; n: number; area: number; agents: number }>(sql`
          SELECT x.tenant_id, x.m, count(*)::int AS n, coalesce(sum(x.area_sqm), 0)::float8 AS area, count(DISTINCT x.mapped_by)::int AS agents
            FROM (SELECT f.tenant_id, extract(month FROM f.created_at AT TIME ZONE 'UTC')::int AS m, f.area_sqm, f.mapped_by FROM farms f
                   WHERE f.created_at >= ${`${year}-01-01T00:00:00Z`}::timestamptz AND f.created_at < ${`${year + 1}-01-01T00:00:00Z`}::timestamptz
                     AND f.tenant_id NOT IN (SELECT dt.id FROM tenants dt WHERE dt.deleted_at IS NOT NULL)) x
           GROUP BY GROUPING SETS ((x.tenant_id, x.m), (x.tenant_id), (x.m), ())`);
        const cell = new Map(ref.map((r) => [`${r.tenant_id ?? '*'}|${r.m ?? '*'}`, r]));
        const expected = (key: string, m: number | '*') => {
          const c = cell.get(`${key}|${m}`);
          return { farms_mapped: c?.n ?? 0, area_sqm: Math.round((c?.area ?? 0) * 100) / 100, agents_active: c?.agents ?? 0 };
        };
        const res = await env.as('super').get(`/api/analytics/tenant-progress/?year=${year}`);
        expect(res.status).toBe(200);
        const data = res.body.data;
        const pick = (o: { farms_mapped: number; area_sqm: number; agents_active: number }) => ({
          farms_mapped: o.farms_mapped,
          area_sqm: o.area_sqm,
          agents_active: o.agents_active,
        });
        for (const t of data.results) {
          expect(pick(t)).toEqual(expected(t.tenant_id, '*'));
          t.months.forEach((mo: { farms_mapped: number; area_sqm: number; agents_active: number }, i: number) =>
            expect(pick(mo)).toEqual(expected(t.tenant_id, i + 1)),
          );
        }
        expect(pick(data.totals)).toEqual(expected('*', '*'));
        data.totals.months.forEach((mo: { farms_mapped: number; area_sqm: number; agents_active: number }, i: number) =>
          expect(pick(mo)).toEqual(expected('*', i + 1)),
        );
        if (year === YEAR)
          expect(data.results.find((r: { tenant_id: string }) => r.tenant_id === x.id).months[11]).toMatchObject({ farms_mapped: 1, agents_active: 1 });
      }
    } finally {
      await env.sql(sql`DELETE FROM farms WHERE farmer_id = ${fx}`);
      await env.sql(sql`DELETE FROM farmers WHERE id = ${fx}`);
    }
  });

  it('the counts equal the tables, deleted tenants left out; a tenant admin reads its own', async () => {
    const live = sql`tenant_id NOT IN (SELECT id FROM tenants WHERE deleted_at IS NOT NULL)`;
    const get = async (path: string, who: 'super' | 'adminA' = 'super') => {
      const res = await env.as(who).get(`/api/analytics/${path}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };
    expect((await get('farms-count/')).count).toBe(await count(sql`SELECT count(*)::int AS n FROM farms WHERE ${live}`));
    expect((await get('agents-count/')).count).toBe(await count(sql`SELECT count(*)::int AS n FROM users WHERE role = 'agent' AND ${live}`));
    expect((await get('operational-areas-count/')).count).toBe(await count(sql`SELECT count(*)::int AS n FROM operational_areas WHERE ${live}`));
    expect((await get(`mapped-farms-count/?tenant_id=${x.id}`)).count).toBe(1);
    expect((await get(`unmapped-farms-count/?tenant_id=${x.id}`)).count).toBe(1);
    expect((await get('tenants-count/')).count).toBe(await count(sql`SELECT count(*)::int AS n FROM tenants WHERE deleted_at IS NULL`));
    const status = await get('tenants-status-count/');
    expect(status.active + status.inactive + status.suspended).toBe(status.total);
    const lic = await get('licenses-count/');
    expect(lic.active + lic.expired + lic.revoked).toBe(lic.total);
    expect(lic.platform + lic.sdk).toBe(lic.total);
    const dash = await get(`tenants-dashboard-count/?year=${new Date().getUTCFullYear()}`);
    expect(dash.months).toHaveLength(12);
    expect(dash.total_tenants).toBe(status.total);
    // A tenant admin: its own counts; naming another tenant is a 404; the provider's analytics are 403.
    expect((await get('farms-count/', 'adminA')).count).toBe(await count(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${env.fx.tenantA}`));
    expect((await env.as('adminA').get(`/api/analytics/farms-count/?tenant_id=${x.id}`)).status).toBe(404);
    for (const p of [
      'tenants-count/',
      'tenants-status-count/',
      'licenses-count/',
      `mapping-ranking/?year=${YEAR}`,
      `tenant-progress/?year=${YEAR}`,
      'tenants-dashboard-count/',
    ]) {
      expect((await env.as('adminA').get(`/api/analytics/${p}`)).status).toBe(403);
    }
  });
});
