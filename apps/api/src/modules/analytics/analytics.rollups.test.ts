// The rollups of migrations 0016, 0017, 0019 and 0020 (tenant_stats, farm_period_stats, farmers.farm_count and mapped,
// tenant_gps_devices, agent_stats)
// against a fresh aggregation of the farms, farmers and mapping records after inserts (one row and many, two tenants in one statement), updates (area, operational
// area, overlap, flag, creation date, farmer), deletes (a farm, a farmer with its farms, a tenant outright) and a soft
// delete; and every answer read from them (farms overview, /analytics/, tenant-mapped-count, mapping-data, the provider
// counts and ranking, the lists' unfiltered and is_mapped counts) against the same fresh figures, per tenant: tenant
// B's admin sees B's totals only. Runs on both engines.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, withScope } from '../../db/client.js';
import { freshSpot, insertAreaDirect, insertFarmDirect, offset, square, tenantGeo } from '../../test/geo-fixtures.js';
import { makeUser } from '../../test/fixtures.js';
import { testEnv, type TestEnv } from '../../test/harness.js';

let env: TestEnv;
beforeAll(async () => {
  env = await testEnv();
});

/** Rows of the rollups that differ from a fresh aggregation (empty when they agree). */
async function rollupMismatches(): Promise<string[]> {
  const rows = await env.sql<{ what: string }>(sql`
    WITH fresh AS (
      SELECT t.id AS tenant_id,
             (SELECT count(*) FROM farms f WHERE f.tenant_id = t.id)::int AS farms,
             (SELECT count(*) FROM farms f WHERE f.tenant_id = t.id AND f.operational_area_id IS NOT NULL)::int AS within,
             (SELECT count(*) FROM farms f WHERE f.tenant_id = t.id AND f.is_overlapping)::int AS overlapping,
             (SELECT count(*) FROM farms f WHERE f.tenant_id = t.id AND f.flag IS NOT NULL)::int AS unrecognized,
             (SELECT count(*) FROM farmers fr WHERE fr.tenant_id = t.id)::int AS farmers,
             (SELECT count(*) FROM farmers fr WHERE fr.tenant_id = t.id AND EXISTS (SELECT 1 FROM farms f WHERE f.farmer_id = fr.id))::int AS mapped
        FROM tenants t
    ), periods AS (
      SELECT tenant_id, 'day' AS grain, (created_at AT TIME ZONE 'UTC')::date AS period, count(*)::int AS n, sum(area_sqm::numeric) AS area FROM farms GROUP BY 1, 3
      UNION ALL
      SELECT tenant_id, 'month', date_trunc('month', created_at AT TIME ZONE 'UTC')::date, count(*)::int, sum(area_sqm::numeric) FROM farms GROUP BY 1, 3
    ), agents AS (
      SELECT tenant_id, user_id, sum(farms)::int AS farms, sum(area) AS area, sum(farmers)::int AS farmers
        FROM (SELECT tenant_id, mapped_by AS user_id, count(*) AS farms, sum(area_sqm::numeric) AS area, 0 AS farmers FROM farms WHERE mapped_by IS NOT NULL GROUP BY 1, 2
              UNION ALL
              SELECT tenant_id, created_by, 0, 0, count(*) FROM farmers WHERE created_by IS NOT NULL GROUP BY 1, 2) s
       GROUP BY 1, 2
    )
    SELECT 'tenant_stats ' || x.tenant_id AS what
      FROM fresh x LEFT JOIN tenant_stats s ON s.tenant_id = x.tenant_id
     WHERE ROW(coalesce(s.farms, 0), coalesce(s.farms_within, 0), coalesce(s.farms_overlapping, 0), coalesce(s.farms_unrecognized, 0), coalesce(s.farmers, 0), coalesce(s.farmers_mapped, 0))
           IS DISTINCT FROM ROW(x.farms, x.within, x.overlapping, x.unrecognized, x.farmers, x.mapped)
    UNION ALL
    SELECT 'tenant_stats of no tenant ' || s.tenant_id FROM tenant_stats s WHERE NOT EXISTS (SELECT 1 FROM tenants t WHERE t.id = s.tenant_id)
    UNION ALL
    SELECT 'farm_count ' || fr.id FROM farmers fr WHERE fr.farm_count <> (SELECT count(*) FROM farms f WHERE f.farmer_id = fr.id)
    UNION ALL
    SELECT 'mapped ' || fr.id FROM farmers fr WHERE fr.mapped <> EXISTS (SELECT 1 FROM farms f WHERE f.farmer_id = fr.id)
    UNION ALL
    SELECT 'period ' || coalesce(p.tenant_id, q.tenant_id) || ' ' || coalesce(p.grain, q.grain) || ' ' || coalesce(p.period, q.period)
      FROM farm_period_stats p
      FULL JOIN periods q ON q.tenant_id = p.tenant_id AND q.grain = p.grain AND q.period = p.period
     WHERE p.n IS DISTINCT FROM q.n OR p.area_sqm IS DISTINCT FROM q.area
    UNION ALL
    SELECT 'agent_stats ' || coalesce(a.tenant_id, x.tenant_id) || ' ' || coalesce(a.user_id, x.user_id)
      FROM agent_stats a
      FULL JOIN agents x ON x.tenant_id = a.tenant_id AND x.user_id = a.user_id
     WHERE ROW(coalesce(a.farms, 0), coalesce(a.farms_area, 0), coalesce(a.farmers, 0)) IS DISTINCT FROM ROW(coalesce(x.farms, 0), coalesce(x.area, 0), coalesce(x.farmers, 0))
    UNION ALL
    SELECT 'device ' || coalesce(g.tenant_id, d.tenant_id) || ' ' || coalesce(g.device, d.device)
      FROM tenant_gps_devices g
      FULL JOIN (SELECT tenant_id, gps_device_id AS device, count(*)::int AS n FROM mapping_records
                  WHERE coalesce(gps_device_id, '') <> '' GROUP BY 1, 2) d ON d.tenant_id = g.tenant_id AND d.device = g.device
     WHERE g.n IS DISTINCT FROM d.n`);
  return rows.map((r) => r.what);
}

const one = async (q: ReturnType<typeof sql>) => (await env.sql<{ n: number }>(q))[0]!.n;
const live = sql`(SELECT id FROM tenants WHERE deleted_at IS NULL)`;

/** Every rollup-backed answer against a fresh aggregation, for tenant A's admin, tenant B's admin and provider staff. */
async function answersMatch(): Promise<void> {
  const year = new Date().getUTCFullYear();
  for (const [who, t] of [
    ['adminA', env.fx.tenantA],
    ['adminB', env.fx.tenantB],
  ] as const) {
    const ov = (await env.as(who).get('/api/farms/overview')).body.data;
    const farms = await one(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${t}`);
    const within = await one(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${t} AND operational_area_id IS NOT NULL`);
    expect(ov, who).toEqual({
      total_farms: farms,
      total_within_operational_area: within,
      total_outside_operational_area: farms - within,
      total_overlapping_farms: await one(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${t} AND is_overlapping`),
      total_unrecognized_farms: await one(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${t} AND flag IS NOT NULL`),
    });
    const farmers = await one(sql`SELECT count(*)::int AS n FROM farmers WHERE tenant_id = ${t}`);
    const mapped = await one(sql`SELECT count(DISTINCT farmer_id)::int AS n FROM farms WHERE tenant_id = ${t}`);
    const a = (await env.as(who).get('/api/analytics/')).body.data;
    expect({ farms: a.farms, farmers: a.farmers, mapped: a.mapped_farmers, unmapped: a.unmapped_farmers }, who).toEqual({
      farms,
      farmers,
      mapped,
      unmapped: farmers - mapped,
    });
    expect(a.gps_devices, who).toBe(
      await one(sql`SELECT count(DISTINCT gps_device_id)::int AS n FROM mapping_records WHERE tenant_id = ${t} AND coalesce(gps_device_id, '') <> ''`),
    );
    expect((await env.as(who).get('/api/analytics/farms-count/')).body.data.count, who).toBe(farms);
    expect((await env.as(who).get('/api/analytics/mapped-farms-count/')).body.data.count, who).toBe(mapped);
    expect((await env.as(who).get('/api/analytics/unmapped-farms-count/')).body.data.count, who).toBe(farmers - mapped);
    // The lists' counts: every farm, every farmer, the mapped ones and the others (exact from the rollups).
    expect((await env.as(who).get('/api/farms/?page_size=1')).body.data.count, who).toBe(farms);
    expect((await env.as(who).get('/api/farmers/?page_size=1')).body.data.count, who).toBe(farmers);
    expect((await env.as(who).get('/api/farmers/?page_size=1&is_mapped=true')).body.data.count, who).toBe(mapped);
    expect((await env.as(who).get('/api/farmers/?page_size=1&is_mapped=false')).body.data.count, who).toBe(farmers - mapped);
    // The filter's rows (read through farmers.mapped and its partial indexes, 0019): each farmer on the right side.
    for (const [flag, n] of [
      [true, mapped],
      [false, farmers - mapped],
    ] as const) {
      const page = (await env.as(who).get(`/api/farmers/?page_size=100&is_mapped=${flag}`)).body.data;
      expect(page.results.length, `${who} is_mapped=${flag}`).toBe(Math.min(100, n));
      expect(
        page.results.every((r: { is_mapped: boolean; number_of_farm: number }) => r.is_mapped === flag && r.number_of_farm > 0 === flag),
        `${who} is_mapped=${flag}`,
      ).toBe(true);
    }
    // The series: days, months, years.
    for (const [range, unit, n] of [
      ['days', 'day', 30],
      ['months', 'month', 12],
      ['years', 'year', 3],
    ] as const) {
      const d = (await env.as(who).get(`/api/analytics/tenant-mapped-count/?range_type=${range}&range_value=${n}`)).body.data;
      const fresh = await env.sql<{ period: string; count: number }>(sql`
        WITH b AS (SELECT generate_series(date_trunc(${unit}, now() AT TIME ZONE 'UTC') - (${n - 1} * ${`1 ${unit}`}::interval),
                                          date_trunc(${unit}, now() AT TIME ZONE 'UTC'), ${`1 ${unit}`}::interval) AS start)
        SELECT to_char(b.start, ${unit === 'day' ? 'YYYY-MM-DD' : unit === 'month' ? 'YYYY-MM' : 'YYYY'}) AS period,
               (SELECT count(*) FROM farms f WHERE f.tenant_id = ${t} AND date_trunc(${unit}, f.created_at AT TIME ZONE 'UTC') = b.start)::int AS count
          FROM b ORDER BY b.start`);
      expect(d.buckets, `${who} ${range}`).toEqual(fresh);
      const previous = await one(sql`
        SELECT count(*)::int AS n FROM farms f WHERE f.tenant_id = ${t}
           AND date_trunc(${unit}, f.created_at AT TIME ZONE 'UTC') >= date_trunc(${unit}, now() AT TIME ZONE 'UTC') - (${2 * n - 1} * ${`1 ${unit}`}::interval)
           AND date_trunc(${unit}, f.created_at AT TIME ZONE 'UTC') < date_trunc(${unit}, now() AT TIME ZONE 'UTC') - (${n - 1} * ${`1 ${unit}`}::interval)`);
      expect(d.previous_total, `${who} ${range} previous`).toBe(previous);
    }
    // Mapping data: farms and area per month of the year.
    const md = (await env.as(who).get(`/api/analytics/mapping-data/?year=${year}`)).body.data;
    const months = await env.sql<{ m: number; n: number; area: number }>(sql`
      SELECT extract(month FROM created_at AT TIME ZONE 'UTC')::int AS m, count(*)::int AS n, sum(area_sqm)::float8 AS area
        FROM farms WHERE tenant_id = ${t} AND date_trunc('year', created_at AT TIME ZONE 'UTC') = make_date(${year}, 1, 1) GROUP BY 1`);
    for (let m = 1; m <= 12; m++) {
      const f = months.find((r) => r.m === m);
      expect(md.months[m - 1].count, `${who} month ${m}`).toBe(f?.n ?? 0);
      expect(md.months[m - 1].area_sqm, `${who} month ${m} area`).toBeCloseTo(f?.area ?? 0, 1);
    }
  }
  // Provider staff: every live tenant (soft-deleted ones left out), and the ranking per tenant.
  const all = (await env.as('super').get('/api/analytics/')).body.data;
  expect(all.farms).toBe(await one(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id IN ${live}`));
  expect(all.farmers).toBe(await one(sql`SELECT count(*)::int AS n FROM farmers WHERE tenant_id IN ${live}`));
  expect(all.mapped_farmers).toBe(await one(sql`SELECT count(DISTINCT farmer_id)::int AS n FROM farms WHERE tenant_id IN ${live}`));
  expect(all.gps_devices).toBe(
    await one(sql`SELECT count(DISTINCT gps_device_id)::int AS n FROM mapping_records WHERE tenant_id IN ${live} AND coalesce(gps_device_id, '') <> ''`),
  );
  const ranking = (await env.as('super').get(`/api/analytics/mapping-ranking/?year=${year}`)).body.data.results as Array<{
    tenant_id: string;
    mapped_farms: number;
  }>;
  const perTenant = await env.sql<{ tenant_id: string; n: number }>(sql`
    SELECT t.id AS tenant_id, (SELECT count(*) FROM farms f WHERE f.tenant_id = t.id AND date_trunc('year', f.created_at AT TIME ZONE 'UTC') = make_date(${year}, 1, 1))::int AS n
      FROM tenants t WHERE t.deleted_at IS NULL`);
  expect(Object.fromEntries(ranking.map((r) => [r.tenant_id, r.mapped_farms]))).toEqual(Object.fromEntries(perTenant.map((r) => [r.tenant_id, r.n])));
}

describe('list and dashboard rollups (migration 0016)', () => {
  it('agree with the registry as migrated (the backfill) and answer like a fresh aggregation', async () => {
    expect(await rollupMismatches()).toEqual([]);
    await answersMatch();
  });

  // Many captures, uploads and edits in one test (each capture also screens against the reference layers in use).
  it('follow captures, bulk inserts, edits, moves between farmers, area and overlap changes, and deletes', async () => {
    const geo = await tenantGeo(env, env.fx.tenantA);
    const geoB = await tenantGeo(env, env.fx.tenantB);
    // A new farmer through the API (unmapped), then farms for it: one, then several in one statement.
    const farmer = (await env.as('adminA').post('/api/farmers/', { first_name: 'Rollup', last_name: `Probe${Date.now()}` })).body.data as { id: string };
    expect(await rollupMismatches()).toEqual([]);
    const [lng, lat] = freshSpot();
    // A capture through the API (the agent's flow: overlap check, mapping record, activity entry).
    const captured = await env.as('agentA').post('/api/farms/', { farmer_id: farmer.id, coordinates: square(lng, lat, 60) });
    expect(captured.status, JSON.stringify(captured.body)).toBe(201);
    const first = captured.body.data.id as string;
    expect(await rollupMismatches()).toEqual([]);
    // Many rows of two tenants in one statement, on several days and months (a day's and a month's edges included).
    await env.sql(sql`
      INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm, created_at)
      SELECT CASE WHEN g % 3 = 0 THEN ${env.fx.tenantB}::uuid ELSE ${env.fx.tenantA}::uuid END,
             CASE WHEN g % 3 = 0 THEN ${geoB.farmerId}::uuid WHEN g % 2 = 0 THEN ${farmer.id}::uuid ELSE ${geo.farmerId}::uuid END,
             'Rollup bulk ' || g, ST_MakeEnvelope(${lng} + g * 0.001, ${lat} + 0.01, ${lng} + g * 0.001 + 0.0005, ${lat} + 0.0105, 4326), 1000 + g * 0.125,
             date_trunc('month', now()) - (g % 4) * interval '1 month' - (g % 2) * interval '1 microsecond' + (g % 5) * interval '1 day'
        FROM generate_series(1, 24) g`);
    expect(await rollupMismatches()).toEqual([]);
    // Mapping records naming GPS devices (two farms on one device, one on another, one without), then a device renamed.
    await env.sql(sql`
      INSERT INTO mapping_records (tenant_id, farm_id, geom, gps_device_id)
      SELECT f.tenant_id, f.id, f.geom, CASE WHEN g % 3 = 0 THEN NULL WHEN g % 2 = 0 THEN 'ROLLUP-GPS-A' ELSE 'ROLLUP-GPS-B' END
        FROM (SELECT id, tenant_id, geom, row_number() OVER (ORDER BY name) AS g FROM farms WHERE name LIKE 'Rollup bulk%') f`);
    expect(await rollupMismatches()).toEqual([]);
    await env.sql(sql`UPDATE mapping_records SET gps_device_id = 'ROLLUP-GPS-C' WHERE gps_device_id = 'ROLLUP-GPS-B' AND tenant_id = ${env.fx.tenantA}`);
    await env.sql(sql`UPDATE mapping_records SET gps_device_id = '' WHERE gps_device_id = 'ROLLUP-GPS-A' AND tenant_id = ${env.fx.tenantB}`);
    expect(await rollupMismatches()).toEqual([]);
    await answersMatch();

    // Updates: an area, a creation date (another day and month), a flag, overlap, the farmer, and no-op edits.
    await env.sql(sql`UPDATE farms SET area_sqm = area_sqm + 17.5 WHERE id = ${first}`);
    await env.sql(sql`UPDATE farms SET created_at = created_at - interval '45 days' WHERE name LIKE 'Rollup bulk 1%'`);
    await env.sql(sql`UPDATE farms SET flag = 'below_minimum' WHERE name IN ('Rollup bulk 2', 'Rollup bulk 4')`);
    await env.sql(sql`UPDATE farms SET is_overlapping = true, overlap_group_id = id WHERE name IN ('Rollup bulk 5', 'Rollup bulk 7')`);
    await env.sql(sql`UPDATE farms SET farmer_id = ${geo.farmerId} WHERE farmer_id = ${farmer.id} AND name LIKE 'Rollup bulk%'`);
    await env.sql(sql`UPDATE farms SET name = name || ' (renamed)' WHERE name LIKE 'Rollup bulk 8'`);
    expect(await rollupMismatches()).toEqual([]);
    // An operational area drawn over farms through the API: they fall within it (reassignment by containment).
    const area = await env.as('adminA').post('/api/operational-areas/', {
      name: `Rollup area ${Date.now()}`,
      region_id: geo.regionId,
      city_id: geo.cityId,
      coordinates: square(lng - 0.01, lat - 0.01, 8000),
    });
    expect(area.status, JSON.stringify(area.body)).toBe(201);
    expect(await one(sql`SELECT count(*)::int AS n FROM farms WHERE operational_area_id = ${area.body.data.id}`)).toBeGreaterThan(10);
    expect(await rollupMismatches()).toEqual([]);
    // And one drawn directly, then farms moved into it in one statement.
    const other = await insertAreaDirect(env, env.fx.tenantA, square(lng + 1, lat + 1, 100));
    await env.sql(sql`UPDATE farms SET operational_area_id = ${other} WHERE tenant_id = ${env.fx.tenantA} AND name LIKE 'Rollup bulk 1%'`);
    expect(await rollupMismatches()).toEqual([]);
    await answersMatch();

    // Agents (agent_stats, 0020): farms mapped by two agents in one statement, farmers registered by one, farms moved
    // between agents and to none, an area changed, then one agent deleted (its farms' mapped_by set to null by the key).
    const mover = await makeUser(env, { tenantId: env.fx.tenantA, role: 'agent' });
    await env.sql(sql`UPDATE farms SET mapped_by = CASE WHEN right(name, 1) IN ('1', '3', '5') THEN ${mover.id}::uuid ELSE ${env.fx.agentA}::uuid END
                       WHERE tenant_id = ${env.fx.tenantA} AND name LIKE 'Rollup bulk%'`);
    await env.sql(sql`INSERT INTO farmers (tenant_id, first_name, last_name, folio_id, created_by)
                      SELECT ${env.fx.tenantA}, 'Agent', 'Made ' || g, 'ROLLUP-AG-' || g, ${mover.id} FROM generate_series(1, 3) g`);
    expect(await rollupMismatches()).toEqual([]);
    await env.sql(sql`UPDATE farms SET mapped_by = ${env.fx.agentA} WHERE mapped_by = ${mover.id} AND name LIKE 'Rollup bulk 1%'`);
    await env.sql(sql`UPDATE farms SET mapped_by = NULL WHERE mapped_by = ${env.fx.agentA} AND name LIKE 'Rollup bulk 2%'`);
    await env.sql(sql`UPDATE farms SET area_sqm = area_sqm * 1.5 WHERE mapped_by = ${mover.id}`);
    await env.sql(sql`UPDATE farmers SET created_by = ${env.fx.agentA} WHERE folio_id = 'ROLLUP-AG-1'`);
    expect(await rollupMismatches()).toEqual([]);
    const agentsPage = (await env.as('adminA').get('/api/accounts/agents/?page_size=100')).body.data.results as Array<{
      id: string;
      mapped_farms_count: number;
      farmers_count: number;
    }>;
    const moverRow = agentsPage.find((r) => r.id === mover.id)!;
    expect(moverRow.mapped_farms_count).toBe(await one(sql`SELECT count(*)::int AS n FROM farms WHERE mapped_by = ${mover.id}`));
    expect(moverRow.farmers_count).toBe(2);
    await env.sql(sql`DELETE FROM users WHERE id = ${mover.id}`);
    expect(await one(sql`SELECT count(*)::int AS n FROM agent_stats WHERE user_id = ${mover.id}`)).toBe(0);
    expect(await rollupMismatches()).toEqual([]);

    // Deletes: one farm through the API, the farmer with its farms through the API, then many rows in one statement.
    expect((await env.as('adminA').delete(`/api/farms/${first}/`)).status).toBeLessThan(300);
    expect(await rollupMismatches()).toEqual([]);
    await insertFarmDirect(env, env.fx.tenantA, farmer.id, square(...offset(lng, lat, 200, 0), 40));
    const del = await env.as('adminA').delete(`/api/farmers/${farmer.id}/?delete_farms=true`);
    expect(del.status, JSON.stringify(del.body)).toBeLessThan(300);
    expect(await rollupMismatches()).toEqual([]);
    await env.sql(sql`DELETE FROM farms WHERE name LIKE 'Rollup bulk%'`);
    expect(await rollupMismatches()).toEqual([]);
    await answersMatch();
  }, 120_000);

  it('leave a soft-deleted tenant out of the provider figures, and go with a tenant deleted outright', async () => {
    const [{ id: tenant }] = (await env.sql<{ id: string }>(sql`
      INSERT INTO tenants (name, email, country_id) SELECT 'Rollup Cooperative', ${`rollup-${Date.now()}@tenants.example`}, country_id FROM tenants WHERE id = ${env.fx.tenantA}
      RETURNING id`)) as [{ id: string }];
    const [{ id: farmer }] = (await env.sql<{ id: string }>(sql`
      INSERT INTO farmers (tenant_id, first_name, last_name, folio_id) VALUES (${tenant}, 'Gone', 'Soon', 'ROLLUP-1') RETURNING id`)) as [{ id: string }];
    const [lng, lat] = freshSpot();
    for (let i = 0; i < 3; i++) await insertFarmDirect(env, tenant, farmer, square(...offset(lng, lat, i * 100, 0), 50));
    expect(await rollupMismatches()).toEqual([]);
    expect((await env.as('super').get(`/api/analytics/farms-count/?tenant_id=${tenant}`)).body.data.count).toBe(3);
    await answersMatch();
    await env.sql(sql`UPDATE tenants SET deleted_at = now() WHERE id = ${tenant}`);
    await answersMatch();
    await env.sql(sql`DELETE FROM tenants WHERE id = ${tenant}`);
    expect(await rollupMismatches()).toEqual([]);
    expect(
      await env.sql(sql`SELECT 1 FROM tenant_stats WHERE tenant_id = ${tenant} UNION ALL SELECT 1 FROM farm_period_stats WHERE tenant_id = ${tenant}`),
    ).toEqual([]);
    await answersMatch();
  });

  it("never shows another tenant's figures: tenant B's admin reads B's totals, and the rollups' rows are B's alone", async () => {
    const a = (await env.as('adminA').get('/api/analytics/')).body.data;
    const b = (await env.as('adminB').get('/api/analytics/')).body.data;
    expect(b.farms).toBe(await one(sql`SELECT count(*)::int AS n FROM farms WHERE tenant_id = ${env.fx.tenantB}`));
    expect(b.farms).not.toBe(a.farms);
    expect((await env.as('adminB').get(`/api/analytics/?tenant_id=${env.fx.tenantA}`)).status).toBe(404);
    // Row-level security on the rollups themselves: in tenant B's scope only B's rows exist.
    const seen = await env.sql<{ t: string }>(
      sql`SELECT DISTINCT tenant_id::text AS t FROM tenant_stats UNION SELECT DISTINCT tenant_id::text FROM farm_period_stats UNION SELECT DISTINCT tenant_id::text FROM agent_stats`,
    );
    expect(seen.length).toBeGreaterThan(1);
    const scoped = await withScope(env.deps.db, { kind: 'tenant', tenantId: env.fx.tenantB }, (tx) =>
      queryRows<{ t: string }>(
        tx,
        sql`SELECT DISTINCT tenant_id::text AS t FROM tenant_stats UNION SELECT DISTINCT tenant_id::text FROM farm_period_stats UNION SELECT DISTINCT tenant_id::text FROM agent_stats`,
      ),
    );
    expect(scoped.map((r) => r.t)).toEqual([env.fx.tenantB]);
  });
});
