// A farm's earlier boundaries (beyond the spec: the farm drawer lists them and can draw them). Same read rule as the
// farm itself: provider staff any tenant, tenant users their own; another tenant's farm is a 404.
import type { FarmBoundary } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { withScope } from '../../db/client.js';
import { authorize } from '../../lib/policy.js';
import { problems } from '../../lib/problems.js';
import { farmsPolicy } from '../farms/farms.policy.js';
import { findFarm } from '../farms/farms.queries.js';
import { boundaryHistory } from './farm-history.queries.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function farmHistory(deps: Deps, ctx: Ctx, farmId: string): Promise<FarmBoundary[]> {
  const { tenantId, scope } = authorize(ctx, farmsPolicy, 'read');
  return withScope(deps.db, scope, async (tx) => {
    if (!(await findFarm(tx, tenantId, farmId))) throw problems.notFound('Farm');
    const rows = await boundaryHistory(tx, tenantId, farmId);
    return rows.map((r) => {
      const polygon = (typeof r.geojson === 'string' ? JSON.parse(r.geojson) : r.geojson) as FarmBoundary['polygon'];
      const [kind, ref] = r.reason.split(':');
      return {
        id: r.id,
        reason: kind ?? r.reason,
        retained_farm_id: kind === 'retain' && ref && UUID_RE.test(ref) ? ref : null,
        area: Number(r.area_sqm),
        hectare: Number(r.area_sqm) / 10_000,
        coordinates: polygon.coordinates[0] ?? [],
        polygon,
        created_by: r.created_by,
        created_at: (r.created_at instanceof Date ? r.created_at : new Date(r.created_at)).toISOString(),
      };
    });
  });
}
