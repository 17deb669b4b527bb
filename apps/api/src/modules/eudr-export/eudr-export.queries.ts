// The SQL of the EUDR export: farms in id order (keyset batches), with the farmer, area, country (the farmer's, else
// the tenant's; ISO 3166-1 alpha-2) and the geometry as GeoJSON with 6 decimals, exterior rings counter-clockwise
// (RFC 7946). With pointsBelow4ha, farms under 4 ha (40,000 sqm) are their centroid. Issue 29: each row's geolocation
// checks, the passing plots only unless all are asked for, and plots with holes split into hole-free parts on request.
import { sql } from 'drizzle-orm';
import type { PlotRisk } from '@farmland/contracts';
import { queryRows, type Executor } from '../../db/client.js';
import type { RiskFigure } from '../reference-layers/plot-risk.js';

export type EudrRow = {
  id: string;
  name: string;
  farmer: string;
  area_sqm: number;
  country: string | null;
  geometry: string;
  /** Geolocation checks (issue 29): interior rings and validity (the coordinates' precision is read from `geometry`). */
  holes: number;
  valid: boolean;
  tenant_id: string;
  /** The farm's screening figures (issue 29), for its plot-risk verdict. */
  figures: RiskFigure[];
  /** Set by the service from the figures and the tenant's thresholds. */
  risk?: PlotRisk;
};

export type EudrOptions = { pointsBelow4ha: boolean; passingOnly: boolean; splitHoles: boolean };

export const FOUR_HECTARES_SQM = 40_000;

export async function eudrBatch(tx: Executor, tenantId: string | null, opts: EudrOptions, after: string | null, limit: number): Promise<EudrRow[]> {
  // A plot with holes, split (split_holes): cut by a north-south line through a point inside each hole, so that every
  // hole opens onto the outside; the parts are hole-free polygons (a MultiPolygon).
  const split = sql`(SELECT ST_Multi(ST_CollectionExtract(ST_Split(f.geom, ST_SetSRID(ST_Collect(ST_MakeLine(
                        ST_MakePoint(ST_X(p), ST_YMin(f.geom) - 1), ST_MakePoint(ST_X(p), ST_YMax(f.geom) + 1))), 4326)), 3))
                       FROM (SELECT ST_PointOnSurface(ST_MakePolygon(ST_InteriorRingN(f.geom, i))) AS p
                               FROM generate_series(1, ST_NumInteriorRings(f.geom)) AS i) h)`;
  const shape = sql`CASE WHEN ${opts.pointsBelow4ha} AND f.area_sqm < ${FOUR_HECTARES_SQM} THEN ST_Centroid(f.geom)
                         WHEN ${opts.splitHoles} AND ST_NumInteriorRings(f.geom) > 0 THEN ST_ForcePolygonCCW(coalesce(${split}, f.geom))
                         ELSE ST_ForcePolygonCCW(f.geom) END`;
  const rows = await queryRows<EudrRow>(
    tx,
    sql`
    SELECT f.id::text AS id, f.name, fr.first_name || ' ' || fr.last_name AS farmer, f.area_sqm::float8 AS area_sqm, c.iso2 AS country,
           ST_AsGeoJSON(${shape}, 6) AS geometry,
           ST_NumInteriorRings(f.geom) AS holes, ST_IsValid(f.geom) AS valid, f.tenant_id::text AS tenant_id,
           (SELECT coalesce(jsonb_agg(jsonb_build_object('layer_id', s.layer_id, 'layer_name', l.name, 'kind', l.kind, 'overlap_sqm', s.overlap_sqm, 'share', s.share)), '[]'::jsonb)
              FROM farm_screenings s JOIN reference_layers l ON l.id = s.layer_id WHERE s.farm_id = f.id AND l.version > 0) AS figures
    FROM farms f
    JOIN farmers fr ON fr.id = f.farmer_id
    JOIN tenants t ON t.id = f.tenant_id
    LEFT JOIN countries c ON c.id = coalesce(fr.country_id, t.country_id)
    WHERE ${tenantId ? sql`f.tenant_id = ${tenantId}` : sql`true`} ${after ? sql`AND f.id > ${after}::uuid` : sql``}
      ${opts.passingOnly ? sql`AND ST_IsValid(f.geom) AND (${opts.splitHoles} OR ST_NumInteriorRings(f.geom) = 0)` : sql``}
    ORDER BY f.id
    LIMIT ${limit}`,
  );
  return rows.map((r) => ({
    ...r,
    area_sqm: Number(r.area_sqm),
    holes: Number(r.holes),
    figures: (typeof r.figures === 'string' ? (JSON.parse(r.figures) as RiskFigure[]) : r.figures).map((f) => ({ ...f, overlap_sqm: Number(f.overlap_sqm), share: Number(f.share) })),
  }));
}

/** Whether a tenant exists (provider staff may name any tenant; an unknown one is a 404, never an orphan log entry). */
export async function tenantExists(tx: Executor, tenantId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(tx, sql`SELECT id FROM tenants WHERE id = ${tenantId}`);
  return rows.length > 0;
}
