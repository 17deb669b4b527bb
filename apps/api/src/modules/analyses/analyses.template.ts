// The sample uploads offered by "Download Template". The csv: one farm as a [lng, lat] list, one as a GeoJSON Polygon,
// one as WKT, a point, and a column of the user's own (kept in row_data). The GeoJSON (issue 13): the same farms as a
// FeatureCollection, plus a farm in two parcels (MultiPolygon); each feature's properties go to row_data.
export const TEMPLATE_CSV = [
  'farm_name,farm_coordinates,operational_area_id,farmer_reference',
  'Adebayo Farm 1,"[[3.7712,7.6461],[3.7722,7.6461],[3.7722,7.6471],[3.7712,7.6471],[3.7712,7.6461]]",,FR-0001',
  'Ngozi Farm 2,"{""type"":""Polygon"",""coordinates"":[[[3.7730,7.6461],[3.7741,7.6461],[3.7741,7.6470],[3.7730,7.6470],[3.7730,7.6461]]]}",,FR-0002',
  'Chinedu Farm 3,"POLYGON((3.7750 7.6461, 3.7760 7.6461, 3.7760 7.6470, 3.7750 7.6470, 3.7750 7.6461))",,FR-0003',
  'Amaka Plot 4,"POINT(3.7771 7.6466)",,FR-0004',
  '',
].join('\r\n');

const feature = (farm_name: string, farmer_reference: string, geometry: object) => ({
  type: 'Feature',
  properties: { farm_name, farmer_reference, operational_area_id: null },
  geometry,
});

export const TEMPLATE_GEOJSON = `${JSON.stringify(
  {
    type: 'FeatureCollection',
    features: [
      feature('Adebayo Farm 1', 'FR-0001', {
        type: 'Polygon',
        coordinates: [
          [
            [3.7712, 7.6461],
            [3.7722, 7.6461],
            [3.7722, 7.6471],
            [3.7712, 7.6471],
            [3.7712, 7.6461],
          ],
        ],
      }),
      feature('Ngozi Farm 2', 'FR-0002', {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [3.773, 7.6461],
              [3.7741, 7.6461],
              [3.7741, 7.647],
              [3.773, 7.647],
              [3.773, 7.6461],
            ],
          ],
          [
            [
              [3.7745, 7.6461],
              [3.7748, 7.6461],
              [3.7748, 7.6465],
              [3.7745, 7.6465],
              [3.7745, 7.6461],
            ],
          ],
        ],
      }),
      feature('Amaka Plot 4', 'FR-0004', { type: 'Point', coordinates: [3.7771, 7.6466] }),
    ],
  },
  null,
  2,
)}\n`;
