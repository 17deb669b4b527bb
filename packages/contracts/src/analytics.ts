// Tenant analytics for the dashboard: the counts of GET /analytics/ and the mapped-farms series of
// GET /analytics/tenant-mapped-count/ (ranges 1Y = 12 months, 6M = 6 months, 30D = 30 days, 7D = 7 days).
import { z } from 'zod';
import { emptyToUndefined, uuid } from './common.js';

const tenantId = z.preprocess(emptyToUndefined, uuid.optional());

export const analyticsQuery = z.object({ tenant_id: tenantId });

export const analyticsCounts = z.object({
  agents: z.number().int(),
  farmers: z.number().int(),
  farms: z.number().int(),
  operational_areas: z.number().int(),
  /** Distinct GPS device ids in the mapping records. */
  gps_devices: z.number().int(),
  /** Farmers with at least one farm, and without. */
  mapped_farmers: z.number().int(),
  unmapped_farmers: z.number().int(),
});
export type AnalyticsCounts = z.infer<typeof analyticsCounts>;

export const mappedCountQuery = z.object({
  range_type: z.preprocess(emptyToUndefined, z.enum(['years', 'months', 'days'], { error: 'range_type must be years, months or days' }).default('months')),
  range_value: z.preprocess(emptyToUndefined, z.coerce.number().int('range_value must be a whole number').min(1).max(366).default(12)),
  tenant_id: tenantId,
});

export const mappedCount = z.object({
  range_type: z.enum(['years', 'months', 'days']),
  range_value: z.number().int(),
  /** One bucket per year (YYYY), month (YYYY-MM) or day (YYYY-MM-DD), oldest first, the current one last (UTC). */
  buckets: z.array(z.object({ period: z.string(), count: z.number().int() })),
  total: z.number().int(),
  /** Farms mapped in the same length of time just before. */
  previous_total: z.number().int(),
  /** (total − previous_total) ÷ previous_total × 100, one decimal; null when the previous period had none. */
  change_percent: z.number().nullable(),
});
export type MappedCount = z.infer<typeof mappedCount>;
