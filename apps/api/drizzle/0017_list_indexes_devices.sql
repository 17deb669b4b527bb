-- Issue 15 §1: the lists' order (created_at DESC, id DESC) as one index walk, also where many rows share a created_at:
-- a bulk upload's (or an analysis's) rows all take their transaction's now(). On (tenant_id, created_at) alone, a page
-- of the newest had to read and sort every row of the newest timestamp (a 300,000-farmer bulk seed: 300k rows, 350 ms
-- per page). The agents list's per-agent totals (farms mapped, their area) read farms_mapped_by_idx alone (index-only,
-- tenant_id included for the row-level-security condition) instead of each farm's heap row. And the dashboard's GPS
-- device count (distinct devices of the tenant's mapping records, one record per capture) from a rollup of the devices.
DROP INDEX IF EXISTS "farmers_tenant_idx";
--> statement-breakpoint
CREATE INDEX "farmers_tenant_idx" ON "farmers" ("tenant_id", "created_at", "id");
--> statement-breakpoint
DROP INDEX IF EXISTS "farms_tenant_idx";
--> statement-breakpoint
CREATE INDEX "farms_tenant_idx" ON "farms" ("tenant_id", "created_at", "id");
--> statement-breakpoint
DROP INDEX IF EXISTS "farms_mapped_by_idx";
--> statement-breakpoint
CREATE INDEX "farms_mapped_by_idx" ON "farms" ("mapped_by") INCLUDE ("tenant_id", "area_sqm");
--> statement-breakpoint
-- Per tenant and GPS device, the mapping records naming it (kept like 0016's rollups: statement triggers with transition
-- tables on mapping_records, in the writing transaction; a device whose records are all gone is deleted). The
-- dashboard's gps_devices is the number of rows.
CREATE TABLE "tenant_gps_devices" (
  "tenant_id" uuid NOT NULL,
  "device" text NOT NULL,
  "n" integer NOT NULL,
  CONSTRAINT "tenant_gps_devices_pk" PRIMARY KEY ("tenant_id", "device"),
  CONSTRAINT "tenant_gps_devices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE "tenant_gps_devices" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "tenant_gps_devices" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "tenant_gps_devices"
  USING ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()))
  WITH CHECK ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()));
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "tenant_gps_devices" TO farmland_app;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION gps_devices_on_mapping_records() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  src text;
  e_tenant uuid[];
  e_device text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    src := 'SELECT tenant_id, gps_device_id AS device, 1 AS d FROM device_rollups_new';
  ELSIF TG_OP = 'DELETE' THEN
    src := 'SELECT tenant_id, gps_device_id AS device, -1 AS d FROM device_rollups_old o WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = o.tenant_id)';
  ELSE
    src := $s$
      SELECT x.tenant_id, x.device, x.d
        FROM device_rollups_old o JOIN device_rollups_new n ON n.id = o.id
        CROSS JOIN LATERAL (VALUES (o.tenant_id, o.gps_device_id, -1), (n.tenant_id, n.gps_device_id, 1)) x(tenant_id, device, d)
       WHERE o.tenant_id IS DISTINCT FROM n.tenant_id OR o.gps_device_id IS DISTINCT FROM n.gps_device_id$s$;
  END IF;
  EXECUTE format($q$
    WITH s AS (%s),
    up AS (
      INSERT INTO tenant_gps_devices AS g (tenant_id, device, n)
      SELECT s.tenant_id, s.device, sum(s.d) FROM s WHERE s.device IS NOT NULL AND s.device <> '' GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (tenant_id, device) DO UPDATE SET n = g.n + excluded.n
      RETURNING g.tenant_id, g.device, g.n
    )
    SELECT array_agg(tenant_id), array_agg(device) FROM up WHERE n = 0$q$, src)
  INTO e_tenant, e_device;
  IF e_tenant IS NOT NULL THEN
    DELETE FROM tenant_gps_devices g USING unnest(e_tenant, e_device) AS e(tenant_id, device)
     WHERE g.tenant_id = e.tenant_id AND g.device = e.device AND g.n = 0;
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
CREATE TRIGGER gps_devices_on_insert AFTER INSERT ON "mapping_records"
  REFERENCING NEW TABLE AS device_rollups_new FOR EACH STATEMENT EXECUTE FUNCTION gps_devices_on_mapping_records();
--> statement-breakpoint
CREATE TRIGGER gps_devices_on_update AFTER UPDATE ON "mapping_records"
  REFERENCING OLD TABLE AS device_rollups_old NEW TABLE AS device_rollups_new FOR EACH STATEMENT EXECUTE FUNCTION gps_devices_on_mapping_records();
--> statement-breakpoint
CREATE TRIGGER gps_devices_on_delete AFTER DELETE ON "mapping_records"
  REFERENCING OLD TABLE AS device_rollups_old FOR EACH STATEMENT EXECUTE FUNCTION gps_devices_on_mapping_records();
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION gps_devices_on_mapping_records() TO farmland_app;
--> statement-breakpoint
DO $$
BEGIN
  PERFORM set_config('app.scope', 'system', true);
  INSERT INTO tenant_gps_devices (tenant_id, device, n)
  SELECT tenant_id, gps_device_id, count(*)::int FROM mapping_records WHERE gps_device_id IS NOT NULL AND gps_device_id <> '' GROUP BY 1, 2;
END $$;
--> statement-breakpoint
SELECT set_config('app.scope', '', true);
