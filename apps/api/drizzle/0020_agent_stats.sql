-- Issue 15 §1: the agents list of a 1M-farm tenant without counting each agent's farms on every page. The page showed
-- each agent's farms mapped, their area and farmers registered by counting them: ~1,000 farms per agent in the 1M-farm
-- bench, 2.2 of the page's 3.5 ms. agent_stats keeps the three per (tenant, user), like 0016's rollups:
--  * farms and farms_area: the tenant's farms with mapped_by = the user (area as numeric: sums of doubles that are added
--    and taken away would drift; the API rounds to 4 decimals);
--  * farmers: the tenant's farmers with created_by = the user.
-- Written only by these triggers. Inserts and deletes are statement-level with transition tables (a bulk upload of
-- thousands of farms is one statement for the rollup); updates are row-level, and only for the rows whose mapped_by,
-- created_by, area or tenant changed (a capture's other updates of farms and farmers fire nothing here).
-- Lock order: the triggers are named to fire after farm_rollups_* / farmer_rollups_* (trigger order is by name), so a
-- writer takes the tenant's tenant_stats row first, as every rollup writer does (0016), then agent_stats rows in key
-- order, then farm_tile_cells.
-- A contribution of a user deleted in the same statement (its farms' mapped_by set to null by the foreign key, its
-- agent_stats row gone by cascade) is dropped: only users that exist are written.
CREATE TABLE "agent_stats" (
  "tenant_id" uuid NOT NULL,
  "user_id" uuid NOT NULL,
  "farms" integer DEFAULT 0 NOT NULL,
  "farms_area" numeric DEFAULT 0 NOT NULL,
  "farmers" integer DEFAULT 0 NOT NULL,
  CONSTRAINT "agent_stats_pk" PRIMARY KEY ("tenant_id", "user_id"),
  CONSTRAINT "agent_stats_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade,
  CONSTRAINT "agent_stats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade
) WITH (fillfactor = 70);
--> statement-breakpoint
CREATE INDEX "agent_stats_user_idx" ON "agent_stats" ("user_id");
--> statement-breakpoint
ALTER TABLE "agent_stats" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "agent_stats" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "agent_stats"
  USING ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()))
  WITH CHECK ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()));
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "agent_stats" TO farmland_app;
--> statement-breakpoint
-- Adds (tenant, user, farms, area, farmers) deltas; rows of users that no longer exist are skipped. Called with the
-- deltas as arrays: a trigger's transition tables are visible only in the trigger function itself.
CREATE OR REPLACE FUNCTION agent_stats_add(p_tenant uuid[], p_user uuid[], p_farms int[], p_area numeric[], p_farmers int[]) RETURNS void
LANGUAGE sql AS $fn$
  INSERT INTO agent_stats AS a (tenant_id, user_id, farms, farms_area, farmers)
  SELECT d.tenant_id, d.user_id, sum(d.farms), sum(d.area), sum(d.farmers)
    FROM unnest(p_tenant, p_user, p_farms, p_area, p_farmers) AS d(tenant_id, user_id, farms, area, farmers)
   WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = d.user_id)
   GROUP BY d.tenant_id, d.user_id
  HAVING sum(d.farms) <> 0 OR sum(d.area) <> 0 OR sum(d.farmers) <> 0
   ORDER BY d.tenant_id, d.user_id
  ON CONFLICT (tenant_id, user_id) DO UPDATE SET
    farms = a.farms + excluded.farms, farms_area = a.farms_area + excluded.farms_area, farmers = a.farmers + excluded.farmers
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION agent_stats_on_farms() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  t uuid[]; u uuid[]; f int[]; a numeric[]; r int[];
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    -- An update that moved the farm between users, tenants or areas: the old contribution out, the new one in.
    PERFORM agent_stats_add(ARRAY[OLD.tenant_id, NEW.tenant_id], ARRAY[OLD.mapped_by, NEW.mapped_by], ARRAY[-1, 1],
                            ARRAY[-(OLD.area_sqm::numeric), NEW.area_sqm::numeric], ARRAY[0, 0])
      FROM (SELECT 1) x WHERE OLD.mapped_by IS NOT NULL OR NEW.mapped_by IS NOT NULL;
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(tenant_id), array_agg(mapped_by), array_agg(1), array_agg(area_sqm::numeric), array_agg(0)
      INTO t, u, f, a, r FROM agent_stats_new WHERE mapped_by IS NOT NULL;
  ELSE
    SELECT array_agg(tenant_id), array_agg(mapped_by), array_agg(-1), array_agg(-(area_sqm::numeric)), array_agg(0)
      INTO t, u, f, a, r FROM agent_stats_old WHERE mapped_by IS NOT NULL;
  END IF;
  IF t IS NOT NULL THEN
    PERFORM agent_stats_add(t, u, f, a, r);
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION agent_stats_on_farmers() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  t uuid[]; u uuid[]; f int[]; a numeric[]; r int[];
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    PERFORM agent_stats_add(ARRAY[OLD.tenant_id, NEW.tenant_id], ARRAY[OLD.created_by, NEW.created_by], ARRAY[0, 0], ARRAY[0, 0]::numeric[], ARRAY[-1, 1])
      FROM (SELECT 1) x WHERE OLD.created_by IS NOT NULL OR NEW.created_by IS NOT NULL;
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(tenant_id), array_agg(created_by), array_agg(0), array_agg(0::numeric), array_agg(1)
      INTO t, u, f, a, r FROM agent_stats_new WHERE created_by IS NOT NULL;
  ELSE
    SELECT array_agg(tenant_id), array_agg(created_by), array_agg(0), array_agg(0::numeric), array_agg(-1)
      INTO t, u, f, a, r FROM agent_stats_old WHERE created_by IS NOT NULL;
  END IF;
  IF t IS NOT NULL THEN
    PERFORM agent_stats_add(t, u, f, a, r);
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
CREATE TRIGGER farm_rollups_x_agents_on_insert AFTER INSERT ON "farms"
  REFERENCING NEW TABLE AS agent_stats_new FOR EACH STATEMENT EXECUTE FUNCTION agent_stats_on_farms();
--> statement-breakpoint
CREATE TRIGGER farm_rollups_x_agents_on_update AFTER UPDATE ON "farms" FOR EACH ROW
  WHEN (OLD.mapped_by IS DISTINCT FROM NEW.mapped_by OR OLD.area_sqm IS DISTINCT FROM NEW.area_sqm OR OLD.tenant_id IS DISTINCT FROM NEW.tenant_id)
  EXECUTE FUNCTION agent_stats_on_farms();
--> statement-breakpoint
CREATE TRIGGER farm_rollups_x_agents_on_delete AFTER DELETE ON "farms"
  REFERENCING OLD TABLE AS agent_stats_old FOR EACH STATEMENT EXECUTE FUNCTION agent_stats_on_farms();
--> statement-breakpoint
CREATE TRIGGER farmer_rollups_x_agents_on_insert AFTER INSERT ON "farmers"
  REFERENCING NEW TABLE AS agent_stats_new FOR EACH STATEMENT EXECUTE FUNCTION agent_stats_on_farmers();
--> statement-breakpoint
CREATE TRIGGER farmer_rollups_x_agents_on_update AFTER UPDATE ON "farmers" FOR EACH ROW
  WHEN (OLD.created_by IS DISTINCT FROM NEW.created_by OR OLD.tenant_id IS DISTINCT FROM NEW.tenant_id)
  EXECUTE FUNCTION agent_stats_on_farmers();
--> statement-breakpoint
CREATE TRIGGER farmer_rollups_x_agents_on_delete AFTER DELETE ON "farmers"
  REFERENCING OLD TABLE AS agent_stats_old FOR EACH STATEMENT EXECUTE FUNCTION agent_stats_on_farmers();
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION agent_stats_add(uuid[], uuid[], int[], numeric[], int[]), agent_stats_on_farms(), agent_stats_on_farmers() TO farmland_app;
--> statement-breakpoint
-- The agents page: a tenant's agents newest first is an index walk (was a scan of the tenant's users and a sort).
CREATE INDEX "users_tenant_role_created_idx" ON "users" ("tenant_id", "role", "created_at", "id");
--> statement-breakpoint
DROP INDEX "users_tenant_role_idx";
--> statement-breakpoint
-- Backfill from the registry as it is, in the 'system' scope (row-level security is forced on every side), cleared after.
DO $$
BEGIN
  PERFORM set_config('app.scope', 'system', true);
  INSERT INTO agent_stats (tenant_id, user_id, farms, farms_area, farmers)
  SELECT s.tenant_id, s.user_id, sum(s.farms)::int, sum(s.area), sum(s.farmers)::int
    FROM (SELECT f.tenant_id, f.mapped_by AS user_id, count(*) AS farms, sum(f.area_sqm::numeric) AS area, 0 AS farmers
            FROM farms f WHERE f.mapped_by IS NOT NULL GROUP BY 1, 2
          UNION ALL
          SELECT fr.tenant_id, fr.created_by, 0, 0, count(*) FROM farmers fr WHERE fr.created_by IS NOT NULL GROUP BY 1, 2) s
   WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = s.user_id)
   GROUP BY s.tenant_id, s.user_id;
END $$;
--> statement-breakpoint
SELECT set_config('app.scope', '', true);
