-- custom_analysis_rows is written 100k rows at a time by the analysis pipeline; per-row work on insert dominated it on
-- PGlite. (1) The foreign key to tenants is redundant: rows cascade from custom_analyses, which cascades from tenants.
ALTER TABLE "custom_analysis_rows" DROP CONSTRAINT "custom_analysis_rows_tenant_id_tenants_id_fk";--> statement-breakpoint
-- (2) The CHECK ran ST_IsValid a second time on every inserted and updated row (46 µs a row on PGlite). The only writer
-- (classifySql) stores a geometry only when ST_IsValid held in the same statement, and the column type already fixes
-- Polygon and SRID 4326. Keep the cheap SRID half for defence in depth.
ALTER TABLE "custom_analysis_rows" DROP CONSTRAINT IF EXISTS "custom_analysis_rows_geom_valid";--> statement-breakpoint
ALTER TABLE "custom_analysis_rows" ADD CONSTRAINT "custom_analysis_rows_geom_srid" CHECK (ST_SRID(geom) = 4326);
