-- Issue 15 §1: a 1M-farm registry's lists and dashboard without counting a million rows per request. Three rollups,
-- kept in the writing transaction by statement-level triggers with transition tables (as 0013's farm_tile_cells):
--  * farmers.farm_count: the farmer's number of farms. "Mapped" (is_mapped=true, the dashboard's mapped farmers) is
--    farm_count > 0; two partial indexes on (tenant_id, created_at, id) make either side of the farmers list's is_mapped
--    filter an index walk instead of an (anti-)join over every farm.
--  * tenant_stats: per tenant, farms (with the overview's categories: within an operational area, overlapping, flagged
--    unrecognized) and farmers (with the mapped ones). The exact totals of the unfiltered lists, the overview and the
--    dashboard counts.
--  * farm_period_stats: per tenant, farms created (count and area) per UTC day and per UTC month. The dashboard's
--    series (tenant-mapped-count), the provider's mapping data and ranking.
-- Lock order, the same for every writer: the tenant's tenant_stats row first (so a tenant's rollup writers queue there),
-- then farmers' farm_count, then farm_period_stats in key order, then farm_tile_cells (triggers fire by name:
-- farm_rollups_* before farm_tile_cells_*). A tenant deleted outright takes its rollup rows with it (ON DELETE
-- CASCADE); its farms and farmers, deleted by the same cascade, have nothing left to subtract from.
ALTER TABLE "farmers" ADD COLUMN "farm_count" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE INDEX "farmers_mapped_idx" ON "farmers" ("tenant_id", "created_at", "id") WHERE "farm_count" > 0;
--> statement-breakpoint
CREATE INDEX "farmers_unmapped_idx" ON "farmers" ("tenant_id", "created_at", "id") WHERE "farm_count" = 0;
--> statement-breakpoint
CREATE TABLE "tenant_stats" (
  "tenant_id" uuid NOT NULL,
  "farms" integer DEFAULT 0 NOT NULL,
  "farms_within" integer DEFAULT 0 NOT NULL,
  "farms_overlapping" integer DEFAULT 0 NOT NULL,
  "farms_unrecognized" integer DEFAULT 0 NOT NULL,
  "farmers" integer DEFAULT 0 NOT NULL,
  "farmers_mapped" integer DEFAULT 0 NOT NULL,
  CONSTRAINT "tenant_stats_pk" PRIMARY KEY ("tenant_id"),
  CONSTRAINT "tenant_stats_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade
) WITH (fillfactor = 50);
--> statement-breakpoint
CREATE TABLE "farm_period_stats" (
  "tenant_id" uuid NOT NULL,
  "grain" text NOT NULL,
  "period" date NOT NULL,
  "n" integer NOT NULL,
  "area_sqm" numeric NOT NULL,
  CONSTRAINT "farm_period_stats_pk" PRIMARY KEY ("tenant_id", "grain", "period"),
  CONSTRAINT "farm_period_stats_grain_check" CHECK ("grain" IN ('day', 'month')),
  CONSTRAINT "farm_period_stats_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade
) WITH (fillfactor = 80);
--> statement-breakpoint
-- Provider staff read every tenant's months of a year.
CREATE INDEX "farm_period_stats_grain_period_idx" ON "farm_period_stats" ("grain", "period");
--> statement-breakpoint
ALTER TABLE "tenant_stats" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "tenant_stats" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "tenant_stats"
  USING ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()))
  WITH CHECK ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()));
--> statement-breakpoint
ALTER TABLE "farm_period_stats" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "farm_period_stats" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "farm_period_stats"
  USING ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()))
  WITH CHECK ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()));
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "tenant_stats", "farm_period_stats" TO farmland_app;
--> statement-breakpoint
-- The farms' contributions, d = +1 (added) or -1 (removed), from src: the SQL of the changed rows (tenant_id,
-- farmer_id, created_at, area_sqm, operational_area_id, is_overlapping, flag, d). The statements are EXECUTEd by the
-- trigger function itself: a trigger's transition tables are visible only there (not in a function it calls).
CREATE OR REPLACE FUNCTION farm_rollups_on_farms() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  src text;
  m_tenant uuid[];
  m_delta int[];
  e_tenant uuid[];
  e_grain text[];
  e_period date[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    src := 'SELECT tenant_id, farmer_id, created_at, area_sqm, operational_area_id, is_overlapping, flag, 1 AS d FROM farm_rollups_new';
  ELSIF TG_OP = 'DELETE' THEN
    src := 'SELECT tenant_id, farmer_id, created_at, area_sqm, operational_area_id, is_overlapping, flag, -1 AS d
              FROM farm_rollups_old o WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = o.tenant_id)';
  ELSE
    -- Only the rows whose contribution may change: the old one out, the new one in.
    src := $s$
      SELECT x.tenant_id, x.farmer_id, x.created_at, x.area_sqm, x.operational_area_id, x.is_overlapping, x.flag, x.d
        FROM farm_rollups_old o JOIN farm_rollups_new n ON n.id = o.id
        CROSS JOIN LATERAL (VALUES
          (o.tenant_id, o.farmer_id, o.created_at, o.area_sqm, o.operational_area_id, o.is_overlapping, o.flag, -1),
          (n.tenant_id, n.farmer_id, n.created_at, n.area_sqm, n.operational_area_id, n.is_overlapping, n.flag, 1)
        ) x(tenant_id, farmer_id, created_at, area_sqm, operational_area_id, is_overlapping, flag, d)
       WHERE o.tenant_id IS DISTINCT FROM n.tenant_id OR o.farmer_id IS DISTINCT FROM n.farmer_id
          OR o.created_at IS DISTINCT FROM n.created_at OR o.area_sqm IS DISTINCT FROM n.area_sqm
          OR (o.operational_area_id IS NULL) <> (n.operational_area_id IS NULL)
          OR o.is_overlapping IS DISTINCT FROM n.is_overlapping OR (o.flag IS NULL) <> (n.flag IS NULL)$s$;
  END IF;
  -- 1. The tenant's counters (first: the row lock that orders the tenant's rollup writers).
  EXECUTE format($q$
    INSERT INTO tenant_stats AS t (tenant_id, farms, farms_within, farms_overlapping, farms_unrecognized)
    SELECT s.tenant_id, sum(s.d), sum(CASE WHEN s.operational_area_id IS NOT NULL THEN s.d ELSE 0 END),
           sum(CASE WHEN s.is_overlapping THEN s.d ELSE 0 END), sum(CASE WHEN s.flag IS NOT NULL THEN s.d ELSE 0 END)
      FROM (%s) s GROUP BY s.tenant_id ORDER BY s.tenant_id
    ON CONFLICT (tenant_id) DO UPDATE SET
      farms = t.farms + excluded.farms, farms_within = t.farms_within + excluded.farms_within,
      farms_overlapping = t.farms_overlapping + excluded.farms_overlapping, farms_unrecognized = t.farms_unrecognized + excluded.farms_unrecognized$q$, src);
  -- 2. The farmers' farm counts, and the farmers that became mapped (0 -> n) or unmapped (n -> 0) per tenant. A farmer
  --    deleted in this statement (a cascade from the farmer) is not found: its farmers trigger counts it out.
  EXECUTE format($q$
    WITH d AS (SELECT s.farmer_id, sum(s.d)::int AS d FROM (%s) s GROUP BY s.farmer_id HAVING sum(s.d) <> 0),
    up AS (UPDATE farmers fr SET farm_count = fr.farm_count + d.d FROM d WHERE fr.id = d.farmer_id
           RETURNING fr.tenant_id, fr.farm_count AS now_n, fr.farm_count - d.d AS was_n),
    m AS (SELECT up.tenant_id, sum(CASE WHEN up.now_n > 0 AND up.was_n <= 0 THEN 1 WHEN up.now_n <= 0 AND up.was_n > 0 THEN -1 ELSE 0 END)::int AS m
            FROM up GROUP BY up.tenant_id)
    SELECT array_agg(m.tenant_id ORDER BY m.tenant_id), array_agg(m.m ORDER BY m.tenant_id) FROM m WHERE m.m <> 0$q$, src)
  INTO m_tenant, m_delta;
  IF m_tenant IS NOT NULL THEN
    INSERT INTO tenant_stats AS t (tenant_id, farmers_mapped)
    SELECT x.tenant_id, x.m FROM unnest(m_tenant, m_delta) AS x(tenant_id, m) ORDER BY x.tenant_id
    ON CONFLICT (tenant_id) DO UPDATE SET farmers_mapped = t.farmers_mapped + excluded.farmers_mapped;
  END IF;
  -- 3. Farms created per UTC day and month, in key order; the periods emptied are dropped.
  EXECUTE format($q$
    WITH s AS (%s),
    g AS (
      SELECT s.tenant_id, p.grain, CASE WHEN p.grain = 'day' THEN (s.created_at AT TIME ZONE 'UTC')::date
                                        ELSE date_trunc('month', s.created_at AT TIME ZONE 'UTC')::date END AS period,
             s.d, s.area_sqm
        FROM s CROSS JOIN (VALUES ('day'), ('month')) p(grain)
    ),
    up AS (
      INSERT INTO farm_period_stats AS p (tenant_id, grain, period, n, area_sqm)
      SELECT g.tenant_id, g.grain, g.period, sum(g.d), sum(g.d * g.area_sqm::numeric) FROM g GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (tenant_id, grain, period) DO UPDATE SET n = p.n + excluded.n, area_sqm = p.area_sqm + excluded.area_sqm
      RETURNING p.tenant_id, p.grain, p.period, p.n
    )
    SELECT array_agg(tenant_id), array_agg(grain), array_agg(period) FROM up WHERE n = 0$q$, src)
  INTO e_tenant, e_grain, e_period;
  IF e_tenant IS NOT NULL THEN
    DELETE FROM farm_period_stats p USING unnest(e_tenant, e_grain, e_period) AS e(tenant_id, grain, period)
     WHERE p.tenant_id = e.tenant_id AND p.grain = e.grain AND p.period = e.period AND p.n = 0;
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
-- Farmers in and out (their tenant never changes: no update trigger, so the farm_count updates above fire nothing).
CREATE OR REPLACE FUNCTION farm_rollups_on_farmers() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  src text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    src := 'SELECT tenant_id, farm_count, 1 AS d FROM farmer_rollups_new';
  ELSE
    src := 'SELECT tenant_id, farm_count, -1 AS d FROM farmer_rollups_old o WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = o.tenant_id)';
  END IF;
  EXECUTE format($q$
    INSERT INTO tenant_stats AS t (tenant_id, farmers, farmers_mapped)
    SELECT s.tenant_id, sum(s.d), sum(CASE WHEN s.farm_count > 0 THEN s.d ELSE 0 END) FROM (%s) s GROUP BY s.tenant_id ORDER BY s.tenant_id
    ON CONFLICT (tenant_id) DO UPDATE SET farmers = t.farmers + excluded.farmers, farmers_mapped = t.farmers_mapped + excluded.farmers_mapped$q$, src);
  RETURN NULL;
END $fn$;
--> statement-breakpoint
CREATE TRIGGER farm_rollups_on_insert AFTER INSERT ON "farms"
  REFERENCING NEW TABLE AS farm_rollups_new FOR EACH STATEMENT EXECUTE FUNCTION farm_rollups_on_farms();
--> statement-breakpoint
CREATE TRIGGER farm_rollups_on_update AFTER UPDATE ON "farms"
  REFERENCING OLD TABLE AS farm_rollups_old NEW TABLE AS farm_rollups_new FOR EACH STATEMENT EXECUTE FUNCTION farm_rollups_on_farms();
--> statement-breakpoint
CREATE TRIGGER farm_rollups_on_delete AFTER DELETE ON "farms"
  REFERENCING OLD TABLE AS farm_rollups_old FOR EACH STATEMENT EXECUTE FUNCTION farm_rollups_on_farms();
--> statement-breakpoint
CREATE TRIGGER farmer_rollups_on_insert AFTER INSERT ON "farmers"
  REFERENCING NEW TABLE AS farmer_rollups_new FOR EACH STATEMENT EXECUTE FUNCTION farm_rollups_on_farmers();
--> statement-breakpoint
CREATE TRIGGER farmer_rollups_on_delete AFTER DELETE ON "farmers"
  REFERENCING OLD TABLE AS farmer_rollups_old FOR EACH STATEMENT EXECUTE FUNCTION farm_rollups_on_farmers();
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION farm_rollups_on_farms(), farm_rollups_on_farmers() TO farmland_app;
--> statement-breakpoint
-- Backfill from the registry as it is (the triggers count what comes after), in the 'system' scope (both sides force
-- row-level security), cleared again after.
DO $$
BEGIN
  PERFORM set_config('app.scope', 'system', true);
  UPDATE farmers fr SET farm_count = c.n FROM (SELECT farmer_id, count(*)::int AS n FROM farms GROUP BY farmer_id) c WHERE fr.id = c.farmer_id;
  INSERT INTO tenant_stats (tenant_id, farms, farms_within, farms_overlapping, farms_unrecognized, farmers, farmers_mapped)
  SELECT t.id, coalesce(f.n, 0), coalesce(f.within, 0), coalesce(f.overlapping, 0), coalesce(f.unrecognized, 0), coalesce(fr.n, 0), coalesce(fr.mapped, 0)
    FROM tenants t
    LEFT JOIN (SELECT tenant_id, count(*)::int AS n, count(*) FILTER (WHERE operational_area_id IS NOT NULL)::int AS within,
                      count(*) FILTER (WHERE is_overlapping)::int AS overlapping, count(*) FILTER (WHERE flag IS NOT NULL)::int AS unrecognized
                 FROM farms GROUP BY tenant_id) f ON f.tenant_id = t.id
    LEFT JOIN (SELECT tenant_id, count(*)::int AS n, count(*) FILTER (WHERE farm_count > 0)::int AS mapped FROM farmers GROUP BY tenant_id) fr ON fr.tenant_id = t.id;
  INSERT INTO farm_period_stats (tenant_id, grain, period, n, area_sqm)
  SELECT tenant_id, 'day', (created_at AT TIME ZONE 'UTC')::date, count(*)::int, sum(area_sqm::numeric) FROM farms GROUP BY 1, 3
  UNION ALL
  SELECT tenant_id, 'month', date_trunc('month', created_at AT TIME ZONE 'UTC')::date, count(*)::int, sum(area_sqm::numeric) FROM farms GROUP BY 1, 3;
END $$;
--> statement-breakpoint
SELECT set_config('app.scope', '', true);
