// The dashboard's analytics: counts, and farms mapped per period with the change against the period before.
import type { AnalyticsCounts, MappedCount } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { withScope } from '../../db/client.js';
import { analyticsScope } from './analytics.policy.js';
import * as q from './analytics.queries.js';

export async function getCounts(deps: Deps, ctx: Ctx, tenantIdParam?: string): Promise<AnalyticsCounts> {
  const { tenantId, scope } = analyticsScope(ctx, tenantIdParam);
  const c = await withScope(deps.db, scope, (tx) => q.counts(tx, tenantId));
  return { ...c, unmapped_farmers: c.farmers - c.mapped_farmers };
}

const UNIT: Record<MappedCount['range_type'], q.Unit> = { years: 'year', months: 'month', days: 'day' };

export async function getMappedCount(
  deps: Deps,
  ctx: Ctx,
  query: { range_type: MappedCount['range_type']; range_value: number; tenant_id?: string | undefined },
): Promise<MappedCount> {
  const { tenantId, scope } = analyticsScope(ctx, query.tenant_id);
  const { buckets, previous } = await withScope(deps.db, scope, (tx) => q.mappedSeries(tx, tenantId, UNIT[query.range_type], query.range_value));
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
