-- Issue 28 §4: a repair or a doubtful input is a per-row warning beside the errors (ring_closed,
-- duplicate_vertices_removed, fewer_than_6_decimals, point_not_polygon); the row is analysed all the same. The codes are
-- stored as given (text[]: an empty array for a clean row), and the analysis counts its rows with a warning.
ALTER TABLE "custom_analysis_rows" ADD COLUMN IF NOT EXISTS "warnings" text[] NOT NULL DEFAULT '{}';--> statement-breakpoint
ALTER TABLE "custom_analyses" ADD COLUMN IF NOT EXISTS "warning_count" integer NOT NULL DEFAULT 0;
