// Farmer use cases: the list and one farmer with farm totals; create and edit through the capture API (with an optional
// photo checked by content); delete (refused while the farmer has farms, unless the farms are to go too).
import crypto from 'node:crypto';
import type { CreateFarmerBody, Farmer, FarmersQuery, UpdateFarmerBody } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { scopedReader, withScope, type Executor } from '../../db/client.js';
import { searchTerms } from '../../db/search.js';
import type { UploadedFile } from '../../lib/form.js';
import { pageOffset, paginate, type Page } from '../../db/pagination.js';
import { authorize } from '../../lib/policy.js';
import { lockTenantFarms } from '../farms/farms.queries.js';
import { refreshOverlaps } from '../farm-overlaps/farm-overlaps.js';
import { problems } from '../../lib/problems.js';
import { extensionOf, sniffImage } from '../../lib/sniff.js';
import { recordActivity } from '../activity/activity.service.js';
import { capturer, tenantScope, type Capturer } from '../farms/farms.policy.js';
import { storeFile } from '../files/files.service.js';
import { findTenant } from '../tenant-settings/tenant-settings.queries.js';
import * as q from './farmers.queries.js';
import { farmersPolicy } from './farmers.policy.js';
import { presentFarmer } from './farmers.presenter.js';

function checkImage(files: UploadedFile[]) {
  const file = files[0];
  if (!file) return null;
  const type = sniffImage(file.data);
  if (!type) throw problems.field('image', 'The file is not a PNG, JPEG, WebP or GIF image');
  return { ...file, type };
}

async function storeImage(tx: Executor, deps: Deps, c: Capturer, image: ReturnType<typeof checkImage>): Promise<string | null> {
  if (!image) return null;
  return storeFile(tx, deps, {
    tenantId: c.tenantId,
    kind: 'avatar',
    data: image.data,
    contentType: image.type,
    extension: extensionOf[image.type],
    originalName: image.filename || null,
    createdBy: c.userId,
  });
}

/** Region must be the tenant's; the country defaults to the region's, else the tenant's. */
async function placeOf(tx: Executor, tenantId: string, regionId: string | undefined, countryId: string | undefined) {
  let regionCountry: string | null = null;
  if (regionId) {
    const region = await q.regionOfTenant(tx, tenantId, regionId);
    if (!region) throw problems.field('region_id', 'No such region in your organisation');
    regionCountry = region.country_id;
  }
  if (countryId && !(await q.countryExists(tx, tenantId, countryId))) throw problems.field('country_id', 'Unknown country');
  return { regionCountry };
}

export const newFolio = (): string => `FRM-${crypto.randomBytes(5).toString('hex').toUpperCase()}`;

export async function createFarmer(deps: Deps, ctx: Ctx, body: CreateFarmerBody, files: UploadedFile[]): Promise<Farmer> {
  const c = capturer(authorize(ctx, farmersPolicy, 'write'));
  const image = checkImage(files);
  return withScope(
    deps.db,
    tenantScope(c.tenantId),
    async (tx) => {
      const { regionCountry } = await placeOf(tx, c.tenantId, body.region_id, body.country_id);
      const folioId = body.folio_id ?? newFolio();
      if (await q.folioTaken(tx, c.tenantId, folioId, null)) throw problems.conflict('folio_id', 'A farmer with this folio id already exists');
      const countryId = body.country_id ?? regionCountry ?? (await findTenant(tx, c.tenantId))?.country_id ?? null;
      const id = await q.insertFarmer(tx, c.tenantId, {
        firstName: body.first_name,
        lastName: body.last_name,
        email: body.email ?? null,
        phoneNumber: body.phone_number ?? null,
        gender: body.gender ?? null,
        address: body.address ?? null,
        location: body.location ?? null,
        folioId,
        imageFileId: await storeImage(tx, deps, c, image),
        regionId: body.region_id ?? null,
        countryId,
        createdBy: c.userId,
      });
      await recordActivity(tx, ctx, {
        action: 'Create',
        description: `${c.name} created the farmer ${body.first_name} ${body.last_name} (${folioId})`,
        tenantId: c.tenantId,
      });
      return presentFarmer(deps, (await q.findFarmer(tx, c.tenantId, id))!);
    },
    { retry: true },
  );
}

export async function updateFarmer(deps: Deps, ctx: Ctx, id: string, body: UpdateFarmerBody, files: UploadedFile[]): Promise<Farmer> {
  const c = capturer(authorize(ctx, farmersPolicy, 'write'));
  const image = checkImage(files);
  return withScope(
    deps.db,
    tenantScope(c.tenantId),
    async (tx) => {
      const before = await q.findFarmer(tx, c.tenantId, id);
      if (!before) throw problems.notFound('Farmer');
      await placeOf(tx, c.tenantId, body.region_id, body.country_id);
      if (body.folio_id && (await q.folioTaken(tx, c.tenantId, body.folio_id, id)))
        throw problems.conflict('folio_id', 'A farmer with this folio id already exists');
      const imageFileId = await storeImage(tx, deps, c, image);
      const patch: q.FarmerPatch = {
        firstName: body.first_name,
        lastName: body.last_name,
        email: body.email,
        phoneNumber: body.phone_number,
        gender: body.gender,
        address: body.address,
        location: body.location,
        folioId: body.folio_id,
        regionId: body.region_id,
        countryId: body.country_id,
        ...(imageFileId ? { imageFileId } : {}),
      };
      if (Object.values(patch).every((v) => v === undefined)) throw problems.field('body', 'Send at least one field to change');
      await q.updateFarmer(tx, c.tenantId, id, patch);
      await recordActivity(tx, ctx, {
        action: 'Update',
        description: `${c.name} updated the farmer ${before.first_name} ${before.last_name} (${before.folio_id})`,
        tenantId: c.tenantId,
      });
      return presentFarmer(deps, (await q.findFarmer(tx, c.tenantId, id))!);
    },
    { retry: true },
  );
}

export async function listFarmers(deps: Deps, ctx: Ctx, query: FarmersQuery, url: string): Promise<Page<Farmer>> {
  const { tenantId, scope } = authorize(ctx, farmersPolicy, 'read');
  const size = query.page_size ?? 10;
  const offset = pageOffset(query.page, size);
  // The page and its total in one statement, sent with the scope in one round trip (db/pagination.ts).
  const search = query.search && (await searchTerms(deps.db, query.search, q.FARMER_SEARCH));
  const { rows, total } = await q.listFarmers(
    scopedReader(deps.db, scope, ctx),
    tenantId,
    { search, isMapped: query.is_mapped, region: query.region },
    size,
    offset,
  );
  return paginate(
    rows.map((r) => presentFarmer(deps, r)),
    total,
    query.page,
    size,
    url,
  );
}

export async function getFarmer(deps: Deps, ctx: Ctx, id: string): Promise<Farmer> {
  const { tenantId, scope } = authorize(ctx, farmersPolicy, 'read');
  return withScope(deps.db, scope, async (tx) => {
    const row = await q.findFarmer(tx, tenantId, id);
    if (!row) throw problems.notFound('Farmer');
    return presentFarmer(deps, row);
  });
}

/**
 * DELETE /farmers/{id}/: a farmer with farms is refused (409 farmer_has_farms) unless deleteFarms is set, in which case
 * the farms go too (with their history, snapshots and mapping records) and the overlap groups they were in are recomputed.
 */
export async function deleteFarmer(deps: Deps, ctx: Ctx, id: string, deleteFarms: boolean): Promise<{ farmsDeleted: number }> {
  const { actor } = authorize(ctx, farmersPolicy, 'manage');
  return withScope(
    deps.db,
    tenantScope(actor.tenantId),
    async (tx) => {
      const before = await q.findFarmer(tx, actor.tenantId, id);
      if (!before) throw problems.notFound('Farmer');
      if (before.number_of_farm > 0 && !deleteFarms) throw problems.farmerHasFarms(before.number_of_farm);
      if (before.number_of_farm > 0) {
        await lockTenantFarms(tx, actor.tenantId);
        const groups = await q.farmerFarmGroups(tx, actor.tenantId, id);
        await q.deleteFarmer(tx, actor.tenantId, id);
        await refreshOverlaps(tx, actor.tenantId, [], groups);
      } else {
        await q.deleteFarmer(tx, actor.tenantId, id);
      }
      const farms = before.number_of_farm > 0 ? ` and their ${before.number_of_farm} farm(s)` : '';
      await recordActivity(tx, ctx, {
        action: 'Delete',
        description: `${actor.name} deleted the farmer ${before.first_name} ${before.last_name} (${before.folio_id})${farms}`,
      });
      return { farmsDeleted: before.number_of_farm };
    },
    { retry: true },
  );
}
