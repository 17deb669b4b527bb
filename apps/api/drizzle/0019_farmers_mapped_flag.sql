-- Issue 15: farm captures without rewriting every index of the farmer row. 0016 keeps farmers.farm_count from the
-- triggers on farms, and its two partial indexes for the is_mapped filter had `farm_count > 0` / `= 0` as predicates.
-- An index whose predicate reads a changed column makes the update non-HOT, so every capture added new entries to all
-- eight indexes of farmers, the four trigram GIN indexes included. Here:
--  * farmers.mapped (farm_count > 0), kept by the same trigger and changed only when a farmer gains its first farm or
--    loses its last one; the partial indexes' predicates read it instead of farm_count. A capture onto a farmer that
--    already has a farm now changes no indexed column and can be a HOT update (the row's new version on the same page,
--    no index entry at all).
--  * fillfactor 90 on farmers: new pages keep 10 % free for those new versions (pages written before keep what they have
--    until pruning frees room).
-- The trigger functions are 0016's with `mapped` written beside farm_count and read where "mapped" was farm_count > 0.
ALTER TABLE "farmers" ADD COLUMN "mapped" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "farmers" SET (fillfactor = 90);
--> statement-breakpoint
DROP INDEX "farmers_mapped_idx";
--> statement-breakpoint
DROP INDEX "farmers_unmapped_idx";
--> statement-breakpoint
-- Backfill in the 'system' scope (row-level security is forced on farmers), cleared again after.
DO $$
BEGIN
  PERFORM set_config('app.scope', 'system', true);
  UPDATE farmers SET mapped = true WHERE farm_count > 0 AND NOT mapped;
END $$;
--> statement-breakpoint
SELECT set_config('app.scope', '', true);
--> statement-breakpoint
-- The flag can never disagree with the count it stands for.
ALTER TABLE "farmers" ADD CONSTRAINT "farmers_mapped_check" CHECK ("mapped" = ("farm_count" > 0));
--> statement-breakpoint
CREATE INDEX "farmers_mapped_idx" ON "farmers" ("tenant_id", "created_at", "id") WHERE "mapped";
--> statement-breakpoint
CREATE INDEX "farmers_unmapped_idx" ON "farmers" ("tenant_id", "created_at", "id") WHERE NOT "mapped";
--> statement-breakpoint
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
  -- 2. The farmers' farm counts and mapped flags, and the farmers that became mapped (0 -> n) or unmapped (n -> 0) per
  --    tenant. `mapped` is set to what it already is unless the farmer crosses 0, and an unchanged value leaves the
  --    indexes alone (HOT). A farmer deleted in this statement (a cascade from the farmer) is not found: its farmers
  --    trigger counts it out.
  EXECUTE format($q$
    WITH d AS (SELECT s.farmer_id, sum(s.d)::int AS d FROM (%s) s GROUP BY s.farmer_id HAVING sum(s.d) <> 0),
    up AS (UPDATE farmers fr SET farm_count = fr.farm_count + d.d, mapped = fr.farm_count + d.d > 0 FROM d WHERE fr.id = d.farmer_id
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
-- Farmers in and out: a farmer counts as mapped by its flag.
CREATE OR REPLACE FUNCTION farm_rollups_on_farmers() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  src text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    src := 'SELECT tenant_id, mapped, 1 AS d FROM farmer_rollups_new';
  ELSE
    src := 'SELECT tenant_id, mapped, -1 AS d FROM farmer_rollups_old o WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = o.tenant_id)';
  END IF;
  EXECUTE format($q$
    INSERT INTO tenant_stats AS t (tenant_id, farmers, farmers_mapped)
    SELECT s.tenant_id, sum(s.d), sum(CASE WHEN s.mapped THEN s.d ELSE 0 END) FROM (%s) s GROUP BY s.tenant_id ORDER BY s.tenant_id
    ON CONFLICT (tenant_id) DO UPDATE SET farmers = t.farmers + excluded.farmers, farmers_mapped = t.farmers_mapped + excluded.farmers_mapped$q$, src);
  RETURN NULL;
END $fn$;
