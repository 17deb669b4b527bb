// The farm registry: farms with their mapping record, overlap state and snapshots; captures, retain and the map/overview reads.
import { z } from 'zod';
import { emptyToUndefined, pageQuery, text, uuid } from './common.js';
import { lngLatPair, polygonCoordinates, polygonGeoJson } from './geometry.js';
import { plotRiskLevel } from './reference-layers.js';

/** Durations as the devices send them: hh:mm:ss (hours may exceed 24). */
export const hhmmss = text()
  .trim()
  .regex(/^\d{1,4}:[0-5]\d:[0-5]\d$/, 'Use the format hh:mm:ss');

const optionalText = (max: number) => z.preprocess(emptyToUndefined, text().trim().max(max).optional());
const optionalId = z.preprocess(emptyToUndefined, uuid.optional());

/** The EU regulation lets a plot of 4 ha or less be given as one point with its declared area. */
export const POINT_PLOT_MAX_SQM = 40_000;

const jsonText = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
};

/** A point plot's centre: [longitude, latitude] in WGS84 degrees (JSON text in multipart). */
export const pointPosition = z.preprocess(
  (v) => jsonText(emptyToUndefined(v)),
  z
    .tuple([z.number(), z.number()], { error: 'point must be [longitude, latitude] in degrees' })
    .refine(
      ([lng, lat]) => Number.isFinite(lng) && Number.isFinite(lat) && Math.abs(lng) <= 180 && Math.abs(lat) <= 90,
      'point must be [longitude, latitude] within ±180 and ±90 degrees',
    )
    .optional(),
);

/** The largest declared area a capture may give: 100,000 ha, far above any one farm; a bound so that no figure derived from it overflows. */
export const DECLARED_AREA_MAX_SQM = 1_000_000_000;

/** m² (a number, or its text in multipart). */
export const declaredArea = z.preprocess(
  emptyToUndefined,
  z.coerce
    .number({ error: 'declared_area_sqm must be a number of square metres' })
    .refine(Number.isFinite, 'declared_area_sqm must be a number of square metres')
    .refine((v) => v > 0, 'declared_area_sqm must be above 0')
    .refine((v) => v <= DECLARED_AREA_MAX_SQM, `declared_area_sqm must be at most ${DECLARED_AREA_MAX_SQM} m² (100,000 ha)`)
    .optional(),
);

/**
 * The point plot's rules shared by the capture (POST /farms/), the update (PUT /farms/{id}/) and the farmers bulk upload:
 * a point needs its declared area, at most 40,000 m² (4 ha). `pointPlot` is the farm's stored point when the body gives
 * none and keeps it (an update of the declared area alone of a point plot). Each issue names its field.
 */
export function pointPlotIssues(
  b: { point?: unknown; declared_area_sqm?: number | undefined },
  pointPlot = b.point !== undefined,
): { path: string[]; message: string }[] {
  if (!pointPlot) return [];
  if (b.declared_area_sqm === undefined)
    return b.point === undefined
      ? []
      : [{ path: ['declared_area_sqm'], message: "declared_area_sqm is required with a point: the plot's declared area in m²" }];
  if (b.declared_area_sqm > POINT_PLOT_MAX_SQM)
    return [
      {
        path: ['declared_area_sqm'],
        message: `A point plot may declare at most ${POINT_PLOT_MAX_SQM} m² (4 ha): send the boundary of a larger plot as coordinates`,
      },
    ];
  return [];
}

/**
 * A capture: a farm walked by an agent (or sent through the SDK) with its mapping record. Snapshots come as image files.
 * A point plot (4 ha or less) sends `point` and `declared_area_sqm`, with or without the polygon the device drew around
 * the point: without one, the registry stores a 48-corner polygon of the declared area around the point, and the farm's
 * area is the declared area.
 */
export const captureFarmBody = z
  .object({
    farmer_id: text({ error: 'farmer_id is required' }).pipe(z.uuid('farmer_id must be a farmer id')),
    name: optionalText(200),
    /** Required unless the capture is a point plot (`point` with `declared_area_sqm`). */
    coordinates: z.preprocess(emptyToUndefined, polygonCoordinates('farm').optional()),
    /** A point plot's centre, [longitude, latitude]. */
    point: pointPosition.meta({
      description: "A point plot's centre, [longitude, latitude] (plots of 4 ha or less); needs declared_area_sqm",
      example: [3.7722, 7.6471],
    }),
    /** The area the farmer declares, m²: required with a point (at most 40,000 m², 4 ha), optional otherwise. */
    declared_area_sqm: declaredArea.meta({
      description:
        'The declared area in m²: required with point (above 0, at most 40000 = 4 ha); optional for a polygon (above 0, at most 1000000000 = 100,000 ha)',
      example: 20000,
    }),
    time_taken_to_map: z.preprocess(emptyToUndefined, hhmmss.optional()),
    gps_device_id: optionalText(100),
    location: optionalText(300),
    address: optionalText(300),
    /** Why the agent saved a capture the device warned about (overlap, outside the area, below the minimum); stored, returned in mapping_record. */
    capture_note: optionalText(500),
  })
  .superRefine((b, ctx) => {
    if (b.point === undefined && b.coordinates === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['coordinates'],
        message: 'Coordinates are required: a list of [longitude, latitude] pairs (or, for a plot of 4 ha or less, a point with declared_area_sqm)',
      });
      return;
    }
    for (const i of pointPlotIssues(b)) ctx.addIssue({ code: 'custom', ...i });
  });
export type CaptureFarmBody = z.infer<typeof captureFarmBody>;

export const updateFarmBody = z
  .object({
    farmer_id: optionalId,
    name: optionalText(200),
    coordinates: polygonCoordinates('farm').optional(),
    /** A point plot's (new) centre: with declared_area_sqm; without coordinates the boundary becomes the declared area around it. */
    point: pointPosition.meta({
      description:
        "A point plot's centre, [longitude, latitude] (plots of 4 ha or less); needs declared_area_sqm. Without coordinates, the boundary becomes a 48-corner polygon of the declared area around it",
      example: [3.7722, 7.6471],
    }),
    /** The declared area, m²: as in the capture (at most 40,000 m² for a point plot). */
    declared_area_sqm: declaredArea.meta({
      description:
        'The declared area in m²: required with point (above 0, at most 40000 = 4 ha); for a polygon above 0, at most 1000000000 = 100,000 ha. Alone on a point plot, its boundary is redrawn around the stored point',
      example: 20000,
    }),
    time_taken_to_map: z.preprocess(emptyToUndefined, hhmmss.optional()),
    gps_device_id: optionalText(100),
    location: optionalText(300),
    address: optionalText(300),
  })
  .superRefine((b, ctx) => {
    for (const i of pointPlotIssues(b)) ctx.addIssue({ code: 'custom', ...i });
  });
export type UpdateFarmBody = z.infer<typeof updateFarmBody>;

const boolText = z.preprocess((v) => (v === '' || v === undefined ? undefined : v === true || v === 'true' || v === '1'), z.boolean().optional());

export const farmsQuery = pageQuery.extend({
  /** A region id or name: the farm's operational-area region, else its farmer's region. */
  region: z.preprocess(emptyToUndefined, text().trim().max(120).optional()),
  operational_area: optionalId,
  /** Provider staff only: narrow to one tenant. */
  tenant_id: optionalId,
  all: boolText,
  /** With all=true: minLng,minLat,maxLng,maxLat. */
  bbox: z.preprocess(
    emptyToUndefined,
    text()
      .max(200)
      .transform((v, ctx) => {
        const parts = v.split(',').map((x) => Number(x.trim()));
        const [a, b, c, d] = parts;
        const ok =
          parts.length === 4 &&
          parts.every((x) => Number.isFinite(x)) &&
          Math.abs(a!) <= 180 &&
          Math.abs(c!) <= 180 &&
          Math.abs(b!) <= 90 &&
          Math.abs(d!) <= 90 &&
          a! < c! &&
          b! < d!;
        if (!ok) {
          ctx.addIssue({ code: 'custom', message: 'bbox must be minLng,minLat,maxLng,maxLat in degrees with min < max' });
          return z.NEVER;
        }
        return [a!, b!, c!, d!] as [number, number, number, number];
      })
      .optional(),
  ),
});
export type FarmsQuery = z.infer<typeof farmsQuery>;

export const tenantScopedQuery = z.object({ tenant_id: optionalId });

export const mappingRecord = z.object({
  time_taken_to_map: z.string().nullable(),
  gps_device_id: z.string().nullable(),
  location: z.string().nullable(),
  region: z.string().nullable(),
  mapped_by: z.string().nullable(),
  source: z.string(),
  coordinate: z.array(lngLatPair),
  /** The agent's reason for saving despite a device warning (capture_note), or null. */
  capture_note: z.string().nullable(),
  updated_at: z.string(),
});

export const farm = z.object({
  id: uuid,
  name: z.string(),
  location: z.string().nullable(),
  address: z.string().nullable(),
  farmer: z.string(),
  farmer_id: uuid,
  farmer_folio_id: z.string(),
  coordinates: z.array(lngLatPair),
  polygon: polygonGeoJson,
  area: z.number(),
  hectare: z.number(),
  operational_area: z.string().nullable(),
  operational_area_id: uuid.nullable(),
  operational_area_name: z.string().nullable(),
  is_overlapping: z.boolean(),
  overlap_group_id: uuid.nullable(),
  overlapping_farms: z.string().nullable(),
  flag: z.enum(['vanished', 'below_minimum']).nullable(),
  snapshots: z.array(z.string()),
  mapped_by: z.string().nullable(),
  mapping_record: mappingRecord.nullable(),
  /** A point plot's centre ([longitude, latitude]), or null for a plot captured as a polygon. */
  point: lngLatPair.nullable(),
  /** The area declared at capture (m²; a point plot's, at most 4 ha), or null. */
  declared_area_sqm: z.number().nullable(),
  tenant_id: uuid,
  /** Provider staff only (lists and details): the farm's tenant, by name. Absent for a tenant's own users. */
  tenant_name: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Farm = z.infer<typeof farm>;

/**
 * One overlap of a registry farm with another farm of its tenant (issue 28), from this farm's side: the intersection's
 * area (m², geodesic), its share of this farm and of the other, intersection over union. `sliver`: under the tenant's
 * overlap tolerance ("touching or sliver"), listed but not grouped. GET /farms/{id}/overlaps/.
 */
export const farmOverlap = z.object({
  farm_id: uuid,
  name: z.string(),
  area_sqm: z.number(),
  share_of_this: z.number(),
  share_of_other: z.number(),
  iou: z.number(),
  sliver: z.boolean(),
});
export type FarmOverlap = z.infer<typeof farmOverlap>;

/** Overlaps listed per farm (grouped ones first, then by area). */
export const FARM_OVERLAPS_LIMIT = 100;

export const farmFeatureCollection = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(
    z.object({
      type: z.literal('Feature'),
      id: uuid,
      geometry: polygonGeoJson,
      properties: z.object({
        name: z.string(),
        farmer: z.string(),
        area: z.number(),
        is_overlapping: z.boolean(),
        operational_area_id: uuid.nullable(),
        /** Issue 29: the farm's stored EUDR verdict (the map's "colour by EUDR risk"); null while it has none. */
        verdict: plotRiskLevel.nullable().optional(),
      }),
    }),
  ),
  truncated: z.boolean(),
  /** Set when truncated: how to read the rest (bbox, search or the vector tiles). */
  message: z.string().nullable(),
});

export const farmsOverview = z.object({
  total_farms: z.number().int(),
  total_within_operational_area: z.number().int(),
  total_outside_operational_area: z.number().int(),
  total_overlapping_farms: z.number().int(),
  total_unrecognized_farms: z.number().int(),
});

export const farmsPerCountry = z.array(z.object({ code: z.string(), name: z.string(), total_farms: z.number().int(), total_farmers: z.number().int() }));
export const regionalQuery = z.object({ name: text().trim().min(2, 'Give a country name').max(100), tenant_id: optionalId });
export const farmsPerState = z.array(z.object({ code: z.string(), name: z.string(), country: z.string(), total_farms: z.number().int() }));

/** GET /farms/tiles/{z}/{x}/{y}.mvt: a Web Mercator tile address; x and y must lie below 2^z. */
export const tileParams = z
  .object({
    z: z.coerce
      .number({ error: 'z must be a zoom level from 0 to 22' })
      .int('z must be a whole number')
      .min(0, 'z must be 0 to 22')
      .max(22, 'z must be 0 to 22'),
    x: z.coerce.number({ error: 'x must be a tile column' }).int('x must be a whole number').min(0, 'x must not be negative'),
    y: z.coerce.number({ error: 'y must be a tile row' }).int('y must be a whole number').min(0, 'y must not be negative'),
  })
  .superRefine((p, ctx) => {
    const n = 2 ** p.z;
    if (p.x >= n) ctx.addIssue({ code: 'custom', path: ['x'], message: `x must be below ${n} at zoom ${p.z}` });
    if (p.y >= n) ctx.addIssue({ code: 'custom', path: ['y'], message: `y must be below ${n} at zoom ${p.z}` });
  });

/** GET /farms/export/eudr: the registry as EUDR-ready geolocation (GeoJSON, CSV or KML), in numbered parts of at most 25 MB. */
export const eudrExportQuery = z.object({
  format: z.preprocess(emptyToUndefined, z.enum(['geojson', 'csv', 'kml'], { error: 'format must be geojson, csv or kml' }).default('geojson')),
  /** Farms under 4 ha as a point (their centroid), as the EU regulation allows. */
  points_below_4ha: boolText,
  /** Which part to download (1-based); the response's X-Export-Parts header says how many there are. */
  part: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int('part must be a whole number').min(1, 'part starts at 1').max(1_000_000, 'part must be at most 1000000').default(1),
  ),
  tenant_id: optionalId,
  /**
   * Issue 29: 'passing' (default) writes only plots that pass the geolocation checks the EU information system applies
   * (no holes, a valid boundary); 'all' writes every plot. Each plot carries its warning codes either way.
   */
  plots: z.preprocess(emptyToUndefined, z.enum(['passing', 'all'], { error: 'plots must be passing or all' }).default('passing')),
  /** Issue 29: a plot with holes (refused by the EU system) is written as hole-free parts (a MultiPolygon) instead. */
  split_holes: boolText,
  /**
   * Issue 29: where each plot's verdict and warnings go: 'properties' (default) as extra properties of the file (GeoJSON
   * properties, CSV columns, KML data); 'companion' leaves them out, so the file holds only the EU properties, and
   * they come in the companion CSV (file=companion).
   */
  verdicts: z
    .preprocess(emptyToUndefined, z.enum(['properties', 'companion'], { error: 'verdicts must be properties or companion' }).default('properties'))
    .describe(
      "Where each plot's verdict (risk, risk_reasons) and geolocation warnings go: 'properties' (default) as extra properties of the file; 'companion' leaves them out of it (only the EU properties) and puts them in the companion CSV (file=companion).",
    ),
  /**
   * Issue 29: 'geolocation' (default) downloads the geolocation file; 'companion' its companion CSV: one line per written
   * feature (farm_id, farm_name, part, warnings, risk, risk_reasons), for the same plots and part as the geolocation
   * file asked with the same options (parts are planned on the geolocation file).
   */
  file: z
    .preprocess(emptyToUndefined, z.enum(['geolocation', 'companion'], { error: 'file must be geolocation or companion' }).default('geolocation'))
    .describe(
      "'geolocation' (default): the geolocation file. 'companion': its companion CSV (farm_id, farm_name, part, warnings, risk, risk_reasons; one line per written feature) for the same plots and part as the geolocation file asked with the same options.",
    ),
});
export type EudrExportQuery = z.infer<typeof eudrExportQuery>;

/**
 * Geolocation warnings of a plot in the EUDR export (issue 29, item 4): has_holes (the EU system refuses polygons with
 * holes; split_holes writes them as parts), invalid_geometry (self-intersection, unclosed or degenerate rings),
 * low_precision (no coordinate has more than 5 decimals: the EU system asks for 6), point_over_4ha (a plot of 4 ha or
 * more given as a point), outside_country (no position of the plot lies in its producer country or within 5 km of the
 * country's Natural Earth 1:50m boundary: a plot in another country, or latitude and longitude swapped). Blocking ones
 * (has_holes, invalid_geometry) leave the plot out of a 'passing' export.
 */
export const EUDR_WARNINGS = ['has_holes', 'invalid_geometry', 'low_precision', 'point_over_4ha', 'outside_country'] as const;
export type EudrWarning = (typeof EUDR_WARNINGS)[number];

/** An earlier boundary of a farm (kept when it was re-mapped or cut by Retain): GET /farms/{id}/history/. */
export const farmBoundary = z.object({
  id: uuid,
  /** 'edit' (re-mapped), 'retain' (cut by another farm's Retain) or another recorded reason. */
  reason: z.string(),
  /** The farm that was retained, when reason is 'retain'. */
  retained_farm_id: uuid.nullable(),
  area: z.number(),
  hectare: z.number(),
  coordinates: z.array(lngLatPair),
  polygon: polygonGeoJson,
  created_by: z.string().nullable(),
  created_at: z.string(),
});
export type FarmBoundary = z.infer<typeof farmBoundary>;
