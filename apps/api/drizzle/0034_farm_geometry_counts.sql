-- Issue 28 (docs/decisions/0056-streamed-exports-and-result-cursor.md, "EUDR parts"): the EUDR export plans its 25 MB
-- parts from an upper bound of each farm's written size, one SQL aggregate over the registry, without reading any
-- geometry. The bound needs each boundary's vertex and hole counts, and the default export (passing plots only) its
-- validity: stored here, computed by PostGIS from the geometry on every write (generated columns, never out of step).
ALTER TABLE "farms" ADD COLUMN IF NOT EXISTS "geom_points" integer GENERATED ALWAYS AS (ST_NPoints("geom")) STORED;
--> statement-breakpoint
ALTER TABLE "farms" ADD COLUMN IF NOT EXISTS "geom_holes" integer GENERATED ALWAYS AS (ST_NumInteriorRings("geom")) STORED;
--> statement-breakpoint
ALTER TABLE "farms" ADD COLUMN IF NOT EXISTS "geom_valid" boolean GENERATED ALWAYS AS (ST_IsValid("geom")) STORED;
