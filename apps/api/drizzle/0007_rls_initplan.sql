-- The same tenant isolation, evaluated once per statement instead of once per row. The policies of 0002 called
-- app_tenant_visible(tenant_id), an inlined function that reads both settings (current_setting, a text-to-uuid cast) for
-- every row a statement touches: every candidate of a spatial probe, every inserted and updated row. Written with scalar
-- sub-selects, the settings become InitPlans computed once, each row costs one uuid comparison, and
-- `tenant_id = (SELECT …)` can serve as an index condition. app_tenant_visible stays for anything that calls it.
CREATE OR REPLACE FUNCTION app_scope_is_global() RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(current_setting('app.scope', true), '') IN ('provider', 'system')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_current_tenant() RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT nullif(current_setting('app.tenant_id', true), '')::uuid
$$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_scope_is_global() TO farmland_app;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_current_tenant() TO farmland_app;
--> statement-breakpoint
DO $$
DECLARE t record;
BEGIN
  FOR t IN SELECT schemaname, tablename FROM pg_policies WHERE policyname = 'tenant_isolation' AND schemaname = 'public' LOOP
    EXECUTE format(
      'ALTER POLICY tenant_isolation ON %I.%I USING ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant())) '
      'WITH CHECK ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()))',
      t.schemaname, t.tablename);
  END LOOP;
END $$;
