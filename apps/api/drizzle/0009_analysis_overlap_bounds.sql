-- Issue 16: one upload must never take the platform down.
--  * custom_analysis_rows.dup_of: exact twins of an earlier row stay out of the overlap probe index (a file repeating one
--    polygon 75,000 times probes one entry); dense_group: rows with too many neighbours, probed through their own index. group_size: each row keeps its group's size.
--  * custom_analyses.attempts / crashes / heartbeat_at / run_id / phase: a run claims its analysis and beats; a run whose
--    heartbeat stopped ended its process, and is requeued once, then failed with its reason.
DROP INDEX "custom_analysis_rows_geom_idx";--> statement-breakpoint
ALTER TABLE "custom_analyses" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "custom_analyses" ADD COLUMN "crashes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "custom_analyses" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "custom_analyses" ADD COLUMN "run_id" uuid;--> statement-breakpoint
ALTER TABLE "custom_analyses" ADD COLUMN "phase" text;--> statement-breakpoint
ALTER TABLE "custom_analysis_rows" ADD COLUMN "group_size" integer;--> statement-breakpoint
ALTER TABLE "custom_analysis_rows" ADD COLUMN "dup_of" integer;--> statement-breakpoint
ALTER TABLE "custom_analysis_rows" ADD COLUMN "dense_group" integer;--> statement-breakpoint
CREATE INDEX "custom_analysis_rows_dense_idx" ON "custom_analysis_rows" USING gist ("geom") WHERE "custom_analysis_rows"."dense_group" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "custom_analysis_rows_geom_idx" ON "custom_analysis_rows" USING gist ("geom") WHERE "custom_analysis_rows"."geom" IS NOT NULL AND "custom_analysis_rows"."dup_of" IS NULL;--> statement-breakpoint
-- Backfill group_size for analyses completed before this migration (row-level security is FORCEd: read as system).
SELECT set_config('app.scope', 'system', true);--> statement-breakpoint
UPDATE "custom_analysis_rows" r SET "group_size" = g.n
  FROM (SELECT analysis_id, overlapping_id, count(*)::int AS n FROM "custom_analysis_rows" WHERE is_overlapping GROUP BY 1, 2) g
 WHERE r.is_overlapping AND r.analysis_id = g.analysis_id AND r.overlapping_id = g.overlapping_id;
