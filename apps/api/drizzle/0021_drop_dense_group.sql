-- Issue 15: the overlap step finds its candidates in the run's memory (analyses.box-index.ts) since 2026-11-25, and no
-- longer marks crowded rows with a provisional group. The column and the partial GiST index that served those marks
-- (0009) are never written or read any more.
DROP INDEX IF EXISTS "custom_analysis_rows_dense_idx";--> statement-breakpoint
ALTER TABLE "custom_analysis_rows" DROP COLUMN IF EXISTS "dense_group";
