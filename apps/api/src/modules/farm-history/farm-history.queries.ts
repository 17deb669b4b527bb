// The SQL of a farm's boundary history (farm_boundary_history, written by re-mapping and by Retain), newest first.
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.js';

export type BoundaryRow = {
  id: string;
  reason: string;
  area_sqm: number;
  geojson: string | { type: 'Polygon'; coordinates: [number, number][][] };
  created_by: string | null;
  created_at: Date | string;
};

export async function boundaryHistory(tx: Executor, tenantId: string | null, farmId: string): Promise<BoundaryRow[]> {
  return queryRows<BoundaryRow>(
    tx,
    sql`SELECT h.id, h.reason, h.area_sqm::float8 AS area_sqm, ST_AsGeoJSON(h.geom) AS geojson,
               CASE WHEN u.id IS NULL THEN NULL ELSE u.first_name || ' ' || u.last_name END AS created_by, h.created_at
          FROM farm_boundary_history h
          LEFT JOIN users u ON u.id = h.created_by
         WHERE h.farm_id = ${farmId} ${tenantId ? sql`AND h.tenant_id = ${tenantId}` : sql``}
         ORDER BY h.created_at DESC, h.id
         LIMIT 200`,
  );
}
