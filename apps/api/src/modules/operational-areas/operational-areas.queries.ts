// All SQL of operational areas, and the containment rule that keeps farms.operational_area_id correct when areas change:
// a farm belongs to the earliest-created area of its tenant that covers it (ST_Covers), or to none.
import { sql, type SQL } from 'drizzle-orm';
import type { PolygonRings } from '@farmland/contracts';
import { queryRows, readerOf, type Executor, type Reader } from '../../db/client.js';
import { polygonSql } from '../geometry/geometry.queries.js';
import { containsPattern } from '../../db/like.js';
import { listPage, type Total } from '../../db/pagination.js';

export type AreaRow = {
  id: string;
  tenant_id: string;
  name: string;
  region_id: string;
  region: string;
  city_id: string;
  city: string;
  country: string;
  geojson: { type: 'Polygon'; coordinates: [number, number][][] };
  farm_count: number;
  area_sqm: number;
  created_at: Date | string;
  updated_at: Date | string;
};

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const areaColumns = sql`
  SELECT oa.id, oa.tenant_id, oa.name, oa.region_id, r.name AS region, oa.city_id, ci.name AS city, co.name AS country,
         ST_AsGeoJSON(oa.geom, 7)::jsonb AS geojson, oa.area_sqm, oa.created_at, oa.updated_at,
         (SELECT count(*)::int FROM farms f WHERE f.operational_area_id = oa.id) AS farm_count`;
const areaJoins = sql`
    JOIN regions r ON r.id = oa.region_id
    JOIN cities ci ON ci.id = oa.city_id
    JOIN countries co ON co.id = ci.country_id`;
const areaSelect = sql`${areaColumns} FROM operational_areas oa ${areaJoins}`;

export type AreaFilter = { search?: string | undefined; region?: string | undefined };

/** One page of areas (newest first) with the count (db/pagination.ts), in one statement. */
export async function listAreas(
  run: Reader | Executor,
  tenantId: string | null,
  f: AreaFilter,
  limit: number,
  offset: number,
): Promise<{ rows: AreaRow[]; total: Total }> {
  const conds: SQL[] = [];
  if (tenantId) conds.push(sql`oa.tenant_id = ${tenantId}`);
  if (f.search) conds.push(sql`(oa.name ILIKE ${containsPattern(f.search)} OR ci.name ILIKE ${containsPattern(f.search)})`);
  if (f.region) conds.push(UUID_RE.test(f.region) ? sql`oa.region_id = ${f.region}` : sql`lower(r.name) = lower(${f.region})`);
  const where = conds.length ? sql`WHERE ${sql.join(conds, sql` AND `)}` : sql``;
  // The joins the filters read (a search on the city's name, a region by name); the bare list needs none.
  const from =
    f.search || (f.region && !UUID_RE.test(f.region))
      ? sql`FROM operational_areas oa JOIN regions r ON r.id = oa.region_id JOIN cities ci ON ci.id = oa.city_id ${where}`
      : sql`FROM operational_areas oa ${where}`;
  return listPage<AreaRow>(
    readerOf(run),
    {
      rows: sql`SELECT oa.id, oa.created_at ${from}`,
      details: sql`${areaColumns} FROM page p JOIN operational_areas oa ON oa.id = p.id ${areaJoins}`,
      count: { from },
    },
    limit,
    offset,
  );
}

export async function findArea(tx: Executor, tenantId: string | null, id: string): Promise<AreaRow | null> {
  const rows = await queryRows<AreaRow>(tx, sql`${areaSelect} WHERE oa.id = ${id} ${tenantId ? sql`AND oa.tenant_id = ${tenantId}` : sql``}`);
  return rows[0] ?? null;
}

export async function findRegion(tx: Executor, tenantId: string, regionId: string): Promise<{ id: string; country_id: string } | null> {
  const rows = await queryRows<{ id: string; country_id: string }>(
    tx,
    sql`SELECT id, country_id FROM regions WHERE tenant_id = ${tenantId} AND id = ${regionId}`,
  );
  return rows[0] ?? null;
}

export async function findCity(tx: Executor, _tenantId: string, cityId: string): Promise<{ id: string; country_id: string; name: string } | null> {
  const rows = await queryRows<{ id: string; country_id: string; name: string }>(tx, sql`SELECT id, country_id, name FROM cities WHERE id = ${cityId}`);
  return rows[0] ?? null;
}

export async function countryName(tx: Executor, _tenantId: string, countryId: string): Promise<string | null> {
  const rows = await queryRows<{ name: string }>(tx, sql`SELECT name FROM countries WHERE id = ${countryId}`);
  return rows[0]?.name ?? null;
}

export type AreaValues = { name: string; regionId: string; cityId: string; rings: PolygonRings; createdBy: string };

export async function insertArea(tx: Executor, tenantId: string, v: AreaValues): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`INSERT INTO operational_areas (tenant_id, name, region_id, city_id, geom, area_sqm, created_by)
        SELECT ${tenantId}, ${v.name}, ${v.regionId}, ${v.cityId}, s.g, ST_Area(s.g::geography), ${v.createdBy}
          FROM (SELECT ${polygonSql(v.rings)} AS g) s
        RETURNING id`,
  );
  if (!row) throw new Error('operational area insert returned nothing');
  return row.id;
}

export async function updateArea(tx: Executor, tenantId: string, id: string, v: Omit<AreaValues, 'createdBy'>): Promise<void> {
  await tx.execute(sql`
    UPDATE operational_areas oa
       SET name = ${v.name}, region_id = ${v.regionId}, city_id = ${v.cityId}, geom = s.g, area_sqm = ST_Area(s.g::geography), updated_at = now()
      FROM (SELECT ${polygonSql(v.rings)} AS g) s
     WHERE oa.tenant_id = ${tenantId} AND oa.id = ${id}`);
}

export async function deleteArea(tx: Executor, tenantId: string, id: string): Promise<void> {
  await tx.execute(sql`DELETE FROM operational_areas WHERE tenant_id = ${tenantId} AND id = ${id}`);
}

/** Agents assigned to a deleted area lose the assignment (users.operational_area_id has no foreign key). */
export async function unassignAgents(tx: Executor, tenantId: string, areaId: string): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`UPDATE users SET operational_area_id = NULL, updated_at = now() WHERE tenant_id = ${tenantId} AND operational_area_id = ${areaId} RETURNING id`,
  );
  return rows.length;
}

/**
 * Re-applies the containment rule to the farms an area change can affect: those assigned to the area now, and those its
 * (new) boundary covers. `excludeAreaId` leaves an area out of the candidates (it is about to be deleted). Returns how many changed.
 */
export async function reassignFarmsAround(tx: Executor, tenantId: string, areaId: string, excludeAreaId: string | null): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`WITH a AS (SELECT geom FROM operational_areas WHERE tenant_id = ${tenantId} AND id = ${areaId}),
        cand AS (
          SELECT f.id FROM farms f WHERE f.tenant_id = ${tenantId} AND f.operational_area_id = ${areaId}
          UNION
          SELECT f.id FROM farms f, a WHERE f.tenant_id = ${tenantId} AND f.geom && a.geom AND ST_Covers(a.geom, f.geom)
        ), next AS (
          SELECT f.id, (SELECT oa.id FROM operational_areas oa
                         WHERE oa.tenant_id = ${tenantId} ${excludeAreaId ? sql`AND oa.id <> ${excludeAreaId}` : sql``}
                           AND oa.geom && f.geom AND ST_Covers(oa.geom, f.geom)
                         ORDER BY oa.created_at, oa.id LIMIT 1) AS area_id
            FROM farms f JOIN cand ON cand.id = f.id
        )
        UPDATE farms f SET operational_area_id = next.area_id
          FROM next
         WHERE f.id = next.id AND f.tenant_id = ${tenantId} AND f.operational_area_id IS DISTINCT FROM next.area_id
        RETURNING f.id`,
  );
  return rows.length;
}
