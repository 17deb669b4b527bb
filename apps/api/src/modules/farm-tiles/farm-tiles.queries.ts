// The SQL of the farm vector tiles. PostgreSQL builds the whole tile with ST_AsMVT / ST_AsMVTGeom; the embedded engine
// (PGlite's PostGIS has no protobuf-c, so no ST_AsMVT) reads the same rows as GeoJSON and farm-tiles.service.ts encodes
// them. Both take the tenant id first (null = every tenant, provider staff) and run inside withScope (row-level security).
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.js';

/** The map's colour classes, as the console's legend: overlap, flagged (unrecognized), within an area, outside. */
const category = sql`CASE WHEN f.is_overlapping THEN 'overlap' WHEN f.flag IS NOT NULL THEN 'unrecognized' WHEN f.operational_area_id IS NOT NULL THEN 'within' ELSE 'outside' END`;
const farmer = sql`(fr.first_name || ' ' || fr.last_name)`;
const tenantCond = (tenantId: string | null): SQL => (tenantId ? sql`f.tenant_id = ${tenantId} AND` : sql``);

/** A tile's buffer in Web Mercator metres: 1/64 of its width (the world is 2 × 20037508.34 m wide at zoom 0). */
const tileBuffer = (z: number) => (2 * 20037508.342789244) / 2 ** z / 64;

export type TileQuery = { z: number; x: number; y: number; polygons: boolean; cap: number };

/** PostgreSQL: the tile's bytes, layers "farms" (polygons, when asked) and "farm_points" (one point on each farm). */
export async function mvtTile(tx: Executor, tenantId: string | null, q: TileQuery): Promise<Buffer> {
  const rows = await queryRows<{ tile: Buffer | Uint8Array | null }>(
    tx,
    sql`
    WITH b AS (SELECT ST_TileEnvelope(${q.z}::int, ${q.x}::int, ${q.y}::int) AS env),
    -- The farms in the (buffered) tile straight from the GiST index, at most cap of them, and only then ordered: an
    -- ORDER BY id beside the LIMIT let the planner walk the primary key in id order and test every farm of the tenant
    -- (4.6 s a tile with 1M farms, however small the tile).
    cand AS MATERIALIZED (
      SELECT f.id, f.name, f.geom, f.area_sqm, f.is_overlapping, f.flag, f.operational_area_id, f.farmer_id
      FROM farms f
      WHERE ${tenantCond(tenantId)} f.geom && ST_Transform(ST_Expand(ST_TileEnvelope(${q.z}::int, ${q.x}::int, ${q.y}::int), ${tileBuffer(q.z)}::float8), 4326)
      LIMIT ${q.cap}
    ),
    hits AS (
      SELECT f.id, f.name, f.geom, f.area_sqm, ${category} AS category, ${farmer} AS farmer
      FROM cand f JOIN farmers fr ON fr.id = f.farmer_id
      ORDER BY f.id
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
    FROM (
      -- From the GiST index, at most cap farms, then ordered (see mvtTile on the ORDER BY … LIMIT trap).
      SELECT * FROM farms f
      WHERE ${tenantCond(tenantId)} f.geom && ST_MakeEnvelope(${a}, ${b}, ${c}, ${d}, 4326)
      LIMIT ${q.cap}
    ) f JOIN farmers fr ON fr.id = f.farmer_id
    ORDER BY f.id`,
  );
  return rows.map((r) => ({
    ...r,
    area: Number(r.area),
    geom: typeof r.geom === 'string' ? (JSON.parse(r.geom) as TileRow['geom']) : r.geom,
    point: typeof r.point === 'string' ? (JSON.parse(r.point) as TileRow['point']) : r.point,
  }));
}
