-- Issue 29, reference layers in a custom analysis. custom_analysis_layers holds the layers an analysis was created with
-- (its choice, in order); the run pins each one's version in use at its start (layer_version and pinned_at, with the
-- name, kind and owner it had then), so a layer replaced mid-run never mixes versions, and the analysis keeps saying what it was screened
-- against after the layer changes or goes. Each analysed row with a geometry gets its verdict (risk_level: low, review,
-- high) and risk (jsonb: {"reasons": [...], "figures": [{layer_id, overlap_sqm, share}]}) on its own row
-- (docs/decisions/0076-analysis-reference-layers.md).
CREATE TABLE "custom_analysis_layers" (
  "analysis_id" uuid NOT NULL,
  "tenant_id" uuid NOT NULL,
  "layer_id" uuid NOT NULL,
  "position" integer NOT NULL,
  "layer_name" text NOT NULL,
  "layer_kind" text NOT NULL,
  "layer_owner" text NOT NULL,
  "layer_version" integer,
  "pinned_at" timestamp with time zone,
  CONSTRAINT "custom_analysis_layers_pk" PRIMARY KEY ("analysis_id", "layer_id"),
  CONSTRAINT "custom_analysis_layers_analysis_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."custom_analyses"("id") ON DELETE cascade,
  CONSTRAINT "custom_analysis_layers_tenant_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE "custom_analysis_rows" ADD COLUMN IF NOT EXISTS "risk_level" text;
--> statement-breakpoint
ALTER TABLE "custom_analysis_rows" ADD COLUMN IF NOT EXISTS "risk" jsonb;
--> statement-breakpoint
ALTER TABLE "custom_analysis_layers" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "custom_analysis_layers" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "custom_analysis_layers"
  USING ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()))
  WITH CHECK ((SELECT app_scope_is_global()) OR tenant_id = (SELECT app_current_tenant()));
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "custom_analysis_layers" TO farmland_app;
