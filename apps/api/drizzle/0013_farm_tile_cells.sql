-- Issue 8: the rollup behind the low-zoom vector tiles. A tile below zoom 15 carries clusters (one point per grid cell
-- with its farm count and the count of each map category) instead of every farm: such a tile can hold 50,000 farms,
-- which cannot be read and encoded in 50 ms. farm_tile_cells keeps, per tenant, the farms' counts in Web Mercator grid
-- cells at the even levels 6, 8, …, 20 (a cell of level L is a tile of zoom L). A tile of zoom z reads the level z+5
-- or z+6 (at most 4,096 cells), and groups them to cells of level z+5 (32 × 32 a tile).
--  * cell is the Morton code (bits of x and y interleaved, x in the even bits) of the cell at its level, so the cells
--    of one tile are one contiguous range of the primary key.
--  * A farm is counted where ST_PointOnSurface(geom) lies (the point the farm_points layer draws).
--  * Categories as the tiles' (farm-tiles.queries.ts): overlap if is_overlapping; else unrecognized if flag is set; else
--    within if operational_area_id is set; else outside (= n - the other three).
--  * sum_lng / sum_lat place the cluster at the mean of its farms' points.
--  * id_xor_hi / id_xor_lo are the XOR of the farms' ids (two halves of the uuid): when a cell (or a group of cells)
--    holds one farm, that is its id, so a cluster of one can be drawn as the farm itself. XOR undoes itself, so a
--    delete removes an id exactly as an insert added it.
-- Kept in the writing transaction by statement-level triggers with transition tables on farms (insert, delete, and
-- any update that changes the tenant, the geometry or a column of the category; cascaded deletes of a farmer or a
-- tenant fire them too). Upserts go in key order, so two writers lock shared cells in the same order.
CREATE TABLE "farm_tile_cells" (
  "tenant_id" uuid NOT NULL,
  "level" smallint NOT NULL,
  "cell" bigint NOT NULL,
  "n" integer NOT NULL,
  "n_overlap" integer NOT NULL,
  "n_unrecognized" integer NOT NULL,
  "n_within" integer NOT NULL,
  "sum_lng" double precision NOT NULL,
  "sum_lat" double precision NOT NULL,
  "id_xor_hi" bigint NOT NULL,
  "id_xor_lo" bigint NOT NULL,
  CONSTRAINT "farm_tile_cells_pk" PRIMARY KEY ("tenant_id", "level", "cell"),
  CONSTRAINT "farm_tile_cells_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade
) WITH (fillfactor = 80);
--> statement-breakpoint
-- Provider staff read every tenant's cells of a tile.
CREATE INDEX "farm_tile_cells_level_cell_idx" ON "farm_tile_cells" ("level", "cell");
--> statement-breakpoint
ALTER TABLE "farm_tile_cells" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "farm_tile_cells" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "farm_tile_cells"
  USING ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()))
  WITH CHECK ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()));
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "farm_tile_cells" TO farmland_app;
--> statement-breakpoint
-- The bits of v (below 2^20) spread to the even positions 0, 2, 4, … (one expression, so that it is inlined).
CREATE OR REPLACE FUNCTION farm_cell_spread(v bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ((((((((((v) | ((v) << 16)) & 281470681808895) | ((((v) | ((v) << 16)) & 281470681808895) << 8)) & 71777214294589695) | ((((((v) | ((v) << 16)) & 281470681808895) | ((((v) | ((v) << 16)) & 281470681808895) << 8)) & 71777214294589695) << 4)) & 1085102592571150095) | ((((((((v) | ((v) << 16)) & 281470681808895) | ((((v) | ((v) << 16)) & 281470681808895) << 8)) & 71777214294589695) | ((((((v) | ((v) << 16)) & 281470681808895) | ((((v) | ((v) << 16)) & 281470681808895) << 8)) & 71777214294589695) << 4)) & 1085102592571150095) << 2)) & 3689348814741910323) | ((((((((((v) | ((v) << 16)) & 281470681808895) | ((((v) | ((v) << 16)) & 281470681808895) << 8)) & 71777214294589695) | ((((((v) | ((v) << 16)) & 281470681808895) | ((((v) | ((v) << 16)) & 281470681808895) << 8)) & 71777214294589695) << 4)) & 1085102592571150095) | ((((((((v) | ((v) << 16)) & 281470681808895) | ((((v) | ((v) << 16)) & 281470681808895) << 8)) & 71777214294589695) | ((((((v) | ((v) << 16)) & 281470681808895) | ((((v) | ((v) << 16)) & 281470681808895) << 8)) & 71777214294589695) << 4)) & 1085102592571150095) << 2)) & 3689348814741910323) << 1)) & 6148914691236517205
$$;
--> statement-breakpoint
-- A farm's cell of level 20 (x in the even bits of the Morton code, y in the odd ones), from its point on surface.
-- Web Mercator, as ST_TileEnvelope: latitudes beyond ±85.0511° sit on the edge row. In PL/pgSQL so that the cell's x and
-- y are computed once: as one SQL expression, farm_cell_spread's 32 uses of its argument each recomputed the projection
-- (0.5 ms a farm instead of a few µs).
CREATE OR REPLACE FUNCTION farm_cell20(p geometry) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  lat float8 := radians(least(85.0511287798, greatest(-85.0511287798, ST_Y(p))));
  gx bigint := least(1048575, greatest(0, floor((ST_X(p) + 180) / 360 * 1048576)))::bigint;
  gy bigint := least(1048575, greatest(0, floor((1 - ln(tan(lat) + 1 / cos(lat)) / pi()) / 2 * 1048576)))::bigint;
BEGIN
  RETURN farm_cell_spread(gx) | (farm_cell_spread(gy) << 1);
END $$;
--> statement-breakpoint
-- The statement that adds the farms' contributions to the cells, d = +1 (added) or -1 (removed), in key order, and
-- returns the cells it emptied. src is the SQL of the changed rows: tenant_id, id, geom, is_overlapping, flag,
-- operational_area_id, d. (A trigger's transition tables are visible only to statements the trigger function itself
-- runs, so the trigger EXECUTEs this text rather than calling a function that would.)
CREATE OR REPLACE FUNCTION farm_tile_cells_sql(src text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT format($q$
    WITH s AS (%s),
    p AS (
      SELECT s.tenant_id, s.d, ST_PointOnSurface(s.geom) AS pt,
             CASE WHEN s.is_overlapping THEN 1 ELSE 0 END AS ov,
             CASE WHEN NOT s.is_overlapping AND s.flag IS NOT NULL THEN 1 ELSE 0 END AS un,
             CASE WHEN NOT s.is_overlapping AND s.flag IS NULL AND s.operational_area_id IS NOT NULL THEN 1 ELSE 0 END AS wi,
             ('x' || substr(replace(s.id::text, '-', ''), 1, 16))::bit(64)::bigint AS hi,
             ('x' || substr(replace(s.id::text, '-', ''), 17, 16))::bit(64)::bigint AS lo
      FROM s
    ),
    q AS MATERIALIZED (SELECT p.*, farm_cell20(p.pt) AS c20, ST_X(p.pt) AS lng, ST_Y(p.pt) AS lat FROM p),
    up AS (
      INSERT INTO farm_tile_cells AS c (tenant_id, level, cell, n, n_overlap, n_unrecognized, n_within, sum_lng, sum_lat, id_xor_hi, id_xor_lo)
      SELECT q.tenant_id, l.level, q.c20 >> (2 * (20 - l.level)), sum(q.d), sum(q.d * q.ov), sum(q.d * q.un), sum(q.d * q.wi),
             sum(q.d * q.lng), sum(q.d * q.lat), bit_xor(q.hi), bit_xor(q.lo)
      FROM q CROSS JOIN (VALUES (6::smallint), (8::smallint), (10::smallint), (12::smallint), (14::smallint), (16::smallint), (18::smallint), (20::smallint)) l(level)
      GROUP BY 1, 2, 3
      ORDER BY 1, 2, 3
      ON CONFLICT (tenant_id, level, cell) DO UPDATE SET
        n = c.n + excluded.n, n_overlap = c.n_overlap + excluded.n_overlap, n_unrecognized = c.n_unrecognized + excluded.n_unrecognized,
        n_within = c.n_within + excluded.n_within, sum_lng = c.sum_lng + excluded.sum_lng, sum_lat = c.sum_lat + excluded.sum_lat,
        id_xor_hi = c.id_xor_hi # excluded.id_xor_hi, id_xor_lo = c.id_xor_lo # excluded.id_xor_lo
      RETURNING c.tenant_id, c.level, c.cell, c.n
    )
    SELECT array_agg(tenant_id), array_agg(level), array_agg(cell) FROM up WHERE n = 0$q$, src)
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION farm_tile_cells_drop_empty(e_tenant uuid[], e_level smallint[], e_cell bigint[]) RETURNS void
LANGUAGE sql AS $fn$
  DELETE FROM farm_tile_cells c
  USING unnest(e_tenant, e_level, e_cell) AS e(tenant_id, level, cell)
  WHERE c.tenant_id = e.tenant_id AND c.level = e.level AND c.cell = e.cell AND c.n = 0
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION farm_tile_cells_on_farms() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  src text;
  e_tenant uuid[];
  e_level smallint[];
  e_cell bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    src := 'SELECT tenant_id, id, geom, is_overlapping, flag, operational_area_id, 1 AS d FROM farm_tile_new';
  ELSIF TG_OP = 'DELETE' THEN
    -- A tenant deleted outright takes its cells with it (ON DELETE CASCADE): its farms, deleted by the same cascade,
    -- have nothing left to subtract from.
    src := 'SELECT tenant_id, id, geom, is_overlapping, flag, operational_area_id, -1 AS d FROM farm_tile_old o
            WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = o.tenant_id)';
  ELSE
    -- Only the rows whose cell, category or tenant may change (geometry = compares coordinates exactly, PostGIS >= 2.4).
    src := $s$
      SELECT x.tenant_id, x.id, x.geom, x.is_overlapping, x.flag, x.operational_area_id, x.d
      FROM farm_tile_old o JOIN farm_tile_new n ON n.id = o.id
      CROSS JOIN LATERAL (VALUES
        (o.tenant_id, o.id, o.geom, o.is_overlapping, o.flag, o.operational_area_id, -1),
        (n.tenant_id, n.id, n.geom, n.is_overlapping, n.flag, n.operational_area_id, 1)
      ) x(tenant_id, id, geom, is_overlapping, flag, operational_area_id, d)
      WHERE o.tenant_id IS DISTINCT FROM n.tenant_id OR o.is_overlapping IS DISTINCT FROM n.is_overlapping
         OR o.flag IS DISTINCT FROM n.flag OR (o.operational_area_id IS NULL) <> (n.operational_area_id IS NULL)
         OR NOT (o.geom = n.geom)$s$;
  END IF;
  EXECUTE farm_tile_cells_sql(src) INTO e_tenant, e_level, e_cell;
  IF e_tenant IS NOT NULL THEN
    PERFORM farm_tile_cells_drop_empty(e_tenant, e_level, e_cell);
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
CREATE TRIGGER farm_tile_cells_on_insert AFTER INSERT ON "farms"
  REFERENCING NEW TABLE AS farm_tile_new FOR EACH STATEMENT EXECUTE FUNCTION farm_tile_cells_on_farms();
--> statement-breakpoint
CREATE TRIGGER farm_tile_cells_on_update AFTER UPDATE ON "farms"
  REFERENCING OLD TABLE AS farm_tile_old NEW TABLE AS farm_tile_new FOR EACH STATEMENT EXECUTE FUNCTION farm_tile_cells_on_farms();
--> statement-breakpoint
CREATE TRIGGER farm_tile_cells_on_delete AFTER DELETE ON "farms"
  REFERENCING OLD TABLE AS farm_tile_old FOR EACH STATEMENT EXECUTE FUNCTION farm_tile_cells_on_farms();
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION farm_cell_spread(bigint), farm_cell20(geometry), farm_tile_cells_sql(text), farm_tile_cells_drop_empty(uuid[], smallint[], bigint[]), farm_tile_cells_on_farms() TO farmland_app;
--> statement-breakpoint
-- Backfill: every farm already in the registry (the triggers count what comes after). Both tables force row-level
-- security, so the migration reads and writes them in the 'system' scope (set for this statement's transaction only when
-- the migrator runs without one), and clears it again.
DO $$
DECLARE
  e_tenant uuid[];
  e_level smallint[];
  e_cell bigint[];
BEGIN
  PERFORM set_config('app.scope', 'system', true);
  EXECUTE farm_tile_cells_sql('SELECT tenant_id, id, geom, is_overlapping, flag, operational_area_id, 1 AS d FROM farms') INTO e_tenant, e_level, e_cell;
END $$;
--> statement-breakpoint
SELECT set_config('app.scope', '', true);
