// Farms per state by the farm's own geometry (issue 33): a farm mapped in Kano, Lagos or Ibadan counts in Kano, Lagos or
// Oyo State, whatever city its operational area is labelled with. The reference is where those cities are (their
// coordinates), not the code under test.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, makeUser } from '../../test/fixtures.js';
import { insertFarmDirect, square } from '../../test/geo-fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;

beforeAll(async () => {
  env = await testEnv();
});

describe('GET /farms/categorized-by-state and /farms/regional', () => {
  it("place each farm in the state where it lies, not in its operational area's city's state", async () => {
    const t = await makeTenant(env);
    const admin = await env.sessionFor((await makeUser(env, { tenantId: t.id, role: 'tenant_admin' })).id);
    const [farmer] = await env.sql<{ id: string }>(
      sql`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES (${t.id}, 'State', 'Probe', ${`STATE-${t.id}`}) RETURNING id`,
    );
    // One area labelled Ibadan (Oyo State), holding farms that lie elsewhere.
    const [ibadan] = await env.sql<{ id: string }>(sql`SELECT c.id FROM cities c JOIN states s ON s.id = c.state_id WHERE c.name = 'Ibadan' AND s.code = 'OY'`);
    const [region] = await env.sql<{ id: string }>(
      sql`INSERT INTO regions (tenant_id, country_id, name) VALUES (${t.id}, '1e7050d0-9e8f-5e82-9ca3-884850256d74', 'Everywhere') RETURNING id`,
    );
    const [area] = await env.sql<{ id: string }>(sql`
      INSERT INTO operational_areas (tenant_id, name, region_id, city_id, geom, area_sqm)
      SELECT ${t.id}, 'Labelled Ibadan', ${region!.id}, ${ibadan!.id}, g, ST_Area(g::geography) FROM (SELECT ST_MakeEnvelope(2.7, 4.3, 14.6, 13.8, 4326) AS g) s RETURNING id`);
    // Kano city centre (8.52 E, 12.00 N), Ikeja in Lagos (3.35 E, 6.60 N), Ibadan (3.90 E, 7.38 N): 2, 1 and 1 farms.
    const places: Array<[number, number]> = [
      [8.52, 12.0],
      [8.53, 12.01],
      [3.35, 6.6],
      [3.9, 7.38],
    ];
    for (const [lng, lat] of places) {
      const id = await insertFarmDirect(env, t.id, farmer!.id, square(lng, lat, 100));
      await env.sql(sql`UPDATE farms SET operational_area_id = ${area!.id} WHERE id = ${id}`);
    }
    const cat = await admin.get('/api/farms/categorized-by-state');
    expect(cat.status).toBe(200);
    expect(cat.body.data.map((s: { code: string; total_farms: number }) => [s.code, s.total_farms])).toEqual([
      ['KN', 2],
      ['LA', 1],
      ['OY', 1],
    ]);
    const regional = await admin.get('/api/farms/regional?name=Nigeria');
    const byCode = new Map((regional.body.data as Array<{ code: string; total_farms: number }>).map((s) => [s.code, s.total_farms]));
    expect([byCode.get('KN'), byCode.get('LA'), byCode.get('OY'), byCode.get('OG')]).toEqual([2, 1, 1, 0]);
    expect((regional.body.data as Array<{ total_farms: number }>).reduce((n, s) => n + s.total_farms, 0)).toBe(4);
  });
});
