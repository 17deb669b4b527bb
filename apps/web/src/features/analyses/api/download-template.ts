// GET /custom-analysis/template.csv and template.geojson (issue 13): the sample upload files (farm_name, farm_coordinates
// as JSON or WKT, operational_area_id; the GeoJSON as a FeatureCollection with a Polygon, a MultiPolygon and a Point).
import { apiDownload } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/download';

export async function downloadTemplate(format: 'csv' | 'geojson' = 'csv'): Promise<void> {
  const { blob, filename } = await apiDownload(`/custom-analysis/template.${format}`, {}, `farm-analysis-template.${format}`);
  saveBlob(blob, filename);
}
