// What every file reader shares: the caps on rows, columns, cells and inflated bytes, the kinds of file accepted, and
// ParseError, the 4xx a refused file ends in (the parse worker sends its status, code and message back as they are).
/**
 * Most data rows of the formats read whole in memory (xls, xlsb, KML, KMZ, zipped Shapefile, GeoPackage) and of JSON locations, and
 * the embedded engine's default analysis cap. A csv, an xlsx or a GeoJSON file is read in a stream up to
 * ANALYSIS_MAX_ROWS (config.ts; docs/decisions/0022-million-row-analyses.md, "GeoJSON read in a stream").
 */
export const MAX_ROWS = 100_000;
/** Largest file of a format that is read whole (every format but csv, xlsx and GeoJSON; a GeoPackage too); larger ones get 413 file_too_large. */
export const MAX_IN_MEMORY_BYTES = 64 * 1024 * 1024;
export const MAX_COLUMNS = 200;
export const MAX_CELL_CHARS = 600 * 1024;
/** Most bytes an xlsx may inflate to, and the largest inflate ratio of one member (zip-bomb guard). */
export const MAX_INFLATED_BYTES = 160 * 1024 * 1024;
export const MAX_INFLATE_RATIO = 200;

/** zip: a zipped Shapefile; gpkg: a GeoPackage (ingest/gpkg.ts). */
export type FileKind = 'csv' | 'xls' | 'xlsx' | 'geojson' | 'kml' | 'kmz' | 'zip' | 'gpkg';

/** The extensions accepted, as said in messages. */
export const ACCEPTED = '.csv, .xls, .xlsx, .geojson, .json, .kml, .kmz, .zip (Shapefile) and .gpkg (GeoPackage)';

export class ParseError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The feature (1-based, file order) a refusal is about, when it is about one. */
    readonly feature: number | null = null,
  ) {
    super(message);
  }
}

export const tooManyRows = (max = MAX_ROWS) =>
  new ParseError(
    413,
    'too_many_rows',
    `The file has more than ${max.toLocaleString('en')} data rows; split it into ${max === MAX_ROWS ? 'several analyses' : 'several uploads'}`,
  );

/** An analysis file over the configured row cap (ANALYSIS_MAX_ROWS), naming the limit. */
export const tooManyAnalysisRows = (max: number) =>
  new ParseError(
    413,
    'too_many_rows',
    `The file has more than ${max.toLocaleString('en')} data rows, the most one analysis accepts here; split it into several analyses`,
  );

/** A cell as read from a spreadsheet. */
export type Cell = string | number | boolean;
