// The SQL of the EUDR export: farms in id order (keyset batches), with the farmer, area, country (the farmer's, else
// the tenant's; ISO 3166-1 alpha-2) and the geometry as GeoJSON with 6 decimals, exterior rings counter-clockwise
// (RFC 7946). A point plot of at most 4 ha (0087) is its point, with its declared area. With pointsBelow4ha, other farms
// under 4 ha (40,000 sqm) are their centroid. Issue 28: the plan of the 25 MB parts, from each farm's size bound.
// Issue 29: each row's geolocation checks, the passing plots only unless all are asked for, and plots with holes split
// into hole-free parts on request.
import { sql, type SQL } from 'drizzle-orm';
import type { PlotRisk } from '@farmland/contracts';
import { queryRows, type Executor } from '../../db/client.js';
import type { RiskFigure } from '../reference-layers/plot-risk.js';
import type { BoundTerms } from './eudr-formats.js';
import { packBuckets } from './eudr-buckets.js';

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

// A plot with holes, split (split_holes): cut by a north-south line through a point inside each hole, so that every
// hole opens onto the outside; the parts are hole-free polygons (a MultiPolygon).
const split = sql`(SELECT ST_Multi(ST_CollectionExtract(ST_Split(f.geom, ST_SetSRID(ST_Collect(ST_MakeLine(
                      ST_MakePoint(ST_X(p), ST_YMin(f.geom) - 1), ST_MakePoint(ST_X(p), ST_YMax(f.geom) + 1))), 4326)), 3))
                     FROM (SELECT ST_PointOnSurface(ST_MakePolygon(ST_InteriorRingN(f.geom, i))) AS p
                             FROM generate_series(1, ST_NumInteriorRings(f.geom)) AS i) h)`;

/** A point plot of at most 4 ha (0087): written as its point, with its declared area. */
const pointPlot = sql`(f.point IS NOT NULL AND f.declared_area_sqm <= ${FOUR_HECTARES_SQM})`;

/** The farms an export holds: the tenant's (or every tenant's), the passing plots only unless all are asked for. */
function exported(tenantId: string | null, opts: EudrOptions) {
  return sql`${tenantId ? sql`f.tenant_id = ${tenantId}` : sql`true`}
      ${opts.passingOnly ? sql`AND f.geom_valid AND (${opts.splitHoles} OR f.geom_holes = 0)` : sql``}`;
}

export async function eudrBatch(tx: Executor, tenantId: string | null, opts: EudrOptions, after: string | null, limit: number): Promise<EudrRow[]> {
  const shape = sql`CASE WHEN ${pointPlot} THEN f.point
                         WHEN ${opts.pointsBelow4ha} AND f.area_sqm < ${FOUR_HECTARES_SQM} THEN ST_Centroid(f.geom)
                         WHEN ${opts.splitHoles} AND ST_NumInteriorRings(f.geom) > 0 THEN ST_ForcePolygonCCW(coalesce(${split}, f.geom))
                         ELSE ST_ForcePolygonCCW(f.geom) END`;
  const rows = await queryRows<EudrRow>(
    tx,
    sql`
    SELECT f.id::text AS id, f.name, fr.first_name || ' ' || fr.last_name AS farmer, (CASE WHEN ${pointPlot} THEN f.declared_area_sqm ELSE f.area_sqm END)::float8 AS area_sqm, c.iso2 AS country,
           ST_AsGeoJSON(${shape}, 6) AS geometry,
           ST_NumInteriorRings(f.geom) AS holes, ST_IsValid(f.geom) AS valid, f.tenant_id::text AS tenant_id,
           (SELECT coalesce(jsonb_agg(jsonb_build_object('layer_id', s.layer_id, 'layer_name', l.name, 'kind', l.kind, 'overlap_sqm', s.overlap_sqm, 'share', s.share)), '[]'::jsonb)
              FROM farm_screenings s JOIN reference_layers l ON l.id = s.layer_id WHERE s.farm_id = f.id AND l.version > 0) AS figures
    FROM farms f
    JOIN farmers fr ON fr.id = f.farmer_id
    JOIN tenants t ON t.id = f.tenant_id
    LEFT JOIN countries c ON c.id = coalesce(fr.country_id, t.country_id)
    WHERE ${exported(tenantId, opts)} ${after ? sql`AND f.id > ${after}::uuid` : sql``}
    ORDER BY f.id
    LIMIT ${limit}`,
  );
  return rows.map((r) => ({
    ...r,
    area_sqm: Number(r.area_sqm),
    holes: Number(r.holes),
    figures: (typeof r.figures === 'string' ? (JSON.parse(r.figures) as RiskFigure[]) : r.figures).map((f) => ({
      ...f,
      overlap_sqm: Number(f.overlap_sqm),
      share: Number(f.share),
    })),
  }));
}

/** Whether a tenant exists (provider staff may name any tenant; an unknown one is a 404, never an orphan log entry). */
export async function tenantExists(tx: Executor, tenantId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(tx, sql`SELECT id FROM tenants WHERE id = ${tenantId}`);
  return rows.length > 0;
}

/** Written bytes of a text in the way a format escapes it (an upper bound for csv: a formula mark and quotes always). */
function escapedBytes(text: BoundTerms['text'], s: SQL): SQL {
  if (text === 'json') return sql`(octet_length(to_json(${s})::text) - 2)`;
  if (text === 'csv') return sql`(2 * octet_length(${s}) - octet_length(replace(${s}, '"', '')) + 3)`;
  return sql`(octet_length(${s}) + 5 * (char_length(${s}) - char_length(translate(${s}, '<>&''"', ''))))`;
}

/**
 * The farmer's name as the bound counts it: the longest of the exported tenant's farmers (of every tenant for a
 * provider-wide export), as the one-row `fm` the plan joins, so the plan reads no farmer per farm (the join was a third
 * of the embedded plan's time: docs/decisions/0096-eudr-plan-by-id-bucket.md).
 */
export function farmerBytesSql(t: BoundTerms, tenantId: string | null): SQL {
  return sql`(SELECT coalesce(max(${escapedBytes(t.text, sql`(fr.first_name || ' ' || fr.last_name)`)}), 0) AS bytes
                FROM farmers fr ${tenantId ? sql`WHERE fr.tenant_id = ${tenantId}` : sql``}) fm`;
}

/**
 * A farm's upper bound of bytes in the export (BoundTerms), from its stored vertex and hole counts and its name, with
 * the longest farmer name (farmerBytesSql, as `fm`): no geometry is read, except a plot with holes split into parts
 * (split_holes), whose parts are counted as they will be written.
 */
export function itemBoundSql(t: BoundTerms, opts: EudrOptions): SQL {
  const names = sql`(${escapedBytes(t.text, sql`f.name`)} + fm.bytes)`;
  const plain = sql`(${t.base} + ${names} + f.geom_points::bigint * ${t.perVertex} + (f.geom_holes + 1)::bigint * ${t.perRing})`;
  if (!opts.splitHoles) return plain;
  const parts = sql`(SELECT ST_NumGeometries(s)::bigint * (${t.base} + ${names}) + ST_NPoints(s)::bigint * ${t.perVertex} + ST_NRings(s)::bigint * ${t.perRing}
                       FROM (SELECT coalesce(${split}, f.geom) AS s) x)`;
  return sql`(CASE WHEN f.geom_holes > 0 THEN ${parts} ELSE ${plain} END)`;
}

/**
 * The export's parts. First by id bucket (the uuid's first 12 bits): one aggregate over the registry's rows (no geometry,
 * no sort, no window), each bucket's bytes bound and farm count, packed in id order into parts that fit the budget
 * (packBuckets). Only when one bucket alone is over the budget (plots of megabytes each) farm by farm: planParts's rule
 * in one statement (eudrPlanSql). Each part: its farm count and the id its next part reads after.
 * docs/decisions/0096-eudr-plan-by-id-bucket.md
 */
export async function eudrPlan(
  tx: Executor,
  tenantId: string | null,
  opts: EudrOptions,
  t: BoundTerms,
  budget: number,
): Promise<Array<{ count: number; last: string }>> {
  const buckets = await queryRows<{ bucket: number; bytes: number; count: number }>(tx, eudrBucketsSql(tenantId, opts, t));
  const packed = packBuckets(
    buckets.map((b) => ({ bucket: Number(b.bucket), bytes: Number(b.bytes), count: Number(b.count) })).sort((a, b) => a.bucket - b.bucket),
    budget,
  );
  if (packed) return packed;
  const rows = await queryRows<{ count: number; last: string }>(tx, eudrPlanSql(tenantId, opts, t, budget));
  return rows.map((r) => ({ count: Number(r.count), last: r.last }));
}

/** The bound's bytes and farm count of each id bucket (ID_BUCKET_BITS: the uuid's first three hex digits), in order. */
export function eudrBucketsSql(tenantId: string | null, opts: EudrOptions, t: BoundTerms): SQL {
  return sql`
    SELECT get_byte(uuid_send(f.id), 0) * 16 + get_byte(uuid_send(f.id), 1) / 16 AS bucket, sum(${itemBoundSql(t, opts)})::float8 AS bytes, count(*)::int AS count
      FROM farms f CROSS JOIN ${farmerBytesSql(t, tenantId)}
     WHERE ${exported(tenantId, opts)}
     GROUP BY 1`;
}

/** Farm by farm (planParts's rule): each farm's bound, its running sum in id order, its part; a row per part. */
export function eudrPlanSql(tenantId: string | null, opts: EudrOptions, t: BoundTerms, budget: number): SQL {
  return sql`
    SELECT count(*)::int AS count, max(id::text COLLATE "C") AS last
      FROM (SELECT id, floor((sum(b) OVER (ORDER BY id ROWS UNBOUNDED PRECEDING) - b) / greatest(1, ${budget}::float8 - max(b) OVER ()))::bigint AS k
              FROM (SELECT f.id, ${itemBoundSql(t, opts)}::float8 AS b
                      FROM farms f CROSS JOIN ${farmerBytesSql(t, tenantId)}
                     WHERE ${exported(tenantId, opts)}) x) y
     GROUP BY k
     ORDER BY k`;
}

/** Reference layers in use (the verdict writes at most one reason per layer, and two more). */
export async function layerCount(tx: Executor): Promise<number> {
  const [row] = await queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM reference_layers WHERE version > 0`);
  return Number(row?.n ?? 0);
}
