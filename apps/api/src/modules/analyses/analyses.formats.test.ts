// Issue 13, upload formats: the same farms as csv, GeoJSON, KML, KMZ and a zipped Shapefile (WGS84, and UTM with its
// .prj) give identical classifications; farm_name comes from the chosen property; hostile GIS files (zip bombs, a KMZ
// entry named "../", a DTD, a million features, an unknown CRS) get a 4xx in bounded time.
import { sql } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { arrangeTenant, multipart, outcome, rect, square, type Ring } from '../../test/analysis-fixtures.js';
import { withCpuMs } from '../../test/cpu-time.js';

type Geom = { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] } | { type: 'Point'; coordinates: number[] };
type Farm = { name: string; ref: string; geometry: Geom };

const poly = (...rings: Ring[]): Geom => ({ type: 'Polygon', coordinates: rings });
const bowTie: Ring = [
  [10.03, 10.03],
  [10.031, 10.031],
  [10.031, 10.03],
  [10.03, 10.031],
  [10.03, 10.03],
];

/** Polygons (a Shapefile holds one shape type): within each area, across the border, an overlapping pair, a hole, parts. */
const polygonFarms: Farm[] = [
  { name: 'West one', ref: 'P1', geometry: poly(square(10.01, 10.01)) },
  { name: 'East one', ref: 'P2', geometry: poly(square(10.15, 10.01)) },
  { name: 'Across', ref: 'P3', geometry: poly(rect(10.0995, 10.02, 10.1005, 10.021)) },
  { name: 'Overlap A', ref: 'P4', geometry: poly(square(10.02, 10.04)) },
  { name: 'Overlap B', ref: 'P5', geometry: poly(square(10.0205, 10.0405)) },
  { name: 'Holed', ref: 'P6', geometry: poly(rect(10.04, 10.06, 10.042, 10.062), rect(10.0405, 10.0605, 10.0415, 10.0615)) },
  { name: 'Two parcels', ref: 'P7', geometry: { type: 'MultiPolygon', coordinates: [[square(10.05, 10.07)], [square(10.07, 10.07)]] } },
  { name: 'Bow-tie', ref: 'P8', geometry: poly(bowTie) },
  { name: 'Far away', ref: 'P9', geometry: poly(square(11.5, 11.5)) },
];
const pointFarms: Farm[] = [
  { name: 'Point west', ref: 'Q1', geometry: { type: 'Point', coordinates: [10.011, 10.011] } },
  { name: 'Point east', ref: 'Q2', geometry: { type: 'Point', coordinates: [10.155, 10.015] } },
  { name: 'Point out', ref: 'Q3', geometry: { type: 'Point', coordinates: [11.5, 11.5] } },
];

// ---------- writers (each format built here, from the farms) ----------

const featureCollection = (farms: Farm[]) =>
  JSON.stringify({
    type: 'FeatureCollection',
    features: farms.map((f) => ({ type: 'Feature', properties: { label: f.name, ref: f.ref }, geometry: f.geometry })),
  });

const csvOf = (farms: Farm[]) =>
  ['farm_name,farm_coordinates,ref', ...farms.map((f) => `${f.name},"${JSON.stringify(f.geometry).replace(/"/g, '""')}",${f.ref}`), ''].join('\n');

const kmlCoords = (r: Ring) => r.map((p) => `${p[0]},${p[1]},0`).join(' ');
const kmlPolygon = (rings: Ring[]) =>
  `<Polygon><outerBoundaryIs><LinearRing><coordinates>${kmlCoords(rings[0]!)}</coordinates></LinearRing></outerBoundaryIs>${rings
    .slice(1)
    .map((h) => `<innerBoundaryIs><LinearRing><coordinates>${kmlCoords(h)}</coordinates></LinearRing></innerBoundaryIs>`)
    .join('')}</Polygon>`;
const kmlGeometry = (g: Geom) =>
  g.type === 'Point'
    ? `<Point><coordinates>${g.coordinates.join(',')}</coordinates></Point>`
    : g.type === 'Polygon'
      ? kmlPolygon(g.coordinates)
      : `<MultiGeometry>${g.coordinates.map(kmlPolygon).join('')}</MultiGeometry>`;
const kmlOf = (farms: Farm[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Farms</name><Folder>${farms
    .map(
      (f) =>
        `<Placemark><name>${f.name}</name><ExtendedData><Data name="ref"><value>${f.ref}</value></Data></ExtendedData>${kmlGeometry(f.geometry)}</Placemark>`,
    )
    .join('\n')}</Folder></Document></kml>`;

/** A .shp (polygons: outer rings clockwise, holes counter-clockwise, as the format says; or points). */
function shpOf(geoms: Geom[]): Uint8Array {
  const records: Buffer[] = [];
  geoms.forEach((g, i) => {
    let content: Buffer;
    if (g.type === 'Point') {
      content = Buffer.alloc(20);
      content.writeInt32LE(1, 0);
      content.writeDoubleLE(g.coordinates[0]!, 4);
      content.writeDoubleLE(g.coordinates[1]!, 12);
    } else {
      const polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
      // square()/rect() rings are counter-clockwise: outer rings are reversed.
      const rings = polys.flatMap((p) => p.map((r, k) => (k === 0 ? [...r].reverse() : r)));
      const n = rings.reduce((s, r) => s + r.length, 0);
      content = Buffer.alloc(44 + 4 * rings.length + 16 * n);
      content.writeInt32LE(5, 0);
      content.writeInt32LE(rings.length, 36);
      content.writeInt32LE(n, 40);
      let at = 0;
      rings.forEach((r, k) => {
        content.writeInt32LE(at, 44 + 4 * k);
        at += r.length;
      });
      let o = 44 + 4 * rings.length;
      for (const r of rings) {
        for (const p of r) {
          content.writeDoubleLE(p[0]!, o);
          content.writeDoubleLE(p[1]!, o + 8);
          o += 16;
        }
      }
    }
    const h = Buffer.alloc(8);
    h.writeInt32BE(i + 1, 0);
    h.writeInt32BE(content.length / 2, 4);
    records.push(h, content);
  });
  const body = Buffer.concat(records);
  const header = Buffer.alloc(100);
  header.writeInt32BE(9994, 0);
  header.writeInt32BE((100 + body.length) / 2, 24);
  header.writeInt32LE(1000, 28);
  header.writeInt32LE(geoms[0]!.type === 'Point' ? 1 : 5, 32);
  return new Uint8Array(Buffer.concat([header, body]));
}

function dbfOf(rows: Array<Record<string, string>>): Uint8Array {
  const names = Object.keys(rows[0]!);
  const widths = names.map((k) => Math.max(1, ...rows.map((r) => Buffer.byteLength(r[k]!))));
  const headerLength = 32 + 32 * names.length + 1;
  const recordLength = 1 + widths.reduce((a, b) => a + b, 0);
  const h = Buffer.alloc(headerLength);
  h.writeUInt8(3, 0);
  h.writeUInt32LE(rows.length, 4);
  h.writeUInt16LE(headerLength, 8);
  h.writeUInt16LE(recordLength, 10);
  names.forEach((k, i) => {
    h.write(k, 32 + 32 * i, 'latin1');
    h.write('C', 32 + 32 * i + 11, 'latin1');
    h.writeUInt8(widths[i]!, 32 + 32 * i + 16);
  });
  h.writeUInt8(0x0d, headerLength - 1);
  const recs = rows.map((r) => Buffer.concat([Buffer.from(' '), ...names.map((k, i) => Buffer.from(r[k]!.padEnd(widths[i]!, ' '), 'utf8'))]));
  return new Uint8Array(Buffer.concat([h, ...recs, Buffer.from([0x1a])]));
}

const WGS84_PRJ =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';
const UTM32N_PRJ =
  'PROJCS["WGS_1984_UTM_Zone_32N",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],' +
  'PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",9.0],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';

const shapefileZip = (farms: Farm[], geoms: Geom[], prj: string | null) =>
  Buffer.from(
    zipSync({
      'farms/plots.shp': shpOf(geoms),
      'farms/plots.dbf': dbfOf(farms.map((f) => ({ label: f.name, ref: f.ref }))),
      ...(prj ? { 'farms/plots.prj': strToU8(prj) } : {}),
    }),
  );

describe('custom analysis: GIS upload formats (issue 13)', () => {
  let env: TestEnv;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;

  beforeAll(async () => {
    env = await testEnv();
    t = await arrangeTenant(env, [
      { name: 'West block', ring: rect(10.0, 10.0, 10.1, 10.1) },
      { name: 'East block', ring: rect(10.1, 10.0, 10.2, 10.1) },
    ]);
  });

  const upload = async (filename: string, content: Buffer, extra: Record<string, string> = {}) => {
    const res = await t.caller.request({
      method: 'POST',
      url: '/api/custom-analysis/',
      ...multipart({ operational_areas: t.areaIds, minimum_farm_size: '1', require_farm_recognition: 'false', ...extra }, filename, content),
    });
    expect(res.status, `${filename}: ${JSON.stringify(res.body)}`).toBe(201);
    return outcome(t.caller, res.body.data.id);
  };

  /** Rows as comparable verdicts; areas rounded to 1e-6 relative (a reprojected file differs below that). */
  const verdicts = (o: Awaited<ReturnType<typeof outcome>>) =>
    [...o.rows.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([n, r]) => ({
        n,
        category: r.category,
        errors: r.errors,
        area: r.area === null ? null : Number(r.area.toPrecision(6)),
        operational_area: r.operational_area,
        overlapping_id: r.overlapping_id,
      }));

  it('gives identical classifications for the same farms as csv, GeoJSON, KML, KMZ and Shapefile', async () => {
    const base = await upload('farms.csv', Buffer.from(csvOf(polygonFarms)));
    const expected = verdicts(base);
    expect(expected.map((v) => v.category)).toEqual(['within', 'within', 'outside', 'within', 'within', 'within', 'within', 'error', 'outside']);
    expect(expected.filter((v) => v.overlapping_id !== null).map((v) => v.n)).toEqual([4, 5]);
    expect(expected[7]!.errors).toEqual(['invalid_polygon']);

    const kml = kmlOf(polygonFarms);
    const files: Array<[string, Buffer]> = [
      ['farms.geojson', Buffer.from(featureCollection(polygonFarms))],
      ['farms.json', Buffer.from(featureCollection(polygonFarms))],
      // A list of locations as the JSON endpoint takes them, saved to a file.
      ['locations.json', Buffer.from(JSON.stringify(polygonFarms.map((f) => ({ farm_name: f.name, farm_coordinates: f.geometry, ref: f.ref }))))],
      ['farms.kml', Buffer.from(kml)],
      ['farms.kmz', Buffer.from(zipSync({ 'doc.kml': strToU8(kml), 'files/readme.txt': strToU8('x') }))],
      [
        'farms.zip',
        shapefileZip(
          polygonFarms,
          polygonFarms.map((f) => f.geometry),
          WGS84_PRJ,
        ),
      ],
      [
        'no-prj.zip',
        shapefileZip(
          polygonFarms,
          polygonFarms.map((f) => f.geometry),
          null,
        ),
      ],
    ];
    for (const [name, content] of files) {
      const o = await upload(name, content);
      expect(verdicts(o), name).toEqual(expected);
      // farm_name from the label / name property; the other properties kept in row_data.
      const list = await t.caller.get(`/api/custom-analysis/${o.detail.id}/within/?page_size=100`);
      const first = list.body.data.results[0];
      expect(first.name, name).toBe('West one');
      expect(first.row_data.ref, name).toBe('P1');
    }

    // A projected Shapefile (UTM 32N, coordinates computed by PostGIS) is reprojected to WGS84 with its .prj.
    const utm: Geom[] = [];
    for (const f of polygonFarms) {
      const [r] = await env.sql<{ g: Geom }>(
        sql`SELECT ST_AsGeoJSON(ST_Transform(ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(f.geometry)}), 4326), 32632), 6)::json AS g`,
      );
      utm.push(r!.g);
    }
    const projected = verdicts(await upload('utm.zip', shapefileZip(polygonFarms, utm, UTM32N_PRJ)));
    const withoutArea = (v: (typeof expected)[number]) => ({ ...v, area: v.area === null });
    expect(projected.map(withoutArea)).toEqual(expected.map(withoutArea));
    projected.forEach((v, i) => (v.area === null ? expect(expected[i]!.area).toBeNull() : expect(v.area / expected[i]!.area!).toBeCloseTo(1, 4)));
  }, 180_000);

  it('reads points in every format, and takes farm_name from the chosen property', async () => {
    const expected = verdicts(await upload('points.csv', Buffer.from(csvOf(pointFarms))));
    expect(expected.map((v) => [v.category, v.operational_area, v.area])).toEqual([
      ['within', 'West block', 0],
      ['within', 'East block', 0],
      ['outside', null, 0],
    ]);
    for (const [name, content] of [
      ['points.geojson', Buffer.from(featureCollection(pointFarms))],
      ['points.kml', Buffer.from(kmlOf(pointFarms))],
      [
        'points.zip',
        shapefileZip(
          pointFarms,
          pointFarms.map((f) => f.geometry),
          WGS84_PRJ,
        ),
      ],
    ] as Array<[string, Buffer]>) {
      expect(verdicts(await upload(name, content)), name).toEqual(expected);
    }
    const o = await upload('named.geojson', Buffer.from(featureCollection(pointFarms)), { name_field: 'ref' });
    const list = await t.caller.get(`/api/custom-analysis/${o.detail.id}/within/`);
    expect(list.body.data.results.map((f: { name: string }) => f.name)).toEqual(['Q1', 'Q2']);
    expect(list.body.data.results[0].geometry).toEqual({ type: 'Point', coordinates: [10.011, 10.011] });
  }, 120_000);

  it('serves a GeoJSON template beside the csv one, and both upload without a row error', async () => {
    const csv = await env.as('anonymous').get('/api/custom-analysis/template.csv');
    const gj = await env.as('anonymous').get('/api/custom-analysis/template.geojson');
    expect(gj.status).toBe(200);
    expect(gj.headers['content-type']).toMatch(/application\/geo\+json/);
    expect(gj.headers['content-disposition']).toMatch(/farm-analysis-template\.geojson/);
    const a = await upload('template.csv', csv.bytes);
    const b = await upload('template.geojson', gj.bytes);
    expect(a.detail.total_uploaded_data_count).toBe(4);
    expect(b.detail.total_uploaded_data_count).toBe(3);
    expect([a.detail.errors.count, b.detail.errors.count]).toEqual([0, 0]);
    // Farm 1 and the point are the same in both; the GeoJSON's farm 2 adds a second parcel.
    expect(b.rows.get(1)!.area).toBeCloseTo(a.rows.get(1)!.area!, 6);
    expect(b.rows.get(3)!.area).toBe(0);
    expect(b.rows.get(2)!.area!).toBeGreaterThan(a.rows.get(2)!.area!);
  }, 60_000);

  it('reports bad features as row errors, not a refused file', async () => {
    const fc = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { name: 'Good' }, geometry: poly(square(10.01, 10.01)) },
        { type: 'Feature', properties: { name: 'No geometry' }, geometry: null },
        {
          type: 'Feature',
          properties: { name: 'Line' },
          geometry: {
            type: 'LineString',
            coordinates: [
              [10, 10],
              [10.1, 10.1],
            ],
          },
        },
        { type: 'Feature', properties: {}, geometry: poly(square(10.02, 10.01)) },
        'not a feature',
        { type: 'Feature', properties: { name: 'Text coords' }, geometry: { type: 'Polygon', coordinates: 'nope' } },
      ],
    };
    const o = await upload('mixed.geojson', Buffer.from(JSON.stringify(fc)));
    // A feature without any name is "Plot <row>" (issue 28 §3), never name_missing.
    expect([1, 2, 3, 4, 5, 6].map((n) => o.rows.get(n)!.errors)).toEqual([
      [],
      ['coordinates_missing'],
      ['unsupported_geometry'],
      [],
      ['coordinates_unreadable'],
      ['coordinates_unreadable'],
    ]);
    const kml = `<kml><Document><Placemark><name>Line</name><LineString><coordinates>10,10 10.1,10.1</coordinates></LineString></Placemark><Placemark><name>Bad numbers</name><Polygon><outerBoundaryIs><LinearRing><coordinates>a,b c,d e,f</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></Document></kml>`;
    const k = await upload('bad.kml', Buffer.from(kml));
    expect([1, 2].map((n) => k.rows.get(n)!.errors)).toEqual([['unsupported_geometry'], ['coordinates_unreadable']]);
  }, 60_000);

  it('refuses hostile GIS files with a 4xx in bounded time', async () => {
    const post = (filename: string, content: Buffer) =>
      t.caller.request({ method: 'POST', url: '/api/custom-analysis/', ...multipart({ operational_areas: t.areaIds }, filename, content) });
    const zeros = new Uint8Array(60 * 1024 * 1024);
    const cases: Array<[string, Buffer, number, string]> = [
      ['bomb.kmz', Buffer.from(zipSync({ 'doc.kml': zeros }, { level: 9 })), 413, 'file_too_complex'],
      ['bomb.zip', Buffer.from(zipSync({ 'a.shp': zeros, 'a.dbf': new Uint8Array(10) }, { level: 9 })), 413, 'file_too_complex'],
      ['escape.kmz', Buffer.from(zipSync({ '../../etc/doc.kml': strToU8(kmlOf(pointFarms)) })), 400, 'file_unsafe'],
      ['escape.zip', Buffer.from(zipSync({ 'a.shp': shpOf([pointFarms[0]!.geometry]), '/tmp/a.dbf': new Uint8Array(40) })), 400, 'file_unsafe'],
      [
        'entities.kml',
        Buffer.from(
          '<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]><kml><Placemark><name>&b;</name></Placemark></kml>',
        ),
        400,
        'file_unreadable',
      ],
      [
        'many.geojson',
        Buffer.from(`{"type":"FeatureCollection","features":[${'{"type":"Feature"},'.repeat(100_000)}{"type":"Feature"}]}`),
        413,
        'too_many_rows',
      ],
      ['many.kml', Buffer.from(`<kml><Document>${'<Placemark/>'.repeat(100_001)}</Document></kml>`), 413, 'too_many_rows'],
      [
        'million.geojson',
        Buffer.from(`{"type":"FeatureCollection","features":[${'{"type":"Feature"},'.repeat(1_000_000)}{"type":"Feature"}]}`),
        413,
        'payload_too_large',
      ],
      ['not-json.geojson', Buffer.from('{"type": "FeatureCollection", "features": [}'), 400, 'file_unreadable'],
      ['csv.geojson', Buffer.from('farm_name,farm_coordinates\nA,"[[1,2]]"\n'), 400, 'file_type_mismatch'],
      ['farms.kml', Buffer.from(featureCollection(pointFarms)), 400, 'file_type_mismatch'],
      ['html.kml', Buffer.from('<html><body>hi</body></html>'), 400, 'file_unreadable'],
      ['deep.kml', Buffer.from(`<kml>${'<Folder>'.repeat(150_000)}${'</Folder>'.repeat(150_000)}</kml>`), 400, 'file_unreadable'],
      ['unclosed.kml', Buffer.from('<kml><Document><Placemark><name>x</name></Document></kml>'), 400, 'file_unreadable'],
      ['empty.zip', Buffer.from(zipSync({ 'readme.txt': strToU8('nothing') })), 400, 'file_unreadable'],
      [
        'two.zip',
        Buffer.from(zipSync({ 'a.shp': shpOf([pointFarms[0]!.geometry]), 'b.shp': shpOf([pointFarms[0]!.geometry]), 'a.dbf': dbfOf([{ a: 'x' }]) })),
        400,
        'file_unreadable',
      ],
      ['nodbf.zip', Buffer.from(zipSync({ 'a.shp': shpOf([pointFarms[0]!.geometry]) })), 400, 'file_unreadable'],
      [
        'crs.zip',
        shapefileZip(
          pointFarms,
          pointFarms.map((f) => f.geometry),
          'PROJCS["Nowhere",GEOGCS["X",DATUM["Y",SPHEROID["Z",1,0]]],PROJECTION["No_Such_Projection"],UNIT["Meter",1.0]]',
        ),
        400,
        'crs_unsupported',
      ],
      [
        'cut.zip',
        (() => {
          const z = shapefileZip(
            pointFarms,
            pointFarms.map((f) => f.geometry),
            null,
          );
          return z.subarray(0, z.length - 30);
        })(),
        400,
        'file_unreadable',
      ],
      [
        'proto.geojson',
        Buffer.from('{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"__proto__":{"x":1}},"geometry":null}]}'),
        400,
        'forbidden_column',
      ],
    ];
    // A GeoJSON file is read in a stream up to ANALYSIS_MAX_ROWS (1,000,000 by default): a cap of 100,000 here.
    const before = env.config.analysisMaxRows;
    env.config.analysisMaxRows = 100_000;
    try {
      for (const [name, content, status, code] of cases) {
        const { value: res, cpuMs } = await withCpuMs(() => post(name, content));
        expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(status);
        expect(res.body.code, name).toBe(code);
        if (code !== 'payload_too_large') expect(Object.keys(res.body.errors ?? {})[0], name).toBe('file');
        expect(cpuMs, name).toBeLessThan(15_000);
      }
    } finally {
      env.config.analysisMaxRows = before;
    }
  }, 180_000);
});
