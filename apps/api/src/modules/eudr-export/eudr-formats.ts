// The three EUDR file formats, and the split into numbered parts of at most 25 MB (the EU information system's upload
// limit). Each part is a complete file: its own FeatureCollection, CSV header or KML document.
import { csvLine, EUDR_WARNINGS, type EudrWarning } from '@farmland/contracts';
import { FOUR_HECTARES_SQM, type EudrRow } from './eudr-export.queries.js';
import { outsideCountry, positionsOf } from '../../lib/country-shapes.js';

export type EudrFormat = 'geojson' | 'csv' | 'kml';
export const PART_LIMIT_BYTES = 25 * 1024 * 1024;

const hectares = (sqm: number) => Math.round((sqm / 10_000) * 10_000) / 10_000;
const xml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

type Geometry =
  { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] } | { type: 'Point'; coordinates: number[] };

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
          .map(
            (p) =>
              `{"type":"Feature","geometry":${p.geometry},"properties":${JSON.stringify({ farm_id: r.id, farm_name: r.name, farmer: r.farmer, area_ha: hectares(r.area_sqm), country: r.country, ...verdictsOf(r, extra), ...p.part })}}`,
          )
          .join(','),
    };
  }
  if (format === 'csv') {
    return {
      head: csvLine([
        'farm_id',
        'farm_name',
        'farmer',
        'area_ha',
        'country',
        'geometry_type',
        'geometry',
        ...(extra ? ['warnings', 'part', 'risk', 'risk_reasons'] : ['part']),
      ]),
      tail: '',
      separator: '',
      item: (r) =>
        pieces(r)
          .map((p) =>
            csvLine([
              ...[r.id, r.name, r.farmer, hectares(r.area_sqm), r.country ?? '', p.type, p.geometry],
              ...(extra
                ? [geolocationWarnings(r).join(';'), p.part?.part ?? '', riskOf(r).risk ?? '', riskOf(r).risk_reasons.join(';')]
                : [p.part?.part ?? '']),
            ]),
          )
          .join(''),
    };
  }
  return {
    head: '<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Farms (EUDR)</name>\n',
    tail: '</Document></kml>\n',
    separator: '',
    item: (r) =>
      pieces(r)
        .map((p) => placemark(r, JSON.parse(p.geometry) as Geometry, p.part?.part, extra))
        .join(''),
  };
}

/** One KML placemark (a split plot's part names its part, "1/3"). */
function placemark(r: EudrRow, g: Geometry, part: string | undefined, extra: boolean): string {
  const coords = (pts: number[][]) => pts.map((p) => `${p[0]},${p[1]}`).join(' ');
  const polygon = (rings: number[][][]) =>
    `<Polygon>${rings
      .map(
        (ring, i) =>
          `<${i === 0 ? 'outerBoundaryIs' : 'innerBoundaryIs'}><LinearRing><coordinates>${coords(ring)}</coordinates></LinearRing></${i === 0 ? 'outerBoundaryIs' : 'innerBoundaryIs'}>`,
      )
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
 * The split rule (issue 28): every item has an upper bound of its bytes, separator included (`bytes`); `budget` is the
 * limit less the head and tail. An item goes to part floor(bytes of the items before it / (budget - the largest item)),
 * the parts numbered densely. A part then holds less than (budget - largest) + largest = budget: head + items + tail stay
 * within the limit. A part holds on average budget - largest bytes of bounds; an item larger than the limit gets a part
 * of its own. The export computes the same in SQL over the registry (eudrPlan); this is the rule's reference and unit.
 */
export function planParts(items: ReadonlyArray<{ key: string; bytes: number }>, budget: number): PartBound[] {
  const top = items.reduce((m, i) => Math.max(m, i.bytes), 0);
  const step = Math.max(1, budget - top);
  const parts: PartBound[] = [];
  let before = 0;
  let part = -1;
  let lastKey: string | null = null;
  for (const item of items) {
    const k = Math.floor(before / step);
    if (k !== part) {
      parts.push({ after: lastKey, count: 0 });
      part = k;
    }
    parts[parts.length - 1]!.count++;
    before += item.bytes;
    lastKey = item.key;
  }
  return parts.length > 0 ? parts : [{ after: null, count: 0 }];
}

/** Bytes of a file's head and tail, and of one separator (UTF-8). */
export function frame(f: { head: string; tail: string; separator: string }): { fixed: number; sep: number } {
  return { fixed: Buffer.byteLength(f.head) + Buffer.byteLength(f.tail), sep: Buffer.byteLength(f.separator) };
}

/**
 * The terms of a farm's upper bound (bytes, separator included) in a format: pieces × (base + its names' written bytes)
 * + vertices × perVertex + rings × perRing (eudr-export.queries.ts writes it in SQL). base is one written item with no
 * ring, empty names and the longest area, plus room for every warning, the verdict with a reason per reference layer and
 * two more, and a piece's part label. A coordinate has at most 6 decimals: "-179.123456" (and room for a fourth integer
 * digit). `text` is how a name is escaped: JSON, a csv cell, XML.
 */
export type BoundTerms = { base: number; perVertex: number; perRing: number; text: 'json' | 'csv' | 'xml' };

export function boundTerms(format: EudrFormat, layers: number): BoundTerms {
  const f = formatter(format);
  const empty: EudrRow = {
    id: '00000000-0000-0000-0000-000000000000',
    name: '',
    farmer: '',
    area_sqm: 509_999_999_999_999.9, // the Earth's surface, in m²: the longest area_ha
    country: 'XX',
    geometry: '{"type":"Polygon","coordinates":[]}',
    holes: 0,
    valid: true,
    tenant_id: '00000000-0000-0000-0000-000000000000',
    figures: [],
  };
  const warnings = EUDR_WARNINGS.reduce((n, w) => n + w.length + 3, 0);
  const verdict = 10 + (layers + 2) * 24 + 24; // level, reasons (codes are at most 20 characters), the part label
  const base = Buffer.byteLength(f.item(empty)) + frame(f).sep + warnings + verdict;
  if (format === 'kml') return { base, perVertex: 12 + 1 + 11 + 1, perRing: 100, text: 'xml' };
  return { base, perVertex: 1 + 12 + 1 + 11 + 1 + 1, perRing: 3, text: format === 'csv' ? 'csv' : 'json' };
}

/** The parts of a list of items, each a complete file (planParts over their exact sizes: the unit test's reference). */
export function splitParts(items: readonly string[], f: { head: string; tail: string; separator: string }, limitBytes: number): string[] {
  const { fixed, sep } = frame(f);
  const plan = planParts(
    items.map((item, i) => ({ key: String(i), bytes: Buffer.byteLength(item) + sep })),
    limitBytes - fixed,
  );
  let at = 0;
  return plan.map((p) => {
    const part = f.head + items.slice(at, at + p.count).join(f.separator) + f.tail;
    at += p.count;
    return part;
  });
}
