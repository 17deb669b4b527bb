// GET /farms/export/eudr: downloads the EUDR geolocation file (GeoJSON, CSV or KML); when the API splits it into parts
// (files over 25 MB), every part is downloaded in turn.
import { apiDownload } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/download';

export type EudrFormat = 'geojson' | 'csv' | 'kml';

export async function exportEudr(format: EudrFormat, pointsBelow4ha: boolean): Promise<number> {
  let parts = 1;
  for (let part = 1; part <= parts; part++) {
    const { blob, filename, headers } = await apiDownload('/farms/export/eudr', { query: { format, points_below_4ha: pointsBelow4ha, part } }, `farms-eudr.${format}`);
    parts = Number(headers.get('x-export-parts') ?? '1') || 1;
    saveBlob(blob, filename);
  }
  return parts;
}
