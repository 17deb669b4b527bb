// The farms list's counts through the API (db/pagination.ts; issue 15): a page that is not full is its own count; the
// unfiltered list and one farmer's farms are exact at any size (tenant_stats, farmers.farm_count); a filter without a
// counter is counted exactly up to 10,000 matches, and past that estimated with count_estimated: true; a page must start
// within the first 10,000 rows. Tenant A's counts never include tenant B's farms. Runs on both engines.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { COUNT_EXACT_UP_TO } from '../../db/pagination.js';
import { freshSpot, insertAreaDirect, square, tenantGeo } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

const one = async (q: ReturnType<typeof sql>) => (await env.sql<{ n: number }>(q))[0]!.n;

/** n farms of tenant B in the given area (direct inserts, one statement), named `${tag} g`. */
async function farmsInArea(tag: string, areaId: string, farmerId: string, n: number): Promise<void> {
  const [lng, lat] = freshSpot();
  await env.sql(sql`
    INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm, operational_area_id, created_at)
    SELECT ${env.fx.tenantB}, ${farmerId}, ${tag} || ' ' || g,
           ST_MakeEnvelope(${lng} + (g % 100) * 0.0002, ${lat} + (g / 100) * 0.0002, ${lng} + (g % 100) * 0.0002 + 0.0001, ${lat} + (g / 100) * 0.0002 + 0.0001, 4326),
           100, ${areaId}, now() - (g || ' seconds')::interval
      FROM generate_series(1, ${n}::int) g`);
}

describe('farms list counts', () => {
  it('exact when small (a page that is not full, or a bounded count), exact from the rollups at any size, estimated past 10,000 matches', async () => {
    const geoB = await tenantGeo(env, env.fx.tenantB);
    const tag = `Count${Date.now()}`;
    const [lng, lat] = freshSpot();
    const big = await insertAreaDirect(env, env.fx.tenantB, square(lng, lat, 10));
    const small = await insertAreaDirect(env, env.fx.tenantB, square(lng + 0.1, lat, 10));
    const [{ id: farmer }] = (await env.sql<{ id: string }>(
      sql`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES (${env.fx.tenantB}, 'Count', ${tag}, ${tag}) RETURNING id`,
    )) as [{ id: string }];
    await farmsInArea(`${tag} big`, big, farmer, COUNT_EXACT_UP_TO + 30);
    await farmsInArea(`${tag} small`, small, geoB.farmerId, 150);
    try {
      const total = await one(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${env.fx.tenantB}`);
      // A first page that is not full: its rows are the count.
      const notFull = (await env.as('adminB').get(`/api/farms/?operational_area=${small}&page_size=100&page=2`)).body.data;
      expect(notFull).toMatchObject({ count: 150, next: null });
      expect(notFull.results).toHaveLength(50);
      // A full page under 10,000 matches: the bounded count, exact.
      const bounded = (await env.as('adminB').get(`/api/farms/?operational_area=${small}&page_size=10`)).body.data;
      expect(bounded.count).toBe(150);
      expect(bounded.count_estimated).toBeUndefined();
      expect(bounded.next).toMatch(/page=2/);
      // Past 10,000 matches of a filter without a counter: an estimate, flagged, above 10,000, newest first.
      const est = (await env.as('adminB').get(`/api/farms/?operational_area=${big}&page_size=10`)).body.data;
      expect(est.count_estimated).toBe(true);
      expect(est.count).toBeGreaterThan(COUNT_EXACT_UP_TO);
      expect(est.results.map((r: { name: string }) => r.name)).toEqual(Array.from({ length: 10 }, (_, i) => `${tag} big ${i + 1}`));
      expect(est.next).toMatch(/page=2/);
      // The same farms as one farmer's (farmers.farm_count) and as the whole list (tenant_stats): exact, not flagged.
      const byFarmer = (await env.as('adminB').get(`/api/farmers/${farmer}/farms/?page_size=10`)).body.data;
      expect(byFarmer.count).toBe(COUNT_EXACT_UP_TO + 30);
      expect(byFarmer.count_estimated).toBeUndefined();
      const all = (await env.as('adminB').get('/api/farms/?page_size=10')).body.data;
      expect(all.count).toBe(total);
      expect(all.count_estimated).toBeUndefined();
      // Pages start within the first 10,000 rows: page 1,000 of 10 is the last one, page 1,001 a 400 naming page.
      const last = await env.as('adminB').get(`/api/farms/?operational_area=${big}&page_size=10&page=1000`);
      expect(last.status).toBe(200);
      expect(last.body.data.results).toHaveLength(10);
      expect(last.body.data.next).toBeNull();
      const deep = await env.as('adminB').get('/api/farms/?page_size=10&page=1001');
      expect(deep.status).toBe(400);
      expect(Object.keys(deep.body.errors)[0]).toBe('page');
      expect(deep.body.message).toMatch(/10,000/);
      // Tenant A's counts do not include them.
      expect((await env.as('adminA').get('/api/farms/?page_size=1')).body.data.count).toBe(
        await one(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${env.fx.tenantA}`),
      );
      expect((await env.as('adminA').get(`/api/farms/?operational_area=${big}`)).body.data).toMatchObject({ count: 0, results: [] });
    } finally {
      await env.sql(sql`DELETE FROM farmers WHERE id = ${farmer}`);
      await env.sql(sql`DELETE FROM farms WHERE tenant_id = ${env.fx.tenantB} AND name LIKE ${`${tag} %`}`);
      await env.sql(sql`DELETE FROM operational_areas WHERE id IN (${big}, ${small})`);
    }
  }, 180_000); // inserts 10,180 farms through the rollup triggers: a hang guard for a loaded machine, not a clock

  it('documents the contract in the API docs: count, count_estimated and the page bound of every list', async () => {
    const docs = (await env.as('anonymous').get('/api/openapi.json')).body;
    for (const path of ['/api/farms/', '/api/farmers/', '/api/accounts/agents/', '/api/activity-logs/']) {
      const get = JSON.stringify(docs.paths[path]?.get ?? {});
      expect(get, path).toContain('count_estimated');
      expect(get, path).toMatch(/an estimate \(\\"about\\"\)/);
      expect(get, path).toContain('within the first 10,000 rows');
    }
  });
});
