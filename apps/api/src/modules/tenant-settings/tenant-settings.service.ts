// Tenant configuration use cases: read, change (audited), and the settings summary of tenant, license and configuration.
import type { TenantConfiguration, UpdateTenantConfigurationBody } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { withScope } from '../../db/client.js';
import { authorize, namedTenant } from '../../lib/policy.js';
import { problems } from '../../lib/problems.js';
import { recordActivity } from '../activity/activity.service.js';
import { regroupTenantFarms } from '../farm-overlaps/farm-overlaps.regroup.js';
import { tenantSettingsPolicy } from './tenant-settings.policy.js';
import { presentConfiguration, presentSettings } from './tenant-settings.presenter.js';
import * as q from './tenant-settings.queries.js';

const scopeFor = (ctx: Ctx, tenantId: string) =>
  ctx.actor?.role === 'super_admin' ? ({ kind: 'provider' } as const) : ({ kind: 'tenant', tenantId } as const);

/** Provider staff read one tenant's configuration at a time: they must name it. */
const nameTheTenant = () => problems.field('tenant_id', 'Name the tenant (tenant_id)');

export async function getConfiguration(deps: Deps, ctx: Ctx, tenantIdParam?: string): Promise<TenantConfiguration> {
  const { tenantId } = authorize(ctx, tenantSettingsPolicy, 'read', namedTenant(tenantIdParam));
  if (tenantId === null) throw nameTheTenant();
  return withScope(deps.db, scopeFor(ctx, tenantId), async (tx) => {
    if (!(await q.findTenant(tx, tenantId))) throw problems.notFound('Tenant');
    return presentConfiguration(await q.getConfiguration(tx, tenantId));
  });
}

export async function updateConfiguration(deps: Deps, ctx: Ctx, body: UpdateTenantConfigurationBody, tenantIdParam?: string): Promise<TenantConfiguration> {
  const { tenantId } = authorize(ctx, tenantSettingsPolicy, 'change', namedTenant(tenantIdParam));
  const saved = await withScope(
    deps.db,
    { kind: 'tenant', tenantId },
    async (tx) => {
      const before = await q.getConfiguration(tx, tenantId);
      const row = await q.upsertConfiguration(tx, tenantId, {
        minimumFarmSize: body.minimum_farm_size,
        recognitionThreshold: body.recognition_threshold,
        overlapMinAreaSqm: body.overlap_min_area_sqm,
        overlapMinShare: body.overlap_min_share,
      });
      const regroup =
        Number(row.overlap_min_area_sqm) !== Number(before.overlap_min_area_sqm) || Number(row.overlap_min_share) !== Number(before.overlap_min_share);
      // The registry waits for its re-grouping under the new tolerance; a stop before it ends is finished at the next start.
      if (regroup) await q.markRegroupPending(tx, tenantId);
      return { row, regroup };
    },
    { retry: true },
  );
  // A new overlap tolerance re-groups the registry before the answer, in short batched transactions (farm-overlaps.regroup.ts,
  // measured in docs/decisions/0058-registry-regroup-in-batches.md), so other requests run between the batches.
  const regrouped = saved.regroup ? await regroupTenantFarms(deps.db, tenantId) : null;
  const changes = [
    body.minimum_farm_size !== undefined ? `minimum farm size ${body.minimum_farm_size} sqm` : null,
    body.recognition_threshold !== undefined ? `recognition threshold ${body.recognition_threshold}` : null,
    body.overlap_min_area_sqm !== undefined ? `minimum overlap area ${body.overlap_min_area_sqm} sqm` : null,
    body.overlap_min_share !== undefined ? `minimum overlap share ${Math.round(body.overlap_min_share * 10_000) / 100} %` : null,
  ].filter(Boolean);
  const groups = regrouped ? `; farms re-grouped: ${regrouped.overlapping} overlapping in ${regrouped.groups} groups` : '';
  await withScope(deps.db, { kind: 'tenant', tenantId }, (tx) =>
    recordActivity(tx, ctx, { action: 'Update', description: `${ctx.actor!.name} changed the configuration (${changes.join(', ')})${groups}` }),
  );
  return presentConfiguration(saved.row);
}

export async function getSettings(deps: Deps, ctx: Ctx, tenantIdParam?: string) {
  const { tenantId } = authorize(ctx, tenantSettingsPolicy, 'settings', namedTenant(tenantIdParam));
  if (tenantId === null) throw nameTheTenant();
  return withScope(deps.db, scopeFor(ctx, tenantId), async (tx) => {
    const tenant = await q.findTenant(tx, tenantId);
    if (!tenant) throw problems.notFound('Tenant');
    return presentSettings(tenant, await q.currentLicense(tx, tenantId), await q.getConfiguration(tx, tenantId));
  });
}
