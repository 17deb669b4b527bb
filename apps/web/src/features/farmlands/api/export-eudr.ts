// GET /farms/export/eudr: downloads the EUDR geolocation file (GeoJSON, CSV or KML); when the API splits it into parts
// (files over 25 MB), every part is downloaded in turn.
import { apiDownload } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/download';

export type EudrFormat = 'geojson' | 'csv' | 'kml';

/** Where each plot's verdict and warnings go (issue 29): extra properties of the file, or a companion CSV beside it. */
export type EudrVerdicts = 'properties' | 'companion';

export async function exportEudr(format: EudrFormat, pointsBelow4ha: boolean, verdicts: EudrVerdicts = 'properties'): Promise<number> {
  let parts = 1;
  for (let part = 1; part <= parts; part++) {
    const query = { format, points_below_4ha: pointsBelow4ha, part, verdicts };
    const { blob, filename, headers } = await apiDownload('/farms/export/eudr', { query }, `farms-eudr.${format}`);
    parts = Number(headers.get('x-export-parts') ?? '1') || 1;
    saveBlob(blob, filename);
    if (verdicts === 'companion') {
      const companion = await apiDownload('/farms/export/eudr', { query: { ...query, file: 'companion' } }, 'farms-eudr-verdicts.csv');
      saveBlob(companion.blob, companion.filename);
    }
  }
  return parts;
}
