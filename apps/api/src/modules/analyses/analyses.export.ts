// One category of an analysis's results as a file: CSV (one line per row, the geometry as GeoJSON text, the row's own
// columns as JSON, cells formula-neutralised) or a GeoJSON FeatureCollection (EPSG:4326, 6 decimals; failed rows have a
// null geometry). Each row's warning codes (issue 28): csv column `warnings` joined by ";", GeoJSON property `warnings`
// (an array). Read in keyset chunks of 5,000 rows, each its own short statement, and built in memory: an analysis has
// at most 100,000 rows.
import type { AnalysisExportQuery } from '@farmland/contracts';
import type { Ctx, Deps } from '../../context.js';
import { requireActor, scopeOf } from '../../context.js';
import { withScope } from '../../db/client.js';
import { csvLine } from '../exports/exports.csv.js';
import { analysisTenant, mustExist } from './analyses.policy.js';
import * as q from './analyses.queries.js';

const CHUNK = 5_000;
const CSV_HEADER = [
  'row_number', 'farm_name', 'category', 'overlapping', 'overlapping_id', 'conflicting_farmlands', 'unrecognized',
  'area_sqm', 'hectares', 'operational_area', 'covered_fraction', 'errors', 'warnings', 'geometry', 'row_data',
];

export type ExportFile = { filename: string; mime: string; body: string };

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'analysis';

export async function exportCategory(deps: Deps, ctx: Ctx, id: string, query: AnalysisExportQuery): Promise<ExportFile> {
  const actor = requireActor(ctx);
  const tenantId = analysisTenant(actor);
  const scope = scopeOf(actor);
  const a = mustExist(actor, await withScope(deps.db, scope, (tx) => q.findAnalysis(tx, tenantId, id)));
  const rows: q.ExportRow[] = [];
  if (a.status === 'completed') {
    for (let after = 0; ; ) {
      const chunk = await withScope(deps.db, scope, (tx) => q.exportRows(tx, tenantId, id, query.category, after, CHUNK));
      rows.push(...chunk);
      if (chunk.length < CHUNK) break;
      after = chunk[chunk.length - 1]!.row_number;
    }
  }
  const base = `${slug(a.name)}-${query.category}`;
  if (query.format === 'geojson') {
    const features = rows.map((r) => ({
      type: 'Feature',
      geometry: r.geometry ? (JSON.parse(r.geometry) as unknown) : null,
      properties: {
        row_number: r.row_number,
        farm_name: r.farm_name,
        category: r.category,
        overlapping: r.is_overlapping,
        overlapping_id: r.overlapping_id,
        conflicting_farmlands: r.group_size,
        unrecognized: r.is_unrecognized,
        area_sqm: r.area_sqm === null ? null : Number(r.area_sqm),
        hectares: r.area_sqm === null ? null : Number(r.area_sqm) / 10_000,
        operational_area: r.operational_area,
        covered_fraction: r.covered_fraction,
        errors: r.errors ?? [],
        warnings: r.warnings ?? [],
        row_data: r.row_data,
      },
    }));
    return { filename: `${base}.geojson`, mime: 'application/geo+json', body: JSON.stringify({ type: 'FeatureCollection', features }) };
  }
  const lines = [csvLine(CSV_HEADER)];
  for (const r of rows) {
    const area = r.area_sqm === null ? null : Number(r.area_sqm);
    lines.push(
      csvLine([
        r.row_number, r.farm_name, r.category, r.is_overlapping, r.overlapping_id, r.group_size, r.is_unrecognized,
        area === null ? null : area.toFixed(2), area === null ? null : (area / 10_000).toFixed(4), r.operational_area,
        r.covered_fraction, (r.errors ?? []).map((e) => e.message).join('; '), (r.warnings ?? []).join(';'), r.geometry, JSON.stringify(r.row_data ?? {}),
      ]),
    );
  }
  return { filename: `${base}.csv`, mime: 'text/csv; charset=utf-8', body: lines.join('') };
}
