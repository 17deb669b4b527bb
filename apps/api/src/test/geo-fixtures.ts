// Geometry fixtures for tests: squares sized in metres at a point, spots far from the demo data (so probes overlap
// nothing by accident), tenant A's reference ids, and direct inserts for arrange steps.
import { sql } from 'drizzle-orm';
import type { TestEnv } from './harness.js';

export type Ring = Array<[number, number]>;
const M_PER_DEG = 111_320;

/** A square of side `metres` with its south-west corner at [lng, lat] (open ring: the API closes it). */
export function square(lng: number, lat: number, metres: number): Ring {
  const dLat = metres / M_PER_DEG;
  const dLng = metres / (M_PER_DEG * Math.cos((lat * Math.PI) / 180));
  return [
    [lng, lat],
    [lng + dLng, lat],
    [lng + dLng, lat + dLat],
    [lng, lat + dLat],
  ];
}

/** Metres east/north of a point, in degrees. */
export function offset(lng: number, lat: number, east: number, north: number): [number, number] {
  return [lng + east / (M_PER_DEG * Math.cos((lat * Math.PI) / 180)), lat + north / M_PER_DEG];
}

let spotSeq = 0;
/** A fresh spot away from the demo farms (which sit near 3.77, 7.65) and from other spots of this run. */
export function freshSpot(): [number, number] {
  spotSeq++;
  const r = Math.random();
  return [20 + ((spotSeq * 0.05 + r * 0.01) % 30), -25 + (process.pid % 50) * 0.2 + r * 0.1];
}

/**
 * A spot in central Nigeria (7° to 9° E, 9° to 10.5° N, over 150 km from any border), for tests whose plots must lie in
 * the test tenants' country (Nigeria): the EUDR export flags a plot outside its producer country (outside_country).
 */
export function nigeriaSpot(): [number, number] {
  spotSeq++;
  const r = Math.random();
  return [7 + ((spotSeq * 0.05 + r * 0.01) % 2), 9 + (process.pid % 50) * 0.02 + r * 0.3];
}

export type TenantGeo = { regionId: string; cityId: string; areaId: string; farmerId: string; farmId: string; countryId: string };

export async function tenantGeo(env: TestEnv, tenantId: string): Promise<TenantGeo> {
  const [row] = await env.sql<TenantGeo>(sql`
    -- The region of the tenant's first operational area (a seeded one: the tests' own come later), so the area, its
    -- farms and its agents are all in it. It was the region first by name, which changed when another file in the
    -- worker had created one (activity.test.ts's "Fresh …"): the region filters then found nothing.
    SELECT (SELECT region_id FROM operational_areas WHERE tenant_id = ${tenantId} ORDER BY created_at, id LIMIT 1) AS "regionId",
           (SELECT city_id FROM tenants WHERE id = ${tenantId}) AS "cityId",
           (SELECT id FROM operational_areas WHERE tenant_id = ${tenantId} ORDER BY created_at, id LIMIT 1) AS "areaId",
           -- One farm and its own farmer: ties on created_at (rows seeded in one transaction) are broken by id, the
           -- same way in both subqueries, or the farm could belong to another farmer.
           (SELECT farmer_id FROM farms WHERE tenant_id = ${tenantId} ORDER BY created_at, id LIMIT 1) AS "farmerId",
           (SELECT id FROM farms WHERE tenant_id = ${tenantId} ORDER BY created_at, id LIMIT 1) AS "farmId",
           (SELECT country_id FROM tenants WHERE id = ${tenantId}) AS "countryId"`);
  return row!;
}

const closed = (ring: Ring) => [...ring, ring[0]!];

/** Inserts a farm directly (arrange step: no overlap refresh unless group is given). */
export async function insertFarmDirect(env: TestEnv, tenantId: string, farmerId: string, ring: Ring, group?: string): Promise<string> {
  const geo = JSON.stringify({ type: 'Polygon', coordinates: [closed(ring)] });
  const [row] = await env.sql<{ id: string }>(sql`
    INSERT INTO farms (tenant_id, farmer_id, name, geom, area_sqm, is_overlapping, overlap_group_id)
    SELECT ${tenantId}, ${farmerId}, 'Probe farm', g, ST_Area(g::geography), ${group !== undefined}, ${group ?? null}::uuid
      FROM (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${geo}), 4326) AS g) s RETURNING id`);
  return row!.id;
}

export async function insertAreaDirect(env: TestEnv, tenantId: string, ring: Ring): Promise<string> {
  const g = await tenantGeo(env, tenantId);
  const geo = JSON.stringify({ type: 'Polygon', coordinates: [closed(ring)] });
  const [row] = await env.sql<{ id: string }>(sql`
    INSERT INTO operational_areas (tenant_id, name, region_id, city_id, geom, area_sqm)
    SELECT ${tenantId}, 'Probe area', ${g.regionId}, ${g.cityId}, g, ST_Area(g::geography)
      FROM (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${geo}), 4326) AS g) s RETURNING id`);
  return row!.id;
}

/** Two farms of tenant A overlapping each other at a fresh spot, marked as one group (for retain probes). */
export async function overlappingPair(env: TestEnv): Promise<{ a: string; b: string }> {
  const g = await tenantGeo(env, env.fx.tenantA);
  const [lng, lat] = freshSpot();
  const a = await insertFarmDirect(env, env.fx.tenantA, g.farmerId, square(lng, lat, 100));
  const [lng2, lat2] = offset(lng, lat, 50, 50);
  const b = await insertFarmDirect(env, env.fx.tenantA, g.farmerId, square(lng2, lat2, 100));
  const gid = a < b ? a : b;
  await env.sql(sql`UPDATE farms SET is_overlapping = true, overlap_group_id = ${gid} WHERE id IN (${a}, ${b})`);
  return { a, b };
}

export const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** A multipart/form-data body with text fields and files. */
export function multipart(fields: Record<string, string>, files: Array<{ field: string; filename: string; content: Buffer; type?: string }> = []) {
  const boundary = `----geo${Date.now()}${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\nContent-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    );
    chunks.push(f.content, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
