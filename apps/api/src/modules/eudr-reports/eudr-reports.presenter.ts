// A plot of the readiness reports as the API gives it: an explicit whitelist of its fields, its verdict and warnings;
// the due-diligence report adds the polygon and the figures per layer; the csv line of the needing-action export.
import type { DueDiligencePlot, EudrPlot, EudrWarning, PlotRisk } from '@farmland/contracts';
import type { PlotRow } from './eudr-reports.queries.js';

export type Evaluated = { row: PlotRow; verdict: PlotRisk; warnings: EudrWarning[]; screened: boolean };

export function presentPlot(e: Evaluated): EudrPlot {
  const r = e.row;
  return {
    farm_id: r.id,
    farm_name: r.name,
    farmer_id: r.farmer_id,
    farmer: r.farmer,
    area_id: r.area_id,
    area_name: r.area_name,
    agent_id: r.agent_id,
    agent_name: r.agent_name,
    area_sqm: r.area_sqm,
    captured_at: r.created_at,
    verdict: e.verdict.level,
    reasons: e.verdict.reasons,
    warnings: e.warnings,
  };
}

export function presentEvidence(e: Evaluated): DueDiligencePlot {
  return {
    ...presentPlot(e),
    polygon: JSON.parse(e.row.geometry) as DueDiligencePlot['polygon'],
    figures: e.row.figures.map((f) => ({ layer_id: f.layer_id, layer_name: f.layer_name, kind: f.kind, overlap_sqm: f.overlap_sqm, share: f.share })),
  };
}

export const PLOTS_CSV_HEADER = [
  'farm_id',
  'farm_name',
  'farmer',
  'operational_area',
  'agent',
  'area_ha',
  'captured_at',
  'verdict',
  'reasons',
  'warnings',
] as const;

export function plotCsvCells(p: EudrPlot): Array<string | number> {
  return [
    p.farm_id,
    p.farm_name,
    p.farmer,
    p.area_name ?? '',
    p.agent_name ?? '',
    Math.round(p.area_sqm) / 10_000,
    p.captured_at,
    p.verdict,
    p.reasons.map((r) => r.message).join('; '),
    p.warnings.join(';'),
  ];
}
