// The SQL of the EUDR export: farms in id order (keyset batches), with the farmer, area, country (the farmer's, else
// the tenant's; ISO 3166-1 alpha-2) and the geometry as GeoJSON with 6 decimals, exterior rings counter-clockwise
// (RFC 7946). With pointsBelow4ha, farms under 4 ha (40,000 sqm) are their centroid.
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.js';

export type EudrRow = { id: string; name: string; farmer: string; area_sqm: number; country: string | null; geometry: string };

export const FOUR_HECTARES_SQM = 40_000;

export async function eudrBatch(tx: Executor, tenantId: string | null, pointsBelow4ha: boolean, after: string | null, limit: number): Promise<EudrRow[]> {
  const rows = await queryRows<EudrRow>(
    tx,
    sql`
    SELECT f.id::text AS id, f.name, fr.first_name || ' ' || fr.last_name AS farmer, f.area_sqm::float8 AS area_sqm, c.iso2 AS country,
           ST_AsGeoJSON(CASE WHEN ${pointsBelow4ha} AND f.area_sqm < ${FOUR_HECTARES_SQM} THEN ST_Centroid(f.geom) ELSE ST_ForcePolygonCCW(f.geom) END, 6) AS geometry
    FROM farms f
    JOIN farmers fr ON fr.id = f.farmer_id
    JOIN tenants t ON t.id = f.tenant_id
    LEFT JOIN countries c ON c.id = coalesce(fr.country_id, t.country_id)
    WHERE ${tenantId ? sql`f.tenant_id = ${tenantId}` : sql`true`} ${after ? sql`AND f.id > ${after}::uuid` : sql``}
    ORDER BY f.id
    LIMIT ${limit}`,
  );
  return rows.map((r) => ({ ...r, area_sqm: Number(r.area_sqm) }));
}

/** Whether a tenant exists (provider staff may name any tenant; an unknown one is a 404, never an orphan log entry). */
export async function tenantExists(tx: Executor, tenantId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(tx, sql`SELECT id FROM tenants WHERE id = ${tenantId}`);
  return rows.length > 0;
}
