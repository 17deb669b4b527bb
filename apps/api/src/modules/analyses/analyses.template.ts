// The sample upload offered by "Download Template": one farm as a [lng, lat] list, one as a GeoJSON Polygon, and a
// column of the user's own (kept in row_data).
export const TEMPLATE_CSV = [
  'farm_name,farm_coordinates,operational_area_id,farmer_reference',
  'Adebayo Farm 1,"[[3.7712,7.6461],[3.7722,7.6461],[3.7722,7.6471],[3.7712,7.6471],[3.7712,7.6461]]",,FR-0001',
  'Ngozi Farm 2,"{""type"":""Polygon"",""coordinates"":[[[3.7730,7.6461],[3.7741,7.6461],[3.7741,7.6470],[3.7730,7.6470],[3.7730,7.6461]]]}",,FR-0002',
  '',
].join('\r\n');
