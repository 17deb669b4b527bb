// The whole core model as Drizzle tables; migrations in ../../drizzle are generated from this file and the parts it re-exports (schema/) (npm run db:generate).
// Geometry columns are PostGIS geometry with SRID 4326; coordinates are [longitude, latitude].
export * from './schema/core.js';
export * from './schema/farms.js';
export * from './schema/analyses.js';

/** Tables that hold one tenant's data: each gets row-level security (see drizzle/0002_rls.sql). */
export const tenantTables = [
  'licenses',
  'users',
  'sessions',
  'activity_logs',
  'files',
  'regions',
  'operational_areas',
  'farmers',
  'farms',
  'farm_boundary_history',
  'farm_snapshots',
  'mapping_records',
  'tenant_configurations',
  'custom_analyses',
  'custom_analysis_areas',
  'custom_analysis_rows',
] as const;
