// The whole core model as Drizzle tables; migrations in ../../drizzle are generated from this file (npm run db:generate).
// Geometry columns are PostGIS geometry with SRID 4326; coordinates are [longitude, latitude].
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
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
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Geometry is read and written through PostGIS functions in SQL (ST_GeomFromGeoJSON / ST_AsGeoJSON), never parsed in JS. */
const geometry = (name: string, kind: 'Polygon' | 'Point' | 'MultiPolygon' | 'Geometry') =>
  customType<{ data: string; driverData: string }>({
    dataType: () => `geometry(${kind}, 4326)`,
  })(name);

const id = () => uuid('id').primaryKey().default(sql`gen_random_uuid()`);
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

// ---------- lookups (global, seeded from country-state-city) ----------
export const countries = pgTable('countries', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  iso2: text('iso2').notNull().unique(),
  iso3: text('iso3').notNull(),
  phoneCode: text('phone_code').notNull(),
  currencyCode: text('currency_code').notNull(),
  currencyName: text('currency_name').notNull(),
  currencySymbol: text('currency_symbol').notNull(),
  flagEmoji: text('flag_emoji').notNull(),
  countryFlag: text('country_flag').notNull(),
  latitude: doublePrecision('latitude'),
  longitude: doublePrecision('longitude'),
});

export const states = pgTable(
  'states',
  {
    id: uuid('id').primaryKey(),
    countryId: uuid('country_id').notNull().references(() => countries.id),
    name: text('name').notNull(),
    code: text('code').notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
  },
  (t) => [index('states_country_idx').on(t.countryId)],
);

export const cities = pgTable(
  'cities',
  {
    id: uuid('id').primaryKey(),
    countryId: uuid('country_id').notNull().references(() => countries.id),
    stateId: uuid('state_id').references(() => states.id),
    name: text('name').notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    location: geometry('location', 'Point').notNull(),
  },
  (t) => [index('cities_country_idx').on(t.countryId, t.name), index('cities_state_idx').on(t.stateId)],
);

// ---------- tenants and licenses ----------
export const tenants = pgTable(
  'tenants',
  {
    id: id(),
    name: text('name').notNull(),
    address: text('address'),
    phoneNumber: text('phone_number'),
    email: text('email'),
    countryId: uuid('country_id').references(() => countries.id),
    stateId: uuid('state_id').references(() => states.id),
    cityId: uuid('city_id').references(() => cities.id),
    city: text('city'),
    enableFarmSync: boolean('enable_farm_sync').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    isSuspended: boolean('is_suspended').notNull().default(false),
    /** The registry's overlap groups wait for a re-grouping under the tolerance (migration 0029, farm-overlaps.regroup.ts). */
    overlapRegroupPending: boolean('overlap_regroup_pending').notNull().default(false),
    /** Soft delete (POST /base/tenants/delete/): the tenant and its data are hidden, its users shut out; the activity log stays. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('tenants_name_idx').on(t.name),
    // The provider's list: newest first among the tenants that are not deleted.
    index('tenants_live_created_idx').on(t.createdAt.desc(), t.id.desc()).where(sql`deleted_at IS NULL`),
    // An organisation email names one live tenant (a deleted tenant's email may be used again).
    uniqueIndex('tenants_email_live_uq').on(sql`lower(${t.email})`).where(sql`deleted_at IS NULL AND email IS NOT NULL`),
  ],
);

export const licenses = pgTable(
  'licenses',
  {
    id: id(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['Platform', 'SDK'] }).notNull(),
    issuedDate: date('issued_date', { mode: 'string' }).notNull(),
    expiryDate: date('expiry_date', { mode: 'string' }).notNull(),
    price: numeric('price', { precision: 14, scale: 2 }).notNull().default('0'),
    currency: text('currency').notNull().default('NGN'),
    /** SHA-256 (hex) of the activation key: the key itself is shown once, when it is issued (docs/decisions/0013-provider-area-api.md). */
    keyHash: text('key_hash').notNull(),
    /** The key's first 10 characters, shown in lists (the spec truncates the key to 10 characters). */
    keyHint: text('key_hint').notNull(),
    isRevoked: boolean('is_revoked').notNull().default(false),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('licenses_key_hash_uq').on(t.keyHash),
    // The tenant's current license (the tenant gate, the tenants list): the latest issued.
    index('licenses_tenant_current_idx').on(t.tenantId, t.issuedDate.desc(), t.createdAt.desc()),
  ],
);

// ---------- users, sessions, two-factor ----------
export const users = pgTable(
  'users',
  {
    id: id(),
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['super_admin', 'tenant_admin', 'agent'] }).notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /** What the agents search matches a name against (migration 0014: a trigram index, usable under row-level security). */
    fullName: text('full_name').generatedAlwaysAs(sql`first_name || ' ' || last_name`),
    phoneNumber: text('phone_number'),
    gender: text('gender'),
    imageFileId: uuid('image_file_id'),
    operationalAreaId: uuid('operational_area_id'),
    isActive: boolean('is_active').notNull().default(true),
    isSuspended: boolean('is_suspended').notNull().default(false),
    mfaEnabled: boolean('mfa_enabled').notNull().default(false),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_uq').on(sql`lower(${t.email})`),
    index('users_tenant_role_created_idx').on(t.tenantId, t.role, t.createdAt, t.id),
    // The agents search (ILIKE '%…%'), migration 0014.
    index('users_full_name_trgm_idx').using('gin', t.fullName.op('gin_trgm_ops')).with({ fastupdate: false }),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')).with({ fastupdate: false }),
    index('users_phone_number_trgm_idx').using('gin', t.phoneNumber.op('gin_trgm_ops')).with({ fastupdate: false }),
  ],
);

export const mfaSecrets = pgTable('mfa_secrets', {
  userId: uuid('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  /** AES-256-GCM encrypted base32 secret (lib/crypto.ts). */
  secretEnc: text('secret_enc').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  /** The last accepted TOTP time step: a code is accepted once, and never for an earlier step. */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }).notNull().default(0),
  createdAt: createdAt(),
});

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull().default('web'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
    /** A device session (the field app, drizzle/0025): its own lifetime and idle limit. */
    device: boolean('device').notNull().default(false),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_tenant_idx').on(t.tenantId)],
);

/** One row per refresh token issued; the session is the token family. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    sessionId: uuid('session_id').notNull().references(() => sessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash), index('refresh_tokens_session_idx').on(t.sessionId)],
);

/** Short-lived sign-in steps between the password check and the second factor (login, enrolment, admin link, password reset, invitation). */
export const authChallenges = pgTable(
  'auth_challenges',
  {
    id: id(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['login', 'admin_link', 'password_reset', 'invitation'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('auth_challenges_hash_uq').on(t.tokenHash), index('auth_challenges_user_idx').on(t.userId, t.kind)],
);

/** Failed sign-in counters, per account and per IP; a lock always ends (exponential backoff with a ceiling). */
export const authThrottle = pgTable('auth_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  updatedAt: updatedAt(),
});

/** Encrypted request bodies' jti, refused again until the body's iat leaves the replay window (migration 0022). */
export const payloadJtis = pgTable('payload_jtis', {
  jti: text('jti').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
}, (t) => [index('payload_jtis_expires_idx').on(t.expiresAt)]);

/** The Idempotency-Key store (drizzle/0025, modules/idempotency): one row per key claimed by an actor of a tenant. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    /** 'user:<id>' or 'license:<id>'. */
    actor: text('actor').notNull(),
    key: text('key').notNull(),
    /** Method and path, e.g. 'POST /api/farms/'. */
    request: text('request').notNull(),
    bodyHash: text('body_hash').notNull(),
    /** Null while the first request runs. */
    status: integer('status'),
    response: text('response'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ name: 'idempotency_keys_pk', columns: [t.tenantId, t.actor, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

// ---------- activity log and mail outbox ----------
export const activityLogs = pgTable(
  'activity_logs',
  {
    id: id(),
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name').notNull(),
    role: text('role'),
    action: text('action').notNull(),
    description: text('description').notNull(),
    platform: text('platform').notNull(),
    country: text('country'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('activity_logs_tenant_created_idx').on(t.tenantId, t.createdAt), index('activity_logs_created_idx').on(t.createdAt)],
);

export const outboxEmails = pgTable('outbox_emails', {
  id: id(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: createdAt(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  error: text('error'),
});

// ---------- stored files ----------
export const files = pgTable(
  'files',
  {
    id: id(),
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['avatar', 'snapshot', 'analysis_source', 'export'] }).notNull(),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    originalName: text('original_name'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('files_tenant_idx').on(t.tenantId)],
);

// ---------- tenant geography: regions and operational areas ----------
export const regions = pgTable(
  'regions',
  {
    id: id(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    countryId: uuid('country_id').notNull().references(() => countries.id),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('regions_tenant_name_uq').on(t.tenantId, sql`lower(${t.name})`)],
);

export const operationalAreas = pgTable(
  'operational_areas',
  {
    id: id(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    regionId: uuid('region_id').notNull().references(() => regions.id),
    cityId: uuid('city_id').notNull().references(() => cities.id),
    geom: geometry('geom', 'Polygon').notNull(),
    areaSqm: doublePrecision('area_sqm').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('operational_areas_tenant_idx').on(t.tenantId), index('operational_areas_geom_idx').using('gist', t.geom)],
);

// ---------- farmers, farms and captures ----------
export const farmers = pgTable(
  'farmers',
  {
    id: id(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
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
    index('farmers_mapped_idx').on(t.tenantId, t.createdAt, t.id).where(sql`mapped`),
    index('farmers_unmapped_idx').on(t.tenantId, t.createdAt, t.id).where(sql`NOT mapped`),
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
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    farmerId: uuid('farmer_id').notNull().references(() => farmers.id, { onDelete: 'cascade' }),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
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
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
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
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
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
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
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
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    grain: text('grain', { enum: ['day', 'month'] }).notNull(),
    period: date('period').notNull(),
    n: integer('n').notNull(),
    areaSqm: numeric('area_sqm').notNull(),
  },
  (t) => [primaryKey({ name: 'farm_period_stats_pk', columns: [t.tenantId, t.grain, t.period] }), index('farm_period_stats_grain_period_idx').on(t.grain, t.period)],
);

/** Per tenant and GPS device, its mapping records; kept by statement-level triggers on mapping_records (migration 0017). */
export const tenantGpsDevices = pgTable(
  'tenant_gps_devices',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    device: text('device').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ name: 'tenant_gps_devices_pk', columns: [t.tenantId, t.device] })],
);

export const farmBoundaryHistory = pgTable(
  'farm_boundary_history',
  {
    id: id(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    farmId: uuid('farm_id').notNull().references(() => farms.id, { onDelete: 'cascade' }),
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
    farmId: uuid('farm_id').notNull().references(() => farms.id, { onDelete: 'cascade' }),
    fileId: uuid('file_id').notNull().references(() => files.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.farmId, t.fileId] })],
);

/** A capture by an agent's device: the boundary as walked, how long it took and with which GPS device. */
export const mappingRecords = pgTable(
  'mapping_records',
  {
    id: id(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    farmId: uuid('farm_id').references(() => farms.id, { onDelete: 'cascade' }),
    mappedBy: uuid('mapped_by').references(() => users.id, { onDelete: 'set null' }),
    geom: geometry('geom', 'Polygon').notNull(),
    timeTakenToMap: integer('time_taken_seconds'),
    gpsDeviceId: text('gps_device_id'),
    location: text('location'),
    countryId: uuid('country_id').references(() => countries.id),
    source: text('source', { enum: ['agent', 'sdk', 'seed'] }).notNull().default('agent'),
    /** Why the agent saved a capture the device warned about (drizzle/0025). */
    captureNote: text('capture_note'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('mapping_records_tenant_idx').on(t.tenantId, t.createdAt), index('mapping_records_farm_idx').on(t.farmId)],
);

export const tenantConfigurations = pgTable('tenant_configurations', {
  tenantId: uuid('tenant_id').primaryKey().references(() => tenants.id, { onDelete: 'cascade' }),
  minimumFarmSize: doublePrecision('minimum_farm_size').notNull().default(100),
  recognitionThreshold: doublePrecision('recognition_threshold').notNull().default(0.5),
  // Overlap tolerance (drizzle/0024): a pair overlaps when its intersection reaches both; smaller pairs are slivers.
  overlapMinAreaSqm: doublePrecision('overlap_min_area_sqm').notNull().default(1),
  overlapMinShare: doublePrecision('overlap_min_share').notNull().default(0.01),
  settings: jsonb('settings').notNull().default(sql`'{}'::jsonb`),
  updatedAt: updatedAt(),
});

// ---------- custom analyses ----------
export const customAnalyses = pgTable(
  'custom_analyses',
  {
    id: id(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    sourceFileId: uuid('source_file_id').references(() => files.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['queued', 'processing', 'completed', 'failed'] }).notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    minimumFarmSize: doublePrecision('minimum_farm_size').notNull(),
    requireFarmRecognition: boolean('require_farm_recognition').notNull().default(true),
    recognitionThreshold: doublePrecision('recognition_threshold').notNull().default(0.5),
    // The overlap tolerance the analysis runs with (the tenant's at upload; drizzle/0024).
    overlapMinAreaSqm: doublePrecision('overlap_min_area_sqm').notNull().default(1),
    overlapMinShare: doublePrecision('overlap_min_share').notNull().default(0.01),
    totalUploadedDataCount: integer('total_uploaded_data_count').notNull().default(0),
    totalArea: doublePrecision('total_area').notNull().default(0),
    withinCount: integer('within_count').notNull().default(0),
    outsideCount: integer('outside_count').notNull().default(0),
    overlappingCount: integer('overlapping_count').notNull().default(0),
    unrecognizedCount: integer('unrecognized_count').notNull().default(0),
    errorCount: integer('error_count').notNull().default(0),
    // Rows with at least one warning (issue 28: a repaired ring, a point, coarse coordinates; drizzle/0023).
    warningCount: integer('warning_count').notNull().default(0),
    failureReason: text('failure_reason'),
    // Crash recovery (drizzle/0009): each run claims the analysis (attempts + 1) and beats every few seconds; a run whose
    // heartbeat stopped ended its process (crashes + 1): it is requeued, or failed at the second. phase: the step running.
    attempts: integer('attempts').notNull().default(0),
    crashes: integer('crashes').notNull().default(0),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    runId: uuid('run_id'),
    phase: text('phase'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    // A follow-up's parent (drizzle/0015): a composite foreign key (tenant_id, parent_analysis_id) → (tenant_id, id),
    // ON DELETE SET NULL (parent_analysis_id), written in the migration (drizzle's builder cannot say the column list).
    parentAnalysisId: uuid('parent_analysis_id'),
  },
  (t) => [
    index('custom_analyses_tenant_idx').on(t.tenantId, t.createdAt),
    unique('custom_analyses_tenant_id_id_uq').on(t.tenantId, t.id),
    index('custom_analyses_parent_idx').on(t.tenantId, t.parentAnalysisId).where(sql`${t.parentAnalysisId} IS NOT NULL`),
  ],
);

/** Every overlapping pair of rows an analysis found (a < b), slivers included, with its measures (drizzle/0024). */
export const customAnalysisOverlaps = pgTable(
  'custom_analysis_overlaps',
  {
    analysisId: uuid('analysis_id').notNull().references(() => customAnalyses.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    a: integer('a').notNull(),
    b: integer('b').notNull(),
    areaSqm: doublePrecision('area_sqm').notNull(),
    shareA: doublePrecision('share_a').notNull(),
    shareB: doublePrecision('share_b').notNull(),
    iou: doublePrecision('iou').notNull(),
    isSliver: boolean('is_sliver').notNull(),
  },
  (t) => [primaryKey({ columns: [t.analysisId, t.a, t.b] }), index('custom_analysis_overlaps_b_idx').on(t.analysisId, t.b)],
);

export const customAnalysisAreas = pgTable(
  'custom_analysis_areas',
  {
    analysisId: uuid('analysis_id').notNull().references(() => customAnalyses.id, { onDelete: 'cascade' }),
    operationalAreaId: uuid('operational_area_id').notNull().references(() => operationalAreas.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.analysisId, t.operationalAreaId] })],
);

export const customAnalysisRows = pgTable(
  'custom_analysis_rows',
  {
    // Its analysis is enforced by statement-level triggers (drizzle/0008), not a foreign key: same check, lock and
    // cascade, once per statement instead of once per row.
    analysisId: uuid('analysis_id').notNull(),
    rowNumber: integer('row_number').notNull(),
    // No foreign key to tenants: the analysis's key already cascades from the tenant (tenants → custom_analyses → rows),
    // and a second RI trigger per inserted row cost ~11 µs on PGlite (1.1 s per 100k rows). See drizzle/0006.
    tenantId: uuid('tenant_id').notNull(),
    farmName: text('farm_name'),
    geom: geometry('geom', 'Geometry'),
    areaSqm: doublePrecision('area_sqm'),
    rowData: jsonb('row_data').notNull(),
    errors: jsonb('errors'),
    // The row's warning codes (analysisRowWarningCode); empty for a clean row (drizzle/0023).
    warnings: text('warnings').array().notNull().default(sql`'{}'::text[]`),
    category: text('category', { enum: ['within', 'outside', 'error'] }).notNull(),
    operationalAreaId: uuid('operational_area_id'),
    coveredFraction: doublePrecision('covered_fraction'),
    isOverlapping: boolean('is_overlapping').notNull().default(false),
    overlappingId: integer('overlapping_id'),
    // Rows in the same overlap group (stored with the group, so that a result page never counts a group per row).
    groupSize: integer('group_size'),
    isUnrecognized: boolean('is_unrecognized').notNull().default(false),
    // The first row of the upload with the very same polygon (exact duplicates never enter the overlap probe index).
    dupOf: integer('dup_of'),
  },
  (t) => [
    primaryKey({ columns: [t.analysisId, t.rowNumber] }),
    index('custom_analysis_rows_cat_idx').on(t.analysisId, t.category, t.rowNumber),
    index('custom_analysis_rows_overlap_idx').on(t.analysisId, t.overlappingId, t.rowNumber).where(sql`${t.isOverlapping}`),
    index('custom_analysis_rows_unrecognized_idx').on(t.analysisId, t.rowNumber).where(sql`${t.isUnrecognized}`),
    // The overlap self-join of one upload probes this index; rows without a valid polygon carry no geometry.
    // Duplicates stay out of it, so a file repeating one polygon 75,000 times probes one entry, not 75,000 (drizzle/0009).
    index('custom_analysis_rows_geom_idx').using('gist', t.geom).where(sql`${t.geom} IS NOT NULL AND ${t.dupOf} IS NULL`),
  ],
);

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
