// POST /farmers/bulk-upload/: every row is checked (every cell, every error): the farmer's cells, and for a row that
// carries a farm, farm_name, operational_area_id, and farm_coordinates (or a point plot's farm_point with
// farm_declared_area_sqm) with the registry's geometry rules (normalised rings within a farm's extent, then ST_IsValid). The valid rows become farmers (and farms) in one transaction; a failed row
// creates nothing, and comes back in failed_rows for correction.
import { z } from 'zod';
import {
  createFarmerBody,
  declaredArea,
  normalizePolygonInput,
  pointPlotIssues,
  pointPosition,
  textProblem,
  type BulkUploadResult,
  type FailedRow,
  type PolygonRings,
} from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { withScope } from '../../db/client.js';
import { authorize } from '../../lib/policy.js';
import { recordActivity } from '../activity/activity.service.js';
import { tenantAreaIds } from '../agents/agents.queries.js';
import { blankToUndefined, bulkResult, mapInSlices, normaliseGender, readTable, RowErrors, rowData } from '../bulk-upload/bulk-upload.js';
import { refreshOverlaps } from '../farm-overlaps/farm-overlaps.js';
import { insertFarms, lockTenantFarms } from '../farms/farms.queries.js';
import { pointPlotRings } from '../farms/point-plot.js';
import { checkPolygons } from '../geometry/geometry.queries.js';
import { findTenant, getConfiguration } from '../tenant-settings/tenant-settings.queries.js';
import { farmersPolicy } from './farmers.policy.js';
import * as q from './farmers.queries.js';
import { newFolio } from './farmers.service.js';
import { screenFarms } from '../reference-layers/reference-layers.screening.js';

const FARMER_FIELDS = ['first_name', 'last_name', 'email', 'phone_number', 'gender', 'address', 'location', 'folio_id'] as const;
const FARM_FIELDS = ['farm_name', 'operational_area_id', 'farm_coordinates', 'farm_point', 'farm_declared_area_sqm'] as const;
/** The columns of farmers-template.csv, in order. */
export const FARMER_COLUMNS = [...FARMER_FIELDS, ...FARM_FIELDS] as const;

export const FARMERS_TEMPLATE_CSV = [
  FARMER_COLUMNS.join(','),
  'Bisi,Adeyemi,bisi@example.com,+2348030000001,Female,3 Farm Road,Ogbomosho,,Bisi Farm 1,,"[[3.7712,7.6461],[3.7722,7.6461],[3.7722,7.6471],[3.7712,7.6471],[3.7712,7.6461]]",,',
  'Tunde,Bello,,08030000003,Male,5 Oja Road,Ogbomosho,,Tunde Plot 1,,,"[3.7741,7.6483]",15000',
  'Emeka,Okafor,,08030000002,Male,12 Market Street,Oyo,FR-0002,,,,,',
  '',
].join('\r\n');

/** Statements carry at most this many rows (each statement stays short on either engine). */
const CHUNK = 1000;

const chunks = <T>(list: readonly T[]): T[][] => Array.from({ length: Math.ceil(list.length / CHUNK) }, (_, i) => list.slice(i * CHUNK, (i + 1) * CHUNK));

type Checked = {
  index: number;
  errors: RowErrors;
  farmer: z.infer<typeof createFarmerBody> | null;
  farm: {
    name: string;
    areaId: string | null;
    rings: PolygonRings | null;
    point: [number, number] | null;
    declaredAreaSqm: number | null;
    pointOnly: boolean;
  } | null;
};

function checkRow(row: Record<string, string>, index: number): Checked {
  const errors = new RowErrors();
  const input = blankToUndefined(row, FARMER_COLUMNS);
  input['gender'] = normaliseGender(input['gender']);
  const parsed = createFarmerBody.safeParse(Object.fromEntries(FARMER_FIELDS.map((f) => [f, input[f]])));
  if (!parsed.success) errors.addIssues(parsed.error.issues);

  let farm: Checked['farm'] = null;
  if (FARM_FIELDS.some((f) => input[f] !== undefined)) {
    const name = input['farm_name'];
    if (name === undefined) errors.add('farm_name', 'Farm name is required for a farm');
    else {
      const problem = textProblem(name);
      if (problem) errors.add('farm_name', problem);
      else if (name.length > 200) errors.add('farm_name', 'At most 200 characters');
    }
    const areaId = input['operational_area_id'];
    if (areaId !== undefined && !z.uuid().safeParse(areaId).success) errors.add('operational_area_id', 'Use the id of one of your operational areas');
    // A point plot (4 ha or less): farm_point with farm_declared_area_sqm, with or without farm_coordinates, checked as
    // POST /farms/ checks point and declared_area_sqm; without coordinates its polygon is the declared area around it.
    const point = pointPosition.safeParse(input['farm_point']);
    if (!point.success) errors.addIssues(point.error.issues.map((i) => ({ ...i, path: ['farm_point'] })));
    const declared = declaredArea.safeParse(input['farm_declared_area_sqm']);
    if (!declared.success) errors.addIssues(declared.error.issues.map((i) => ({ ...i, path: ['farm_declared_area_sqm'] })));
    const pointAt = point.success ? (point.data ?? null) : null;
    const declaredSqm = declared.success ? (declared.data ?? null) : null;
    if (point.success && declared.success) {
      for (const i of pointPlotIssues({ point: pointAt ?? undefined, declared_area_sqm: declaredSqm ?? undefined })) errors.add(`farm_${i.path[0]}`, i.message);
    }
    let rings: PolygonRings | null = null;
    const pointOnly = input['farm_coordinates'] === undefined && input['farm_point'] !== undefined;
    if (pointOnly) {
      if (pointAt && declaredSqm !== null && !errors.has('farm_declared_area_sqm')) rings = pointPlotRings(pointAt, declaredSqm);
    } else if (input['farm_coordinates'] === undefined)
      errors.add(
        'farm_coordinates',
        'Farm coordinates are required for a farm: a JSON list of [longitude, latitude] pairs (or, for a plot of 4 ha or less, farm_point with farm_declared_area_sqm)',
      );
    else {
      const r = normalizePolygonInput(input['farm_coordinates'], 'farm');
      if (r.ok) rings = r.rings;
      else errors.add('farm_coordinates', r.message);
    }
    farm = { name: name ?? '', areaId: areaId ?? null, rings, point: pointAt, declaredAreaSqm: declaredSqm, pointOnly };
  }
  return { index, errors, farmer: parsed.success ? parsed.data : null, farm };
}

export async function bulkUploadFarmers(deps: Deps, ctx: Ctx, file: { filename: string; data: Buffer }): Promise<BulkUploadResult> {
  const { actor } = authorize(ctx, farmersPolicy, 'manage');
  const tenantId = actor.tenantId;
  const { rows } = await readTable(file, ['first_name', 'last_name'], FARMER_COLUMNS.join(', '));
  const checked = await mapInSlices(rows, checkRow);

  // Folio ids repeated inside the file: the first row keeps it.
  // A row with other bad cells still hears about its folio id: the cell is read as it is, when it is itself well formed.
  const folioOf = (c: Checked) => (c.errors.has('folio_id') ? undefined : rows[c.index]!['folio_id'] || undefined);
  const firstRowOf = new Map<string, number>();
  for (const c of checked) {
    const folio = folioOf(c);
    if (!folio) continue;
    const seen = firstRowOf.get(folio);
    if (seen === undefined) firstRowOf.set(folio, c.index);
    else c.errors.add('folio_id', `This folio id is already used in row ${seen + 1} of the file`);
  }

  const result = await withScope(deps.db, { kind: 'tenant', tenantId }, async (tx) => {
    const taken = await q.takenFolios(tx, tenantId, [...firstRowOf.keys()]);
    const areas = await tenantAreaIds(tx, tenantId, [...new Set(checked.map((c) => c.farm?.areaId).filter((v): v is string => !!v))]);
    for (const c of checked) {
      const folio = folioOf(c);
      if (folio && taken.has(folio) && !c.errors.has('folio_id')) c.errors.add('folio_id', 'A farmer with this folio id already exists');
      if (c.farm?.areaId && !c.errors.has('operational_area_id') && !areas.has(c.farm.areaId))
        c.errors.add('operational_area_id', 'No such operational area in your organisation');
    }
    // ST_IsValid for every polygon that passed the contract's rules (no overlay runs before this).
    const withRings = checked.filter((c) => c.farm?.rings);
    for (const part of chunks(withRings)) {
      const checks = await checkPolygons(
        tx,
        part.map((c) => c.farm!.rings!),
      );
      part.forEach((c, i) => {
        const v = checks[i]!;
        if (!v.valid) c.errors.add('farm_coordinates', `The polygon is not valid: ${v.reason}`);
        else if (!(v.areaSqm > 0)) c.errors.add('farm_coordinates', 'The polygon has no area');
      });
    }

    const good = checked.filter((c) => c.farmer && !c.errors.has());
    // The tenant's farm lock before the first write: inserting farmers takes the tenant_stats row (rollup trigger), and
    // a farm writer (PUT /farms/{id}) holds the farm lock while its own trigger waits for that row. Taken after the
    // farmers, the two waited on each other (40P01; docs/decisions/0036-retry-deadlocks-and-serialisation-failures.md).
    const withFarms = good.some((c) => c.farm);
    if (withFarms) await lockTenantFarms(tx, tenantId);
    const countryId = good.length > 0 ? ((await findTenant(tx, tenantId))?.country_id ?? null) : null;
    const used = new Set(taken);
    const folios = good.map((c) => {
      let folio = c.farmer!.folio_id;
      while (!folio || used.has(folio)) folio = newFolio();
      used.add(folio);
      return folio;
    });
    const farmerIds: string[] = [];
    for (const [n, part] of chunks(good).entries()) {
      farmerIds.push(
        ...(await q.insertFarmers(
          tx,
          tenantId,
          part.map((c, i) => ({
            firstName: c.farmer!.first_name,
            lastName: c.farmer!.last_name,
            email: c.farmer!.email ?? null,
            phoneNumber: c.farmer!.phone_number ?? null,
            gender: c.farmer!.gender ?? null,
            address: c.farmer!.address ?? null,
            location: c.farmer!.location ?? null,
            folioId: folios[n * CHUNK + i]!,
            imageFileId: null,
            regionId: null,
            countryId,
            createdBy: actor.userId,
          })),
        )),
      );
    }

    const farmRows = good.map((c, i) => ({ c, farmerId: farmerIds[i]! })).filter((x) => x.c.farm);
    const farmIds: string[] = [];
    if (farmRows.length > 0) {
      const config = await getConfiguration(tx, tenantId);
      for (const part of chunks(farmRows)) {
        farmIds.push(
          ...(await insertFarms(
            tx,
            tenantId,
            part.map(({ c, farmerId }) => ({
              farmerId,
              name: c.farm!.name,
              location: c.farmer!.location ?? null,
              address: null,
              rings: c.farm!.rings!,
              mappedBy: actor.userId,
              minimumFarmSize: config.minimum_farm_size,
              declaredAreaSqm: c.farm!.declaredAreaSqm,
              point: c.farm!.point,
              areaSqm: c.farm!.pointOnly ? c.farm!.declaredAreaSqm : null,
            })),
          )),
        );
      }
      await refreshOverlaps(tx, tenantId, farmIds);
      await screenFarms(tx, tenantId, farmIds);
    }

    const failed: FailedRow[] = checked
      .filter((c) => c.errors.has())
      .map((c) => ({ row: c.index + 1, row_data: rowData(rows[c.index]!, FARMER_COLUMNS), errors: c.errors.byField }));
    await recordActivity(tx, ctx, {
      action: 'Create',
      description: `${actor.name} bulk-uploaded farmers from ${file.filename.slice(0, 100)}: ${farmerIds.length} farmers and ${farmIds.length} farms created, ${failed.length} row(s) failed`,
    });
    return bulkResult(rows.length, farmerIds.length, failed);
  });
  // Embedded: the tables just written get planner statistics at the next quiet moment (PGlite runs no autovacuum).
  if (result.created_count > 0) deps.database.maintenance?.wrote(['farmers', 'farms']);
  return result;
}
