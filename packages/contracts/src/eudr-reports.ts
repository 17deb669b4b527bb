// The tenant's EUDR readiness reports (issue 29): plots by plot-risk verdict and by geolocation warning, per
// operational area and per agent, with the trend by capture month; the plots needing action (paged, and as csv); the
// due-diligence report of a chosen set of plots; and, for provider staff, each tenant's readiness.
import { z } from 'zod';
import { emptyToUndefined, pageNumber, pageSize, text, uuid } from './common.js';
import { EUDR_WARNINGS } from './farms.js';
import { polygonGeoJson } from './geometry.js';
import { PLOT_RISK_LEVELS, plotRiskLevel, plotRiskReasonItem, referenceLayerKind } from './reference-layers.js';

export const eudrWarning = z.enum(EUDR_WARNINGS, { error: `warning must be one of ${EUDR_WARNINGS.join(', ')}` });

/** The most plots one due-diligence report holds: past it, the request names the field that chose them (400). */
export const DUE_DILIGENCE_MAX_PLOTS = 500;

/** Counts of one group of plots: by verdict, with a warning, and ready (verdict low and no warning). */
export const readinessCounts = z.object({
  plots: z.number().int(),
  /** Plots with a figure for every layer that applies to the tenant (and at least one layer applies). */
  screened: z.number().int(),
  low: z.number().int(),
  review: z.number().int(),
  high: z.number().int(),
  /** Plots with at least one geolocation warning. */
  with_warnings: z.number().int(),
  /** Verdict low and no geolocation warning: nothing to do before a due-diligence statement. */
  ready: z.number().int(),
});
export type ReadinessCounts = z.infer<typeof readinessCounts>;

/** Plots per geolocation warning code (a plot may count under several). */
export const warningCounts = z.object({
  has_holes: z.number().int(),
  invalid_geometry: z.number().int(),
  low_precision: z.number().int(),
  point_over_4ha: z.number().int(),
  outside_country: z.number().int(),
});

const group = readinessCounts.extend({ id: uuid.nullable(), name: z.string() });

export const eudrReadinessSummary = readinessCounts.extend({
  by_warning: warningCounts,
  /** Per operational area; id null: plots outside every area. */
  by_area: z.array(group),
  /** Per agent who mapped the plots; id null: plots not mapped by an agent (admins, imports). */
  by_agent: z.array(group),
  /** Verdicts by the month the plot was captured (UTC, YYYY-MM), the last 24 months with plots, oldest first. */
  trend: z.array(
    z.object({
      month: z.string(),
      plots: z.number().int(),
      low: z.number().int(),
      review: z.number().int(),
      high: z.number().int(),
      with_warnings: z.number().int(),
    }),
  ),
  /** Layers in use that apply to the tenant (none: every plot is "review", nothing shows it was not forest). */
  layers: z.number().int(),
});
export type EudrReadinessSummary = z.infer<typeof eudrReadinessSummary>;

const optUuid = (field: string) => z.preprocess(emptyToUndefined, z.uuid({ error: `${field} must be an id` }).optional());

/** Filters of the plots needing action (verdict review or high, or any warning). */
export const eudrPlotsFilter = z.object({
  area_id: optUuid('area_id'),
  agent_id: optUuid('agent_id'),
  verdict: z.preprocess(emptyToUndefined, z.enum(PLOT_RISK_LEVELS, { error: 'verdict must be low, review or high' }).optional()),
  warning: z.preprocess(emptyToUndefined, eudrWarning.optional()),
  /** Part of the farm's or the farmer's name (any case). */
  search: z.preprocess(emptyToUndefined, text().trim().max(200).optional()),
});
export const eudrPlotsQuery = eudrPlotsFilter.extend({ page: pageNumber, page_size: pageSize });
export type EudrPlotsQuery = z.infer<typeof eudrPlotsQuery>;
export type EudrPlotsFilter = z.infer<typeof eudrPlotsFilter>;

export const eudrPlot = z.object({
  farm_id: uuid,
  farm_name: z.string(),
  farmer_id: uuid,
  farmer: z.string(),
  area_id: uuid.nullable(),
  area_name: z.string().nullable(),
  agent_id: uuid.nullable(),
  agent_name: z.string().nullable(),
  area_sqm: z.number(),
  captured_at: z.string(),
  verdict: plotRiskLevel,
  reasons: z.array(plotRiskReasonItem),
  warnings: z.array(eudrWarning),
});
export type EudrPlot = z.infer<typeof eudrPlot>;

/** A due-diligence report's plots: an operational area's, or named farms (comma-separated ids, at most 500). */
export const dueDiligenceQuery = z
  .object({
    area_id: optUuid('area_id'),
    farm_ids: z.preprocess(
      (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.split(',').map((s) => s.trim())) : emptyToUndefined(v)),
      z
        .array(z.uuid({ error: 'farm_ids must be farm ids separated by commas' }))
        .min(1)
        .max(DUE_DILIGENCE_MAX_PLOTS, `farm_ids: at most ${DUE_DILIGENCE_MAX_PLOTS} plots in one report`)
        .optional(),
    ),
  })
  .refine((q) => (q.area_id === undefined) !== (q.farm_ids === undefined), {
    message: 'Choose the plots: an operational area (area_id) or farms (farm_ids), one of them',
    path: ['area_id'],
  });
export type DueDiligenceQuery = z.infer<typeof dueDiligenceQuery>;

export const dueDiligenceFigure = z.object({ layer_id: uuid, layer_name: z.string(), kind: referenceLayerKind, overlap_sqm: z.number(), share: z.number() });

export const dueDiligencePlot = eudrPlot.extend({ polygon: polygonGeoJson, figures: z.array(dueDiligenceFigure) });
export type DueDiligencePlot = z.infer<typeof dueDiligencePlot>;

export const dueDiligenceReport = z.object({
  generated_at: z.string(),
  tenant_name: z.string(),
  selection: z.object({ kind: z.enum(['area', 'farms']), area_id: uuid.nullable(), area_name: z.string().nullable(), requested: z.number().int() }),
  summary: readinessCounts.extend({ area_sqm: z.number(), by_warning: warningCounts }),
  /** The layers the verdicts were read against: name, kind, owner, reference date, source and version. */
  layers: z.array(
    z.object({
      id: uuid,
      name: z.string(),
      kind: referenceLayerKind,
      owner: z.enum(['provider', 'tenant']),
      reference_date: z.string(),
      source: z.string(),
      version: z.number().int(),
    }),
  ),
  plots: z.array(dueDiligencePlot),
});
export type DueDiligenceReport = z.infer<typeof dueDiligenceReport>;

/** Provider staff: each tenant's readiness. */
export const tenantReadiness = z.object({
  results: z.array(readinessCounts.extend({ tenant_id: uuid, tenant_name: z.string(), layers: z.number().int(), ready_share: z.number() })),
});
export type TenantReadiness = z.infer<typeof tenantReadiness>;
