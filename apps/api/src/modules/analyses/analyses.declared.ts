// What a row declares beside its geometry, for the EU information system's geolocation checks (issue 29): the producer
// country and the plot's area, found by column or property name as the readers find names (canonicalKey: trimmed,
// lower case, spaces and dashes as underscores). Both stay in row_data as given; these only add warnings.
// - Country: alpha-2, alpha-3, numeric or English name (lib/country-shapes.ts); a value naming no country is not checked.
// - Area: a number, or a text number ("1.5", "1,5"). The unit is the column's: hectares unless the name says m².
//   The EU file description's own property `Area` is in hectares.
import type { AnalysisRowWarningCode } from '@farmland/contracts';
import { canonicalKey } from '../../ingest/keys.js';
import type { InputGeometry } from '../../ingest/geometry.js';
import { countryCode, outsideCountry } from '../../lib/country-shapes.js';

const COUNTRY_KEYS = new Set(['country', 'country_code', 'country_iso', 'iso2', 'producer_country', 'producercountry', 'pays', 'code_pays']);
const HA_KEYS = new Set([
  'area',
  'area_ha',
  'hectares',
  'hectare',
  'ha',
  'declared_area',
  'declared_area_ha',
  'plot_area',
  'plot_area_ha',
  'superficie',
  'superficie_ha',
  'surface_ha',
]);
const SQM_KEYS = new Set(['area_m2', 'area_m²', 'area_sqm', 'area_sq_m', 'sqm', 'm2', 'declared_area_m2', 'declared_area_sqm', 'superficie_m2', 'surface_m2']);

/** 4 ha: the EU regulation's limit above which a plot needs a polygon. */
export const FOUR_HECTARES_SQM = 40_000;
/** area_mismatch: the declared area differs from the computed one by more than this share of it ... */
export const AREA_MISMATCH_SHARE = 0.1;
/** ... and by more than this (m²): a declared area rounded to 0.1 ha is off by up to 500 m². */
export const AREA_MISMATCH_MIN_SQM = 500;

export type Declared = { country: string | null; areaSqm: number | null };

function number(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : null;
  if (typeof v !== 'string') return null;
  let s = v.trim();
  if (/^\d+,\d+$/.test(s)) s = s.replace(',', '.');
  if (!/^\d+(\.\d+)?([eE][+-]?\d+)?$|^\.\d+$/.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/** The declared country (alpha-2) and area (m²) of a row, by the first column of each kind that holds a usable value. */
export function declaredOf(row: Record<string, unknown>): Declared {
  const out: Declared = { country: null, areaSqm: null };
  for (const key of Object.keys(row)) {
    const k = canonicalKey(key);
    if (out.country === null && COUNTRY_KEYS.has(k)) out.country = countryCode(row[key]);
    else if (out.areaSqm === null && HA_KEYS.has(k)) {
      const n = number(row[key]);
      if (n !== null) out.areaSqm = n * 10_000;
    } else if (out.areaSqm === null && SQM_KEYS.has(k)) out.areaSqm = number(row[key]);
  }
  return out;
}

/**
 * The geolocation warnings a staged row can be given without a geometry engine: has_holes, point_over_4ha,
 * outside_country (area_mismatch needs the computed area: the classify statement adds it).
 */
export function geolocationWarnings(g: InputGeometry, d: Declared): AnalysisRowWarningCode[] {
  const out: AnalysisRowWarningCode[] = [];
  if (g.kind === 'polygons' && g.polygons.some((rings) => rings.length > 1)) out.push('has_holes');
  if (g.kind === 'point' && d.areaSqm !== null && d.areaSqm >= FOUR_HECTARES_SQM) out.push('point_over_4ha');
  if (d.country !== null) {
    const positions = g.kind === 'point' ? [g.p] : g.polygons.flatMap((rings) => rings[0] ?? []);
    if (outsideCountry(d.country, positions)) out.push('outside_country');
  }
  return out;
}
