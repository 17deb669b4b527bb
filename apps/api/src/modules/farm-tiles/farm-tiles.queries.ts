// The SQL of the farm vector tiles. PostgreSQL builds the whole tile with ST_AsMVT / ST_AsMVTGeom; the embedded engine
// (PGlite's PostGIS has no protobuf-c, so no ST_AsMVT) reads the same rows as GeoJSON and farm-tiles.service.ts encodes
// them. Both take the tenant id first (null = every tenant, provider staff) and run inside withScope (row-level security).
import { sql, type SQL } from 'drizzle-orm';
import type { PlotRiskLevel } from '@farmland/contracts';
import { queryRows, type Executor } from '../../db/client.js';

/** The map's colour classes, as the console's legend: overlap, flagged (unrecognized), within an area, outside. */
const category = sql`CASE WHEN f.is_overlapping THEN 'overlap' WHEN f.flag IS NOT NULL THEN 'unrecognized' WHEN f.operational_area_id IS NOT NULL THEN 'within' ELSE 'outside' END`;
const farmer = sql`(fr.first_name || ' ' || fr.last_name)`;
const tenantCond = (tenantId: string | null): SQL => (tenantId ? sql`f.tenant_id = ${tenantId} AND` : sql``);
/**
 * The farm's stored EUDR verdict (low, review, high; issue 29), or null (left out of the tile) while it has none: the
 * verdict reference-layers.verdicts.ts keeps up to date (a capture, a re-walk, a sweep after a layer or threshold
 * change). A correlated lookup by farm_verdicts' primary key, so one index probe per farm of the tile whatever the
 * planner thinks of the tile's size (a join could become a hash join over every stored verdict). By farm id alone, as
 * verdictsOf reads the screenings: the farm is already the tenant's, and row-level security scopes farm_verdicts too.
 */
const verdictOf = (farm: SQL) => sql`(SELECT v.verdict FROM farm_verdicts v WHERE v.farm_id = ${farm}.id)`;

/** A tile's buffer in Web Mercator metres: 1/64 of its width (the world is 2 × 20037508.34 m wide at zoom 0). */
const tileBuffer = (z: number) => (2 * 20037508.342789244) / 2 ** z / 64;

export type TileQuery = { z: number; x: number; y: number; polygons: boolean; cap: number };

/**
 * The cells of farm_tile_cells one cluster tile reads: level L (even, z+5 or z+6), the tile's contiguous range of Morton
 * codes [lo, hi], and shift, the bits dropped to group them into clusters of level z+5 (32 × 32 a tile).
 */
export type ClusterQuery = { level: number; lo: number; hi: number; shift: number };

/**
 * The clusters of one tile from the rollup (both engines): per cluster its farm count, the count of each category, the
 * dominant category (ties go to overlap, then unrecognized, within, outside: the states that want attention first), the
 * mean of its farms' points, and for a cluster of one farm that farm's id, name, area and farmer (its id is the XOR of
 * the cells' ids; see drizzle/0013_farm_tile_cells.sql).
 */
function clusterRows(tenantId: string | null, c: ClusterQuery): SQL {
  return sql`
    WITH g AS (
      SELECT c.cell >> ${c.shift}::int AS g, sum(c.n)::int AS n, sum(c.n_overlap)::int AS ov, sum(c.n_unrecognized)::int AS un,
             sum(c.n_within)::int AS wi, sum(c.sum_lng) / sum(c.n) AS lng, sum(c.sum_lat) / sum(c.n) AS lat,
             bit_xor(c.id_xor_hi) AS hi, bit_xor(c.id_xor_lo) AS lo
      FROM farm_tile_cells c
      WHERE ${tenantId ? sql`c.tenant_id = ${tenantId} AND` : sql``} c.level = ${c.level}::smallint AND c.cell BETWEEN ${c.lo}::bigint AND ${c.hi}::bigint
      GROUP BY 1
      HAVING sum(c.n) > 0
    ),
    k AS MATERIALIZED (
      SELECT g.*, g.n - g.ov - g.un - g.wi AS ou,
             CASE WHEN g.n = 1 THEN (lpad(to_hex(g.hi), 16, '0') || lpad(to_hex(g.lo), 16, '0'))::uuid END AS farm_id
      FROM g
    )
    SELECT k.n AS count, k.ov AS overlap, k.un AS unrecognized, k.wi AS within, k.ou AS outside,
           CASE greatest(k.ov, k.un, k.wi, k.ou) WHEN k.ov THEN 'overlap' WHEN k.un THEN 'unrecognized' WHEN k.wi THEN 'within' ELSE 'outside' END AS category,
           one.id, one.name, one.area, one.farmer, one.verdict, k.lng, k.lat
    FROM k
    -- The farm of a cluster of one, by primary key. k is materialized so that farm_id is a plain column: computed in
    -- the join condition (lpad, to_hex: not leakproof), row-level security kept it from being an index condition, and
    -- the farms were scanned whole (400 ms with 1M farms). The LIMIT keeps the subquery from being pulled up into a
    -- hash join over every farm.
    LEFT JOIN LATERAL (
      SELECT f.id::text AS id, f.name, round(f.area_sqm::numeric, 2)::float8 AS area, ${farmer} AS farmer, ${verdictOf(sql`f`)} AS verdict
      FROM farms f JOIN farmers fr ON fr.id = f.farmer_id
      WHERE f.id = k.farm_id
      LIMIT 1
    ) one ON true
    ORDER BY k.g`;
}

export type ClusterRow = {
  count: number;
  overlap: number;
  unrecognized: number;
  within: number;
  outside: number;
  category: string;
  id: string | null;
  name: string | null;
  area: number | null;
  farmer: string | null;
  verdict: PlotRiskLevel | null;
  lng: number;
  lat: number;
};

/** PostgreSQL: a cluster tile's bytes, layer "farm_clusters" (one point per cluster). */
export async function mvtClusterTile(tx: Executor, tenantId: string | null, q: TileQuery, c: ClusterQuery): Promise<Buffer> {
  const rows = await queryRows<{ tile: Buffer | Uint8Array | null }>(
    tx,
    sql`
    WITH r AS (${clusterRows(tenantId, c)}),
    m AS (
      SELECT r.count, r.overlap, r.unrecognized, r.within, r.outside, r.category, r.id, r.name, r.area, r.farmer, r.verdict,
             ST_AsMVTGeom(ST_Transform(ST_SetSRID(ST_MakePoint(r.lng, r.lat), 4326), 3857), ST_TileEnvelope(${q.z}::int, ${q.x}::int, ${q.y}::int), 4096, 64, true) AS geom
      FROM r
    )
    SELECT coalesce((SELECT ST_AsMVT(m.*, 'farm_clusters', 4096, 'geom') FROM m WHERE geom IS NOT NULL), ''::bytea) AS tile`,
  );
  const tile = rows[0]?.tile;
  return tile ? Buffer.from(tile) : Buffer.alloc(0);
}

/** PGlite: the same clusters as rows, for encoding in JS. */
export async function clusterTileRows(tx: Executor, tenantId: string | null, c: ClusterQuery): Promise<ClusterRow[]> {
  const rows = await queryRows<ClusterRow>(tx, clusterRows(tenantId, c));
  return rows.map((r) => ({ ...r, area: r.area === null ? null : Number(r.area), lng: Number(r.lng), lat: Number(r.lat) }));
}

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
      SELECT f.id, f.name, f.geom, f.area_sqm, ${category} AS category, ${farmer} AS farmer, ${verdictOf(sql`f`)} AS verdict
      FROM cand f JOIN farmers fr ON fr.id = f.farmer_id
      ORDER BY f.id
    ),
    polys AS (
      SELECT h.id::text AS id, h.name, h.category, round(h.area_sqm::numeric, 2)::float8 AS area, h.farmer, h.verdict,
             ST_AsMVTGeom(ST_Transform(h.geom, 3857), b.env, 4096, 64, true) AS geom
      FROM hits h, b WHERE ${q.polygons}
    ),
    pts AS (
      SELECT h.id::text AS id, h.name, h.category, round(h.area_sqm::numeric, 2)::float8 AS area, h.farmer, h.verdict,
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
  verdict: PlotRiskLevel | null;
  geom: { type: 'Polygon'; coordinates: [number, number][][] } | null;
  point: { type: 'Point'; coordinates: [number, number] };
};

/** PGlite: the farms whose boundary meets the (buffered) tile bounds, as GeoJSON, for encoding in JS. */
export async function tileRows(tx: Executor, tenantId: string | null, bounds: [number, number, number, number], q: TileQuery): Promise<TileRow[]> {
  const [a, b, c, d] = bounds;
  const rows = await queryRows<Omit<TileRow, 'geom' | 'point'> & { geom: string | TileRow['geom']; point: string | TileRow['point'] }>(
    tx,
    sql`
    SELECT f.id::text AS id, f.name, ${category} AS category, round(f.area_sqm::numeric, 2)::float8 AS area, ${farmer} AS farmer, ${verdictOf(sql`f`)} AS verdict,
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
