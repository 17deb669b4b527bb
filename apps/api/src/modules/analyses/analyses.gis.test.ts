// Issue 13, geometry forms: MultiPolygon, Feature, WKT (POLYGON, MULTIPOLYGON, POINT, EWKT, Z), points, holes and a
// plot across the antimeridian, as JSON locations and as csv cells. Every valid row is compared with an independent
// PostGIS computation on the same geometry parsed by PostGIS itself (ST_GeomFromText / ST_GeomFromGeoJSON); every
// malformed form is a row error with a stable code naming farm_coordinates.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEnv, type TestEnv } from '../../test/harness.js';
import { arrangeTenant, multipart, outcome, rect, square, type Ring } from '../../test/analysis-fixtures.js';

const wktRing = (r: Ring) => `(${r.map((p) => `${p[0]} ${p[1]}`).join(', ')})`;
const mp = (...polys: Ring[][]) => ({ type: 'MultiPolygon', coordinates: polys });

/** Geometry rows: the value sent, and the same geometry for PostGIS to parse independently. */
type Case = { name: string; value: unknown; ref: { wkt: string } | { geojson: unknown } };

const cases: Case[] = [
  { name: 'Ring', value: square(10.01, 10.01), ref: { geojson: { type: 'Polygon', coordinates: [square(10.01, 10.01)] } } },
  { name: 'Multi within', value: mp([square(10.02, 10.02)], [square(10.024, 10.02)]), ref: { geojson: mp([square(10.02, 10.02)], [square(10.024, 10.02)]) } },
  { name: 'Multi across', value: mp([square(10.09, 10.03)], [square(10.105, 10.03)]), ref: { geojson: mp([square(10.09, 10.03)], [square(10.105, 10.03)]) } },
  {
    name: 'Multi parts overlap',
    value: mp([square(10.03, 10.04)], [square(10.0305, 10.04)]),
    ref: { geojson: mp([square(10.03, 10.04)], [square(10.0305, 10.04)]) },
  },
  {
    name: 'Feature multi',
    value: { type: 'Feature', properties: { x: 1 }, geometry: mp([square(10.05, 10.05)], [square(10.06, 10.05)]) },
    ref: { geojson: mp([square(10.05, 10.05)], [square(10.06, 10.05)]) },
  },
  { name: 'Meets part 2', value: square(10.0605, 10.0505), ref: { geojson: { type: 'Polygon', coordinates: [square(10.0605, 10.0505)] } } },
  {
    name: 'WKT hole',
    value: `POLYGON (${wktRing(rect(10.04, 10.06, 10.042, 10.062))}, ${wktRing(rect(10.0405, 10.0605, 10.0415, 10.0615))})`,
    ref: { wkt: `POLYGON(${wktRing(rect(10.04, 10.06, 10.042, 10.062))},${wktRing(rect(10.0405, 10.0605, 10.0415, 10.0615))})` },
  },
  { name: 'In the hole', value: 'POINT (10.041 10.061)', ref: { wkt: 'POINT(10.041 10.061)' } },
  {
    name: 'WKT multi',
    value: `multipolygon(((${square(10.07, 10.07)
      .map((p) => p.join(' '))
      .join(',')})),((${square(10.15, 10.07)
      .map((p) => p.join(' '))
      .join(',')})))`,
    ref: { wkt: `MULTIPOLYGON((${wktRing(square(10.07, 10.07))}),(${wktRing(square(10.15, 10.07))}))` },
  },
  { name: 'EWKT', value: `SRID=4326; POLYGON(${wktRing(square(10.08, 10.08))})`, ref: { wkt: `POLYGON(${wktRing(square(10.08, 10.08))})` } },
  {
    name: 'WKT Z',
    value: `POLYGON Z ((10.085 10.08 5, 10.086 10.08 5, 10.086 10.081 5, 10.085 10.08 5))`,
    ref: { wkt: 'POLYGON((10.085 10.08,10.086 10.08,10.086 10.081,10.085 10.08))' },
  },
  { name: 'Point in', value: { type: 'Point', coordinates: [10.011, 10.011] }, ref: { wkt: 'POINT(10.011 10.011)' } },
  { name: 'Point twin', value: [10.011, 10.011], ref: { wkt: 'POINT(10.011 10.011)' } },
  { name: 'Point out', value: 'POINT(10.5 10.5)', ref: { wkt: 'POINT(10.5 10.5)' } },
  { name: 'Point on edge', value: { type: 'Feature', geometry: { type: 'Point', coordinates: [10.1, 10.05] } }, ref: { wkt: 'POINT(10.1 10.05)' } },
  {
    name: 'Bow-tie part',
    value: mp(
      [square(10.03, 10.09)],
      [
        [
          [10.04, 10.09],
          [10.041, 10.091],
          [10.041, 10.09],
          [10.04, 10.091],
          [10.04, 10.09],
        ],
      ],
    ),
    ref: {
      geojson: mp(
        [square(10.03, 10.09)],
        [
          [
            [10.04, 10.09],
            [10.041, 10.091],
            [10.041, 10.09],
            [10.04, 10.091],
            [10.04, 10.09],
          ],
        ],
      ),
    },
  },
  {
    name: 'Fiji',
    value: [
      [179.999, -16.5],
      [-179.999, -16.5],
      [-179.999, -16.499],
      [179.999, -16.499],
    ],
    ref: { wkt: 'POLYGON((179.999 -16.5,180.001 -16.5,180.001 -16.499,179.999 -16.499,179.999 -16.5))' },
  },
  {
    name: 'Arctic',
    value: 'POLYGON((10.01 78.2, 10.02 78.2, 10.02 78.21, 10.01 78.21, 10.01 78.2))',
    ref: { wkt: 'POLYGON((10.01 78.2,10.02 78.2,10.02 78.21,10.01 78.21,10.01 78.2))' },
  },
];

/** Malformed forms: each a row error with this code on farm_coordinates. */
const bad: Array<[string, unknown, string]> = [
  ['WKT cut short', 'POLYGON((10 10, 10.1 10', 'coordinates_unreadable'],
  ['WKT empty', 'POLYGON EMPTY', 'coordinates_unreadable'],
  ['WKT one number', 'POINT(10)', 'coordinates_unreadable'],
  ['WKT junk after', 'POINT(10 10) x', 'coordinates_unreadable'],
  ['WKT word', 'CIRCLE(10 10, 1)', 'coordinates_unreadable'],
  ['WKT projected', 'SRID=3857;POINT(1113194 1118890)', 'coordinates_unreadable'],
  ['WKT line', 'LINESTRING(10 10, 10.1 10.1)', 'unsupported_geometry'],
  [
    'GeoJSON line',
    {
      type: 'LineString',
      coordinates: [
        [10, 10],
        [10.1, 10.1],
      ],
    },
    'unsupported_geometry',
  ],
  ['FeatureCollection cell', JSON.stringify({ type: 'FeatureCollection', features: [] }), 'unsupported_geometry'],
  ['Feature without geometry', { type: 'Feature', geometry: null }, 'coordinates_unreadable'],
  ['Multi without parts', { type: 'MultiPolygon', coordinates: [] }, 'coordinates_unreadable'],
  [
    'Multi part of two',
    mp(
      [square(10.01, 10.02)],
      [
        [
          [10.03, 10.02],
          [10.031, 10.02],
        ],
      ],
    ),
    'too_few_positions',
  ],
  ['Point out of range', { type: 'Point', coordinates: [10.01, 95] }, 'position_out_of_range'],
  ['Point of text', ['east', 'north'], 'coordinates_unreadable'],
  [
    'Over a pole',
    [
      [-170, 89],
      [10, 89],
      [10, 89.5],
    ],
    'edge_too_long',
  ],
];

describe('custom analysis: GIS geometry forms (issue 13)', () => {
  let env: TestEnv;
  let t: Awaited<ReturnType<typeof arrangeTenant>>;

  beforeAll(async () => {
    env = await testEnv();
    t = await arrangeTenant(env, [
      { name: 'West block', ring: rect(10.0, 10.0, 10.1, 10.1) },
      { name: 'East block', ring: rect(10.1, 10.0, 10.2, 10.1) },
    ]);
  });

  /** The independent verdict of each case: validity, geodesic area, covering area, overlap with another valid case. */
  async function reference() {
    const input = JSON.stringify(
      cases.map((c, i) => ({ n: i + 1, wkt: 'wkt' in c.ref ? c.ref.wkt : null, gj: 'geojson' in c.ref ? JSON.stringify(c.ref.geojson) : null })),
    );
    return env.sql<{ n: number; valid: boolean; area: number; within: string | null; overlapping: boolean }>(sql`
      WITH x AS (SELECT s.n, coalesce(ST_GeomFromText(s.wkt, 4326), ST_SetSRID(ST_GeomFromGeoJSON(s.gj), 4326)) AS g
                   FROM jsonb_to_recordset(${input}::jsonb) AS s(n int, wkt text, gj text)),
           v AS (SELECT x.n, x.g, ST_IsValid(x.g) AS valid FROM x)
      SELECT v.n, v.valid, ST_Area(v.g::geography) AS area,
             (SELECT a.name FROM operational_areas a WHERE a.tenant_id = ${t.tenantId} AND v.valid AND ST_Covers(a.geom, v.g) ORDER BY a.name LIMIT 1) AS within,
             v.valid AND EXISTS (SELECT 1 FROM v w WHERE w.n <> v.n AND w.valid AND ST_Relate(v.g, w.g, '2********')) AS overlapping
        FROM v ORDER BY v.n`);
  }

  it('reads every form and agrees with PostGIS on every row', async () => {
    const locations = [
      ...cases.map((c) => ({ farm_name: c.name, farm_coordinates: c.value })),
      ...bad.map(([name, value]) => ({ farm_name: name, farm_coordinates: value })),
    ];
    const res = await t.caller.post('/api/custom-analysis/', {
      name: 'GIS forms',
      operational_areas: t.areaIds,
      locations,
      minimum_farm_size: 1,
      require_farm_recognition: false,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { rows, detail } = await outcome(t.caller, res.body.data.id);
    const ref = await reference();
    for (const r of ref) {
      const got = rows.get(r.n)!;
      const name = cases[r.n - 1]!.name;
      // Fiji: PostGIS reads the shifted ring as planar coordinates past 180, which it only measures on the spheroid.
      if (name === 'Fiji') continue;
      expect(got.category === 'error', `${name}: ${JSON.stringify(got)}`).toBe(!r.valid);
      if (!r.valid) {
        expect(got.errors, name).toEqual(['invalid_polygon']);
        continue;
      }
      expect(got.area! / Math.max(r.area, 1e-9), name).toBeCloseTo(r.area === 0 ? 0 : 1, 9);
      expect(got.operational_area, name).toBe(r.within);
      expect(got.category, name).toBe(r.within ? 'within' : 'outside');
      expect(got.is_overlapping, name).toBe(r.overlapping);
    }
    const byName = (n: string) => rows.get(cases.findIndex((c) => c.name === n) + 1)!;
    // Spot checks of the semantics the reference encodes.
    expect(byName('Multi within').category).toBe('within');
    expect(byName('Multi across').category).toBe('outside');
    // Each part lies in a different area: covered by their union, by neither alone (docs/design-rules.md: outside).
    expect(byName('Multi across').covered_fraction).toBeCloseTo(1, 6);
    expect(byName('Multi parts overlap').errors).toEqual(['invalid_polygon']);
    expect(byName('Bow-tie part').errors).toEqual(['invalid_polygon']);
    expect([byName('Feature multi').is_overlapping, byName('Meets part 2').is_overlapping]).toEqual([true, true]);
    expect(byName('Feature multi').overlapping_id).toBe(byName('Meets part 2').overlapping_id);
    expect(byName('Point in')).toMatchObject({ category: 'within', area: 0, is_overlapping: false });
    expect(byName('Point twin')).toMatchObject({ category: 'within', is_overlapping: false });
    expect(byName('In the hole')).toMatchObject({ category: 'within', is_overlapping: false });
    expect(byName('Point out')).toMatchObject({ category: 'outside', covered_fraction: 0 });
    expect(byName('Point on edge').category).toBe('within');
    // The antimeridian plot: the small polygon it is, split at 180, with the spheroid area of the ring read the short way.
    const [fiji] = await env.sql<{ a: number }>(
      sql`SELECT ST_Area(ST_GeomFromText('POLYGON((179.999 -16.5,-179.999 -16.5,-179.999 -16.499,179.999 -16.499,179.999 -16.5))', 4326)::geography) AS a`,
    );
    expect(byName('Fiji').category).toBe('outside');
    expect(byName('Fiji').area! / fiji!.a).toBeCloseTo(1, 6);
    expect(fiji!.a).toBeLessThan(50_000);
    bad.forEach(([name, , code], i) => {
      const row = rows.get(cases.length + i + 1)!;
      expect(row.category, name).toBe('error');
      expect(row.errors, name).toEqual([code]);
      const details = detail.error_details[String(cases.length + i + 1)];
      expect(details.errors[0].field, name).toBe('farm_coordinates');
      expect(details.errors[0].message, name).toMatch(/^farm_coordinates: /);
    });
    expect(detail.within_operational_area.count + detail.outside_operational_area.count + detail.errors.count).toBe(locations.length);

    // The lists return the full geometry; `coordinates` stays a ring for Polygons (the console reads it).
    const within = await t.caller.get(`/api/custom-analysis/${res.body.data.id}/within/?page_size=100`);
    const find = (n: string) => within.body.data.results.find((f: { name: string }) => f.name === n);
    expect(find('Multi within').geometry.type).toBe('MultiPolygon');
    expect(find('Multi within').geometry.coordinates).toHaveLength(2);
    expect(find('Multi within').coordinates).toHaveLength(5);
    expect(find('Ring').geometry.type).toBe('Polygon');
    expect(find('Ring').coordinates).toEqual(square(10.01, 10.01));
    expect(find('Point in').geometry).toEqual({ type: 'Point', coordinates: [10.011, 10.011] });
    expect(find('Point in').coordinates).toEqual([[10.011, 10.011]]);
    const outside = await t.caller.get(`/api/custom-analysis/${res.body.data.id}/outside/?page_size=100`);
    const fijiGeom = outside.body.data.results.find((f: { name: string }) => f.name === 'Fiji').geometry;
    expect(fijiGeom.type).toBe('MultiPolygon');
    expect(fijiGeom.coordinates.flat(3).every((x: number) => Math.abs(x) <= 180)).toBe(true);

    // The result map: Polygon rings for every row, the type (not for a Polygon), and a MultiPolygon's parts.
    const map = await t.caller.get(`/api/custom-analysis/${res.body.data.id}/map/`);
    expect(map.status, JSON.stringify(map.body)).toBe(200);
    const r6 = (x: unknown): unknown => (Array.isArray(x) ? x.map(r6) : typeof x === 'number' ? Number(x.toFixed(6)) : x);
    const onMap = (n: string) => map.body.data.features.find((f: { name: string }) => f.name === n);
    expect(onMap('Ring')).toMatchObject({ coordinates: r6([square(10.01, 10.01)]) });
    expect(onMap('Ring').type).toBeUndefined(); // absent means Polygon (the lean map body)
    expect(onMap('Ring').parts).toBeUndefined();
    expect(onMap('Multi within')).toMatchObject({
      type: 'MultiPolygon',
      coordinates: r6([square(10.02, 10.02)]),
      parts: r6([[square(10.02, 10.02)], [square(10.024, 10.02)]]),
    });
    expect(onMap('Point in')).toMatchObject({ type: 'Point', coordinates: [[[10.011, 10.011]]] });
  }, 120_000);

  it('reads WKT, MultiPolygon and point cells of a csv', async () => {
    const csv = [
      'farm_name;farm_coordinates;ref',
      `Wkt;"POLYGON ((10.01 10.01, 10.011 10.01, 10.011 10.011, 10.01 10.011, 10.01 10.01))";a`,
      `Multi;"${JSON.stringify(mp([square(10.02, 10.02)], [square(10.03, 10.02)])).replace(/"/g, '""')}";b`,
      `Point;POINT(10.15 10.05);c`,
      `Line;LINESTRING(10 10, 11 11);d`,
      '',
    ].join('\r\n');
    const res = await t.caller.request({
      method: 'POST',
      url: '/api/custom-analysis/',
      ...multipart({ operational_areas: t.areaIds, minimum_farm_size: '1' }, 'farms.csv', Buffer.from(csv)),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { rows } = await outcome(t.caller, res.body.data.id);
    expect(rows.get(1)).toMatchObject({ category: 'within', operational_area: 'West block' });
    expect(rows.get(2)).toMatchObject({ category: 'within', operational_area: 'West block' });
    expect(rows.get(2)!.area! / rows.get(1)!.area!).toBeCloseTo(2, 2);
    expect(rows.get(3)).toMatchObject({ category: 'within', operational_area: 'East block', area: 0 });
    expect(rows.get(4)!.errors).toEqual(['unsupported_geometry']);
  }, 60_000);
});
