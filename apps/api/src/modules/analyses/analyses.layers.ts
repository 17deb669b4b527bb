// The reference-layer step of an analysis run (issue 29): after the rows are classified and grouped, each row with a
// geometry is measured against every chosen layer (overlap m² and share of the row, by the registry screening's own SQL)
// and judged by the tenant's plot-risk tree (reference-layers/plot-risk.ts). The layers' versions in use are pinned at
// the step's start; if one is replaced or removed before the step ends, the step starts over with the new versions, so
// no analysis mixes two versions of a layer. Rows are read in row-number ranges, one figures statement and one write a
// range, sized by time like the run's other statements: memory holds one range, whatever the analysis's size.
import type { PlotRiskSettings, PlotRiskReasonItem } from '@farmland/contracts';
import type { Executor } from '../../db/client.js';
import { plotRisk, type RiskFigure } from '../reference-layers/plot-risk.js';
import { riskSettingsOf } from '../reference-layers/reference-layers.service.js';
import { layersInUse } from '../reference-layers/reference-layers.screening.js';
import * as qr from './analyses.run.queries.js';

/** Runs fn in a short transaction of the run's scope (the pipeline's `run`: rows=true writes the analysis's rows). */
export type RunStatement = <T>(fn: (tx: Executor) => Promise<T>, rows?: boolean) => Promise<T>;

/** Times the step starts over when a layer changes under it, before it gives up (a layer replaced three times in one run). */
export const LAYER_STEP_ATTEMPTS = 3;

export class LayersChanged extends Error {}

/** The stored verdict of one row: its level, reasons, and per pinned layer its overlap (m²) and share. */
export function judgeRow(
  row: qr.RowOverlaps,
  layers: ReadonlyArray<{ id: string; name: string; kind: RiskFigure['kind'] }>,
  settings: PlotRiskSettings,
  opts: { pendingLayers: number; hasForestLayer: boolean },
): qr.StoredRisk {
  const shares = row.o.map((sqm) => (row.a > 0 ? Math.min(1, sqm / row.a) : 0));
  const figures: RiskFigure[] = layers.map((l, i) => ({ layer_id: l.id, layer_name: l.name, kind: l.kind, overlap_sqm: row.o[i] ?? 0, share: shares[i] ?? 0 }));
  const verdict = plotRisk(figures, settings, opts);
  return { n: row.n, level: verdict.level, risk: { r: verdict.reasons satisfies PlotRiskReasonItem[], o: row.o, s: shares } };
}

/**
 * Screens every analysed row of the analysis against its chosen layers and stores each verdict. `maxRow`: the highest
 * row number. `batchRows` and `batchMs` size the ranges. `beat` is called between ranges (the run's claim check).
 */
export async function screenAnalysisRows(
  run: RunStatement,
  tenantId: string,
  id: string,
  maxRow: number,
  tuning: { batchRows: number; batchMs?: number },
  beat: () => void,
): Promise<{ layers: number; rows: number; attempts: number }> {
  const chosen = await run((tx) => qr.analysisLayers(tx, tenantId, id));
  if (chosen.length === 0) return { layers: 0, rows: 0, attempts: 0 };
  const ids = chosen.map((l) => l.id);
  for (let attempt = 1; ; attempt++) {
    const { inUse, settings } = await run(async (tx) => {
      const inUse = await layersInUse(tx, tenantId, ids);
      await qr.pinAnalysisLayers(tx, tenantId, id, inUse);
      return { inUse, settings: await riskSettingsOf(tx, tenantId) };
    });
    // The chosen order, layers gone left out (each counts as a layer without a figure: "not screened").
    const byId = new Map(inUse.map((l) => [l.id, l]));
    const pinned = ids.map((x) => byId.get(x)).filter((l): l is NonNullable<typeof l> => l !== undefined);
    const opts = { pendingLayers: chosen.length - pinned.length, hasForestLayer: pinned.some((l) => l.kind === 'forest_2020') };
    /**
     * The figures of rows [from, to): GEOS's floating overlay (PostgreSQL's own figure). A range the engine dropped (see
     * rowOverlaps) is halved until the row is found, and that row alone is measured on the 1e-12° grid.
     */
    const measure = async (from: number, to: number): Promise<qr.RowOverlaps[]> => {
      const exact = await run((tx) => qr.rowOverlaps(tx, tenantId, id, pinned, from, to, false));
      if (exact) return exact;
      if (to - from <= 1) {
        const snapped = await run((tx) => qr.rowOverlaps(tx, tenantId, id, pinned, from, to, true));
        if (!snapped) throw new Error(`row ${from} could not be measured against the reference layers`);
        return snapped;
      }
      const mid = from + Math.floor((to - from) / 2);
      return [...(await measure(from, mid)), ...(await measure(mid, to))];
    };
    let rows = 0;
    let size = Math.max(50, Math.round(tuning.batchRows / 2));
    for (let from = 1; from <= maxRow;) {
      beat();
      const to = from + size;
      const t0 = performance.now();
      const figures = pinned.length > 0 ? await measure(from, to) : await run((tx) => qr.rowsWithGeometry(tx, tenantId, id, from, to));
      const risks = figures.map((r) => judgeRow(r, pinned, settings, opts));
      await run((tx) => qr.setRowRisks(tx, tenantId, id, risks), true);
      rows += risks.length;
      const ms = Math.max(1, performance.now() - t0);
      from = to;
      size = Math.max(50, Math.min(tuning.batchRows * 4, Math.round(size * Math.min(2, Math.max(0.25, (tuning.batchMs ?? 200) / ms)))));
    }
    // Versions only grow: the same versions now as at the start mean that every range read the pinned ones whole.
    const now = await run((tx) => layersInUse(tx, tenantId, ids));
    const same = now.length === pinned.length && now.every((l) => byId.get(l.id)?.version === l.version);
    if (same) return { layers: pinned.length, rows, attempts: attempt };
    if (attempt >= LAYER_STEP_ATTEMPTS) throw new LayersChanged(`a reference layer of the analysis was replaced ${attempt} times while it ran; run it again`);
  }
}
