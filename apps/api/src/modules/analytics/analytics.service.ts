// The dashboard's analytics: counts, and farms mapped per period with the change against the period before.
import type {
  AgentRanking,
  AnalyticsCounts,
  CountResult,
  LicensesCount,
  MappedCount,
  MappingData,
  MappingRanking,
  TenantProgress,
  TenantsDashboardCount,
  TenantsStatusCount,
} from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { scopedReader } from '../../db/client.js';
import { authorize, namedTenant } from '../../lib/policy.js';
import { rankAgents } from '../agents/agents.queries.js';
import { progressOf } from '../agents/agents.presenter.js';
import { analyticsPolicy } from './analytics.policy.js';
import * as q from './analytics.queries.js';

export async function getCounts(deps: Deps, ctx: Ctx, tenantIdParam?: string): Promise<AnalyticsCounts> {
  const { tenantId, scope } = authorize(ctx, analyticsPolicy, 'tenant', namedTenant(tenantIdParam));
  const c = await q.counts(scopedReader(deps.db, scope, ctx), tenantId);
  return { ...c, unmapped_farmers: c.farmers - c.mapped_farmers };
}

const UNIT: Record<MappedCount['range_type'], q.Unit> = { years: 'year', months: 'month', days: 'day' };

export async function getMappedCount(
  deps: Deps,
  ctx: Ctx,
  query: { range_type: MappedCount['range_type']; range_value: number; tenant_id?: string | undefined },
): Promise<MappedCount> {
  const { tenantId, scope } = authorize(ctx, analyticsPolicy, 'tenant', namedTenant(query.tenant_id));
  const { buckets, previous } = await q.mappedSeries(scopedReader(deps.db, scope, ctx), tenantId, UNIT[query.range_type], query.range_value);
  const total = buckets.reduce((n, b) => n + b.count, 0);
  return {
    range_type: query.range_type,
    range_value: query.range_value,
    buckets,
    total,
    previous_total: previous,
    change_percent: previous === 0 ? null : Math.round(((total - previous) / previous) * 1000) / 10,
  };
}

/**
 * Agent Ranking (issue 33): every agent of the tenant ranked on the server by farms mapped, then area mapped, from the
 * agent_stats rollup; the top `limit`. Provider staff rank one tenant's agents with tenant_id, or all agents.
 */
export async function getAgentRanking(deps: Deps, ctx: Ctx, query: { limit: number; tenant_id?: string | undefined }): Promise<AgentRanking> {
  const { tenantId, scope } = authorize(ctx, analyticsPolicy, 'tenant', namedTenant(query.tenant_id));
  const { rows, total } = await rankAgents(scopedReader(deps.db, scope, ctx), tenantId, query.limit);
  return {
    total_agents: total,
    results: rows.map((r, i) => ({
      rank: i + 1,
      id: r.id,
      agent_name: `${r.first_name} ${r.last_name}`.trim(),
      operational_area: r.operational_area,
      farmers_count: r.farmers_count,
      mapped_farms_count: r.mapped_farms_count,
      total_mapped_area: Math.round(Number(r.total_mapped_area) * 10_000) / 10_000,
      progress: progressOf(r.mapped_farms_count, r.farmers_count),
    })),
  };
}

// ---------- provider analytics (issue 11) ----------

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const monthKey = (year: number, m: number) => `${year}-${String(m).padStart(2, '0')}`;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** agents-count, farms-count, operational-areas-count, mapped- and unmapped-farms-count: a tenant admin reads its own. */
export async function getCount(deps: Deps, ctx: Ctx, name: Exclude<q.CountName, 'tenants'>, tenantIdParam?: string): Promise<CountResult> {
  const { tenantId, scope } = authorize(ctx, analyticsPolicy, 'tenant', namedTenant(tenantIdParam));
  return { count: await q.singleCount(scopedReader(deps.db, scope, ctx), name, tenantId) };
}

export async function getTenantsCount(deps: Deps, ctx: Ctx): Promise<CountResult> {
  const { scope } = authorize(ctx, analyticsPolicy, 'provider');
  return { count: await q.singleCount(scopedReader(deps.db, scope, ctx), 'tenants', null) };
}

export async function getMappingData(deps: Deps, ctx: Ctx, query: { year: number; tenant_id?: string | undefined }): Promise<MappingData> {
  const { tenantId, scope } = authorize(ctx, analyticsPolicy, 'tenant', namedTenant(query.tenant_id));
  const rows = await q.mappingByMonth(scopedReader(deps.db, scope, ctx), tenantId, query.year);
  const byMonth = new Map(rows.map((r) => [r.m, r]));
  const months = MONTHS.map((label, i) => ({
    month: monthKey(query.year, i + 1),
    label,
    count: byMonth.get(i + 1)?.n ?? 0,
    area_sqm: round2(byMonth.get(i + 1)?.area ?? 0),
  }));
  return { year: query.year, months, total: months.reduce((n, m) => n + m.count, 0), total_area_sqm: round2(rows.reduce((a, r) => a + r.area, 0)) };
}

export async function getMappingRanking(deps: Deps, ctx: Ctx, year: number): Promise<MappingRanking> {
  const { scope } = authorize(ctx, analyticsPolicy, 'provider');
  const rows = await q.mappingRanking(scopedReader(deps.db, scope, ctx), year);
  return {
    year,
    results: rows.map((r, i) => ({ rank: i + 1, tenant_id: r.tenant_id, tenant_name: r.tenant_name, mapped_farms: r.n, area_sqm: round2(r.area) })),
  };
}

export async function getTenantsDashboardCount(deps: Deps, ctx: Ctx, year: number): Promise<TenantsDashboardCount> {
  const { scope } = authorize(ctx, analyticsPolicy, 'provider');
  const { months, total } = await q.tenantsByMonth(scopedReader(deps.db, scope, ctx), year);
  const byMonth = new Map(months.map((r) => [r.m, r.n]));
  const series = MONTHS.map((label, i) => ({ month: monthKey(year, i + 1), label, count: byMonth.get(i + 1) ?? 0 }));
  return { year, months: series, new_tenants: series.reduce((n, m) => n + m.count, 0), total_tenants: total };
}

export async function getTenantsStatusCount(deps: Deps, ctx: Ctx): Promise<TenantsStatusCount> {
  const { scope } = authorize(ctx, analyticsPolicy, 'provider');
  return q.tenantStatusCounts(scopedReader(deps.db, scope, ctx));
}

export async function getLicensesCount(deps: Deps, ctx: Ctx): Promise<LicensesCount> {
  const { scope } = authorize(ctx, analyticsPolicy, 'provider');
  return q.licenseCounts(scopedReader(deps.db, scope, ctx));
}

/** Reports: per tenant, per month of the year, farms mapped, area mapped and agents active; every live tenant, by name. */
export async function getTenantProgress(deps: Deps, ctx: Ctx, year: number): Promise<TenantProgress> {
  const { scope } = authorize(ctx, analyticsPolicy, 'provider');
  const read = scopedReader(deps.db, scope, ctx);
  const [rows, tenants] = await Promise.all([q.progressRows(read, year), q.tenantsWithAgents(read)]);
  const cell = new Map<string, q.ProgressRow>();
  for (const r of rows) cell.set(`${r.tenant_id ?? '*'}|${r.m ?? '*'}`, r);
  const monthsOf = (tenantKey: string) =>
    MONTHS.map((_, i) => {
      const c = cell.get(`${tenantKey}|${i + 1}`);
      return { month: monthKey(year, i + 1), farms_mapped: c?.n ?? 0, area_sqm: round2(c?.area ?? 0), agents_active: c?.agents ?? 0 };
    });
  const total = cell.get('*|*');
  return {
    year,
    results: tenants.map((t) => {
      const y = cell.get(`${t.id}|*`);
      return {
        tenant_id: t.id,
        tenant_name: t.name,
        license_type: t.license_type,
        agents_total: t.agents,
        agents_active: y?.agents ?? 0,
        farms_mapped: y?.n ?? 0,
        area_sqm: round2(y?.area ?? 0),
        months: monthsOf(t.id),
      };
    }),
    totals: { farms_mapped: total?.n ?? 0, area_sqm: round2(total?.area ?? 0), agents_active: total?.agents ?? 0, months: monthsOf('*') },
  };
}
