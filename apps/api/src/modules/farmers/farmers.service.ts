// Farmer use cases of the capture API: create and edit (with an optional photo checked by content), and the farmer's farms.
import crypto from 'node:crypto';
import type { CreateFarmerBody, Farmer, UpdateFarmerBody } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { withScope, type Executor } from '../../db/client.js';
import type { UploadedFile } from '../../lib/form.js';
import { problems } from '../../lib/problems.js';
import { extensionOf, sniffImage } from '../../lib/sniff.js';
import { recordActivity } from '../activity/activity.service.js';
import type { Capturer } from '../farms/farms.policy.js';
import { tenantScope } from '../farms/farms.policy.js';
import { storeFile } from '../files/files.service.js';
import { findTenant } from '../tenant-settings/tenant-settings.queries.js';
import * as q from './farmers.queries.js';
import { canWriteFarmers } from './farmers.policy.js';
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
  return storeFile(tx, deps, { tenantId: c.tenantId, kind: 'avatar', data: image.data, contentType: image.type, extension: extensionOf[image.type], originalName: image.filename || null, createdBy: c.userId });
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

const newFolio = () => `FRM-${crypto.randomBytes(5).toString('hex').toUpperCase()}`;

export async function createFarmer(deps: Deps, ctx: Ctx, body: CreateFarmerBody, files: UploadedFile[]): Promise<Farmer> {
  const c = canWriteFarmers(ctx);
  const image = checkImage(files);
  return withScope(deps.db, tenantScope(c.tenantId), async (tx) => {
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
    await recordActivity(tx, ctx, { action: 'Create', description: `${c.name} created the farmer ${body.first_name} ${body.last_name} (${folioId})`, tenantId: c.tenantId });
    return presentFarmer(deps, (await q.findFarmer(tx, c.tenantId, id))!);
  });
}

export async function updateFarmer(deps: Deps, ctx: Ctx, id: string, body: UpdateFarmerBody, files: UploadedFile[]): Promise<Farmer> {
  const c = canWriteFarmers(ctx);
  const image = checkImage(files);
  return withScope(deps.db, tenantScope(c.tenantId), async (tx) => {
    const before = await q.findFarmer(tx, c.tenantId, id);
    if (!before) throw problems.notFound('Farmer');
    await placeOf(tx, c.tenantId, body.region_id, body.country_id);
    if (body.folio_id && (await q.folioTaken(tx, c.tenantId, body.folio_id, id))) throw problems.conflict('folio_id', 'A farmer with this folio id already exists');
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
    await recordActivity(tx, ctx, { action: 'Update', description: `${c.name} updated the farmer ${before.first_name} ${before.last_name} (${before.folio_id})`, tenantId: c.tenantId });
    return presentFarmer(deps, (await q.findFarmer(tx, c.tenantId, id))!);
  });
}
