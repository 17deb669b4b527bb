// Operational-area use cases. Writes validate region (the tenant's), city (the tenant's country) and polygon (ST_IsValid),
// then keep farms' operational_area_id correct by containment, all in one transaction with the activity entry.
import type { OperationalArea, OperationalAreaBody } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { scopedReader, withScope, type Executor } from '../../db/client.js';
import { pageOffset, paginate, type Page } from '../../db/pagination.js';
import { authorize, namedTenant } from '../../lib/policy.js';
import { problems } from '../../lib/problems.js';
import { recordActivity } from '../activity/activity.service.js';
import { tenantScope } from '../farms/farms.policy.js';
import { lockTenantFarms } from '../farms/farms.queries.js';
import { assertValidPolygon } from '../geometry/geometry.service.js';
import { findTenant } from '../tenant-settings/tenant-settings.queries.js';
import { areasPolicy } from './operational-areas.policy.js';
import { presentArea } from './operational-areas.presenter.js';
import * as q from './operational-areas.queries.js';

export type AreaListQuery = {
  page: number;
  page_size?: number | undefined;
  search?: string | undefined;
  region?: string | undefined;
  tenant_id?: string | undefined;
};

export async function listAreas(deps: Deps, ctx: Ctx, query: AreaListQuery, url: string): Promise<Page<OperationalArea>> {
  const { tenantId, scope } = authorize(ctx, areasPolicy, 'read', namedTenant(query.tenant_id));
  const size = query.page_size ?? 10;
  // The page and its total in one statement, sent with the scope in one round trip (db/pagination.ts).
  const { rows, total } = await q.listAreas(
    scopedReader(deps.db, scope, ctx),
    tenantId,
    { search: query.search, region: query.region },
    size,
    pageOffset(query.page, size),
  );
  return paginate(rows.map(presentArea), total, query.page, size, url);
}

export async function getArea(deps: Deps, ctx: Ctx, id: string): Promise<OperationalArea> {
  const { tenantId, scope } = authorize(ctx, areasPolicy, 'read');
  return withScope(deps.db, scope, async (tx) => {
    const row = await q.findArea(tx, tenantId, id);
    if (!row) throw problems.notFound('Operational area');
    return presentArea(row);
  });
}

/** Region of the tenant; city in the tenant's country (else the region's, for a tenant without a country). */
async function assertPlace(tx: Executor, tenantId: string, body: OperationalAreaBody): Promise<void> {
  const region = await q.findRegion(tx, tenantId, body.region_id);
  if (!region) throw problems.field('region_id', 'Please select a region of your organisation');
  const city = await q.findCity(tx, tenantId, body.city_id);
  const countryId = (await findTenant(tx, tenantId))?.country_id ?? region.country_id;
  if (!city || city.country_id !== countryId) {
    const country = (await q.countryName(tx, tenantId, countryId)) ?? 'your country';
    throw problems.field('city', `The selected city is not in ${country}`);
  }
}

export async function createArea(deps: Deps, ctx: Ctx, body: OperationalAreaBody): Promise<OperationalArea> {
  const { actor } = authorize(ctx, areasPolicy, 'write');
  return withScope(
    deps.db,
    tenantScope(actor.tenantId),
    async (tx) => {
      await assertPlace(tx, actor.tenantId, body);
      await assertValidPolygon(tx, body.coordinates);
      await lockTenantFarms(tx, actor.tenantId);
      const id = await q.insertArea(tx, actor.tenantId, {
        name: body.name,
        regionId: body.region_id,
        cityId: body.city_id,
        rings: body.coordinates,
        createdBy: actor.userId,
      });
      const moved = await q.reassignFarmsAround(tx, actor.tenantId, id, null);
      await recordActivity(tx, ctx, { action: 'Create', description: `${actor.name} created the operational area ${body.name} (${moved} farm(s) assigned)` });
      return presentArea((await q.findArea(tx, actor.tenantId, id))!);
    },
    { retry: true },
  );
}

export async function updateArea(deps: Deps, ctx: Ctx, id: string, body: OperationalAreaBody): Promise<OperationalArea> {
  const { actor } = authorize(ctx, areasPolicy, 'write');
  return withScope(
    deps.db,
    tenantScope(actor.tenantId),
    async (tx) => {
      const before = await q.findArea(tx, actor.tenantId, id);
      if (!before) throw problems.notFound('Operational area');
      await assertPlace(tx, actor.tenantId, body);
      await assertValidPolygon(tx, body.coordinates);
      await lockTenantFarms(tx, actor.tenantId);
      await q.updateArea(tx, actor.tenantId, id, { name: body.name, regionId: body.region_id, cityId: body.city_id, rings: body.coordinates });
      const moved = await q.reassignFarmsAround(tx, actor.tenantId, id, null);
      await recordActivity(tx, ctx, {
        action: 'Update',
        description: `${actor.name} edited the operational area ${before.name}${before.name !== body.name ? ` (now ${body.name})` : ''}; ${moved} farm(s) reassigned`,
      });
      return presentArea((await q.findArea(tx, actor.tenantId, id))!);
    },
    { retry: true },
  );
}

export async function deleteArea(deps: Deps, ctx: Ctx, id: string): Promise<void> {
  const { actor } = authorize(ctx, areasPolicy, 'write');
  await withScope(
    deps.db,
    tenantScope(actor.tenantId),
    async (tx) => {
      const before = await q.findArea(tx, actor.tenantId, id);
      if (!before) throw problems.notFound('Operational area');
      await lockTenantFarms(tx, actor.tenantId);
      const moved = await q.reassignFarmsAround(tx, actor.tenantId, id, id);
      const agents = await q.unassignAgents(tx, actor.tenantId, id);
      await q.deleteArea(tx, actor.tenantId, id);
      await recordActivity(tx, ctx, {
        action: 'Delete',
        description: `${actor.name} deleted the operational area ${before.name} (${moved} farm(s) reassigned, ${agents} agent(s) unassigned)`,
      });
    },
    { retry: true },
  );
}
