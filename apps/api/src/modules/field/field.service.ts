// The field app's download (issue 31): the areas an agent may download and one area's bundle, read in the tenant's
// scope (row-level security), bounded: at most FIELD_BUNDLE_FARMS_CAP farms and FIELD_BUNDLE_FARMERS_CAP farmers.
import { FIELD_BUNDLE_FARMERS_CAP, FIELD_BUNDLE_FARMS_CAP, FIELD_BUNDLE_MARGIN_M, type FieldArea } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { withScope } from '../../db/client.js';
import { problems } from '../../lib/problems.js';
import { farmersRegisteredBy } from '../farmers/farmers.queries.js';
import { presentFarmer } from '../farmers/farmers.presenter.js';
import { tenantScope } from '../farms/farms.policy.js';
import { getConfiguration } from '../tenant-settings/tenant-settings.queries.js';
import { authorize } from '../../lib/policy.js';
import { fieldPolicy } from './field.policy.js';
import * as q from './field.queries.js';

/** At most this many areas are listed (a tenant has tens; the cap keeps the answer bounded). */
export const FIELD_AREAS_CAP = 1000;

export async function listFieldAreas(deps: Deps, ctx: Ctx): Promise<FieldArea[]> {
  const { actor } = authorize(ctx, fieldPolicy, 'download');
  const rows = await withScope(deps.db, tenantScope(actor.tenantId), (tx) => q.listFieldAreas(tx, actor.tenantId, actor.userId, FIELD_AREAS_CAP));
  return rows.map((r) => ({ id: r.id, name: r.name, region: r.region, farm_count: r.farm_count, area_sqm: Number(r.area_sqm), assigned: r.assigned }));
}

const round7 = (n: number) => Math.round(n * 1e7) / 1e7;

/**
 * The bundle as JSON text: geometries go from PostGIS's GeoJSON text into the answer as they are (20,000 farms are not
 * parsed and serialised again); every other value through JSON.stringify.
 */
export async function fieldBundle(deps: Deps, ctx: Ctx, areaId: string): Promise<string> {
  const { actor } = authorize(ctx, fieldPolicy, 'download');
  const t = actor.tenantId;
  return withScope(deps.db, tenantScope(t), async (tx) => {
    const area = await q.findBundleArea(tx, t, areaId, FIELD_BUNDLE_MARGIN_M);
    if (!area) throw problems.notFound('Operational area');
    const box: [number, number, number, number] = [round7(area.min_lng), round7(area.min_lat), round7(area.max_lng), round7(area.max_lat)];
    const farms = await q.bundleFarms(tx, t, area.id, box, FIELD_BUNDLE_FARMS_CAP + 1);
    const farmers = await farmersRegisteredBy(tx, t, actor.userId, FIELD_BUNDLE_FARMERS_CAP + 1);
    const config = await getConfiguration(tx, t);
    const truncated = farms.length > FIELD_BUNDLE_FARMS_CAP;
    const farmersTruncated = farmers.length > FIELD_BUNDLE_FARMERS_CAP;
    const farmParts = farms
      .slice(0, FIELD_BUNDLE_FARMS_CAP)
      .map(
        (f) =>
          `{"id":${JSON.stringify(f.id)},"name":${JSON.stringify(f.name)},"farmer_id":${JSON.stringify(f.farmer_id)},"farmer_name":${JSON.stringify(f.farmer_name)},"geometry":${f.geojson},"area_sqm":${JSON.stringify(Number(f.area_sqm))}}`,
      );
    const head = {
      generated_at: new Date().toISOString(),
      area: { id: area.id, name: area.name, geometry: '__GEOMETRY__', bbox: box },
    };
    const rest = {
      truncated,
      farms_limit: FIELD_BUNDLE_FARMS_CAP,
      farmers: farmers.slice(0, FIELD_BUNDLE_FARMERS_CAP).map((r) => presentFarmer(deps, r)),
      farmers_truncated: farmersTruncated,
      settings: {
        minimum_farm_size: Number(config.minimum_farm_size),
        overlap_min_area_sqm: Number(config.overlap_min_area_sqm),
        overlap_min_share: Number(config.overlap_min_share),
      },
    };
    const headText = JSON.stringify(head).replace('"__GEOMETRY__"', area.geojson);
    return `${headText.slice(0, -1)},"farms":[${farmParts.join(',')}],${JSON.stringify(rest).slice(1)}`;
  });
}
