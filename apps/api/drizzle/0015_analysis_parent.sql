-- Issue 10: a re-analysis of fixed failed rows ('Re-analyse fixed rows') names the analysis it follows up.
-- parent_analysis_id is nullable (most analyses are first uploads) and must be an analysis of the same tenant: a
-- composite foreign key (tenant_id, parent_analysis_id) → (tenant_id, id) says so in the database, whatever the service
-- checks first. custom_analyses has one row per upload, so a plain foreign key costs nothing worth a statement-level
-- trigger (0008's style is for the analysis rows, 100k per upload). Deleting a parent keeps its follow-ups and clears
-- only their link (SET NULL on parent_analysis_id alone; tenant_id is never touched).
ALTER TABLE "custom_analyses" ADD COLUMN "parent_analysis_id" uuid;
--> statement-breakpoint
ALTER TABLE "custom_analyses" ADD CONSTRAINT "custom_analyses_tenant_id_id_uq" UNIQUE ("tenant_id", "id");
--> statement-breakpoint
ALTER TABLE "custom_analyses" ADD CONSTRAINT "custom_analyses_parent_fk" FOREIGN KEY ("tenant_id", "parent_analysis_id")
  REFERENCES "custom_analyses" ("tenant_id", "id") ON DELETE SET NULL ("parent_analysis_id");
--> statement-breakpoint
CREATE INDEX "custom_analyses_parent_idx" ON "custom_analyses" ("tenant_id", "parent_analysis_id") WHERE "parent_analysis_id" IS NOT NULL;
