// Analysis rows → the API shapes of packages/contracts/src/analyses.ts: an explicit whitelist, with the result lists as
// full URLs (config.publicUrl) so that the console can fetch them as given.
import type {
  AnalysisDetail,
  AnalysisErrorRow,
  AnalysisFarm,
  AnalysisOverlap,
  AnalysisRowError,
  AnalysisRowRisk,
  AnalysisRowWarningCode,
  AnalysisSummary,
  ReferenceLayerKind,
} from '@farmland/contracts';
import type { RowOverlap } from './analyses.overlap.queries.js';
import type { AnalysisLink, AnalysisRow, FarmRow, StoredRiskJson } from './analyses.queries.js';

const iso = (d: string | Date | null): string | null => (d === null ? null : new Date(d).toISOString());

export function presentSummary(a: AnalysisRow): AnalysisSummary {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    status: a.status,
    progress: a.progress,
    total_uploaded_data_count: a.total_uploaded_data_count,
    total_area: a.total_area,
    created_at: iso(a.created_at)!,
    parent_analysis_id: a.parent_analysis_id,
  };
}

export const listUrl = (publicUrl: string, id: string, kind: string) => `${publicUrl}/api/custom-analysis/${id}/${kind}/`;

export function presentDetail(
  a: AnalysisRow,
  ctx: {
    publicUrl: string;
    fileUrl: string | null;
    areas: Array<{ id: string; name: string }>;
    layers: ReadonlyArray<{ id: string; name: string; kind: ReferenceLayerKind; owner: 'provider' | 'tenant'; version: number | null }>;
    errorRows: Array<{ row_number: number; row_data: Record<string, unknown>; errors: unknown }>;
    links: { parent: AnalysisLink | null; children: AnalysisLink[] };
  },
): AnalysisDetail {
  const done = a.status === 'completed';
  const ref = (count: number, kind: string) => ({ count: done ? count : 0, url: listUrl(ctx.publicUrl, a.id, kind) });
  const error_details: Record<string, AnalysisErrorRow> = {};
  for (const r of ctx.errorRows) {
    error_details[String(r.row_number)] = { row_number: r.row_number, row_data: r.row_data, errors: (r.errors ?? []) as AnalysisRowError[] };
  }
  return {
    ...presentSummary(a),
    file: ctx.fileUrl,
    file_name: a.source_file_name ?? null,
    failure_reason: a.failure_reason,
    completed_at: iso(a.completed_at),
    minimum_farm_size: a.minimum_farm_size,
    require_farm_recognition: a.require_farm_recognition,
    recognition_threshold: a.recognition_threshold,
    overlap_min_area_sqm: Number(a.overlap_min_area_sqm),
    overlap_min_share: Number(a.overlap_min_share),
    operational_areas: ctx.areas,
    reference_layers: ctx.layers.map((l) => ({ id: l.id, name: l.name, kind: l.kind, owner: l.owner, version: l.version })),
    within_operational_area: ref(a.within_count, 'within'),
    outside_operational_area: ref(a.outside_count, 'outside'),
    overlapping_farmlands: ref(a.overlapping_count, 'overlapping'),
    unrecognized_farmlands: ref(a.unrecognized_count, 'unrecognized'),
    errors: ref(a.error_count, 'errors'),
    with_warnings: done ? a.warning_count : 0,
    error_details,
    error_details_truncated: done && a.error_count > ctx.errorRows.length,
    parent_analysis: ctx.links.parent ? { id: ctx.links.parent.id, name: ctx.links.parent.name } : null,
    re_analyses: ctx.links.children.map((c) => ({ id: c.id, name: c.name, status: c.status, created_at: iso(c.created_at)! })),
  };
}

/** The console's `coordinates`: a Polygon's outer ring, a MultiPolygon's first outer ring, a Point's one position. */
function ringOf(g: FarmRow['geometry']): number[][] {
  if (!g) return [];
  if (g.type === 'Point') return [g.coordinates];
  if (g.type === 'MultiPolygon') return g.coordinates[0]?.[0] ?? [];
  return g.coordinates[0] ?? [];
}

/** A chosen layer the run screened against (pinned version), in the analysis's order: the figures' columns. */
export type ScreenedLayer = { id: string; name: string; kind: ReferenceLayerKind; owner: 'provider' | 'tenant'; version: number; pinned_at: string };

/** The layers a run screened against (a pinned version), in order: the stored figures' order. */
export const screenedLayers = (
  layers: ReadonlyArray<Omit<ScreenedLayer, 'version' | 'pinned_at'> & { version: number | null; pinned_at: Date | string | null }>,
): ScreenedLayer[] =>
  layers.flatMap((l) =>
    l.version === null ? [] : [{ id: l.id, name: l.name, kind: l.kind, owner: l.owner, version: l.version, pinned_at: iso(l.pinned_at) ?? '' }],
  );

/** A row's verdict with its figures named by layer (issue 29); null without one. */
export function presentRisk(level: AnalysisRowRisk['level'] | null, risk: StoredRiskJson | null, layers: readonly ScreenedLayer[]): AnalysisRowRisk | null {
  if (!level || !risk) return null;
  return {
    level,
    reasons: risk.r ?? [],
    figures: layers.map((l, i) => ({
      layer_id: l.id,
      layer_name: l.name,
      kind: l.kind,
      owner: l.owner,
      layer_version: l.version,
      overlap_sqm: Number(risk.o?.[i] ?? 0),
      share: Number(risk.s?.[i] ?? 0),
      computed_at: l.pinned_at,
    })),
  };
}

export function presentFarm(r: FarmRow, overlaps: AnalysisOverlap[] = [], layers: readonly ScreenedLayer[] = []): AnalysisFarm {
  return {
    row_number: r.row_number,
    name: r.farm_name,
    coordinates: ringOf(r.geometry),
    geometry: r.geometry,
    area: r.area_sqm,
    hectares: r.area_sqm === null ? null : r.area_sqm / 10_000,
    operational_area: r.operational_area,
    operational_area_id: r.operational_area_id,
    covered_fraction: r.covered_fraction,
    category: r.category,
    is_overlapping: r.is_overlapping,
    is_unrecognized: r.is_unrecognized,
    overlapping_id: r.is_overlapping ? r.overlapping_id : null,
    group_size: r.group_size,
    row_data: r.row_data,
    errors: (r.errors ?? []) as AnalysisRowError[],
    warnings: (r.warnings ?? []) as AnalysisRowWarningCode[],
    overlaps,
    risk: presentRisk(r.risk_level, r.risk, layers),
  };
}

/** A page's overlap pairs, by row number, from each row's side. */
export function presentOverlaps(pairs: RowOverlap[]): Map<number, AnalysisOverlap[]> {
  const out = new Map<number, AnalysisOverlap[]>();
  for (const p of pairs) {
    const list = out.get(p.n) ?? [];
    list.push({
      row_number: p.other,
      area_sqm: Number(p.area_sqm),
      share_of_this: Number(p.share_this),
      share_of_other: Number(p.share_other),
      iou: Number(p.iou),
      sliver: p.is_sliver,
    });
    out.set(p.n, list);
  }
  return out;
}
