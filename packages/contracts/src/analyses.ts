// Custom farm analysis: the create payloads (JSON; multipart carries the same fields plus a file), the analysis with its
// four result categories as {count, url}, and the farm rows the category lists return.
import { z } from 'zod';
import { listOf, pageNumber, pageSize, text, uuid } from './common.js';
import { plotRiskLevel, plotRiskReasonItem, referenceLayerKind, screeningFigure } from './reference-layers.js';

/** Stable codes of the row errors (docs/design-rules.md, "Custom analysis"). */
export const analysisRowErrorCode = z.enum([
  'name_missing',
  'coordinates_missing',
  'coordinates_unreadable',
  'too_few_positions',
  'too_many_positions',
  'position_out_of_range',
  'invalid_polygon',
  'below_minimum_size',
  'unknown_operational_area',
  // Issue 16: a value PostgreSQL cannot store (NUL, an unpaired UTF-16 surrogate), nested too deep, an edge of 180° of
  // longitude or more (antipodal or across a pole), a polygon PostGIS itself refuses, or a plot among too many others.
  'invalid_characters',
  'value_too_deep',
  'edge_too_long',
  'geometry_rejected',
  'overlap_too_dense',
  // Issue 13: a readable geometry of a kind a farm cannot be (a LineString, a FeatureCollection in one cell, …).
  'unsupported_geometry',
]);
export type AnalysisRowErrorCode = z.infer<typeof analysisRowErrorCode>;

export const analysisRowError = z.object({ field: z.string(), code: analysisRowErrorCode, message: z.string() });
export type AnalysisRowError = z.infer<typeof analysisRowError>;

/**
 * Stable codes of the row warnings (issue 28): a repair or a doubtful input. The row is analysed all the same.
 * - ring_closed: a ring's last position was not its first; it was closed for you (the EU information system refuses it).
 * - duplicate_vertices_removed: a position repeated its predecessor; the repeat was dropped.
 * - fewer_than_6_decimals: no coordinate of the row has 6 decimals or more (coarser than ~0.1 m; the EUDR asks for 6).
 * - point_not_polygon: a point, not a polygon (no area; the EUDR accepts one only for plots up to 4 ha).
 * Issue 29, the EU information system's geolocation checks (docs/decisions/0074-eudr-geolocation-checks.md):
 * - has_holes: a polygon with interior rings (the EU system refuses them; split the plot into parts).
 * - point_over_4ha: a point whose declared area (an area column) is 4 ha or more: such a plot needs a polygon.
 * - outside_country: the file gives a country (column or property) and no position of the plot lies in it or within
 *   5 km of its boundary (Natural Earth 1:50m): a plot in another country, or latitude and longitude swapped.
 * - area_mismatch: the declared area (an area column, ha or m²) differs from the computed geodesic area by more than
 *   10 % of the computed area and more than 0.05 ha.
 */
export const analysisRowWarningCode = z.enum([
  'ring_closed',
  'duplicate_vertices_removed',
  'fewer_than_6_decimals',
  'point_not_polygon',
  'has_holes',
  'point_over_4ha',
  'outside_country',
  'area_mismatch',
]);
export type AnalysisRowWarningCode = z.infer<typeof analysisRowWarningCode>;

export const analysisStatus = z.enum(['queued', 'processing', 'completed', 'failed']);
export type AnalysisStatus = z.infer<typeof analysisStatus>;

/** One input row: farm_name, farm_coordinates and operational_area_id are read; any other key is kept in row_data. */
export const analysisLocation = z.record(z.string(), z.unknown());

/** Reference layers one analysis may screen its rows against (issue 29). */
export const MAX_ANALYSIS_LAYERS = 10;
export const analysisReferenceLayerIds = z
  .array(z.uuid('Each reference layer must be an id'))
  .max(MAX_ANALYSIS_LAYERS, `Choose at most ${MAX_ANALYSIS_LAYERS} reference layers`);

/** The JSON create payload ("Upload via Endpoint"). */
export const createAnalysisBody = z.object({
  /** Optional: an unnamed analysis is called after its upload ("Endpoint upload" with the date). */
  name: text().trim().max(200).nullish(),
  description: text({ multiline: true }).max(2000).nullish(),
  operational_areas: z.array(uuid).min(1, 'Choose at least one operational area').max(1000),
  locations: z.array(analysisLocation).min(1, 'Send at least one location').max(100_000, 'At most 100,000 locations per analysis'),
  minimum_farm_size: z.coerce.number().min(0).max(1e12).optional(),
  require_farm_recognition: z.boolean().optional(),
  /** A follow-up (the Failed Data modal's 'Re-analyse fixed rows'): the analysis it re-analyses, of the same tenant. */
  parent_analysis_id: z.uuid('parent_analysis_id must be an analysis id').nullish(),
  /** Issue 29: reference layers (the provider's or the tenant's own, with a version in use) to screen each row against. */
  reference_layer_ids: analysisReferenceLayerIds.optional(),
});
export type CreateAnalysisBody = z.infer<typeof createAnalysisBody>;

export const analysisCategoryRef = z.object({ count: z.number().int(), url: z.string() });

export const analysisErrorRow = z.object({
  row_number: z.number().int(),
  row_data: z.record(z.string(), z.unknown()),
  errors: z.array(analysisRowError),
});
export type AnalysisErrorRow = z.infer<typeof analysisErrorRow>;

/** A reference layer an analysis screens against (issue 29). */
export const analysisReferenceLayer = z.object({
  id: uuid,
  name: z.string(),
  kind: referenceLayerKind,
  owner: z.enum(['provider', 'tenant']),
  version: z.number().int().nullable(),
});
export type AnalysisReferenceLayer = z.infer<typeof analysisReferenceLayer>;

/**
 * A row's plot-risk verdict (docs/decisions/0072-eudr-plot-risk.md) with its reasons and its figure per screened layer:
 * the registry screening's shape (geodesic overlap m², share of the row's area), layer_version the pinned one and
 * computed_at when the run pinned it.
 */
export const analysisRowRisk = z.object({ level: plotRiskLevel, reasons: z.array(plotRiskReasonItem), figures: z.array(screeningFigure) });
export type AnalysisRowRisk = z.infer<typeof analysisRowRisk>;

export const analysisSummary = z.object({
  id: uuid,
  name: z.string(),
  description: z.string().nullable(),
  status: analysisStatus,
  progress: z.number().int(),
  total_uploaded_data_count: z.number().int(),
  total_area: z.number(),
  created_at: z.string(),
  /** The analysis this one re-analyses (fixed failed rows of it); null for a first upload, or once the parent is deleted. */
  parent_analysis_id: uuid.nullable(),
});
export type AnalysisSummary = z.infer<typeof analysisSummary>;

export const analysisDetail = analysisSummary.extend({
  file: z.string().nullable(),
  /** The uploaded file's name (farms.csv, plots.geojson); null for locations sent as JSON. */
  file_name: z.string().nullable(),
  failure_reason: z.string().nullable(),
  completed_at: z.string().nullable(),
  minimum_farm_size: z.number(),
  require_farm_recognition: z.boolean(),
  recognition_threshold: z.number(),
  /** The overlap tolerance the analysis ran with (the tenant's at upload): minimum overlap area (m²) and share of the smaller plot. */
  overlap_min_area_sqm: z.number(),
  overlap_min_share: z.number(),
  operational_areas: z.array(z.object({ id: uuid, name: z.string() })),
  /**
   * Issue 29: the reference layers chosen, in order. version: the layer version the run screened against (pinned at its
   * start; null before the run starts, or when the layer was removed before it). name and kind as they were then.
   */
  reference_layers: z.array(analysisReferenceLayer),
  within_operational_area: analysisCategoryRef,
  outside_operational_area: analysisCategoryRef,
  overlapping_farmlands: analysisCategoryRef,
  unrecognized_farmlands: analysisCategoryRef,
  errors: analysisCategoryRef,
  /** Rows with at least one warning (any category; 0 until completed). */
  with_warnings: z.number().int(),
  /** Failed rows keyed by row number (at most 1,000 here; the errors list has them all). */
  error_details: z.record(z.string(), analysisErrorRow),
  error_details_truncated: z.boolean(),
  /** The analysis this one re-analyses, with its name (the results page links it). */
  parent_analysis: z.object({ id: uuid, name: z.string() }).nullable(),
  /** The follow-ups that re-analyse this one's fixed rows, oldest first (at most 100). */
  re_analyses: z.array(z.object({ id: uuid, name: z.string(), status: analysisStatus, created_at: z.string() })),
});
export type AnalysisDetail = z.infer<typeof analysisDetail>;

/** A farm's full geometry as GeoJSON: a Polygon, a MultiPolygon (one farm in several parcels) or a Point (issue 13). */
export const analysisGeometry = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Polygon'), coordinates: z.array(z.array(z.array(z.number()))) }),
  z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(z.array(z.array(z.number())))) }),
  z.object({ type: z.literal('Point'), coordinates: z.array(z.number()) }),
]);
export type AnalysisGeometry = z.infer<typeof analysisGeometry>;

/**
 * One overlap of a row with another row of the upload (issue 28), from this row's side: the intersection's area (m²,
 * geodesic), its share of this row and of the other, and intersection over union. `sliver`: under the analysis's overlap
 * tolerance ("touching or sliver"), shown but not grouped.
 */
export const analysisOverlap = z.object({
  row_number: z.number().int(),
  area_sqm: z.number(),
  share_of_this: z.number(),
  share_of_other: z.number(),
  iou: z.number(),
  sliver: z.boolean(),
});
export type AnalysisOverlap = z.infer<typeof analysisOverlap>;

/** Overlaps listed per row (grouped ones first, then by area). */
export const ANALYSIS_OVERLAPS_PER_ROW = 20;

/** A farm of a result list. overlapping_id is set only on overlapping farms: one id per connected group. */
export const analysisFarm = z.object({
  row_number: z.number().int(),
  name: z.string().nullable(),
  /**
   * The outer ring of a Polygon, as before issue 13; for a MultiPolygon the outer ring of its first part, for a Point the
   * one position. `geometry` is the full geometry.
   */
  coordinates: z.array(z.array(z.number())),
  geometry: analysisGeometry.nullable(),
  area: z.number().nullable(),
  hectares: z.number().nullable(),
  operational_area: z.string().nullable(),
  operational_area_id: uuid.nullable(),
  covered_fraction: z.number().nullable(),
  category: z.enum(['within', 'outside', 'error']),
  is_overlapping: z.boolean(),
  is_unrecognized: z.boolean(),
  overlapping_id: z.number().int().nullable(),
  /** Size of the overlap group ("{count} conflicting farmlands"); null when not overlapping. */
  group_size: z.number().int().nullable(),
  row_data: z.record(z.string(), z.unknown()),
  errors: z.array(analysisRowError),
  /** The row's warnings (issue 28); empty for a clean row. */
  warnings: z.array(analysisRowWarningCode),
  /** Its overlaps with other rows, slivers included (at most ANALYSIS_OVERLAPS_PER_ROW). */
  overlaps: z.array(analysisOverlap),
  /** Issue 29: the verdict against the analysis's reference layers; null without layers, or for a row without a geometry. */
  risk: analysisRowRisk.nullable(),
});
export type AnalysisFarm = z.infer<typeof analysisFarm>;

/** GET /custom-analysis/{id}/map/: every analysed row with a polygon, compact, for the result map (bbox narrows it). */
export const ANALYSIS_MAP_LIMIT = 20_000;
export const analysisMapQuery = z.object({
  /** minLng,minLat,maxLng,maxLat: only rows whose box meets it (the console asks for its view when the whole is too large). */
  bbox: z.preprocess(
    (v) => (v === '' ? undefined : v),
    text()
      .max(200)
      .transform((v, ctx) => {
        const parts = v.split(',').map((x) => Number(x.trim()));
        const [a, b, c, d] = parts;
        if (
          parts.length !== 4 ||
          !parts.every(Number.isFinite) ||
          Math.abs(a!) > 180 ||
          Math.abs(c!) > 180 ||
          Math.abs(b!) > 90 ||
          Math.abs(d!) > 90 ||
          a! >= c! ||
          b! >= d!
        ) {
          ctx.addIssue({ code: 'custom', message: 'bbox must be minLng,minLat,maxLng,maxLat in degrees with min < max' });
          return z.NEVER;
        }
        return [a!, b!, c!, d!] as [number, number, number, number];
      })
      .optional(),
  ),
});
export const analysisMapFeature = z.object({
  row_number: z.number().int(),
  name: z.string().nullable(),
  category: z.enum(['within', 'outside']),
  is_overlapping: z.boolean(),
  is_unrecognized: z.boolean(),
  operational_area: z.string().nullable(),
  area: z.number().nullable(),
  /** Polygon rings of [lng, lat], 6 decimals (a MultiPolygon: its first part's; a Point: [[[lng, lat]]]). */
  coordinates: z.array(z.array(z.array(z.number()))),
  /** Issue 13: the row's geometry type (absent means Polygon). */
  type: z.enum(['Polygon', 'MultiPolygon', 'Point']).optional(),
  /** A MultiPolygon's parts, each as Polygon rings (the full geometry); absent for other types. */
  parts: z.array(z.array(z.array(z.array(z.number())))).optional(),
  /** Issue 28: the row's warnings; absent when it has none (the map stays lean). */
  warnings: z.array(analysisRowWarningCode).optional(),
  /** Issue 29: the row's plot-risk verdict; absent when the analysis chose no reference layer. */
  risk_level: plotRiskLevel.optional(),
});
export type AnalysisMapFeature = z.infer<typeof analysisMapFeature>;
export const analysisMap = z.object({
  /** Rows with a polygon in the analysis (or in the bbox). */
  count: z.number().int(),
  /** True when count is above the limit: features holds the first ANALYSIS_MAP_LIMIT rows; ask again with bbox. */
  truncated: z.boolean(),
  features: z.array(analysisMapFeature),
});
export type AnalysisMap = z.infer<typeof analysisMap>;

export const analysisListKind = z.enum(['within', 'outside', 'overlapping', 'unrecognized', 'errors']);
export type AnalysisListKind = z.infer<typeof analysisListKind>;

/** GET /custom-analysis/{id}/export/: one category of the results as CSV or GeoJSON. */
export const analysisExportQuery = z.object({
  category: analysisListKind,
  format: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['csv', 'geojson'], { error: 'format must be csv or geojson' }).default('csv')),
});
export type AnalysisExportQuery = z.infer<typeof analysisExportQuery>;

/**
 * A result list: by page number (pages start within its first 10,000 rows), or by cursor (issue 28): `after` is the
 * row_number of the last row read (0 to start), and each page's `next` link carries the next cursor, so a category of
 * any size is read whole. With `after`, `page` must be 1 (or absent).
 */
export const analysisFarmsQuery = z.object({
  page: pageNumber,
  page_size: pageSize,
  after: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce
      .number({ error: 'after must be a row number' })
      .int('after must be a row number')
      .min(0, 'after must be a row number (0 or more)')
      .max(2_147_483_647, 'after must be a row number')
      .optional()
      .describe(
        "Cursor: the row_number of the last row read (0 for the start). The page holds the rows after it in the list's order (row number; overlapping: group, then row number), and `next` carries the cursor of the next page (null at the end).",
      ),
  ),
});
export type AnalysisFarmsQuery = z.infer<typeof analysisFarmsQuery>;

/** A page of a result list: the list envelope, and with a cursor (`after`), `next_after`: the next page's cursor, or null at the end. */
export const analysisFarmPage = listOf(analysisFarm).extend({
  next_after: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe("With `after`: the cursor of the next page (the row_number of this page's last row), or null when this page ends the list."),
});
