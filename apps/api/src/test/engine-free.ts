/**
 * Test files that open no database (readers checked against GDAL, the layering lint, pure functions): they test the same
 * code whatever the engine, so `npm test`'s PostgreSQL pass (TEST_DATABASE_URL set) leaves them to its PGlite pass.
 * engine-free.test.ts checks that none of them imports the harness or the database.
 */
export const ENGINE_FREE: string[] = [
  'src/config.test.ts',
  'src/ingest/crs.gdal.test.ts',
  'src/ingest/geojson-stream.test.ts',
  'src/lib/log-redaction.test.ts',
  'src/lib/malloc-trim.test.ts',
  'src/lib/policy.test.ts',
  'src/lib/prng.test.ts',
  'src/lib/sniff.test.ts',
  'src/lib/storage.test.ts',
  'src/lint-layering.test.ts',
  'src/modules/analyses/analyses.box-index.test.ts',
  'src/modules/auth/tokens.test.ts',
  'src/modules/reference-layers/plot-risk.test.ts',
  'src/modules/webhooks/webhooks.test.ts',
  'src/seed/demo-data.test.ts',
  'src/seed/lookups-data.test.ts',
];
