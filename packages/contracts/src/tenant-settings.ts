// Tenant configuration (minimum farm size, recognition threshold, overlap tolerance) and the settings summary (tenant, license, configuration).
import { z } from 'zod';
import { emptyToUndefined, uuid } from './common.js';

export const tenantConfiguration = z.object({
  tenant_id: uuid,
  minimum_farm_size: z.number(),
  recognition_threshold: z.number(),
  /** Overlap tolerance (issue 28): a pair of plots overlaps when its intersection reaches this area (m²)… */
  overlap_min_area_sqm: z.number(),
  /** …and this share (0–1) of the smaller plot. Smaller pairs are slivers ("touching or sliver"): shown, never grouped. */
  overlap_min_share: z.number(),
  updated_at: z.string(),
});
export type TenantConfiguration = z.infer<typeof tenantConfiguration>;

export const updateTenantConfigurationBody = z
  .object({
    minimum_farm_size: z.coerce.number({ error: 'Enter a number' }).finite().min(0, 'Minimum farm size cannot be negative').max(1e9),
    recognition_threshold: z.coerce
      .number({ error: 'Enter a number' })
      .finite()
      .gt(0, 'The recognition threshold must be greater than 0')
      .max(1, 'The recognition threshold must be at most 1'),
    overlap_min_area_sqm: z.coerce.number({ error: 'Enter a number' }).finite().min(0, 'The minimum overlap area cannot be negative').max(1e9),
    overlap_min_share: z.coerce
      .number({ error: 'Enter a number' })
      .finite()
      .min(0, 'The minimum overlap share cannot be negative')
      .max(1, 'The minimum overlap share must be at most 1 (100 %)'),
  })
  .partial()
  .strict()
  .refine(
    (v) =>
      v.minimum_farm_size !== undefined || v.recognition_threshold !== undefined || v.overlap_min_area_sqm !== undefined || v.overlap_min_share !== undefined,
    'Send minimum_farm_size, recognition_threshold, overlap_min_area_sqm or overlap_min_share',
  );
export type UpdateTenantConfigurationBody = z.infer<typeof updateTenantConfigurationBody>;

/** The overlap tolerance's defaults: digitising slivers along shared edges stay below them (docs/decisions/0055-overlap-tolerance.md). */
export const OVERLAP_TOLERANCE_DEFAULTS = { overlap_min_area_sqm: 1, overlap_min_share: 0.01 } as const;

/** Provider staff name the tenant; a tenant's own users may omit it (any other tenant's id is a 404). */
export const tenantSelectQuery = z.object({ tenant_id: z.preprocess(emptyToUndefined, uuid.optional()) });

export const tenantSettings = z.object({
  tenant: z.object({
    id: uuid,
    uuid: uuid,
    name: z.string(),
    country: z.string().nullable(),
    country_id: uuid.nullable(),
    is_active: z.boolean(),
    is_suspended: z.boolean(),
  }),
  license: z
    .object({
      id: uuid,
      type: z.string(),
      key: z.string(),
      issued_date: z.string(),
      expiry_date: z.string(),
      is_expired: z.boolean(),
      is_revoked: z.boolean(),
      status: z.enum(['Active', 'Expired', 'Revoked']),
    })
    .nullable(),
  configuration: tenantConfiguration,
});
