// GET /custom-analysis/{id}/export/: one category of the results as CSV or GeoJSON, saved as the file the API names.
import type { AnalysisListKind } from '@farmland/contracts';
import { apiDownload } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/download';

export async function exportCategory(id: string, category: AnalysisListKind, format: 'csv' | 'geojson'): Promise<void> {
  const { blob, filename } = await apiDownload(`/custom-analysis/${id}/export/`, { query: { category, format } }, `analysis-${category}.${format}`);
  saveBlob(blob, filename);
}
