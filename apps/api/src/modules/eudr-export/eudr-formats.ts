// The three EUDR file formats, and the split into numbered parts of at most 25 MB (the EU information system's upload
// limit). Each part is a complete file: its own FeatureCollection, CSV header or KML document.
import { csvLine, type EudrWarning } from '@farmland/contracts';
import { FOUR_HECTARES_SQM, type EudrRow } from './eudr-export.queries.js';
import { outsideCountry, positionsOf } from '../../lib/country-shapes.js';

export type EudrFormat = 'geojson' | 'csv' | 'kml';
export const PART_LIMIT_BYTES = 25 * 1024 * 1024;

const hectares = (sqm: number) => Math.round((sqm / 10_000) * 10_000) / 10_000;
const xml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

type Geometry = { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] } | { type: 'Point'; coordinates: number[] };

/** Whether no written coordinate has more than 5 decimals (the EU system asks for 6; 5 decimals is about 1 m). */
function coarse(g: Geometry): boolean {
  const fine = (c: unknown): boolean => (typeof c === 'number' ? Math.round(c * 1e5) / 1e5 !== c : Array.isArray(c) && c.some(fine));
  return !fine(g.coordinates);
}

/** A plot's geolocation warnings (issue 29, item 4), from the checks its row carries and the geometry written. */
export function geolocationWarnings(r: EudrRow): EudrWarning[] {
  const out: EudrWarning[] = [];
  const written = JSON.parse(r.geometry) as Geometry;
  if (r.holes > 0 && written.type === 'Polygon') out.push('has_holes');
  if (!r.valid) out.push('invalid_geometry');
  if (coarse(written)) out.push('low_precision');
  if (written.type === 'Point' && r.area_sqm >= FOUR_HECTARES_SQM) out.push('point_over_4ha');
  // The producer country the export writes (the farmer's, else the tenant's); not checked without one (lib/country-shapes.ts).
  if (r.country && outsideCountry(r.country, positionsOf(written.coordinates))) out.push('outside_country');
  return out;
}

export const FORMAT_INFO: Record<EudrFormat, { extension: string; mime: string }> = {
  geojson: { extension: 'geojson', mime: 'application/geo+json' },
  csv: { extension: 'csv', mime: 'text/csv; charset=utf-8' },
  kml: { extension: 'kml', mime: 'application/vnd.google-earth.kml+xml' },
};

/** The plot-risk verdict (issue 29) as export properties: the level and the reason codes. */
export function riskOf(r: EudrRow): { risk: string | null; risk_reasons: string[] } {
  return { risk: r.risk?.level ?? null, risk_reasons: r.risk?.reasons.map((x) => x.code) ?? [] };
}

/**
 * What one plot is written as: its geometry, or, for a plot with holes split into hole-free parts (split_holes), one
 * polygon per part, each marked with its part ("1/3"): parts that share a cut edge are valid polygons each, but not a
 * valid MultiPolygon together.
 */
export function pieces(r: EudrRow): Array<{ type: string; geometry: string; part?: { part: string } }> {
  const g = JSON.parse(r.geometry) as Geometry;
  if (g.type !== 'MultiPolygon') return [{ type: g.type, geometry: r.geometry }];
  const n = g.coordinates.length;
  return g.coordinates.map((c, i) => ({ type: 'Polygon', geometry: JSON.stringify({ type: 'Polygon', coordinates: c }), part: { part: `${i + 1}/${n}` } }));
}

/** The verdict and warnings as extra properties, or nothing when they go to the companion CSV (verdicts=companion). */
const verdictsOf = (r: EudrRow, extra: boolean) => (extra ? { warnings: geolocationWarnings(r), ...riskOf(r) } : {});

/**
 * A file's opening and closing text, and one farm as text (a GeoJSON feature, a CSV line, a KML placemark). extra:
 * each plot's verdict and warnings as extra properties (false: they go to the companion CSV, eudr-companion.ts).
 */
export function formatter(format: EudrFormat, extra = true): { head: string; tail: string; separator: string; item: (r: EudrRow) => string } {
  if (format === 'geojson') {
    return {
      head: '{"type":"FeatureCollection","features":[',
      tail: ']}',
      separator: ',',
      item: (r) =>
        pieces(r)
          .map((p) => `{"type":"Feature","geometry":${p.geometry},"properties":${JSON.stringify({ farm_id: r.id, farm_name: r.name, farmer: r.farmer, area_ha: hectares(r.area_sqm), country: r.country, ...verdictsOf(r, extra), ...p.part })}}`)
          .join(','),
    };
  }
  if (format === 'csv') {
    return {
      head: csvLine(['farm_id', 'farm_name', 'farmer', 'area_ha', 'country', 'geometry_type', 'geometry', ...(extra ? ['warnings', 'part', 'risk', 'risk_reasons'] : ['part'])]),
      tail: '',
      separator: '',
      item: (r) =>
        pieces(r)
          .map((p) =>
            csvLine([
              ...[r.id, r.name, r.farmer, hectares(r.area_sqm), r.country ?? '', p.type, p.geometry],
              ...(extra ? [geolocationWarnings(r).join(';'), p.part?.part ?? '', riskOf(r).risk ?? '', riskOf(r).risk_reasons.join(';')] : [p.part?.part ?? '']),
            ]),
          )
          .join(''),
    };
  }
  return {
    head: '<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Farms (EUDR)</name>\n',
    tail: '</Document></kml>\n',
    separator: '',
    item: (r) => pieces(r).map((p) => placemark(r, JSON.parse(p.geometry) as Geometry, p.part?.part, extra)).join(''),
  };
}

/** One KML placemark (a split plot's part names its part, "1/3"). */
function placemark(r: EudrRow, g: Geometry, part: string | undefined, extra: boolean): string {
  const coords = (pts: number[][]) => pts.map((p) => `${p[0]},${p[1]}`).join(' ');
  const polygon = (rings: number[][][]) =>
    `<Polygon>${rings
      .map((ring, i) => `<${i === 0 ? 'outerBoundaryIs' : 'innerBoundaryIs'}><LinearRing><coordinates>${coords(ring)}</coordinates></LinearRing></${i === 0 ? 'outerBoundaryIs' : 'innerBoundaryIs'}>`)
      .join('')}</Polygon>`;
  const shape =
    g.type === 'Point'
      ? `<Point><coordinates>${coords([g.coordinates])}</coordinates></Point>`
      : g.type === 'MultiPolygon'
        ? `<MultiGeometry>${g.coordinates.map(polygon).join('')}</MultiGeometry>`
        : polygon(g.coordinates);
  const data = (k: string, v: string | number | null) => `<Data name="${k}"><value>${xml(String(v ?? ''))}</value></Data>`;
  const partData = part ? data('part', part) : '';
  return `<Placemark><name>${xml(r.name)}</name><ExtendedData>${data('farm_id', r.id)}${data('farmer', r.farmer)}${data('area_ha', hectares(r.area_sqm))}${data('country', r.country)}${extra ? data('warnings', geolocationWarnings(r).join(';')) : ''}${partData}${extra ? `${data('risk', riskOf(r).risk)}${data('risk_reasons', riskOf(r).risk_reasons.join(';'))}` : ''}</ExtendedData>${shape}</Placemark>\n`;
}

/** Where a part starts (after the item with key `after`; null: at the first) and how many items it holds. */
export type PartBound = { after: string | null; count: number };

/**
 * Plans the parts from the items' sizes, one item at a time, holding only the parts' bounds (never the items): head +
 * items (with separators) + tail stays within limitBytes (UTF-8). A single item larger than the limit gets a part of its
 * own. Always at least one part (an empty file when there are no items).
 */
export class PartPlanner {
  readonly parts: PartBound[] = [{ after: null, count: 0 }];
  private readonly fixed: number;
  private readonly sep: number;
  private size: number;
  private lastKey: string | null = null;

  constructor(f: { head: string; tail: string; separator: string }, private readonly limitBytes: number) {
    this.fixed = Buffer.byteLength(f.head) + Buffer.byteLength(f.tail);
    this.sep = Buffer.byteLength(f.separator);
    this.size = this.fixed;
  }

  /** Adds an item of `bytes` (UTF-8) with its key (the keyset value a part resumes after). */
  add(key: string, bytes: number): void {
    let current = this.parts[this.parts.length - 1]!;
    if (current.count > 0 && this.size + bytes + this.sep > this.limitBytes) {
      current = { after: this.lastKey, count: 0 };
      this.parts.push(current);
      this.size = this.fixed;
    }
    this.size += bytes + (current.count > 0 ? this.sep : 0);
    current.count++;
    this.lastKey = key;
  }

  /** Whether one more item of `bytes` fits in a part now holding `count` items of `used` bytes (head and tail included). */
  fits(used: number, count: number, bytes: number): boolean {
    return count === 0 || used + bytes + this.sep <= this.limitBytes;
  }
}

/** The parts of a list of items, each a complete file (PartPlanner's rule; the unit test's reference). */
export function splitParts(items: readonly string[], f: { head: string; tail: string; separator: string }, limitBytes: number): string[] {
  const plan = new PartPlanner(f, limitBytes);
  items.forEach((item, i) => plan.add(String(i), Buffer.byteLength(item)));
  let at = 0;
  return plan.parts.map((p) => {
    const part = f.head + items.slice(at, at + p.count).join(f.separator) + f.tail;
    at += p.count;
    return part;
  });
}
