// The field app's contract (issue 31): the idempotency header on create routes, device sign-in, the areas an agent may
// download and the download bundle (area polygon, nearby registry farms, the agent's farmers, the tenant's capture rules).
import { z } from 'zod';
import { text, uuid } from './common.js';
import { lngLatPair, polygonGeoJson } from './geometry.js';
import { farmer } from './farmers.js';

/**
 * The IETF draft's header (draft-ietf-httpapi-idempotency-key-header). Honoured on POST /api/farms/ and POST /api/farmers/
 * for IDEMPOTENCY_KEY_TTL_HOURS after the first answer: the same key with the same body gets the first answer again
 * (same status and body, plus `Idempotent-Replayed: true`); the same key with another body gets 409
 * idempotency_key_reused; a retry while the first is still running gets 409 idempotency_key_in_progress (retry later).
 * Only successful (2xx) answers are kept: a refused request (4xx) frees its key, so a fixed body may be sent with it again.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set to "true" on an answer replayed from the idempotency store. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
/** 1–255 visible ASCII characters (0x21–0x7E); a UUID is a good key. Anything else: 400 with errors["Idempotency-Key"]. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const idempotencyKey = z.string().regex(IDEMPOTENCY_KEY_PATTERN, 'Idempotency-Key must be 1 to 255 visible ASCII characters');

/** Problem codes the field app shows or acts on (body: { message, code, errors? }). */
export const FIELD_PROBLEM_CODES = {
  /** 409: the key was used with another body; make a new key for a new request. */
  idempotencyKeyReused: 'idempotency_key_reused',
  /** 409: the first request with this key is still running; retry after the Retry-After seconds. */
  idempotencyKeyInProgress: 'idempotency_key_in_progress',
  /** 401/403 at refresh or sign-in: the agent was suspended. The device session has ended; keep the queue. */
  accountSuspended: 'account_suspended',
  /** 401/403: the account was deactivated. */
  accountInactive: 'account_inactive',
  /** 401 at refresh: the session was ended (signed out, account or password reset, two-factor reset, revoked by an admin). */
  sessionRevoked: 'session_revoked',
  /** 401 at refresh: the refresh token is unknown or expired. */
  refreshInvalid: 'refresh_token_invalid',
  /** 401 at refresh: a rotated refresh token was presented again; the session was ended. */
  refreshReused: 'refresh_token_reused',
} as const;

/**
 * Device sign-in: send `device: true` on the step that ends sign-in (POST /api/auth/login/confirm or /api/auth/confirm-mfa/).
 * Agents only. The session then lasts DEVICE_SESSION_TTL_DAYS (default 30) from sign-in and survives DEVICE_SESSION_IDLE_DAYS
 * (default 14) without a refresh; the refresh cookie lives as long. See docs/decisions/0062-field-app-device-session.md.
 */
export const DEVICE_SESSION_DEFAULTS = { ttl_days: 30, idle_days: 14 } as const;

/**
 * GET /api/field/areas/ → { data: FieldArea[] }: the operational areas the agent may download (every area of the agent's
 * tenant, the agent's assigned area first, at most 1,000).
 */
export const fieldArea = z.object({
  id: uuid,
  name: z.string(),
  region: z.string().nullable(),
  farm_count: z.number().int(),
  area_sqm: z.number(),
  /** The agent's assigned operational area. */
  assigned: z.boolean(),
});
export type FieldArea = z.infer<typeof fieldArea>;

/** GET /api/field/bundle/?area_id=… → { data: FieldBundle } (agents and tenant admins; another tenant's area: 404). */
export const fieldBundleQuery = z.object({ area_id: text({ error: 'area_id is required' }).pipe(z.uuid('area_id must be an operational area id')) });
export type FieldBundleQuery = z.infer<typeof fieldBundleQuery>;

/** Farms within this many metres of the area's bounding box are sent. */
export const FIELD_BUNDLE_MARGIN_M = 1000;
/** At most this many farms (nearest the area's centre first) and this many farmers; `truncated` says when more existed. */
export const FIELD_BUNDLE_FARMS_CAP = 20_000;
export const FIELD_BUNDLE_FARMERS_CAP = 20_000;

export const multiPolygonGeoJson = z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(z.array(lngLatPair))) });
export const fieldBundleFarm = z.object({
  id: uuid,
  name: z.string(),
  farmer_id: uuid,
  farmer_name: z.string(),
  geometry: z.union([polygonGeoJson, multiPolygonGeoJson]),
  area_sqm: z.number(),
});
export type FieldBundleFarm = z.infer<typeof fieldBundleFarm>;

export const fieldBundle = z.object({
  generated_at: z.string(),
  area: z.object({
    id: uuid,
    name: z.string(),
    geometry: polygonGeoJson,
    /** The bounding box farms were selected from: the area's box grown by FIELD_BUNDLE_MARGIN_M, [minLng, minLat, maxLng, maxLat]. */
    bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  }),
  farms: z.array(fieldBundleFarm),
  /** More farms than FIELD_BUNDLE_FARMS_CAP lay in the box; the nearest to the area's centre were sent. */
  truncated: z.boolean(),
  farms_limit: z.number().int(),
  /** The farmers the signed-in user registered (created_by), newest first, with the spec's farmer fields. */
  farmers: z.array(farmer),
  farmers_truncated: z.boolean(),
  settings: z.object({
    /** The tenant's minimum farm size in m² (0: none). A smaller farm is saved, flagged below_minimum. */
    minimum_farm_size: z.number(),
    /** The overlap tolerance: a pair overlaps when the intersection reaches this area (m²)… */
    overlap_min_area_sqm: z.number(),
    /** …and this share (0–1) of the smaller plot. */
    overlap_min_share: z.number(),
  }),
});
export type FieldBundle = z.infer<typeof fieldBundle>;

/**
 * POST /api/farms/ also takes `capture_note` (up to 500 characters): why the agent saved a capture the device warned
 * about (overlap, outside the area, below the minimum). Stored with the mapping record and returned as
 * mapping_record.capture_note. The server re-checks everything: self-intersection is a 400; overlap, outside the
 * operational areas and below the minimum are saved and flagged (is_overlapping, operational_area_id null, flag).
 */
export const CAPTURE_NOTE_MAX = 500;
