// The field app's download: the areas an agent may download, and one area's bundle (its polygon, the registry farms in
// its box grown by a margin, nearest the centre first, and the farmers the user registered). Tenant id first in every query.
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.js';

export type FieldAreaRow = { id: string; name: string; region: string | null; farm_count: number; area_sqm: number; assigned: boolean };

/** The tenant's operational areas, the user's assigned one first, then by name; at most `limit`. */
export async function listFieldAreas(tx: Executor, tenantId: string, userId: string, limit: number): Promise<FieldAreaRow[]> {
  return queryRows<FieldAreaRow>(
    tx,
    sql`SELECT oa.id, oa.name, r.name AS region, oa.area_sqm,
               (SELECT count(*)::int FROM farms f WHERE f.tenant_id = ${tenantId} AND f.operational_area_id = oa.id) AS farm_count,
               (oa.id = u.operational_area_id) IS TRUE AS assigned
          FROM operational_areas oa
          LEFT JOIN regions r ON r.id = oa.region_id
          LEFT JOIN users u ON u.id = ${userId} AND u.tenant_id = ${tenantId}
         WHERE oa.tenant_id = ${tenantId}
         ORDER BY (oa.id = u.operational_area_id) IS TRUE DESC, oa.name, oa.id
         LIMIT ${limit}`,
  );
}

export type BundleAreaRow = { id: string; name: string; geojson: string; min_lng: number; min_lat: number; max_lng: number; max_lat: number };

/**
 * The area and its bounding box grown by marginM metres on every side (degrees of longitude sized at the box's latitude
 * farthest from the equator, so the margin is at least marginM everywhere in it).
 */
export async function findBundleArea(tx: Executor, tenantId: string, areaId: string, marginM: number): Promise<BundleAreaRow | null> {
  const rows = await queryRows<BundleAreaRow>(
    tx,
    sql`SELECT a.id, a.name, ST_AsGeoJSON(a.geom, 7) AS geojson,
               ST_XMin(e) AS min_lng, ST_YMin(e) AS min_lat, ST_XMax(e) AS max_lng, ST_YMax(e) AS max_lat
          FROM operational_areas a
          CROSS JOIN LATERAL (
            SELECT ST_Expand(ST_Envelope(a.geom),
                             ${marginM}::float8 / (111320 * cos(radians(least(89, greatest(abs(ST_YMin(a.geom)), abs(ST_YMax(a.geom))))))),
                             ${marginM}::float8 / 110574) AS e) x
         WHERE a.tenant_id = ${tenantId} AND a.id = ${areaId}`,
  );
  return rows[0] ?? null;
}

export type BundleFarmRow = { id: string; name: string; farmer_id: string; farmer_name: string; geojson: string; area_sqm: number };

/** The tenant's farms whose box meets the given box, nearest the area's centre first; at most `limit`. */
export async function bundleFarms(
  tx: Executor,
  tenantId: string,
  areaId: string,
  box: [number, number, number, number],
  limit: number,
): Promise<BundleFarmRow[]> {
  const [minLng, minLat, maxLng, maxLat] = box;
  return queryRows<BundleFarmRow>(
    tx,
    sql`WITH c AS (SELECT ST_Centroid(geom) AS g FROM operational_areas WHERE tenant_id = ${tenantId} AND id = ${areaId})
        SELECT f.id, f.name, f.farmer_id, trim(fr.first_name || ' ' || fr.last_name) AS farmer_name, ST_AsGeoJSON(f.geom, 7) AS geojson, f.area_sqm
          FROM farms f
          JOIN farmers fr ON fr.id = f.farmer_id AND fr.tenant_id = ${tenantId}
         CROSS JOIN c
         WHERE f.tenant_id = ${tenantId} AND f.geom && ST_MakeEnvelope(${minLng}, ${minLat}, ${maxLng}, ${maxLat}, 4326)
         ORDER BY f.geom <-> c.g, f.id
         LIMIT ${limit}`,
  );
}
