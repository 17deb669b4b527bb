-- Point plots (the EU regulation allows a plot of 4 ha or less to be one point with its declared area): the capture's
-- declared area (m², any capture may give one; a point plot must, at most 40,000) and a point plot's centre. A point plot
-- sent without a polygon is stored as a 48-corner polygon of the declared area around its centre, with the declared area
-- as its area (docs/decisions/0087-field-walk-and-point-plots.md).
ALTER TABLE "farms" ADD COLUMN IF NOT EXISTS "declared_area_sqm" double precision;
--> statement-breakpoint
ALTER TABLE "farms" ADD COLUMN IF NOT EXISTS "point" geometry(Point, 4326);
--> statement-breakpoint
ALTER TABLE "farms" DROP CONSTRAINT IF EXISTS "farms_declared_area_positive";
--> statement-breakpoint
ALTER TABLE "farms" ADD CONSTRAINT "farms_declared_area_positive" CHECK ("declared_area_sqm" IS NULL OR "declared_area_sqm" > 0);
