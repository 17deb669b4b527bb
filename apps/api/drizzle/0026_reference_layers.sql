-- Issue 29, EUDR reference layers and screening. A layer (provider: tenant_id NULL, shared with every tenant; or a
-- tenant's own) is loaded by a background job into reference_layer_features as a new version: each feature repaired
-- (ST_MakeValid), subdivided (ST_Subdivide, 256 vertices) and indexed. The layer's version column names the version in
-- use; it changes in one statement once the new version is complete, so a failed or running load never shows, and a
-- replacement swaps atomically (docs/decisions/0073-reference-layer-versions.md). farm_screenings holds, per registry farm
-- and layer, the geodesic overlap and its share of the farm, with the layer version it was computed from.
CREATE TYPE "reference_layer_kind" AS ENUM ('forest_2020', 'tree_cover_loss', 'protected_area', 'indigenous_land', 'concession', 'other');
--> statement-breakpoint
CREATE TABLE "reference_layers" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "tenant_id" uuid,
  "name" text NOT NULL,
  "kind" "reference_layer_kind" NOT NULL,
  "reference_date" date NOT NULL,
  "source" text NOT NULL,
  "licence" text NOT NULL,
  "status" text DEFAULT 'queued' NOT NULL,
  "progress" integer DEFAULT 0 NOT NULL,
  "features_loaded" integer DEFAULT 0 NOT NULL,
  "version" integer DEFAULT 0 NOT NULL,
  "loading_version" integer,
  "feature_count" integer DEFAULT 0 NOT NULL,
  "piece_count" integer DEFAULT 0 NOT NULL,
  "repaired_count" integer DEFAULT 0 NOT NULL,
  "filename" text,
  "file_key" text,
  "name_field" text,
  "pending_details" jsonb,
  "error" text,
  "error_feature" integer,
  "created_by" uuid,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "reference_layers_status_check" CHECK ("status" IN ('queued', 'loading', 'screening', 'ready', 'failed')),
  CONSTRAINT "reference_layers_progress_check" CHECK ("progress" BETWEEN 0 AND 100),
  CONSTRAINT "reference_layers_tenant_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade,
  CONSTRAINT "reference_layers_created_by_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX "reference_layers_tenant_idx" ON "reference_layers" ("tenant_id", "created_at");
--> statement-breakpoint
CREATE TABLE "reference_layer_features" (
  "layer_id" uuid NOT NULL,
  "version" integer NOT NULL,
  "tenant_id" uuid,
  "feature" integer NOT NULL,
  "geom" geometry(Polygon, 4326) NOT NULL,
  CONSTRAINT "reference_layer_features_layer_fk" FOREIGN KEY ("layer_id") REFERENCES "public"."reference_layers"("id") ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX "reference_layer_features_geom_idx" ON "reference_layer_features" USING gist ("geom");
--> statement-breakpoint
CREATE INDEX "reference_layer_features_layer_idx" ON "reference_layer_features" ("layer_id", "version");
--> statement-breakpoint
CREATE TABLE "farm_screenings" (
  "tenant_id" uuid NOT NULL,
  "farm_id" uuid NOT NULL,
  "layer_id" uuid NOT NULL,
  "layer_version" integer NOT NULL,
  "overlap_sqm" double precision NOT NULL,
  "share" double precision NOT NULL,
  "computed_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "farm_screenings_pk" PRIMARY KEY ("farm_id", "layer_id"),
  CONSTRAINT "farm_screenings_tenant_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade,
  CONSTRAINT "farm_screenings_farm_fk" FOREIGN KEY ("farm_id") REFERENCES "public"."farms"("id") ON DELETE cascade,
  CONSTRAINT "farm_screenings_layer_fk" FOREIGN KEY ("layer_id") REFERENCES "public"."reference_layers"("id") ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX "farm_screenings_tenant_layer_idx" ON "farm_screenings" ("tenant_id", "layer_id");
--> statement-breakpoint
CREATE INDEX "farm_screenings_layer_idx" ON "farm_screenings" ("layer_id");
--> statement-breakpoint
-- Provider layers (tenant_id NULL) are read by every tenant and written by provider staff only; a tenant's layers are
-- its own, as on every tenant table.
ALTER TABLE "reference_layers" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "reference_layers" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "reference_layers"
  USING ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()))
  WITH CHECK ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()));
--> statement-breakpoint
CREATE POLICY provider_layers_read ON "reference_layers" FOR SELECT USING (tenant_id IS NULL);
--> statement-breakpoint
ALTER TABLE "reference_layer_features" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "reference_layer_features" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "reference_layer_features"
  USING ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()))
  WITH CHECK ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()));
--> statement-breakpoint
CREATE POLICY provider_layers_read ON "reference_layer_features" FOR SELECT USING (tenant_id IS NULL);
--> statement-breakpoint
ALTER TABLE "farm_screenings" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "farm_screenings" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "farm_screenings"
  USING ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()))
  WITH CHECK ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()));
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "reference_layers", "reference_layer_features", "farm_screenings" TO farmland_app;
