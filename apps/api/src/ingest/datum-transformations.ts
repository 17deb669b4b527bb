// Every EPSG Helmert transformation to WGS 84 that PROJ considers (docs/decisions/0037-crs-registry-from-postgis-spatial-ref-sys.md),
// generated into datum-transformations.json by scripts/build-datum-transformations.mjs from PROJ's proj.db. A row:
// [source geographic CRS, EPSG code, name, accuracy in m (-1: unknown), towgs84 (position vector, arc-seconds, ppm),
// west, south, east, north of the area of use, offshore-only area (1)].
import data from './datum-transformations.json' with { type: 'json' };

export type DatumTransformationRow = [number, number, string, number, string, number, number, number, number, 0 | 1];

export const DATUM_TRANSFORMATIONS = data.rows as DatumTransformationRow[];

/** The area of use of each source geographic CRS of the rows and of the projected CRSs on them: west, south, east, north. */
export const CRS_AREAS: Record<string, number[]> = data.crsAreas;

/** A longitude range as intervals within [-180, 180] (one crossing the antimeridian is two). */
const spans = (w: number, e: number): Array<[number, number]> =>
  w <= e
    ? [[w, e]]
    : [
        [w, 180],
        [-180, e],
      ];

/**
 * PROJ's measure of an area of use when it sorts transformations (getPseudoArea of the area intersected with the source
 * CRS's area of use, coordinateoperationfactory.cpp): degrees of longitude times the difference of the sines of the
 * latitudes. Without a known CRS area, the whole area.
 */
export function areaWithinCrs(source: number, w: number, s: number, e: number, n: number): number {
  const [cw, cs, ce, cn] = (CRS_AREAS[String(source)] ?? [w, s, e, n]) as [number, number, number, number];
  const south = Math.max(s, cs);
  const north = Math.min(n, cn);
  if (north <= south) return 0;
  let width = 0;
  for (const [a0, a1] of spans(w, e)) for (const [b0, b1] of spans(cw, ce)) width += Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
  const rad = Math.PI / 180;
  return width * (Math.sin(north * rad) - Math.sin(south * rad));
}
