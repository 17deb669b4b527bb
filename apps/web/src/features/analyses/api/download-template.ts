// GET /custom-analysis/template.csv: the sample upload file (farm_name, farm_coordinates as JSON, operational_area_id).
import { apiDownload } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/download';

export async function downloadTemplate(): Promise<void> {
  const { blob, filename } = await apiDownload('/custom-analysis/template.csv', {}, 'farm-analysis-template.csv');
  saveBlob(blob, filename);
}
