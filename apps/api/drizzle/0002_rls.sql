-- Row-level security on every tenant table, the application role, and geometry validity constraints.
-- The application connects as a member of farmland_app (never a superuser, never BYPASSRLS; the API refuses to boot otherwise).
-- Each transaction sets app.scope ('tenant', 'provider' or 'system') and app.tenant_id with set_config(..., true).
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'farmland_app') THEN
    CREATE ROLE farmland_app NOLOGIN NOSUPERUSER NOBYPASSRLS;
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_tenant_visible(row_tenant uuid) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(current_setting('app.scope', true), '') IN ('provider', 'system')
      OR (row_tenant IS NOT NULL AND row_tenant = nullif(current_setting('app.tenant_id', true), '')::uuid)
$$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO farmland_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO farmland_app;
--> statement-breakpoint
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO farmland_app;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_tenant_visible(uuid) TO farmland_app;
--> statement-breakpoint
REVOKE INSERT, UPDATE, DELETE ON countries, states, cities FROM farmland_app;
--> statement-breakpoint
ALTER TABLE "licenses" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "licenses" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "licenses" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "users" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "users" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "users" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "sessions" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "sessions" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "sessions" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "activity_logs" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "activity_logs" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "activity_logs" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "files" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "files" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "files" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "regions" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "regions" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "regions" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "operational_areas" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "operational_areas" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "operational_areas" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "farmers" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "farmers" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "farmers" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "farms" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "farms" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "farms" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "farm_boundary_history" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "farm_boundary_history" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "farm_boundary_history" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "farm_snapshots" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "farm_snapshots" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "farm_snapshots" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "mapping_records" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "mapping_records" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "mapping_records" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "tenant_configurations" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "tenant_configurations" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "tenant_configurations" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "custom_analyses" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "custom_analyses" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "custom_analyses" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "custom_analysis_areas" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "custom_analysis_areas" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "custom_analysis_areas" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "custom_analysis_rows" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "custom_analysis_rows" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "custom_analysis_rows" USING (app_tenant_visible(tenant_id)) WITH CHECK (app_tenant_visible(tenant_id));
--> statement-breakpoint
ALTER TABLE "operational_areas" ADD CONSTRAINT operational_areas_geom_valid CHECK (ST_IsValid(geom) AND ST_SRID(geom) = 4326);
--> statement-breakpoint
ALTER TABLE "farms" ADD CONSTRAINT farms_geom_valid CHECK (ST_IsValid(geom) AND ST_SRID(geom) = 4326);
--> statement-breakpoint
ALTER TABLE "farm_boundary_history" ADD CONSTRAINT farm_boundary_history_geom_valid CHECK (ST_IsValid(geom) AND ST_SRID(geom) = 4326);
--> statement-breakpoint
ALTER TABLE "mapping_records" ADD CONSTRAINT mapping_records_geom_valid CHECK (ST_IsValid(geom) AND ST_SRID(geom) = 4326);
--> statement-breakpoint
ALTER TABLE "custom_analysis_rows" ADD CONSTRAINT custom_analysis_rows_geom_valid CHECK (ST_IsValid(geom) AND ST_SRID(geom) = 4326);
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO farmland_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO farmland_app;
