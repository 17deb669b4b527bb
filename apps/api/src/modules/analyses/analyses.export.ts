// One category of an analysis's results as a file: CSV (one line per row, the geometry as GeoJSON text, the row's own
// columns as JSON, cells formula-neutralised by the exports' one CSV writer) or a GeoJSON FeatureCollection (EPSG:4326,
// 6 decimals; failed rows have a null geometry). Streamed (issue 28): an analysis has up to 1,000,000 rows, so the file
// is never built in memory. Rows are read in keyset chunks in the list's order, each chunk one short statement (sized
// to ~40 ms) in its own implicit transaction (no cursor, nothing held open between chunks), and written as they are
// read, with backpressure (lib/export-stream.ts). The columns are one table below: a column is one line in it.
import { csvLine, type AnalysisExportQuery, type CsvCell as Cell } from '@farmland/contracts';
import type { Readable } from 'node:stream';
import type { Ctx, Deps } from '../../context.js';
import { scopeOf } from '../../context.js';
import { authorize, authorizeRow, rowTenant } from '../../lib/policy.js';
import { scopedReader, withScope } from '../../db/client.js';
import { ChunkSizer, chunkSizer, letOthersIn, textStream } from '../../lib/export-stream.js';
import { analysesPolicy } from './analyses.policy.js';
import * as q from './analyses.queries.js';
import * as qr from './analyses.run.queries.js';
import { presentRisk, screenedLayers, type ScreenedLayer } from './analyses.presenter.js';

/** A column of the export: its name (CSV header, GeoJSON property), its CSV cell and its GeoJSON value (absent: not in that format). */
type Column = { name: string; csv?: (r: q.ExportRow) => Cell; geojson?: (r: q.ExportRow) => unknown };

const area = (r: q.ExportRow) => (r.area_sqm === null ? null : Number(r.area_sqm));

/** The columns, in file order. */
export const EXPORT_COLUMNS: readonly Column[] = [
  { name: 'row_number', csv: (r) => r.row_number, geojson: (r) => r.row_number },
  { name: 'farm_name', csv: (r) => r.farm_name, geojson: (r) => r.farm_name },
  { name: 'category', csv: (r) => r.category, geojson: (r) => r.category },
  { name: 'overlapping', csv: (r) => r.is_overlapping, geojson: (r) => r.is_overlapping },
  { name: 'overlapping_id', csv: (r) => r.overlapping_id, geojson: (r) => r.overlapping_id },
  { name: 'conflicting_farmlands', csv: (r) => r.group_size, geojson: (r) => r.group_size },
  { name: 'unrecognized', csv: (r) => r.is_unrecognized, geojson: (r) => r.is_unrecognized },
  { name: 'area_sqm', csv: (r) => area(r)?.toFixed(2), geojson: (r) => area(r) },
  { name: 'hectares', csv: (r) => (area(r) === null ? null : (area(r)! / 10_000).toFixed(4)), geojson: (r) => (area(r) === null ? null : area(r)! / 10_000) },
  { name: 'operational_area', csv: (r) => r.operational_area, geojson: (r) => r.operational_area },
  { name: 'covered_fraction', csv: (r) => r.covered_fraction, geojson: (r) => r.covered_fraction },
  { name: 'errors', csv: (r) => (r.errors ?? []).map((e) => e.message).join('; '), geojson: (r) => r.errors ?? [] },
  // The row's warning codes (issue 28): joined by ";" in the csv, an array in GeoJSON.
  { name: 'warnings', csv: (r) => (r.warnings ?? []).join(';'), geojson: (r) => r.warnings ?? [] },
  { name: 'geometry', csv: (r) => r.geometry },
  { name: 'row_data', csv: (r) => JSON.stringify(r.row_data ?? {}), geojson: (r) => r.row_data },
];

/**
 * Issue 29: with reference layers, each row's verdict, its reasons, and per layer (screened against, in the analysis's
 * order) the overlap in m² and its share of the row. CSV: verdict, reasons (messages joined by "; "), then
 * "<layer> overlap_m2" and "<layer> share" per layer; GeoJSON: verdict, reasons (code, level, message, layer_id) and
 * layers (one object per layer with its figures).
 */
export function layerColumns(layers: readonly ScreenedLayer[]): Column[] {
  if (layers.length === 0) return [];
  const used = new Map<string, number>();
  const label = (name: string) => {
    const n = (used.get(name) ?? 0) + 1;
    used.set(name, n);
    return n === 1 ? name : `${name} (${n})`;
  };
  const risk = (r: q.ExportRow) => presentRisk(r.risk_level, r.risk, layers);
  const perLayer = layers.flatMap((l, i): Column[] => {
    const name = label(l.name);
    return [
      { name: `${name} overlap_m2`, csv: (r) => (r.risk ? Number(r.risk.o?.[i] ?? 0).toFixed(2) : null) },
      { name: `${name} share`, csv: (r) => (r.risk ? Number(r.risk.s?.[i] ?? 0).toFixed(6) : null) },
    ];
  });
  return [
    { name: 'verdict', csv: (r) => r.risk_level, geojson: (r) => r.risk_level },
    { name: 'reasons', csv: (r) => (r.risk?.r ?? []).map((x) => x.message).join('; '), geojson: (r) => r.risk?.r ?? [] },
    ...perLayer,
    {
      name: 'layers',
      geojson: (r) =>
        risk(r)?.figures.map((f) => ({ layer_id: f.layer_id, name: f.layer_name, kind: f.kind, overlap_m2: f.overlap_sqm, share: f.share })) ?? [],
    },
  ];
}

/** A file format: its opening text, one row as text (with its separator from the previous row), its closing text. */
type Format = { head: string; row: (r: q.ExportRow, first: boolean) => string; tail: string };

/** The formats for a column list (the fixed columns, then the analysis's layer columns). */
function formats(columns: readonly Column[]): Record<AnalysisExportQuery['format'], Format & { extension: string; mime: string }> {
  const csvColumns = columns.filter((c) => c.csv);
  const geojsonColumns = columns.filter((c) => c.geojson);
  return {
    csv: {
      extension: 'csv',
      mime: 'text/csv; charset=utf-8',
      head: csvLine(csvColumns.map((c) => c.name)),
      row: (r) => csvLine(csvColumns.map((c) => c.csv!(r))),
      tail: '',
    },
    geojson: {
      extension: 'geojson',
      mime: 'application/geo+json',
      head: '{"type":"FeatureCollection","features":[',
      // The geometry is PostGIS's GeoJSON text as it is (never parsed and written again).
      row: (r, first) => {
        const properties: Record<string, unknown> = {};
        for (const c of geojsonColumns) properties[c.name] = c.geojson!(r);
        return `${first ? '' : ','}{"type":"Feature","geometry":${r.geometry ?? 'null'},"properties":${JSON.stringify(properties)}}`;
      },
      tail: ']}',
    },
  };
}

export type ExportFile = { filename: string; mime: string; stream: Readable };

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'analysis';

/**
 * The file's text, chunk by chunk: the head at once (the first byte does not wait for a read), then each chunk of rows
 * as it is read, then the tail. `read` gives the rows after a cursor.
 */
export async function* exportText(
  format: Format,
  read: ((after: q.Cursor, limit: number) => Promise<q.ExportRow[]>) | null,
  pause: () => Promise<void>,
  sizer = new ChunkSizer(),
): AsyncGenerator<string> {
  yield format.head;
  let first = true;
  for (let after = q.START; read;) {
    const { rows, limit } = await sizer.read((n) => read(after, n));
    let text = '';
    for (const r of rows) {
      text += format.row(r, first);
      first = false;
    }
    if (text) yield text;
    if (rows.length < limit) break;
    const last = rows[rows.length - 1]!;
    after = { row: last.row_number, group: last.overlapping_id ?? 0 };
    await pause();
  }
  yield format.tail;
}

/**
 * Checks the analysis (404 before anything is sent), then answers the file as a stream. An analysis that has not
 * completed exports an empty file (its rows are never shown half-written).
 */
export async function exportCategory(deps: Deps, ctx: Ctx, id: string, query: AnalysisExportQuery): Promise<ExportFile> {
  const { actor, tenantId } = authorize(ctx, analysesPolicy, 'manage');
  const scope = scopeOf(actor);
  const { a, layers } = await withScope(deps.db, scope, async (tx) => {
    const a = authorizeRow(ctx, analysesPolicy, 'manage', await q.findAnalysis(tx, tenantId, id), rowTenant);
    return { a, layers: screenedLayers(await qr.analysisLayers(tx, tenantId, id)) };
  });
  const format = formats([...EXPORT_COLUMNS, ...layerColumns(layers)])[query.format];
  const reader = scopedReader(deps.db, scope);
  const read = a.status === 'completed' ? (after: q.Cursor, limit: number) => q.exportRows(reader, tenantId, id, query.category, after, limit) : null;
  const stream = textStream(
    deps,
    exportText(format, read, () => letOthersIn(deps), chunkSizer(deps)),
    { analysisId: id, category: query.category, format: query.format, requestId: ctx.requestId },
  );
  return { filename: `${slug(a.name)}-${query.category}.${format.extension}`, mime: format.mime, stream };
}
