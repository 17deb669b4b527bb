-- Completes 0004: besides && (geometry_overlaps), ST_Covers / ST_Within put ~ and @ into the index condition, and under
-- row-level security only LEAKPROOF operators may be index conditions. Both only compare bounding boxes of geometries that
-- CHECK constraints keep in SRID 4326. Needs a superuser; without one, warn and carry on (correct, slower).
DO $$
BEGIN
  ALTER FUNCTION geometry_contains(geometry, geometry) LEAKPROOF;
  ALTER FUNCTION geometry_within(geometry, geometry) LEAKPROOF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE WARNING 'Could not mark geometry_contains / geometry_within LEAKPROOF (needs a superuser): ST_Covers under row-level security will not use GiST indexes.';
END $$;
