// The pure parts of the analysis upload: which files the drop zone takes, where a JSON parse error is, and how the
// endpoint payload merges with the drawers' values.
import { describe, expect, it } from 'vitest';
import { acceptsFile } from '../../../components/ui/upload-zone';
import { jsonErrorAt, mergePayload } from './endpoint-upload-drawer';
import { ANALYSIS_FILE_TYPES, ANALYSIS_MAX_BYTES } from './analysis-upload';
import { cellText } from './failed-data-modal';

describe('analysis inputs', () => {
  it('takes csv, xls and xlsx up to 3,145,728 bytes, whatever the case of the extension', () => {
    expect(acceptsFile({ name: 'farms.CSV', size: 10 }, ANALYSIS_FILE_TYPES, ANALYSIS_MAX_BYTES)).toBe(true);
    expect(acceptsFile({ name: 'farms.xlsx', size: ANALYSIS_MAX_BYTES }, ANALYSIS_FILE_TYPES, ANALYSIS_MAX_BYTES)).toBe(true);
    expect(acceptsFile({ name: 'farms.xlsx', size: ANALYSIS_MAX_BYTES + 1 }, ANALYSIS_FILE_TYPES, ANALYSIS_MAX_BYTES)).toBe(false);
    expect(acceptsFile({ name: 'farms.csv.exe', size: 10 }, ANALYSIS_FILE_TYPES, ANALYSIS_MAX_BYTES)).toBe(false);
    expect(acceptsFile({ name: 'farms.pdf', size: 10 }, ANALYSIS_FILE_TYPES, ANALYSIS_MAX_BYTES)).toBe(false);
    // GIS files (issue 13).
    for (const name of ['plots.geojson', 'plots.json', 'plots.kml', 'plots.KMZ', 'plots-shapefile.zip', 'plots.GPKG'])
      expect(acceptsFile({ name, size: 10 }, ANALYSIS_FILE_TYPES, ANALYSIS_MAX_BYTES)).toBe(true);
  });

  it('names the line and column of a JSON parse error', () => {
    const text = '[\n  {"a": 1}\n  {"b": 2}\n]';
    let err: unknown;
    try {
      JSON.parse(text);
    } catch (e) {
      err = e;
    }
    expect(jsonErrorAt(text, err)).toMatch(/^The JSON is not valid at line 3, column 3/);
  });

  it('merges the payload with the drawers: a list is the locations; the form values win', () => {
    const values = { name: 'Drawer name', description: '', operationalAreas: ['a1'] };
    expect(mergePayload([{ farm_name: 'x' }], values, 250, true)).toEqual({
      locations: [{ farm_name: 'x' }],
      name: 'Drawer name',
      operational_areas: ['a1'],
      minimum_farm_size: 250,
      require_farm_recognition: true,
    });
    const own = mergePayload(
      { locations: [], name: 'Own', description: 'Kept', operational_areas: ['b2'] },
      { name: '', description: '', operationalAreas: [] },
      0,
      false,
    );
    expect(own).toMatchObject({ name: 'Own', description: 'Kept', operational_areas: ['b2'], minimum_farm_size: 0, require_farm_recognition: false });
    expect(mergePayload({ rows: [] }, values, 1, true)).toMatch(/locations/);
  });

  it('reads a failed row cell under whichever header the file used', () => {
    expect(cellText({ 'Farm Name': 'A', 'farm-coordinates': [[1, 2]] }, 'farm_name')).toBe('A');
    expect(cellText({ 'Farm Name': 'A', 'farm-coordinates': [[1, 2]] }, 'farm_coordinates')).toBe('[[1,2]]');
    expect(cellText({ operational_area: 'id-1' }, 'operational_area_id')).toBe('id-1');
    expect(cellText({}, 'farm_name')).toBe('');
  });
});
