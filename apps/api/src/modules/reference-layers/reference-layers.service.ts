// Reference-layer use cases (issue 29): upload (stored, then loaded by the job), replace, list, read, progress, delete;
// a farm's screening figures with its plot-risk verdict; the tenant's plot-risk thresholds. Provider staff manage the
// provider's layers (tenant_id NULL, read by every tenant); a tenant admin manages the tenant's own and reads both.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import type {
  CreateReferenceLayerFields,
  FarmScreening,
  PlotRiskSettings,
  ReferenceLayer,
  ReferenceLayerKind,
  ReferenceLayerProgress,
  ReplaceReferenceLayerFields,
  ScreeningEvidence,
  ScreeningEvidenceFeature,
  UpdatePlotRiskSettingsBody,
} from '@farmland/contracts';
import { PLOT_RISK_DEFAULTS, SCREENING_EVIDENCE_MAX_FEATURES } from '@farmland/contracts';
import { requireActor, type Ctx, type Deps } from '../../context.js';
import { authorize } from '../../lib/policy.js';
import { referenceLayersPolicy } from './reference-layers.policy.js';
import { queryRows, withScope, type Executor, type Scope } from '../../db/client.js';
import { Problem, problems } from '../../lib/problems.js';
import { recordActivity } from '../activity/activity.service.js';
import { checkFileType } from '../../ingest/file-type.js';
import { gpkgTooLarge, MAX_GPKG_BYTES } from '../../ingest/gpkg.js';
import { ParseError } from '../../ingest/limits.js';
import * as q from './reference-layers.queries.js';
import { applicableLayers, farmFigures } from './reference-layers.screening.js';
import { plotRisk } from './plot-risk.js';
import { presentLayer, presentProgress } from './reference-layers.presenter.js';

export type Enqueue = (data: { layerId: string }) => Promise<void>;
export type LayerFile = { path: string; size: number; filename: string };

/** Who owns the layers an actor manages: null for provider staff (provider layers), else the actor's tenant. */
function ownerOf(ctx: Ctx): { tenantId: string | null; scope: Scope } {
  const { tenantId, scope } = authorize(ctx, referenceLayersPolicy, 'manage');
  return { tenantId, scope };
}

const LAYER_KINDS = new Set(['geojson', 'kml', 'kmz', 'zip', 'gpkg']);
const HEAD_BYTES = 64 * 1024;

/** The file's type, by name and content: GeoJSON, KML, KMZ, a zipped Shapefile or a GeoPackage; anything else is a 400 on "file". */
export async function checkLayerFile(file: LayerFile): Promise<void> {
  if (file.size === 0) throw problems.field('file', 'The file is empty');
  const isZipName = /\.(zip|kmz)$/i.test(file.filename);
  // A zip's directory is at its end: read it whole (the upload limit bounds it); other files by their first bytes.
  let buf: Buffer;
  if (isZipName) buf = await fs.promises.readFile(file.path);
  else {
    buf = Buffer.alloc(Math.min(file.size, HEAD_BYTES));
    const fh = await fs.promises.open(file.path, 'r');
    try {
      await fh.read(buf, 0, buf.length, 0);
    } finally {
      await fh.close();
    }
  }
  let kind: string;
  try {
    kind = checkFileType(buf, file.filename);
  } catch (err) {
    if (err instanceof ParseError) throw new Problem(err.status, err.code, `file: ${err.message}`, [{ field: 'file', message: err.message }]);
    throw err;
  }
  // A GeoPackage is read whole in memory (ingest/gpkg.ts): its cap is checked at upload, not only by the load.
  if (kind === 'gpkg' && file.size > MAX_GPKG_BYTES)
    throw gpkgTooLarge(file.filename, {
      maxRows: 0,
      fail: (status, code, message) => new Problem(status, code, `file: ${message}`, [{ field: 'file', message }]),
    });
  if (!LAYER_KINDS.has(kind)) {
    throw new Problem(400, 'file_type_unsupported', 'file: A reference layer is a GeoJSON, KML, KMZ, zipped Shapefile (.zip) or GeoPackage (.gpkg) file', [
      { field: 'file', message: 'A reference layer is a GeoJSON, KML, KMZ, zipped Shapefile (.zip) or GeoPackage (.gpkg) file' },
    ]);
  }
}

const fileKeyOf = (layerId: string, version: number, filename: string) => {
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? 'bin';
  return `reference-layers/${layerId}/v${version}.${ext}`;
};

const ownerLabel = (tenantId: string | null) => (tenantId ? 'tenant' : 'provider');

export async function createLayer(deps: Deps, ctx: Ctx, enqueue: Enqueue, fields: CreateReferenceLayerFields, file: LayerFile): Promise<ReferenceLayer> {
  const { tenantId, scope } = ownerOf(ctx);
  const actor = requireActor(ctx);
  await checkLayerFile(file);
  const id = crypto.randomUUID();
  const key = fileKeyOf(id, 1, file.filename);
  await deps.storage.put(key, fs.createReadStream(file.path));
  const row = await withScope(deps.db, scope, async (tx) => {
    const r = await q.insertLayer(tx, {
      id,
      tenantId,
      name: fields.name,
      kind: fields.kind,
      referenceDate: fields.reference_date,
      source: fields.source,
      licence: fields.licence,
      nameField: fields.name_field ?? null,
      filename: file.filename.slice(0, 200),
      fileKey: key,
      createdBy: actor.userId,
    });
    await recordActivity(tx, ctx, {
      action: 'Create',
      description: `${actor.name} uploaded the ${ownerLabel(tenantId)} reference layer ${fields.name} (${fields.kind})`,
    });
    return r;
  });
  await enqueueOrFail(deps, enqueue, id);
  return presentLayer(row);
}

async function enqueueOrFail(deps: Deps, enqueue: Enqueue, layerId: string): Promise<void> {
  try {
    await enqueue({ layerId });
  } catch (err) {
    deps.log.error({ err, layerId }, 'could not enqueue the reference layer load');
    await withScope(deps.db, { kind: 'system' }, async (tx) => {
      const l = await q.layerById(tx, layerId);
      if (l?.loading_version) await q.failLoad(tx, layerId, l.loading_version, 'The load could not be queued; upload the layer again.', null);
    });
    throw new Problem(503, 'queue_unavailable', 'The layer was stored but its load could not be queued. Try the upload again.');
  }
}

/** A managed layer (provider staff: a provider layer; a tenant admin: its own), locked; others' are 404, the provider's 403 for a tenant. */
async function managedLayer(ctx: Ctx, tx: Executor, id: string, tenantId: string | null): Promise<q.LayerRow> {
  // Read first: a tenant's FOR UPDATE cannot reach a provider row (row-level security), which must be a 403, not a 404.
  const seen = await q.findLayer(tx, id, tenantId);
  if (!seen) throw problems.notFound('Reference layer');
  if (seen.tenant_id !== tenantId) {
    // The other owner's layer: its rule refuses this actor with 403 (a tenant admin and a provider layer).
    authorize(ctx, referenceLayersPolicy, seen.tenant_id === null ? 'provider' : 'tenant');
    throw problems.notFound('Reference layer');
  }
  const row = await q.findLayer(tx, id, tenantId, { lock: true });
  if (!row) throw problems.notFound('Reference layer');
  return row;
}

export async function replaceLayer(
  deps: Deps,
  ctx: Ctx,
  enqueue: Enqueue,
  id: string,
  fields: ReplaceReferenceLayerFields,
  file: LayerFile,
): Promise<ReferenceLayer> {
  const { tenantId, scope } = ownerOf(ctx);
  const actor = requireActor(ctx);
  // Found (and allowed) before the file is checked or stored: a foreign id is a 404 whatever the file.
  const before = await withScope(deps.db, scope, (tx) => managedLayer(ctx, tx, id, tenantId));
  if (before.loading_version !== null) throw new Problem(409, 'layer_loading', 'This layer is still loading; replace it once the load has finished or failed.');
  await checkLayerFile(file);
  const key = fileKeyOf(id, before.version + 1, file.filename);
  await deps.storage.put(key, fs.createReadStream(file.path));
  const details: q.LayerDetails = {};
  if (fields.name !== undefined) details.name = fields.name;
  if (fields.kind !== undefined) details.kind = fields.kind;
  if (fields.reference_date !== undefined) details.reference_date = fields.reference_date;
  if (fields.source !== undefined) details.source = fields.source;
  if (fields.licence !== undefined) details.licence = fields.licence;
  const row = await withScope(deps.db, scope, async (tx) => {
    const current = await managedLayer(ctx, tx, id, tenantId);
    if (current.loading_version !== null)
      throw new Problem(409, 'layer_loading', 'This layer is still loading; replace it once the load has finished or failed.');
    if (fields.name_field !== undefined) await tx.execute(sql`UPDATE reference_layers SET name_field = ${fields.name_field} WHERE id = ${id}`);
    const r = await q.queueReplacement(tx, id, { filename: file.filename.slice(0, 200), fileKey: key, details: Object.keys(details).length ? details : null });
    await recordActivity(tx, ctx, {
      action: 'Update',
      description: `${actor.name} replaced the ${ownerLabel(tenantId)} reference layer ${current.name} (version ${current.version + 1} loading)`,
    });
    return r;
  });
  if (before.file_key && before.file_key !== key) await deps.storage.remove(before.file_key).catch(() => undefined);
  await enqueueOrFail(deps, enqueue, id);
  return presentLayer(row);
}

export async function listLayers(
  deps: Deps,
  ctx: Ctx,
  query: { kind?: ReferenceLayerKind | undefined; owner?: 'provider' | 'tenant' | undefined },
): Promise<ReferenceLayer[]> {
  const { tenantId, scope } = ownerOf(ctx);
  const rows = await withScope(deps.db, scope, (tx) => q.listLayers(tx, { tenantId, owner: query.owner, kind: query.kind }));
  return rows.map(presentLayer);
}

export async function getLayer(deps: Deps, ctx: Ctx, id: string): Promise<ReferenceLayer> {
  const { tenantId, scope } = ownerOf(ctx);
  const row = await withScope(deps.db, scope, (tx) => q.findLayer(tx, id, tenantId));
  if (!row) throw problems.notFound('Reference layer');
  return presentLayer(row);
}

export async function layerProgress(deps: Deps, ctx: Ctx, id: string): Promise<ReferenceLayerProgress> {
  const { tenantId, scope } = ownerOf(ctx);
  const row = await withScope(deps.db, scope, (tx) => q.findLayer(tx, id, tenantId));
  if (!row) throw problems.notFound('Reference layer');
  return presentProgress(row);
}

/** Removes a layer, its features and every farm's figures against it (one transaction); its stored file afterwards. */
export async function deleteLayer(deps: Deps, ctx: Ctx, id: string): Promise<void> {
  const { tenantId, scope } = ownerOf(ctx);
  const actor = requireActor(ctx);
  const key = await withScope(deps.db, scope, async (tx) => {
    const row = await managedLayer(ctx, tx, id, tenantId);
    await q.deleteLayer(tx, id);
    // Its figures are gone: the verdicts of the farms it applied to may change (farm.verdict_changed).
    await q.requestVerdictSweep(tx, row.tenant_id);
    await recordActivity(tx, ctx, { action: 'Delete', description: `${actor.name} deleted the ${ownerLabel(tenantId)} reference layer ${row.name}` });
    return row.file_key;
  });
  if (key) await deps.storage.remove(key).catch((err: unknown) => deps.log.warn({ err, key }, 'could not remove a stored file (left behind)'));
}

// ---------- plot risk ----------

const RISK_COLUMNS = sql`eudr_min_overlap_sqm, eudr_forest_review_share, eudr_loss_high_share, eudr_protected_high_share`;

export async function riskSettingsOf(tx: Executor, tenantId: string): Promise<PlotRiskSettings> {
  const [row] = await queryRows<PlotRiskSettings>(tx, sql`SELECT ${RISK_COLUMNS} FROM tenant_configurations WHERE tenant_id = ${tenantId}`);
  if (!row) return { ...PLOT_RISK_DEFAULTS };
  return {
    eudr_min_overlap_sqm: Number(row.eudr_min_overlap_sqm),
    eudr_forest_review_share: Number(row.eudr_forest_review_share),
    eudr_loss_high_share: Number(row.eudr_loss_high_share),
    eudr_protected_high_share: Number(row.eudr_protected_high_share),
  };
}

const tenantOnly = (ctx: Ctx): string => {
  return authorize(ctx, referenceLayersPolicy, 'risk').tenantId;
};

export async function getRiskSettings(deps: Deps, ctx: Ctx): Promise<PlotRiskSettings> {
  const tenantId = tenantOnly(ctx);
  return withScope(deps.db, { kind: 'tenant', tenantId }, (tx) => riskSettingsOf(tx, tenantId));
}

export async function updateRiskSettings(deps: Deps, ctx: Ctx, body: UpdatePlotRiskSettingsBody): Promise<PlotRiskSettings> {
  const tenantId = tenantOnly(ctx);
  const actor = requireActor(ctx);
  return withScope(deps.db, { kind: 'tenant', tenantId }, async (tx) => {
    const before = await riskSettingsOf(tx, tenantId);
    const v = (x: number | undefined) => sql`${x ?? null}::float8`;
    await tx.execute(sql`
      INSERT INTO tenant_configurations (tenant_id, eudr_min_overlap_sqm, eudr_forest_review_share, eudr_loss_high_share, eudr_protected_high_share, updated_at)
      VALUES (${tenantId}, coalesce(${v(body.eudr_min_overlap_sqm)}, ${PLOT_RISK_DEFAULTS.eudr_min_overlap_sqm}), coalesce(${v(body.eudr_forest_review_share)}, ${PLOT_RISK_DEFAULTS.eudr_forest_review_share}),
              coalesce(${v(body.eudr_loss_high_share)}, ${PLOT_RISK_DEFAULTS.eudr_loss_high_share}), coalesce(${v(body.eudr_protected_high_share)}, ${PLOT_RISK_DEFAULTS.eudr_protected_high_share}), now())
      ON CONFLICT (tenant_id) DO UPDATE
         SET eudr_min_overlap_sqm = coalesce(${v(body.eudr_min_overlap_sqm)}, tenant_configurations.eudr_min_overlap_sqm),
             eudr_forest_review_share = coalesce(${v(body.eudr_forest_review_share)}, tenant_configurations.eudr_forest_review_share),
             eudr_loss_high_share = coalesce(${v(body.eudr_loss_high_share)}, tenant_configurations.eudr_loss_high_share),
             eudr_protected_high_share = coalesce(${v(body.eudr_protected_high_share)}, tenant_configurations.eudr_protected_high_share),
             updated_at = now()`);
    const after = await riskSettingsOf(tx, tenantId);
    // New thresholds may change verdicts: a sweep of the tenant's farms raises farm.verdict_changed where one changed.
    if (JSON.stringify(after) !== JSON.stringify(before)) await q.requestVerdictSweep(tx, tenantId);
    const changes = Object.entries(body)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `${k} ${x}`);
    await recordActivity(tx, ctx, { action: 'Update', description: `${actor.name} changed the plot-risk thresholds (${changes.join(', ')})` });
    return after;
  });
}

/** GET /farms/{id}/screening/: the farm's figures per layer in use, the layers still to screen, and the verdict. */
export async function farmScreening(deps: Deps, ctx: Ctx, farmId: string): Promise<FarmScreening> {
  const tenantId = tenantOnly(ctx);
  return withScope(deps.db, { kind: 'tenant', tenantId }, async (tx) => {
    const [farm] = await queryRows<{ id: string }>(tx, sql`SELECT id FROM farms WHERE tenant_id = ${tenantId} AND id = ${farmId}`);
    if (!farm) throw problems.notFound('Farm');
    const figures = await farmFigures(tx, tenantId, farmId);
    const layers = await applicableLayers(tx, tenantId);
    const have = new Set(figures.map((f) => f.layer_id));
    const pending = layers.filter((l) => !have.has(l.id)).map((l) => l.id);
    const settings = await riskSettingsOf(tx, tenantId);
    const verdict = plotRisk(figures, settings, { pendingLayers: pending.length, hasForestLayer: layers.some((l) => l.kind === 'forest_2020') });
    return { farm_id: farmId, figures, pending_layers: pending, verdict };
  });
}

/**
 * GET /farms/{id}/screening/evidence/: the features of the layers in use (the provider's and the tenant's own) that meet
 * the farm, clipped to its widened box, for the farm drawer's map (docs/decisions/0078-farm-screening-evidence.md).
 */
export async function farmScreeningEvidence(deps: Deps, ctx: Ctx, farmId: string): Promise<ScreeningEvidence> {
  const tenantId = tenantOnly(ctx);
  return withScope(deps.db, { kind: 'tenant', tenantId }, async (tx) => {
    const box = await q.evidenceBox(tx, tenantId, farmId);
    if (!box) throw problems.notFound('Farm');
    const rows = await q.evidenceFeatures(tx, tenantId, farmId, box, SCREENING_EVIDENCE_MAX_FEATURES + 1);
    const features: ScreeningEvidenceFeature[] = [];
    for (const r of rows.slice(0, SCREENING_EVIDENCE_MAX_FEATURES)) {
      const geometry = JSON.parse(r.geometry) as ScreeningEvidenceFeature['geometry'];
      // A piece that only touches the box edge clips to nothing.
      if (!geometry.coordinates?.length) continue;
      features.push({
        type: 'Feature',
        geometry,
        properties: { layer_id: r.layer_id, layer_name: r.layer_name, kind: r.kind, owner: r.owner, feature: Number(r.feature) },
      });
    }
    return {
      type: 'FeatureCollection',
      farm_id: farmId,
      bbox: [box.west, box.south, box.east, box.north],
      features,
      truncated: rows.length > SCREENING_EVIDENCE_MAX_FEATURES,
    };
  });
}
