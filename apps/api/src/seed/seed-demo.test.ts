// The demo data's places make sense (issue 33 item 18): every demo operational area and tenant is labelled with a city
// of Oyo State, where they lie, and an area's city is close to it (PostGIS distance on the spheroid), never "Aba".
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { verdictSweepsDone } from '../test/fixtures.js';
import { testEnv, type TestEnv } from '../test/harness.js';

let env: TestEnv;

beforeAll(async () => {
  env = await testEnv();
});

describe('demo places', () => {
  it('labels each demo operational area with a city of its own state, within 40 km of it', async () => {
    const rows = await env.sql<{ area: string; city: string; state: string; km: number }>(sql`
      SELECT oa.name AS area, c.name AS city, s.name AS state,
             ST_Distance(oa.geom::geography, c.location::geography) / 1000 AS km
        FROM operational_areas oa
        JOIN tenants t ON t.id = oa.tenant_id AND t.name IN ('Oyo Agro Cooperative', 'Green Harvest SDK Ltd')
        JOIN cities c ON c.id = oa.city_id
        JOIN states s ON s.id = c.state_id
        -- The seeded areas (dated 300 to 265 days back); other test files of the worker may add areas of their own.
       WHERE oa.created_at < now() - interval '200 days'`);
    expect(rows.length).toBe(6);
    for (const r of rows) {
      expect(r.state, `${r.area} is labelled ${r.city}`).toBe('Oyo');
      expect(r.city).not.toBe('Aba');
      expect(Number(r.km), `${r.area} → ${r.city}`).toBeLessThan(40);
    }
    const tenants = await env.sql<{ city: string; state: string }>(sql`
      SELECT c.name AS city, s.name AS state FROM tenants t JOIN cities c ON c.id = t.city_id JOIN states s ON s.id = c.state_id
       WHERE t.name IN ('Oyo Agro Cooperative', 'Green Harvest SDK Ltd') ORDER BY t.name`);
    expect(tenants).toEqual([
      { city: 'Ibadan', state: 'Oyo' },
      { city: 'Ogbomoso', state: 'Oyo' },
    ]);
  });
});

describe('demo verdicts', () => {
  it("stores each seeded farm's EUDR verdict, the one its drawer computes, so the map colours it (not 'No verdict')", async () => {
    // Other files of this worker may load layers, whose sweeps change verdicts: wait until none is due for tenant A.
    await verdictSweepsDone(env, [env.fx.tenantA]);
    const seeded = await env.sql<{ id: string; verdict: string | null }>(sql`
      SELECT f.id, v.verdict FROM farms f
        JOIN mapping_records m ON m.farm_id = f.id AND m.source = 'seed'
        LEFT JOIN farm_verdicts v ON v.farm_id = f.id
       WHERE f.tenant_id = ${env.fx.tenantA} ORDER BY f.id`);
    expect(seeded.length).toBeGreaterThan(300);
    expect(seeded.filter((f) => f.verdict === null)).toEqual([]);
    for (const f of seeded.slice(0, 5)) {
      const drawer = await env.as('adminA').get(`/api/farms/${f.id}/screening/`);
      expect(drawer.status).toBe(200);
      expect(drawer.body.data.verdict.level, f.id).toBe(f.verdict);
    }
  });
});
