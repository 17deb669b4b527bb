// PostGIS checks on a polygon before it is stored: validity with its reason, and the geodesic area on the WGS84 spheroid.
// These touch no table (so no tenant id); every geometry write calls them first.
import { sql, type SQL } from 'drizzle-orm';
import type { PolygonRings } from '@farmland/contracts';
import { queryRows, type Executor } from '../../db/client.js';

/** The polygon as a PostGIS expression (SRID 4326) built from normalised rings. */
export function polygonSql(rings: PolygonRings): SQL {
  return sql`ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify({ type: 'Polygon', coordinates: rings })}), 4326)`;
}

export type PolygonCheck = { valid: boolean; reason: string; areaSqm: number };

/** ST_IsValid and its reason; the area is only meaningful when valid. No overlay runs here, so invalid input is safe on PGlite. */
export async function checkPolygon(tx: Executor, rings: PolygonRings): Promise<PolygonCheck> {
  const [row] = await queryRows<{ valid: boolean; reason: string; area: number | null }>(
    tx,
    sql`SELECT ST_IsValid(g) AS valid, ST_IsValidReason(g) AS reason,
               CASE WHEN ST_IsValid(g) THEN ST_Area(g::geography) END AS area
          FROM (SELECT ${polygonSql(rings)} AS g) s`,
  );
  if (!row) throw new Error('polygon check returned nothing');
  return { valid: row.valid, reason: row.reason, areaSqm: Number(row.area ?? 0) };
}

/** checkPolygon for many polygons in one statement (a bulk upload): the same ST_IsValid, reason and area, in the order given. */
export async function checkPolygons(tx: Executor, list: readonly PolygonRings[]): Promise<PolygonCheck[]> {
  if (list.length === 0) return [];
  const rows = await queryRows<{ i: number; valid: boolean; reason: string; area: number | null }>(
    tx,
    sql`SELECT x.i, ST_IsValid(s.g) AS valid, ST_IsValidReason(s.g) AS reason, CASE WHEN ST_IsValid(s.g) THEN ST_Area(s.g::geography) END AS area
          FROM jsonb_to_recordset(${JSON.stringify(list.map((rings, i) => ({ i, gj: JSON.stringify({ type: 'Polygon', coordinates: rings }) })))}::jsonb) AS x(i int, gj text)
          CROSS JOIN LATERAL (SELECT ST_SetSRID(ST_GeomFromGeoJSON(x.gj), 4326) AS g) s`,
  );
  const out: PolygonCheck[] = new Array(list.length);
  for (const r of rows) out[r.i] = { valid: r.valid, reason: r.reason, areaSqm: Number(r.area ?? 0) };
  return out;
}
