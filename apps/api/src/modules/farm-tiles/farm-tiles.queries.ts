// The SQL of the farm vector tiles. PostgreSQL builds the whole tile with ST_AsMVT / ST_AsMVTGeom; the embedded engine
// (PGlite's PostGIS has no protobuf-c, so no ST_AsMVT) reads the same rows as GeoJSON and farm-tiles.service.ts encodes
// them. Both take the tenant id first (null = every tenant, provider staff) and run inside withScope (row-level security).
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.js';

/** The map's colour classes, as the console's legend: overlap, flagged (unrecognized), within an area, outside. */
const category = sql`CASE WHEN f.is_overlapping THEN 'overlap' WHEN f.flag IS NOT NULL THEN 'unrecognized' WHEN f.operational_area_id IS NOT NULL THEN 'within' ELSE 'outside' END`;
const farmer = sql`(fr.first_name || ' ' || fr.last_name)`;
const tenantCond = (tenantId: string | null): SQL => (tenantId ? sql`f.tenant_id = ${tenantId} AND` : sql``);

export type TileQuery = { z: number; x: number; y: number; polygons: boolean; cap: number };

/** PostgreSQL: the tile's bytes, layers "farms" (polygons, when asked) and "farm_points" (one point on each farm). */
export async function mvtTile(tx: Executor, tenantId: string | null, q: TileQuery): Promise<Buffer> {
  const rows = await queryRows<{ tile: Buffer | Uint8Array | null }>(
    tx,
    sql`
    WITH b AS (SELECT ST_TileEnvelope(${q.z}::int, ${q.x}::int, ${q.y}::int) AS env),
    hits AS (
      SELECT f.id, f.name, f.geom, f.area_sqm, ${category} AS category, ${farmer} AS farmer
      FROM farms f JOIN farmers fr ON fr.id = f.farmer_id, b
      WHERE ${tenantCond(tenantId)} f.geom && ST_Transform(ST_Expand(b.env, (ST_XMax(b.env) - ST_XMin(b.env)) / 64), 4326)
      ORDER BY f.id
      LIMIT ${q.cap}
    ),
    polys AS (
      SELECT h.id::text AS id, h.name, h.category, round(h.area_sqm::numeric, 2)::float8 AS area, h.farmer,
             ST_AsMVTGeom(ST_Transform(h.geom, 3857), b.env, 4096, 64, true) AS geom
      FROM hits h, b WHERE ${q.polygons}
    ),
    pts AS (
      SELECT h.id::text AS id, h.name, h.category, round(h.area_sqm::numeric, 2)::float8 AS area, h.farmer,
             ST_AsMVTGeom(ST_Transform(ST_PointOnSurface(h.geom), 3857), b.env, 4096, 64, true) AS geom
      FROM hits h, b
    )
    SELECT coalesce((SELECT ST_AsMVT(polys.*, 'farms', 4096, 'geom') FROM polys WHERE geom IS NOT NULL), ''::bytea)
        || coalesce((SELECT ST_AsMVT(pts.*, 'farm_points', 4096, 'geom') FROM pts WHERE geom IS NOT NULL), ''::bytea) AS tile`,
  );
  const tile = rows[0]?.tile;
  return tile ? Buffer.from(tile) : Buffer.alloc(0);
}

export type TileRow = {
  id: string;
  name: string;
  category: string;
  area: number;
  farmer: string;
  geom: { type: 'Polygon'; coordinates: [number, number][][] } | null;
  point: { type: 'Point'; coordinates: [number, number] };
};

/** PGlite: the farms whose boundary meets the (buffered) tile bounds, as GeoJSON, for encoding in JS. */
export async function tileRows(tx: Executor, tenantId: string | null, bounds: [number, number, number, number], q: TileQuery): Promise<TileRow[]> {
  const [a, b, c, d] = bounds;
  const rows = await queryRows<Omit<TileRow, 'geom' | 'point'> & { geom: string | TileRow['geom']; point: string | TileRow['point'] }>(
    tx,
    sql`
    SELECT f.id::text AS id, f.name, ${category} AS category, round(f.area_sqm::numeric, 2)::float8 AS area, ${farmer} AS farmer,
           CASE WHEN ${q.polygons} THEN ST_AsGeoJSON(f.geom, 7) END AS geom, ST_AsGeoJSON(ST_PointOnSurface(f.geom), 7) AS point
    FROM farms f JOIN farmers fr ON fr.id = f.farmer_id
    WHERE ${tenantCond(tenantId)} f.geom && ST_MakeEnvelope(${a}, ${b}, ${c}, ${d}, 4326)
    ORDER BY f.id
    LIMIT ${q.cap}`,
  );
  return rows.map((r) => ({
    ...r,
    area: Number(r.area),
    geom: typeof r.geom === 'string' ? (JSON.parse(r.geom) as TileRow['geom']) : r.geom,
    point: typeof r.point === 'string' ? (JSON.parse(r.point) as TileRow['point']) : r.point,
  }));
}
