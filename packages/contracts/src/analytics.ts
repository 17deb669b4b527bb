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

/** GET /analytics/agent-ranking/: the tenant's agents ranked on the server (issue 33), the top `limit` (default 10). */
export const agentRankingQuery = z.object({
  limit: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int('limit must be a whole number').min(1, 'limit must be at least 1').max(100, 'limit must be at most 100').default(10),
  ),
  tenant_id: tenantId,
});
export type AgentRankingQuery = z.infer<typeof agentRankingQuery>;

/** Ranked by farms mapped, then by the area mapped (sqm), then by name; rank starts at 1. */
export const agentRanking = z.object({
  /** Every agent of the tenant (the ranking is over all of them, not a page). */
  total_agents: z.number().int(),
  results: z.array(
    z.object({
      rank: z.number().int(),
      id: z.uuid(),
      agent_name: z.string(),
      operational_area: z.string().nullable(),
      farmers_count: z.number().int(),
      mapped_farms_count: z.number().int(),
      total_mapped_area: z.number(),
      /** Mapped farms ÷ farmers registered × 100, one decimal (docs/requirements.md §9); above 100 when an agent maps several farms per farmer. */
      progress: z.number(),
    }),
  ),
});
export type AgentRanking = z.infer<typeof agentRanking>;

// ---------- provider analytics (docs/requirements.md §7 "Analytics"; issue 11) ----------
// Provider staff read every tenant's, or one tenant's with tenant_id; a tenant admin reads only its own (where the route
// admits tenant admins at all: the tenant and license counts and the ranking of tenants are the provider's).

const currentYear = () => new Date().getUTCFullYear();

export const yearQuery = z.object({
  year: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int('year must be a whole number').min(2000, 'year must be 2000 or later').max(2100, 'year must be 2100 or earlier').default(currentYear),
  ),
  tenant_id: tenantId,
});
export type YearQuery = z.infer<typeof yearQuery>;

/** A single count (tenants-count, agents-count, farms-count, operational-areas-count, mapped- and unmapped-farms-count). */
export const countResult = z.object({ count: z.number().int() });
export type CountResult = z.infer<typeof countResult>;

/** GET /analytics/mapping-data/?year=: farms mapped per month of the year (UTC), twelve months, January first. */
export const mappingData = z.object({
  year: z.number().int(),
  months: z.array(z.object({ month: z.string(), label: z.string(), count: z.number().int(), area_sqm: z.number() })),
  total: z.number().int(),
  total_area_sqm: z.number(),
});
export type MappingData = z.infer<typeof mappingData>;

/** GET /analytics/mapping-ranking/?year=: tenants by farms mapped in the year, most first (ties: area, then name). */
export const mappingRanking = z.object({
  year: z.number().int(),
  results: z.array(z.object({ rank: z.number().int(), tenant_id: uuid, tenant_name: z.string(), mapped_farms: z.number().int(), area_sqm: z.number() })),
});
export type MappingRanking = z.infer<typeof mappingRanking>;

/** GET /analytics/tenants-dashboard-count/?year=: tenants registered per month of the year, and the totals at its end. */
export const tenantsDashboardCount = z.object({
  year: z.number().int(),
  months: z.array(z.object({ month: z.string(), label: z.string(), count: z.number().int() })),
  new_tenants: z.number().int(),
  total_tenants: z.number().int(),
});
export type TenantsDashboardCount = z.infer<typeof tenantsDashboardCount>;

/** GET /analytics/tenants-status-count/: displayed statuses (Inactive over Suspended over Active, as the list shows them). */
export const tenantsStatusCount = z.object({ total: z.number().int(), active: z.number().int(), inactive: z.number().int(), suspended: z.number().int() });
export type TenantsStatusCount = z.infer<typeof tenantsStatusCount>;

/** GET /analytics/licenses-count/: every license, by derived status and by type. */
export const licensesCount = z.object({
  total: z.number().int(),
  active: z.number().int(),
  expired: z.number().int(),
  revoked: z.number().int(),
  platform: z.number().int(),
  sdk: z.number().int(),
});
export type LicensesCount = z.infer<typeof licensesCount>;

/**
 * GET /analytics/tenant-progress/?year= (beyond the spec: the provider's Reports screen): per tenant, per month of the
 * year, the farms mapped, the area mapped (sqm) and the agents active (distinct agents who mapped a farm that month).
 */
export const tenantProgressMonth = z.object({ month: z.string(), farms_mapped: z.number().int(), area_sqm: z.number(), agents_active: z.number().int() });
export const tenantProgress = z.object({
  year: z.number().int(),
  results: z.array(
    z.object({
      tenant_id: uuid,
      tenant_name: z.string(),
      license_type: z.string().nullable(),
      agents_total: z.number().int(),
      /** Distinct agents who mapped at least one farm in the year. */
      agents_active: z.number().int(),
      farms_mapped: z.number().int(),
      area_sqm: z.number(),
      months: z.array(tenantProgressMonth),
    }),
  ),
  totals: z.object({ farms_mapped: z.number().int(), area_sqm: z.number(), agents_active: z.number().int(), months: z.array(tenantProgressMonth) }),
});
export type TenantProgress = z.infer<typeof tenantProgress>;
