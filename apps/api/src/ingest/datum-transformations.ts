// Every EPSG Helmert transformation to WGS 84 that PROJ considers (docs/decisions/0037-crs-registry-from-postgis-spatial-ref-sys.md),
// generated into datum-transformations.json by scripts/build-datum-transformations.mjs from PROJ's proj.db. A row:
// [source geographic CRS, EPSG code, name, accuracy in m (-1: unknown), towgs84 (position vector, arc-seconds, ppm),
// west, south, east, north of the area of use, offshore-only area (1)].
import data from './datum-transformations.json' with { type: 'json' };

export type DatumTransformationRow = [number, number, string, number, string, number, number, number, number, 0 | 1];

export const DATUM_TRANSFORMATIONS = data.rows as DatumTransformationRow[];
