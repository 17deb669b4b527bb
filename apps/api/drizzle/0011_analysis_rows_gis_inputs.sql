-- Issue 13: an analysis row may be a Polygon, a MultiPolygon (one farm in several parcels, or a plot split at the
-- antimeridian) or a Point (EUDR plots under 4 ha). The SRID CHECK (0006) and the GiST indexes (0009) stay as they are.
ALTER TABLE "custom_analysis_rows" ALTER COLUMN "geom" SET DATA TYPE geometry(Geometry, 4326);