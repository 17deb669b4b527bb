// Farm registry use cases: reads (list, map GeoJSON, detail, overlap group, statistics), captures (create and edit with
// the mapping record and snapshots), delete and retain. Every write: authorize → validate → lock → write → overlap → audit, in one transaction.
import {
  FARM_OVERLAPS_LIMIT,
  pointPlotIssues,
  type CaptureFarmBody,
  type Farm,
  type FarmOverlap,
  type PolygonRings,
  type UpdateFarmBody,
} from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { scopedReader, withScope, type Executor } from '../../db/client.js';
import { searchTerms } from '../../db/search.js';
import type { UploadedFile } from '../../lib/form.js';
import { pageOffset, paginate, type Page } from '../../db/pagination.js';
import { authorize, namedTenant } from '../../lib/policy.js';
import { problems } from '../../lib/problems.js';
import { extensionOf, sniffImage, type ImageType } from '../../lib/sniff.js';
import { recordActivity } from '../activity/activity.service.js';
import { storeFile } from '../files/files.service.js';
import { assertValidPolygon } from '../geometry/geometry.service.js';
import { findTenant, getConfiguration } from '../tenant-settings/tenant-settings.queries.js';
import { farmOverlapMeasures, refreshOverlaps, type Regrouped } from '../farm-overlaps/farm-overlaps.js';
import { capturer, farmsPolicy, tenantScope, type Capturer } from './farms.policy.js';
import { parseDuration, presentFarm } from './farms.presenter.js';
import * as q from './farms.queries.js';
import * as groups from './farms.groups.queries.js';
import * as stats from './farms.stats.queries.js';
import { pointPlotRings } from './point-plot.js';
import { screenFarms } from '../reference-layers/reference-layers.screening.js';
import { syncVerdicts } from '../reference-layers/reference-layers.verdicts.js';
import { recordWebhookEvent, recordWebhookEvents } from '../webhooks/webhooks.events.js';

export const MAX_SNAPSHOTS = 10;

export type FarmListQuery = {
  page: number;
  page_size?: number | undefined;
  search?: string | undefined;
  region?: string | undefined;
  operational_area?: string | undefined;
  tenant_id?: string | undefined;
  bbox?: [number, number, number, number] | undefined;
};

/** An activity entry for a capture or a registry change; an SDK key has no user, so the entry names the key. */
async function audit(tx: Executor, ctx: Ctx, tenantId: string, action: 'Create' | 'Update' | 'Delete', description: string): Promise<void> {
  await recordActivity(tx, ctx, { action, description, tenantId });
}

export async function listFarms(deps: Deps, ctx: Ctx, query: FarmListQuery, url: string, farmerId?: string): Promise<Page<Farm>> {
  const { tenantId, scope } = authorize(ctx, farmsPolicy, 'read', namedTenant(query.tenant_id));
  const size = query.page_size ?? 10;
  const offset = pageOffset(query.page, size);
  // The page and its total in one statement, sent with the scope in one round trip (db/pagination.ts).
  const { rows, total } = await q.listFarms(
    scopedReader(deps.db, scope, ctx),
    tenantId,
    {
      search: query.search && (await searchTerms(deps.db, query.search, q.FARM_SEARCH)),
      region: query.region,
      operationalAreaId: query.operational_area,
      farmerId,
    },
    size,
    offset,
  );
  // A farmer's farms: a farm on the page is the farmer's, so only an empty page asks whether the farmer exists.
  if (farmerId && rows.length === 0 && !(await withScope(deps.db, scope, (tx) => q.farmerOfFarm(tx, tenantId, farmerId)))) throw problems.notFound('Farmer');
  return paginate(
    rows.map((r) => presentFarm(deps, r, { tenantName: scope.kind === 'provider' })),
    total,
    query.page,
    size,
    url,
  );
}

/** GET /farms/?all=true: the map layer as GeoJSON text (built in SQL; too large to validate object by object). */
export async function farmsGeoJson(deps: Deps, ctx: Ctx, query: FarmListQuery): Promise<string> {
  const { tenantId, scope } = authorize(ctx, farmsPolicy, 'read', namedTenant(query.tenant_id));
  const search = query.search && (await searchTerms(deps.db, query.search, q.FARM_SEARCH));
  return withScope(deps.db, scope, (tx) =>
    q.farmsGeoJson(tx, tenantId, { search, region: query.region, operationalAreaId: query.operational_area, bbox: query.bbox }, deps.config.farmsGeoJsonCap),
  );
}

export async function getFarm(deps: Deps, ctx: Ctx, id: string, farmerId?: string): Promise<Farm> {
  const { tenantId, scope } = authorize(ctx, farmsPolicy, 'read');
  return withScope(deps.db, scope, async (tx) => {
    const row = await q.findFarm(tx, tenantId, id);
    if (!row || (farmerId && row.farmer_id !== farmerId)) throw problems.notFound('Farm');
    return presentFarm(deps, row, { tenantName: scope.kind === 'provider' });
  });
}

/** The farms of a farm's overlap group (itself included); an empty list when it overlaps nothing. */
export async function overlappingFarms(
  deps: Deps,
  ctx: Ctx,
  id: string,
  query: { page: number; page_size?: number | undefined },
  url: string,
): Promise<Page<Farm>> {
  const { tenantId, scope } = authorize(ctx, farmsPolicy, 'read');
  const size = query.page_size ?? 100;
  const offset = pageOffset(query.page, size);
  return withScope(deps.db, scope, async (tx) => {
    const farm = await q.findFarm(tx, tenantId, id);
    if (!farm) throw problems.notFound('Farm');
    if (!farm.overlap_group_id) return paginate([], 0, query.page, size, url);
    const { ids, total } = await groups.groupPage(tx, farm.tenant_id, farm.overlap_group_id, size, offset);
    const rows = await q.farmDetails(tx, farm.tenant_id, ids);
    return paginate(
      rows.map((r) => presentFarm(deps, r)),
      total,
      query.page,
      size,
      url,
    );
  });
}

/** A farm's overlaps with the other farms of its tenant, each measured, slivers included (GET /farms/{id}/overlaps/). */
export async function farmOverlaps(deps: Deps, ctx: Ctx, id: string): Promise<FarmOverlap[]> {
  const { tenantId, scope } = authorize(ctx, farmsPolicy, 'read');
  return withScope(deps.db, scope, async (tx) => {
    const farm = await q.findFarm(tx, tenantId, id);
    if (!farm) throw problems.notFound('Farm');
    return farmOverlapMeasures(tx, farm.tenant_id, farm.id, FARM_OVERLAPS_LIMIT);
  });
}

export async function overview(deps: Deps, ctx: Ctx, tenantIdParam?: string) {
  const { tenantId, scope } = authorize(ctx, farmsPolicy, 'read', namedTenant(tenantIdParam));
  const o = await stats.overview(scopedReader(deps.db, scope, ctx), tenantId);
  return {
    total_farms: o.total_farms,
    total_within_operational_area: o.within,
    total_outside_operational_area: o.outside,
    total_overlapping_farms: o.overlapping,
    total_unrecognized_farms: o.unrecognized,
  };
}

export async function perCountry(deps: Deps, ctx: Ctx, tenantIdParam?: string) {
  const { tenantId, scope } = authorize(ctx, farmsPolicy, 'read', namedTenant(tenantIdParam));
  return withScope(deps.db, scope, (tx) => stats.perCountry(tx, tenantId));
}

export async function regional(deps: Deps, ctx: Ctx, countryName: string, tenantIdParam?: string) {
  const { tenantId, scope } = authorize(ctx, farmsPolicy, 'read', namedTenant(tenantIdParam));
  return withScope(deps.db, scope, async (tx) => {
    const country = await stats.findCountryByName(tx, countryName);
    if (!country) throw problems.field('name', `Unknown country: ${countryName}`);
    return stats.perState(tx, tenantId, country.id);
  });
}

export async function perState(deps: Deps, ctx: Ctx, tenantIdParam?: string) {
  const { tenantId, scope } = authorize(ctx, farmsPolicy, 'read', namedTenant(tenantIdParam));
  return withScope(deps.db, scope, (tx) => stats.perState(tx, tenantId, null));
}

// ---------- captures ----------

type Snapshot = { data: Buffer; filename: string; type: ImageType };

/** Snapshots are checked by content before anything is written. */
export function checkSnapshots(files: UploadedFile[]): Snapshot[] {
  if (files.length > MAX_SNAPSHOTS) throw problems.field('snapshots', `At most ${MAX_SNAPSHOTS} snapshots are accepted`);
  return files.map((f, i) => {
    const type = sniffImage(f.data, 'snapshots');
    if (!type) throw problems.field('snapshots', `Snapshot ${i + 1} (${f.filename || 'unnamed'}) is not a PNG, JPEG, WebP or GIF image`);
    return { data: f.data, filename: f.filename, type };
  });
}

async function storeSnapshots(tx: Executor, deps: Deps, c: Capturer, farmId: string, snapshots: Snapshot[]): Promise<void> {
  for (const s of snapshots) {
    const fileId = await storeFile(tx, deps, {
      tenantId: c.tenantId,
      kind: 'snapshot',
      data: s.data,
      contentType: s.type,
      extension: extensionOf[s.type],
      originalName: s.filename || null,
      createdBy: c.userId,
    });
    await q.addSnapshot(tx, c.tenantId, farmId, fileId);
  }
}

async function farmerCountry(tx: Executor, tenantId: string, farmerCountryId: string | null): Promise<string | null> {
  return farmerCountryId ?? (await findTenant(tx, tenantId))?.country_id ?? null;
}

/**
 * farm.overlap_group_joined for the farms, other than `farmId` (whose own event its caller raises), whose group id a
 * capture or re-walk changed to a group: farms that now overlap it, and the farms of a group absorbed by a merge (a
 * group's id is its smallest member's, so a merge renames the other groups). Their farmer ids come with them.
 */
async function groupJoinedEvents(tx: Executor, tenantId: string, farmId: string, regrouped: readonly Regrouped[]): Promise<void> {
  // One statement for all of them: a capture onto a 1,000-farm group may rename the whole group.
  await recordWebhookEvents(
    tx,
    tenantId,
    'farm.overlap_group_joined',
    regrouped
      .filter((r) => r.id !== farmId && r.overlap_group_id)
      .map((r) => ({
        farm_id: r.id,
        farmer_id: r.farmer_id,
        overlap_group_id: r.overlap_group_id,
        previous_overlap_group_id: r.previous_group_id,
        caused_by_farm_id: farmId,
      })),
  );
}

/** POST /farms/: a new farm with its mapping record and snapshots; overlap and operational area computed in the same transaction. */
export async function captureFarm(deps: Deps, ctx: Ctx, body: CaptureFarmBody, files: UploadedFile[]): Promise<Farm> {
  const c = capturer(authorize(ctx, farmsPolicy, 'capture'));
  const snapshots = checkSnapshots(files);
  return withScope(
    deps.db,
    tenantScope(c.tenantId),
    async (tx) => {
      const farmer = await q.farmerOfFarm(tx, c.tenantId, body.farmer_id);
      if (!farmer) throw problems.field('farmer_id', 'No such farmer in your organisation');
      // A point plot without a polygon of its own (the schema asks for coordinates or a point with its declared area).
      const pointOnly = body.coordinates === undefined && body.point !== undefined && body.declared_area_sqm !== undefined;
      const rings = body.coordinates ?? pointPlotRings(body.point!, body.declared_area_sqm!);
      await assertValidPolygon(tx, rings);
      await q.lockTenantFarms(tx, c.tenantId);
      const config = await getConfiguration(tx, c.tenantId);
      const name = body.name ?? `${farmer.first_name} ${farmer.last_name} farm ${farmer.number_of_farm + 1}`;
      const farmId = await q.insertFarm(tx, c.tenantId, {
        farmerId: farmer.id,
        name,
        location: body.location ?? farmer.location ?? null,
        address: body.address ?? null,
        rings,
        mappedBy: c.userId,
        minimumFarmSize: config.minimum_farm_size,
        declaredAreaSqm: body.declared_area_sqm ?? null,
        point: body.point ?? null,
        areaSqm: pointOnly ? body.declared_area_sqm! : null,
      });
      await q.insertMappingRecord(tx, c.tenantId, farmId, {
        mappedBy: c.userId,
        seconds: body.time_taken_to_map ? parseDuration(body.time_taken_to_map) : null,
        gpsDeviceId: body.gps_device_id ?? null,
        location: body.location ?? null,
        countryId: await farmerCountry(tx, c.tenantId, farmer.country_id),
        source: c.source,
        captureNote: body.capture_note ?? null,
      });
      await storeSnapshots(tx, deps, c, farmId, snapshots);
      const { regrouped } = await refreshOverlaps(tx, c.tenantId, [farmId]);
      // EUDR screening against every reference layer in use (issue 29), in the capture's transaction; its verdict is
      // stored as the one a later layer or threshold change compares with (reference-layers.verdicts.ts).
      await screenFarms(tx, c.tenantId, [farmId]);
      await syncVerdicts(tx, c.tenantId, [farmId]);
      const row = await q.findFarm(tx, c.tenantId, farmId);
      await audit(
        tx,
        ctx,
        c.tenantId,
        'Create',
        `${c.name} mapped the farm ${name} of ${farmer.first_name} ${farmer.last_name}${row?.is_overlapping ? ' (overlapping)' : ''}`,
      );
      // Webhook events in the capture's transaction (modules/webhooks): the tenant's own ids and a summary only.
      await recordWebhookEvent(tx, c.tenantId, 'farm.captured', {
        farm_id: farmId,
        farmer_id: farmer.id,
        name,
        area_sqm: row!.area_sqm,
        is_overlapping: row!.is_overlapping,
        overlap_group_id: row!.overlap_group_id,
        source: c.source,
      });
      if (row!.overlap_group_id) {
        await recordWebhookEvent(tx, c.tenantId, 'farm.overlap_group_joined', {
          farm_id: farmId,
          farmer_id: farmer.id,
          overlap_group_id: row!.overlap_group_id,
          previous_overlap_group_id: null,
          caused_by_farm_id: farmId,
        });
      }
      await groupJoinedEvents(tx, c.tenantId, farmId, regrouped);
      return presentFarm(deps, row!);
    },
    { retry: true },
  );
}

/**
 * The boundary a PUT gives the farm, or null when it keeps its own. Coordinates are a re-walk: the boundary they give,
 * the point plot's centre the body's point or none. Without coordinates, a point (the body's, or the farm's own when the
 * body changes only the declared area) with its declared area makes the point plot's polygon, whose area is the declared
 * area. A point plot stays within 4 ha (a 400 naming declared_area_sqm), as at capture.
 */
function newBoundary(before: q.FarmCore, body: UpdateFarmBody): { rings: PolygonRings; point: [number, number] | null; areaSqm: number | null } | null {
  if (body.coordinates) return { rings: body.coordinates, point: body.point ?? null, areaSqm: null };
  const stored: [number, number] | null = before.point_lng !== null && before.point_lat !== null ? [before.point_lng, before.point_lat] : null;
  const point = body.point ?? (body.declared_area_sqm !== undefined ? stored : null);
  if (!point || body.declared_area_sqm === undefined) return null;
  const issue = pointPlotIssues({ point, declared_area_sqm: body.declared_area_sqm })[0];
  if (issue) throw problems.field(issue.path[0]!, issue.message);
  return { rings: pointPlotRings(point, body.declared_area_sqm), point, areaSqm: body.declared_area_sqm };
}

/** PUT /farms/{id}/: a re-walk (new boundary: history kept, new mapping record) and/or corrected details and added snapshots. */
export async function updateFarm(deps: Deps, ctx: Ctx, id: string, body: UpdateFarmBody, files: UploadedFile[]): Promise<Farm> {
  const c = capturer(authorize(ctx, farmsPolicy, 'capture'));
  const snapshots = checkSnapshots(files);
  return withScope(
    deps.db,
    tenantScope(c.tenantId),
    async (tx) => {
      const before = await q.findFarmCore(tx, c.tenantId, id);
      if (!before) throw problems.notFound('Farm');
      const farmer = await q.farmerOfFarm(tx, c.tenantId, body.farmer_id ?? before.farmer_id);
      if (!farmer) throw problems.field('farmer_id', 'No such farmer in your organisation');
      const boundary = newBoundary(before, body);
      if (boundary) await assertValidPolygon(tx, boundary.rings);
      await q.lockTenantFarms(tx, c.tenantId);
      await q.updateFarmFields(tx, c.tenantId, id, {
        name: body.name,
        location: body.location,
        address: body.address,
        farmerId: body.farmer_id,
        declaredAreaSqm: body.declared_area_sqm,
      });
      const seconds = body.time_taken_to_map ? parseDuration(body.time_taken_to_map) : undefined;
      const addMappingRecord = async () =>
        q.insertMappingRecord(tx, c.tenantId, id, {
          mappedBy: c.userId,
          seconds: seconds ?? null,
          gpsDeviceId: body.gps_device_id ?? null,
          location: body.location ?? null,
          countryId: await farmerCountry(tx, c.tenantId, farmer.country_id),
          source: c.source,
        });
      if (boundary) {
        // The verdict before the re-walk is the stored one brought up to date (a farm without one gets it stored), and
        // farm.verdict_changed compares the one after with it (reference-layers.verdicts.ts).
        await syncVerdicts(tx, c.tenantId, [id]);
        const config = await getConfiguration(tx, c.tenantId);
        await q.replaceFarmBoundary(tx, c.tenantId, id, { ...boundary, reason: 'edit', by: c.userId, minimumFarmSize: config.minimum_farm_size });
        await addMappingRecord();
        const { regrouped } = await refreshOverlaps(tx, c.tenantId, [id], [before.overlap_group_id]);
        await screenFarms(tx, c.tenantId, [id]);
        await syncVerdicts(tx, c.tenantId, [id]);
        const now = await q.findFarmCore(tx, c.tenantId, id);
        if (now?.overlap_group_id && now.overlap_group_id !== before.overlap_group_id) {
          await recordWebhookEvent(tx, c.tenantId, 'farm.overlap_group_joined', {
            farm_id: id,
            farmer_id: farmer.id,
            overlap_group_id: now.overlap_group_id,
            previous_overlap_group_id: before.overlap_group_id,
            caused_by_farm_id: id,
          });
        }
        await groupJoinedEvents(tx, c.tenantId, id, regrouped);
      } else if (seconds !== undefined || body.gps_device_id !== undefined || body.location !== undefined) {
        const patched = await q.patchLatestMappingRecord(tx, c.tenantId, id, { seconds, gpsDeviceId: body.gps_device_id, location: body.location });
        if (!patched) await addMappingRecord();
      }
      await storeSnapshots(tx, deps, c, id, snapshots);
      const row = await q.findFarm(tx, c.tenantId, id);
      const what = [boundary ? 'boundary' : null, snapshots.length ? `${snapshots.length} snapshot(s)` : null, 'details'].filter(Boolean).join(', ');
      await audit(tx, ctx, c.tenantId, 'Update', `${c.name} updated the farm ${row!.name} (${what})`);
      return presentFarm(deps, row!);
    },
    { retry: true },
  );
}

/** DELETE /farms/{id}/: the farm goes (with its records); its former overlap group is recomputed. */
export async function deleteFarm(deps: Deps, ctx: Ctx, id: string): Promise<void> {
  const { actor } = authorize(ctx, farmsPolicy, 'manage');
  await withScope(
    deps.db,
    tenantScope(actor.tenantId),
    async (tx) => {
      await q.lockTenantFarms(tx, actor.tenantId);
      const before = await q.findFarm(tx, actor.tenantId, id);
      if (!before) throw problems.notFound('Farm');
      await q.deleteFarm(tx, actor.tenantId, id);
      await refreshOverlaps(tx, actor.tenantId, [], [before.overlap_group_id]);
      await audit(tx, ctx, actor.tenantId, 'Delete', `${actor.name} deleted the farm ${before.name} of ${before.farmer_name}`);
    },
    { retry: true },
  );
}

// ---------- retain ----------

/**
 * POST /farms/{id}/intersect: the retained farm keeps its boundary; each farm of its group that overlaps it has it cut out
 * (history kept, area recomputed; vanished or below-minimum remainders are flagged). Returns the group's farms that still overlap.
 */
export async function retainFarm(deps: Deps, ctx: Ctx, id: string): Promise<Farm[]> {
  const { actor } = authorize(ctx, farmsPolicy, 'manage');
  const tenantId = actor.tenantId;
  return withScope(
    deps.db,
    tenantScope(tenantId),
    async (tx) => {
      await q.lockTenantFarms(tx, tenantId);
      const farm = await q.findFarmCore(tx, tenantId, id);
      if (!farm) throw problems.notFound('Farm');
      if (farm.flag === 'vanished')
        throw problems.badRequest('farm_vanished', 'This farm was cut away by an earlier retain and is awaiting review; it cannot be retained.');
      if (!farm.is_overlapping || !farm.overlap_group_id) throw problems.badRequest('not_overlapping', 'This farm does not overlap any other farm.');
      const groupId = farm.overlap_group_id;
      const members = await groups.groupMemberIds(tx, tenantId, groupId);
      // PGlite turns GEOS errors on invalid input into silent empty results: refuse the overlay unless every input is valid.
      const invalid = await groups.invalidGeometries(tx, tenantId, members);
      if (invalid.length > 0) {
        throw problems.badRequest(
          'invalid_geometry',
          `Cannot retain: ${invalid.length} farm(s) of this group have an invalid boundary (${invalid[0]!.reason}). Re-map them first.`,
        );
      }
      const config = await getConfiguration(tx, tenantId);
      const cuts = await groups.cutGroupByRetained(tx, tenantId, { retainedId: id, groupId, minimumFarmSize: config.minimum_farm_size, by: actor.userId });
      await groups.reassignOperationalAreas(
        tx,
        tenantId,
        cuts.filter((c) => c.outcome !== 'vanished').map((c) => c.id),
      );
      await refreshOverlaps(tx, tenantId, [id, ...cuts.map((c) => c.id)], [groupId]);
      // The cut farms' boundaries changed: their screening figures follow (issue 29), and so may their verdicts
      // (farm.verdict_changed for each that changed).
      await screenFarms(
        tx,
        tenantId,
        cuts.map((c) => c.id),
      );
      await syncVerdicts(
        tx,
        tenantId,
        cuts.map((c) => c.id),
      );
      const after = await q.farmDetails(tx, tenantId, members);
      const still = after.filter((f) => f.is_overlapping);
      const flagged = cuts.filter((c) => c.outcome !== 'cut');
      const name = after.find((f) => f.id === id)?.name ?? id;
      await audit(
        tx,
        ctx,
        tenantId,
        'Update',
        `${actor.name} retained the farm ${name}: ${cuts.length} overlapping farm(s) cut${flagged.length ? `, ${flagged.length} flagged (${flagged.map((f) => f.outcome).join(', ')})` : ''}`,
      );
      return still.map((r) => presentFarm(deps, r));
    },
    { retry: true },
  );
}
