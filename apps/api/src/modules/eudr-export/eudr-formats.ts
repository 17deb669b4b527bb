// The three EUDR file formats, and the split into numbered parts of at most 25 MB (the EU information system's upload
// limit). Each part is a complete file: its own FeatureCollection, CSV header or KML document.
import { csvLine } from '../exports/exports.csv.js';
import type { EudrRow } from './eudr-export.queries.js';

export type EudrFormat = 'geojson' | 'csv' | 'kml';
export const PART_LIMIT_BYTES = 25 * 1024 * 1024;

const hectares = (sqm: number) => Math.round((sqm / 10_000) * 10_000) / 10_000;
const xml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

type Geometry = { type: 'Polygon'; coordinates: number[][][] } | { type: 'Point'; coordinates: number[] };

export const FORMAT_INFO: Record<EudrFormat, { extension: string; mime: string }> = {
  geojson: { extension: 'geojson', mime: 'application/geo+json' },
  csv: { extension: 'csv', mime: 'text/csv; charset=utf-8' },
  kml: { extension: 'kml', mime: 'application/vnd.google-earth.kml+xml' },
};

/** A file's opening and closing text, and one farm as text (a GeoJSON feature, a CSV line, a KML placemark). */
export function formatter(format: EudrFormat): { head: string; tail: string; separator: string; item: (r: EudrRow) => string } {
  if (format === 'geojson') {
    return {
      head: '{"type":"FeatureCollection","features":[',
      tail: ']}',
      separator: ',',
      item: (r) =>
        `{"type":"Feature","geometry":${r.geometry},"properties":${JSON.stringify({ farm_id: r.id, farm_name: r.name, farmer: r.farmer, area_ha: hectares(r.area_sqm), country: r.country })}}`,
    };
  }
  if (format === 'csv') {
    return {
      head: csvLine(['farm_id', 'farm_name', 'farmer', 'area_ha', 'country', 'geometry_type', 'geometry']),
      tail: '',
      separator: '',
      item: (r) => {
        const g = JSON.parse(r.geometry) as Geometry;
        return csvLine([r.id, r.name, r.farmer, hectares(r.area_sqm), r.country ?? '', g.type, r.geometry]);
      },
    };
  }
  return {
    head: '<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Farms (EUDR)</name>\n',
    tail: '</Document></kml>\n',
    separator: '',
    item: (r) => {
      const g = JSON.parse(r.geometry) as Geometry;
      const coords = (pts: number[][]) => pts.map((p) => `${p[0]},${p[1]}`).join(' ');
      const shape =
        g.type === 'Point'
          ? `<Point><coordinates>${coords([g.coordinates])}</coordinates></Point>`
          : `<Polygon>${g.coordinates
              .map((ring, i) => `<${i === 0 ? 'outerBoundaryIs' : 'innerBoundaryIs'}><LinearRing><coordinates>${coords(ring)}</coordinates></LinearRing></${i === 0 ? 'outerBoundaryIs' : 'innerBoundaryIs'}>`)
              .join('')}</Polygon>`;
      const data = (k: string, v: string | number | null) => `<Data name="${k}"><value>${xml(String(v ?? ''))}</value></Data>`;
      return `<Placemark><name>${xml(r.name)}</name><ExtendedData>${data('farm_id', r.id)}${data('farmer', r.farmer)}${data('area_ha', hectares(r.area_sqm))}${data('country', r.country)}</ExtendedData>${shape}</Placemark>\n`;
    },
  };
}

/**
 * Splits items into parts so that head + items (with separators) + tail stays within limitBytes (UTF-8). A single item
 * larger than the limit gets a part of its own. Always at least one part (an empty file when there are no items).
 */
export function splitParts(items: readonly string[], f: { head: string; tail: string; separator: string }, limitBytes: number): string[] {
  const fixed = Buffer.byteLength(f.head) + Buffer.byteLength(f.tail);
  const sep = Buffer.byteLength(f.separator);
  const parts: string[] = [];
  let current: string[] = [];
  let size = fixed;
  for (const item of items) {
    const bytes = Buffer.byteLength(item) + (current.length ? sep : 0);
    if (current.length && size + bytes > limitBytes) {
      parts.push(f.head + current.join(f.separator) + f.tail);
      current = [];
      size = fixed;
    }
    size += Buffer.byteLength(item) + (current.length ? sep : 0);
    current.push(item);
  }
  parts.push(f.head + current.join(f.separator) + f.tail);
  return parts;
}
