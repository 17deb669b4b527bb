// The functions the migrations mark LEAKPROOF (0004 and 0005: PostGIS's bounding-box operators; 0014: LIKE and ILIKE),
// so that under row-level security their operators can be index conditions (GiST and trigram indexes). The marks live in
// pg_proc rows of extension and catalog functions, which pg_dump does not carry: a restored database would answer the
// same, but scan where it used to probe an index. A restore applies them again (db/backup.ts).
export const LEAKPROOF_FUNCTIONS = [
  'geometry_overlaps(geometry, geometry)',
  'geometry_contains(geometry, geometry)',
  'geometry_within(geometry, geometry)',
  'textlike(text, text)',
  'texticlike(text, text)',
] as const;

/** One statement per function; needs a superuser, like the migrations that first set them. */
export const leakproofStatements = (): string[] => LEAKPROOF_FUNCTIONS.map((f) => `ALTER FUNCTION ${f} LEAKPROOF`);
