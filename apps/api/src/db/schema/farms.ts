// The farm registry: farmers, farms and captures, their rollups, history, snapshots and mapping records, and the
// tenant configuration.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { geometry, id, createdAt, updatedAt } from './columns.js';
import { countries, tenants, users, files, regions, operationalAreas } from './core.js';

// ---------- farmers, farms and captures ----------
export const farmers = pgTable(
  'farmers',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /** What the farmers and farms searches match a name against (migration 0014). */
    fullName: text('full_name').generatedAlwaysAs(sql`first_name || ' ' || last_name`),
    email: text('email'),
    phoneNumber: text('phone_number'),
    gender: text('gender'),
    address: text('address'),
    location: text('location'),
    folioId: text('folio_id').notNull(),
    imageFileId: uuid('image_file_id').references(() => files.id, { onDelete: 'set null' }),
    countryId: uuid('country_id').references(() => countries.id),
    regionId: uuid('region_id').references(() => regions.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The farmer's number of farms, kept by the triggers on farms (migration 0016); never written by the app. */
    farmCount: integer('farm_count').notNull().default(0),
    /**
     * farm_count > 0, kept by the same trigger and changed only when a farmer gains its first farm or loses its last
     * (migration 0019): the is_mapped indexes read it, so a capture onto a mapped farmer leaves every index alone (HOT).
     */
    mapped: boolean('mapped').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The list's order (created_at DESC, id DESC) as one index walk, also when many rows share a created_at (0017).
    index('farmers_tenant_idx').on(t.tenantId, t.createdAt, t.id),
    // is_mapped=true / false: an index walk over either side (migrations 0016, 0019). The table has fillfactor 90
    // (0019), room on each page for the farm_count updates' new row versions.
    index('farmers_mapped_idx')
      .on(t.tenantId, t.createdAt, t.id)
      .where(sql`mapped`),
    index('farmers_unmapped_idx')
      .on(t.tenantId, t.createdAt, t.id)
      .where(sql`NOT mapped`),
    check('farmers_mapped_check', sql`mapped = (farm_count > 0)`),
    uniqueIndex('farmers_tenant_folio_uq').on(t.tenantId, t.folioId),
    // An agent's farmers_count reads the farmers it registered.
    index('farmers_created_by_idx').on(t.createdBy),
    // The farmers search (ILIKE '%…%' over name, folio id, phone and email), migration 0014.
    index('farmers_full_name_trgm_idx').using('gin', t.fullName.op('gin_trgm_ops')).with({ fastupdate: false }),
    index('farmers_folio_id_trgm_idx').using('gin', t.folioId.op('gin_trgm_ops')).with({ fastupdate: false }),
    index('farmers_phone_number_trgm_idx').using('gin', t.phoneNumber.op('gin_trgm_ops')).with({ fastupdate: false }),
    index('farmers_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')).with({ fastupdate: false }),
  ],
);

export const farms = pgTable(
  'farms',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    farmerId: uuid('farmer_id')
      .notNull()
      .references(() => farmers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    location: text('location'),
    address: text('address'),
    geom: geometry('geom', 'Polygon').notNull(),
    areaSqm: doublePrecision('area_sqm').notNull(),
    operationalAreaId: uuid('operational_area_id').references(() => operationalAreas.id, { onDelete: 'set null' }),
    isOverlapping: boolean('is_overlapping').notNull().default(false),
    /** The connected component of the overlap graph this farm belongs to (null when it overlaps nothing). */
    overlapGroupId: uuid('overlap_group_id'),
    /** Set by retain when a cut would make the farm vanish or fall below the minimum size. */
    flag: text('flag', { enum: ['vanished', 'below_minimum'] }),
    mappedBy: uuid('mapped_by').references(() => users.id, { onDelete: 'set null' }),
    /** The area declared at capture (m²): a point plot's (at most 4 ha), or any capture's that gave one (0032). */
    declaredAreaSqm: doublePrecision('declared_area_sqm'),
    /** A point plot's centre; its polygon is the device's or, sent without one, the declared area's 48-gon (0032). */
    point: geometry('point', 'Point'),
    /** The boundary's vertex and hole counts and its validity, by PostGIS on every write (0034): the EUDR part plan. */
    geomPoints: integer('geom_points').generatedAlwaysAs(sql`ST_NPoints(geom)`),
    geomHoles: integer('geom_holes').generatedAlwaysAs(sql`ST_NumInteriorRings(geom)`),
    geomValid: boolean('geom_valid').generatedAlwaysAs(sql`ST_IsValid(geom)`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('farms_declared_area_positive', sql`declared_area_sqm IS NULL OR declared_area_sqm > 0`),
    // The list's order (created_at DESC, id DESC) as one index walk, also when many rows share a created_at (0017).
    index('farms_tenant_idx').on(t.tenantId, t.createdAt, t.id),
    index('farms_farmer_idx').on(t.farmerId),
    index('farms_geom_idx').using('gist', t.geom),
    index('farms_overlap_group_idx').on(t.tenantId, t.overlapGroupId),
    // Operational-area farm counts and reassignment when an area changes look farms up by their area.
    index('farms_operational_area_idx').on(t.operationalAreaId),
    // An agent's mapped_farms_count and total_mapped_area read the farms it mapped.
    // (INCLUDE (tenant_id, area_sqm) in migration 0017, which drizzle's builder cannot state: index-only for the totals)
    index('farms_mapped_by_idx').on(t.mappedBy),
    // The provider's analytics by year over every tenant (mapping data, ranking, Reports): an index-only scan of the
    // year's farms instead of reading every farm's geometry.
    index('farms_created_cover_idx').on(t.createdAt, t.tenantId, t.areaSqm, t.mappedBy, t.farmerId),
    // The farms search by name (ILIKE '%…%'), migration 0014.
    index('farms_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')).with({ fastupdate: false }),
  ],
);

/**
 * The farms' counts per Web Mercator grid cell, for the low-zoom vector tiles (clusters). Kept by statement-level
 * triggers on farms (drizzle/0013_farm_tile_cells.sql, which also documents the columns); never written by the app.
 */
export const farmTileCells = pgTable(
  'farm_tile_cells',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    level: smallint('level').notNull(),
    /** The cell's Morton code at its level (x in the even bits). */
    cell: bigint('cell', { mode: 'number' }).notNull(),
    n: integer('n').notNull(),
    nOverlap: integer('n_overlap').notNull(),
    nUnrecognized: integer('n_unrecognized').notNull(),
    nWithin: integer('n_within').notNull(),
    sumLng: doublePrecision('sum_lng').notNull(),
    sumLat: doublePrecision('sum_lat').notNull(),
    idXorHi: bigint('id_xor_hi', { mode: 'bigint' }).notNull(),
    idXorLo: bigint('id_xor_lo', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ name: 'farm_tile_cells_pk', columns: [t.tenantId, t.level, t.cell] }), index('farm_tile_cells_level_cell_idx').on(t.level, t.cell)],
);

/**
 * Per tenant: farms (and the overview's categories) and farmers (and the mapped ones). Kept by statement-level triggers
 * on farms and farmers (drizzle/0016_list_rollups.sql); never written by the app.
 */
export const tenantStats = pgTable(
  'tenant_stats',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    farms: integer('farms').notNull().default(0),
    farmsWithin: integer('farms_within').notNull().default(0),
    farmsOverlapping: integer('farms_overlapping').notNull().default(0),
    farmsUnrecognized: integer('farms_unrecognized').notNull().default(0),
    farmers: integer('farmers').notNull().default(0),
    farmersMapped: integer('farmers_mapped').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'tenant_stats_pk', columns: [t.tenantId] })],
);

/**
 * Per tenant and user: farms mapped (mapped_by) with their area, and farmers registered (created_by). Kept by triggers
 * on farms and farmers (drizzle/0020_agent_stats.sql); never written by the app. The agents list reads it.
 */
export const agentStats = pgTable(
  'agent_stats',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    farms: integer('farms').notNull().default(0),
    farmsArea: numeric('farms_area').notNull().default('0'),
    farmers: integer('farmers').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'agent_stats_pk', columns: [t.tenantId, t.userId] }), index('agent_stats_user_idx').on(t.userId)],
);

/** Per tenant, farms created (count and area) per UTC day and per UTC month; kept like tenant_stats (migration 0016). */
export const farmPeriodStats = pgTable(
  'farm_period_stats',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    grain: text('grain', { enum: ['day', 'month'] }).notNull(),
    period: date('period').notNull(),
    n: integer('n').notNull(),
    areaSqm: numeric('area_sqm').notNull(),
  },
  (t) => [
    primaryKey({ name: 'farm_period_stats_pk', columns: [t.tenantId, t.grain, t.period] }),
    index('farm_period_stats_grain_period_idx').on(t.grain, t.period),
  ],
);

/** Per tenant and GPS device, its mapping records; kept by statement-level triggers on mapping_records (migration 0017). */
export const tenantGpsDevices = pgTable(
  'tenant_gps_devices',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    device: text('device').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ name: 'tenant_gps_devices_pk', columns: [t.tenantId, t.device] })],
);

export const farmBoundaryHistory = pgTable(
  'farm_boundary_history',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    farmId: uuid('farm_id')
      .notNull()
      .references(() => farms.id, { onDelete: 'cascade' }),
    geom: geometry('geom', 'Polygon').notNull(),
    areaSqm: doublePrecision('area_sqm').notNull(),
    reason: text('reason').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('farm_boundary_history_farm_idx').on(t.farmId)],
);

export const farmSnapshots = pgTable(
  'farm_snapshots',
  {
    farmId: uuid('farm_id')
      .notNull()
      .references(() => farms.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.farmId, t.fileId] })],
);

/** A capture by an agent's device: the boundary as walked, how long it took and with which GPS device. */
export const mappingRecords = pgTable(
  'mapping_records',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    farmId: uuid('farm_id').references(() => farms.id, { onDelete: 'cascade' }),
    mappedBy: uuid('mapped_by').references(() => users.id, { onDelete: 'set null' }),
    geom: geometry('geom', 'Polygon').notNull(),
    timeTakenToMap: integer('time_taken_seconds'),
    gpsDeviceId: text('gps_device_id'),
    location: text('location'),
    countryId: uuid('country_id').references(() => countries.id),
    source: text('source', { enum: ['agent', 'sdk', 'seed'] })
      .notNull()
      .default('agent'),
    /** Why the agent saved a capture the device warned about (drizzle/0025). */
    captureNote: text('capture_note'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('mapping_records_tenant_idx').on(t.tenantId, t.createdAt), index('mapping_records_farm_idx').on(t.farmId)],
);

export const tenantConfigurations = pgTable('tenant_configurations', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  minimumFarmSize: doublePrecision('minimum_farm_size').notNull().default(100),
  recognitionThreshold: doublePrecision('recognition_threshold').notNull().default(0.5),
  // Overlap tolerance (drizzle/0024): a pair overlaps when its intersection reaches both; smaller pairs are slivers.
  overlapMinAreaSqm: doublePrecision('overlap_min_area_sqm').notNull().default(1),
  overlapMinShare: doublePrecision('overlap_min_share').notNull().default(0.01),
  settings: jsonb('settings')
    .notNull()
    .default(sql`'{}'::jsonb`),
  updatedAt: updatedAt(),
});
