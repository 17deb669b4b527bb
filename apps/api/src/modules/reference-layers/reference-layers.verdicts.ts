// farm.verdict_changed beyond re-walks (docs/decisions/0075-webhooks.md): a farm's EUDR verdict is computed on read from
// its screening figures, the layers in use and the tenant's plot-risk thresholds, so a layer that finishes loading, is
// replaced or deleted, or a threshold change, changes verdicts without touching the farm. farm_verdicts keeps each farm's
// verdict as last notified (or first seen); syncVerdicts recomputes the verdicts of some farms, raises the event for
// each that differs from the stored one, and stores the new one. A sweep (asked for by requestVerdictSweep in the
// transaction of the change) runs syncVerdicts over a tenant's farms in id order, VERDICT_BATCH farms a transaction, so
// a 100k-farm registry is 200 short transactions, never one, and never all farms in memory.
import { sql } from 'drizzle-orm';
import type { PlotRiskLevel, ReferenceLayerKind } from '@farmland/contracts';
import type { Deps } from '../../context.js';
import { jsonb, queryRows, uuidArray, withScope, type Executor } from '../../db/client.js';
import { recordWebhookEvents } from '../webhooks/webhooks.events.js';
import { plotRisk, type RiskFigure } from './plot-risk.js';
import { verdictHint } from './reference-layers.queries.js';
import { applicableLayers } from './reference-layers.screening.js';
import { riskSettingsOf } from './reference-layers.service.js';

/** Farms per sweep transaction. */
export const VERDICT_BATCH = 500;

/**
 * The verdicts of the given farms now, as GET /farms/{id}/screening/ (farmScreening) computes each one's, with one
 * read of the layers, the thresholds and the figures for the whole batch. Farms not of the tenant are left out.
 */
export async function verdictsOf(tx: Executor, tenantId: string, farmIds: readonly string[]): Promise<Map<string, PlotRiskLevel>> {
  const out = new Map<string, PlotRiskLevel>();
  if (farmIds.length === 0) return out;
  const layers = await applicableLayers(tx, tenantId);
  const settings = await riskSettingsOf(tx, tenantId);
  const hasForestLayer = layers.some((l) => l.kind === 'forest_2020');
  const inUse = new Set(layers.map((l) => l.id));
  const rows = await queryRows<{ farm_id: string; layer_id: string; layer_name: string; kind: ReferenceLayerKind; overlap_sqm: number; share: number }>(
    tx,
    sql`SELECT f.id AS farm_id, s.layer_id, l.name AS layer_name, l.kind::text AS kind, s.overlap_sqm, s.share
          FROM farms f
          -- By farm id alone (its key's first column): with the tenant too, a planner without fresh statistics
          -- intersected the tenant's whole index per farm (620 ms a batch of 500 instead of 7 ms, measured).
          LEFT JOIN farm_screenings s ON s.farm_id = f.id
          LEFT JOIN reference_layers l ON l.id = s.layer_id AND l.version > 0 AND (l.tenant_id IS NULL OR l.tenant_id = ${tenantId})
         WHERE f.tenant_id = ${tenantId} AND f.id = ANY(${uuidArray(farmIds)})`,
  );
  const figures = new Map<string, RiskFigure[]>();
  for (const r of rows) {
    const list = figures.get(r.farm_id) ?? [];
    if (r.layer_id && r.kind && inUse.has(r.layer_id))
      list.push({ layer_id: r.layer_id, layer_name: r.layer_name, kind: r.kind, overlap_sqm: Number(r.overlap_sqm), share: Number(r.share) });
    figures.set(r.farm_id, list);
  }
  for (const [farmId, list] of figures) {
    const have = new Set(list.map((f) => f.layer_id));
    const pendingLayers = layers.filter((l) => !have.has(l.id)).length;
    out.set(farmId, plotRisk(list, settings, { pendingLayers, hasForestLayer }).level);
  }
  return out;
}

/**
 * Brings the stored verdicts of the given farms up to date in the caller's transaction: farm.verdict_changed (previous
 * and new verdict) for each farm whose verdict differs from its stored one, in one statement; a farm without a stored
 * verdict (just captured, or registered before migration 0033) gets it stored without an event. The caller holds the
 * tenant's farm lock (captures and re-walks take it), so a farm's geometry and figures cannot change meanwhile.
 */
export async function syncVerdicts(tx: Executor, tenantId: string, farmIds: readonly string[]): Promise<{ farms: number; changed: number }> {
  if (farmIds.length === 0) return { farms: 0, changed: 0 };
  const now = await verdictsOf(tx, tenantId, farmIds);
  const stored = await queryRows<{ farm_id: string; verdict: PlotRiskLevel; farmer_id: string }>(
    tx,
    sql`SELECT v.farm_id, v.verdict, f.farmer_id FROM farm_verdicts v JOIN farms f ON f.id = v.farm_id AND f.tenant_id = v.tenant_id
         WHERE v.tenant_id = ${tenantId} AND v.farm_id = ANY(${uuidArray([...now.keys()])}) FOR UPDATE OF v`,
  );
  const before = new Map(stored.map((r) => [r.farm_id, r]));
  const changed = stored.filter((r) => now.get(r.farm_id) !== undefined && now.get(r.farm_id) !== r.verdict);
  await recordWebhookEvents(
    tx,
    tenantId,
    'farm.verdict_changed',
    changed.map((r) => ({ farm_id: r.farm_id, farmer_id: r.farmer_id, previous_verdict: r.verdict, verdict: now.get(r.farm_id)! })),
  );
  const writes = [...now].filter(([id, v]) => before.get(id)?.verdict !== v).map(([farm_id, verdict]) => ({ farm_id, verdict }));
  if (writes.length > 0) {
    await tx.execute(sql`
      INSERT INTO farm_verdicts (farm_id, tenant_id, verdict, updated_at)
      SELECT x.farm_id, ${tenantId}, x.verdict, now() FROM jsonb_to_recordset(${jsonb(writes)}) AS x(farm_id uuid, verdict text)
      ON CONFLICT (farm_id) DO UPDATE SET verdict = EXCLUDED.verdict, updated_at = EXCLUDED.updated_at`);
  }
  return { farms: now.size, changed: changed.length };
}

export type SweepStep = { tenantId: string; farms: number; changed: number; finished: boolean };

/**
 * One batch of the oldest sweep asked for, in one transaction (system scope: a sweep of any tenant): the sweep's row is
 * claimed FOR UPDATE SKIP LOCKED (two workers take different tenants), the tenant's farm lock is taken (as a capture
 * does: no re-walk between reading and storing a verdict), the next `batch` farms after the cursor are synced, and the
 * cursor moves on, or the sweep ends. A tenant with a layer still screening waits: its farms' verdicts read "review"
 * until the figures are in, and the screening's end asks for a sweep anyway. Returns null when nothing is due.
 */
export async function sweepVerdictsStep(deps: Pick<Deps, 'db'>, batch = VERDICT_BATCH): Promise<SweepStep | null> {
  return withScope(deps.db, { kind: 'system' }, async (tx) => {
    const [s] = await queryRows<{ tenant_id: string; after_farm: string | null }>(
      tx,
      sql`SELECT s.tenant_id, s.after_farm FROM farm_verdict_sweeps s
           WHERE NOT EXISTS (SELECT 1 FROM reference_layers l WHERE l.status = 'screening' AND l.version > 0 AND (l.tenant_id IS NULL OR l.tenant_id = s.tenant_id))
           ORDER BY s.requested_at, s.tenant_id LIMIT 1 FOR UPDATE OF s SKIP LOCKED`,
    );
    if (!s) return null;
    const tenantId = s.tenant_id;
    // The key farms.queries.ts lockTenantFarms takes (not imported: farms imports this module).
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`farms:${tenantId}`}, 0))`);
    const farms = await queryRows<{ id: string }>(
      tx,
      sql`SELECT id FROM farms WHERE tenant_id = ${tenantId} ${s.after_farm ? sql`AND id > ${s.after_farm}` : sql``} ORDER BY id LIMIT ${batch}`,
    );
    const r = await syncVerdicts(
      tx,
      tenantId,
      farms.map((f) => f.id),
    );
    const finished = farms.length < batch;
    if (finished) await tx.execute(sql`DELETE FROM farm_verdict_sweeps WHERE tenant_id = ${tenantId}`);
    else await tx.execute(sql`UPDATE farm_verdict_sweeps SET after_farm = ${farms[farms.length - 1]!.id} WHERE tenant_id = ${tenantId}`);
    return { tenantId, farms: r.farms, changed: r.changed, finished };
  });
}

/** Runs sweep batches until none is due; returns the batches run. */
export async function sweepVerdicts(deps: Pick<Deps, 'db'>, batch = VERDICT_BATCH): Promise<number> {
  let n = 0;
  verdictHint.wake = false;
  try {
    while (await sweepVerdictsStep(deps, batch)) n++;
  } catch (err) {
    verdictHint.wake = true;
    throw err;
  }
  return n;
}
