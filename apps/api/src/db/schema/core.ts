// The core tables: lookups, tenants and licenses, users and sessions, the activity log and mail outbox, stored files,
// regions and operational areas.
import { sql } from 'drizzle-orm';
import { bigint, boolean, date, doublePrecision, index, integer, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { geometry, id, createdAt, updatedAt } from './columns.js';

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
    countryId: uuid('country_id')
      .notNull()
      .references(() => countries.id),
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
    countryId: uuid('country_id')
      .notNull()
      .references(() => countries.id),
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
    index('tenants_live_created_idx')
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`deleted_at IS NULL`),
    // An organisation email names one live tenant (a deleted tenant's email may be used again).
    uniqueIndex('tenants_email_live_uq')
      .on(sql`lower(${t.email})`)
      .where(sql`deleted_at IS NULL AND email IS NOT NULL`),
  ],
);

export const licenses = pgTable(
  'licenses',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
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
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
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
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
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
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
export const payloadJtis = pgTable(
  'payload_jtis',
  {
    jti: text('jti').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('payload_jtis_expires_idx').on(t.expiresAt)],
);

/** The Idempotency-Key store (drizzle/0025, modules/idempotency): one row per key claimed by an actor of a tenant. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
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
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    countryId: uuid('country_id')
      .notNull()
      .references(() => countries.id),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('regions_tenant_name_uq').on(t.tenantId, sql`lower(${t.name})`)],
);

export const operationalAreas = pgTable(
  'operational_areas',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    regionId: uuid('region_id')
      .notNull()
      .references(() => regions.id),
    cityId: uuid('city_id')
      .notNull()
      .references(() => cities.id),
    geom: geometry('geom', 'Polygon').notNull(),
    areaSqm: doublePrecision('area_sqm').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('operational_areas_tenant_idx').on(t.tenantId), index('operational_areas_geom_idx').using('gist', t.geom)],
);
