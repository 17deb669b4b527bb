// Reference layers for EUDR due diligence (issue 29): provider layers every tenant screens against, a tenant's own
// layers, their load progress, and the per-farm screening figures with the plot-risk verdict.
import { z } from 'zod';
import { emptyToUndefined, text, uuid } from './common.js';

export const REFERENCE_LAYER_KINDS = ['forest_2020', 'tree_cover_loss', 'protected_area', 'indigenous_land', 'concession', 'other'] as const;
export const referenceLayerKind = z.enum(REFERENCE_LAYER_KINDS, { error: `kind must be one of ${REFERENCE_LAYER_KINDS.join(', ')}` });
export type ReferenceLayerKind = z.infer<typeof referenceLayerKind>;

/** queued → loading → screening → ready; failed when the last load failed (an earlier version, if any, stays in use). */
export const REFERENCE_LAYER_STATUSES = ['queued', 'loading', 'screening', 'ready', 'failed'] as const;
export const referenceLayerStatus = z.enum(REFERENCE_LAYER_STATUSES);

const isoDate = z.iso.date({ error: 'reference_date must be a date (YYYY-MM-DD)' });

/** The multipart form of an upload (the file travels in the field "file"). */
export const createReferenceLayerFields = z.object({
  name: text().trim().min(1, 'Enter a name').max(200),
  kind: referenceLayerKind,
  reference_date: isoDate,
  source: text().trim().min(1, 'Enter the source (who published the layer)').max(500),
  licence: text().trim().min(1, 'Enter the licence the layer is published under').max(200),
  /** The feature property that names each feature (optional; only stored with the feature number otherwise). */
  name_field: text().trim().max(200).optional(),
});
export type CreateReferenceLayerFields = z.infer<typeof createReferenceLayerFields>;

/** A replacement: a new file, and optionally new details (the layer keeps its id; the swap is atomic). */
export const replaceReferenceLayerFields = createReferenceLayerFields.partial();
export type ReplaceReferenceLayerFields = z.infer<typeof replaceReferenceLayerFields>;

export const referenceLayerListQuery = z.object({
  kind: z.preprocess(emptyToUndefined, referenceLayerKind.optional()),
  /** Tenant admins: provider (shared) layers, own layers, or both (default). */
  owner: z.preprocess(emptyToUndefined, z.enum(['provider', 'tenant']).optional()),
});

export const referenceLayerProgress = z.object({
  id: uuid,
  status: referenceLayerStatus,
  /** 0–100: 0 while loading (features_loaded counts the features read: a streamed file's total is not known ahead), 50 once the version is in use, 50–100 over the screening's farm batches, 100 when ready. */
  progress: z.number().int(),
  /** Features read by the running load (or the last one). */
  features_loaded: z.number().int(),
  /** The version in use (0: none has loaded yet) and the one being loaded. */
  version: z.number().int(),
  loading_version: z.number().int().nullable(),
  error: z.string().nullable(),
  /** The feature (1-based, in file order) the error is about, when it is about one. */
  error_feature: z.number().int().nullable(),
});
export type ReferenceLayerProgress = z.infer<typeof referenceLayerProgress>;

export const referenceLayer = referenceLayerProgress.extend({
  name: z.string(),
  kind: referenceLayerKind,
  reference_date: z.string(),
  source: z.string(),
  licence: z.string(),
  /** 'provider': shared with every tenant (tenant_id null); 'tenant': the tenant's own. */
  owner: z.enum(['provider', 'tenant']),
  tenant_id: uuid.nullable(),
  filename: z.string().nullable(),
  feature_count: z.number().int(),
  /** Stored pieces (features subdivided to at most 256 vertices each). */
  piece_count: z.number().int(),
  /** Features whose geometry was invalid (self-intersections) and repaired with ST_MakeValid on load. */
  repaired_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ReferenceLayer = z.infer<typeof referenceLayer>;

// ---------- screening and plot risk ----------

export const PLOT_RISK_LEVELS = ['low', 'review', 'high'] as const;
export const plotRiskLevel = z.enum(PLOT_RISK_LEVELS);
export type PlotRiskLevel = z.infer<typeof plotRiskLevel>;

/** Reason codes of the decision tree (docs/decisions/0072-eudr-plot-risk.md). */
export const PLOT_RISK_REASONS = [
  'tree_cover_loss',
  'protected_area',
  'forest_2020',
  'indigenous_land',
  'concession',
  'no_forest_layer',
  'not_screened',
  'other_layer',
  'no_overlap',
] as const;
export const plotRiskReason = z.enum(PLOT_RISK_REASONS);
export type PlotRiskReason = z.infer<typeof plotRiskReason>;

export const screeningFigure = z.object({
  layer_id: uuid,
  layer_name: z.string(),
  kind: referenceLayerKind,
  owner: z.enum(['provider', 'tenant']),
  layer_version: z.number().int(),
  /** Geodesic overlap of the farm and the layer (the union of its features), m². */
  overlap_sqm: z.number(),
  /** overlap_sqm over the farm's geodesic area, 0–1. */
  share: z.number(),
  computed_at: z.string(),
});
export type ScreeningFigure = z.infer<typeof screeningFigure>;

export const plotRiskReasonItem = z.object({
  code: plotRiskReason,
  level: plotRiskLevel,
  message: z.string(),
  layer_id: uuid.nullable(),
});
export type PlotRiskReasonItem = z.infer<typeof plotRiskReasonItem>;

export const plotRisk = z.object({ level: plotRiskLevel, reasons: z.array(plotRiskReasonItem) });
export type PlotRisk = z.infer<typeof plotRisk>;

export const farmScreening = z.object({
  farm_id: uuid,
  figures: z.array(screeningFigure),
  /** Ready layers that apply to the farm but have no figure yet (a background screening still running). */
  pending_layers: z.array(uuid),
  verdict: plotRisk,
});
export type FarmScreening = z.infer<typeof farmScreening>;

/** The tenant's plot-risk thresholds (tenant configuration), with their safe defaults. */
export const plotRiskSettings = z.object({
  /** An overlap below this area (m²) is digitising noise and counts as none. */
  eudr_min_overlap_sqm: z.number(),
  /** Forest at the 2020 cut-off over this share of the plot → review. */
  eudr_forest_review_share: z.number(),
  /** Tree-cover loss after 2020 over this share of the plot → high. */
  eudr_loss_high_share: z.number(),
  /** A protected area over this share of the plot → high. */
  eudr_protected_high_share: z.number(),
});
export type PlotRiskSettings = z.infer<typeof plotRiskSettings>;

export const PLOT_RISK_DEFAULTS: PlotRiskSettings = {
  eudr_min_overlap_sqm: 10,
  eudr_forest_review_share: 0.01,
  eudr_loss_high_share: 0,
  eudr_protected_high_share: 0,
};

const share = (field: string) =>
  z.coerce.number({ error: 'Enter a number' }).finite().min(0, `${field} cannot be negative`).max(1, `${field} must be at most 1 (100 %)`);

export const updatePlotRiskSettingsBody = z
  .object({
    eudr_min_overlap_sqm: z.coerce.number({ error: 'Enter a number' }).finite().min(0, 'The minimum overlap area cannot be negative').max(1e9),
    eudr_forest_review_share: share('The forest share'),
    eudr_loss_high_share: share('The tree-cover loss share'),
    eudr_protected_high_share: share('The protected-area share'),
  })
  .partial()
  .strict()
  .refine(
    (v) => Object.values(v).some((x) => x !== undefined),
    'Send at least one of eudr_min_overlap_sqm, eudr_forest_review_share, eudr_loss_high_share, eudr_protected_high_share',
  );
export type UpdatePlotRiskSettingsBody = z.infer<typeof updatePlotRiskSettingsBody>;

// ---------- evidence on a map ----------

/** The most features GET /farms/{id}/screening/evidence/ returns (truncated says when more met the farm). */
export const SCREENING_EVIDENCE_MAX_FEATURES = 200;

const position = z.tuple([z.number(), z.number()]);

export const screeningEvidenceFeature = z.object({
  type: z.literal('Feature'),
  /** The layer feature, clipped to the collection's bbox (several pieces of one feature are merged back). */
  geometry: z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(z.array(position))) }),
  properties: z.object({
    layer_id: uuid,
    layer_name: z.string(),
    kind: referenceLayerKind,
    owner: z.enum(['provider', 'tenant']),
    /** The feature's number in its layer's file (1-based). */
    feature: z.number().int(),
  }),
});
export type ScreeningEvidenceFeature = z.infer<typeof screeningEvidenceFeature>;

/**
 * The reference-layer features that meet a farm (layers in use that apply to its tenant: the provider's and its own),
 * clipped to the farm's bounding box widened on each side, as GeoJSON for the farm drawer's map.
 */
export const screeningEvidence = z.object({
  type: z.literal('FeatureCollection'),
  farm_id: uuid,
  /** [west, south, east, north] of the box the features are clipped to. */
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  features: z.array(screeningEvidenceFeature),
  truncated: z.boolean(),
});
export type ScreeningEvidence = z.infer<typeof screeningEvidence>;
